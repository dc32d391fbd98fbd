"""End to end: the real ``crownp2p solo`` in a pseudo-terminal, typed at as a person types.

The terminal here is pexpect's pty. Like a real terminal it answers prompt_toolkit's cursor
position requests (without an answer prompt_toolkit leaves the bottom toolbar out). What "the
screen shows" is the output with the escape sequences taken out. Every wait is bounded.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pexpect")

from terminal import Terminal  # noqa: E402 (only once pexpect is known to be there)


@pytest.fixture
def terminal():
    opened: list[Terminal] = []

    def start(*args: str, **env: str) -> Terminal:
        opened.append(Terminal(*args, **env))
        return opened[-1]

    yield start
    for t in opened:
        t.kill()


def test_a_few_turns_a_wrong_command_help_and_quit(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4", "--plain")
    first = t.shows("blue>")
    assert "You play blue (UPPER case) against gold (greedy bot)." in first
    assert " 8 · · · · k · · · 8      gold · lower case · greedy bot" in first
    assert " 1 · · · · K · · · 1        Hand: Guard ×2, Peon ×3" in first
    assert "Order 1 of 1: march or end orders" in first
    t.shows("turn 1: your turn · order phase · orders 1 · actions 1 · buys 1 · gold 0")

    t.type("end")
    t.shows("blue: ends the order phase")
    t.type("fly away")
    t.shows("`fly away` is not possible now. Possible now: `train Peon`, `train Guard`, `end`.")
    t.type("help")
    t.shows("Type a decision, or a short form of one:")
    t.shows("Keys: Tab completes")
    t.type("end")
    t.shows("Buy 1 of 1, 0 gold: play treasures (`treasure all`) or end the turn")
    t.type("treasure all")
    t.shows("blue: plays Peon (treasure) ×3")
    t.type("buy Tower")
    t.shows("Tower costs 6 and you have 3 gold.")
    t.type("buy Champion")
    t.shows("blue: buys Champion")
    t.shows("—— turn 1: gold ——")
    t.shows("gold: buys")  # the bot's turn, told as it happened
    t.shows("turn 2: your turn · order phase")
    t.type("e1e2")
    t.shows("blue: King e1–e2")
    t.type("quit")
    t.shows("Goodbye.")
    assert t.exit_status() == 0


def test_ctrl_d_and_ctrl_c_ask_before_leaving(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4", "--seat", "gold", "--plain")
    first = t.shows("gold>")
    assert "—— turn 1: blue ——" in first  # the bot moved first
    assert "   h g f e d c b a" in first  # and the board is turned to gold's side
    t.press("\x04")
    t.shows("Leave the game (it is not saved: `save FILE` keeps it)? [y/N]")
    t.type("n")
    t.shows("gold>")
    t.type("e8d8")
    t.shows("gold: King e8–d8")
    t.press("\x03")
    t.shows("Leave the game")
    t.type("y")
    t.shows("Leaving the game.")
    assert t.exit_status() == 0


def test_tab_completes_from_the_legal_decisions(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4", "--plain")
    t.shows("blue>")
    t.child.send("e1")
    t.press("\t")
    t.shows("e1d1")  # the menu of short forms
    t.press("\x15")  # Ctrl-U: clear the line
    t.type("en")  # not a decision: completion only helps, it never guesses
    t.shows("`en` is not possible now.")
    t.type("quit")
    assert t.exit_status() == 0


def test_no_color_and_an_ascii_terminal(terminal):
    t = terminal(
        "solo", "--bot", "greedy", "--seed", "4", "--plain", NO_COLOR="1", PYTHONIOENCODING="ascii"
    )
    first = t.shows("blue>")
    assert " 8 . . . . k . . . 8" in first and "Guard x2, Peon x3" in first
    t.shows("turn 1: your turn | order phase")
    t.type("quit")
    assert t.exit_status() == 0
    colours = [
        p
        for params in re.findall(r"\x1b\[([0-9;]*)m", t.raw)
        for p in params.split(";")
        if p and (30 <= int(p) <= 49 or 90 <= int(p) <= 107)
    ]
    assert colours == []
    assert all(ord(c) < 128 for c in t.screen())


def test_a_bad_record_is_one_line_and_status_2(terminal, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("nonsense\n")
    t = terminal("replay", str(bad))
    t.shows("crownp2p replay: line 1 is not JSON")
    assert t.exit_status() == 2
    assert t.screen().strip() == "crownp2p replay: line 1 is not JSON"
