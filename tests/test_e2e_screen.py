"""End to end: the full-screen layout of ``crownp2p solo`` in an 80 x 24 pseudo-terminal, read
as a person sees it (the rows of a terminal emulator), in colour and with NO_COLOR, for the
two-player game and the team game. (test_e2e_terminal.py runs the line mode, ``--plain``.)"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from terminal import Terminal  # noqa: E402 (only once pexpect is known to be there)

SMALL = (24, 80)
LABELS = "   a b c d e f g h"


@pytest.fixture
def terminal():
    opened: list[Terminal] = []

    def start(*args: str, **env: str) -> Terminal:
        opened.append(Terminal(*args, size=SMALL, **env))
        return opened[-1]

    yield start
    for t in opened:
        t.kill()


def colours(raw: str) -> list[str]:
    return [
        p
        for params in re.findall(r"\x1b\[([0-9;]*)m", raw)
        for p in params.split(";")
        if p and (30 <= int(p) <= 49 or 90 <= int(p) <= 107)
    ]


@pytest.mark.parametrize("no_color", [False, True])
def test_the_screen_stays_put_and_the_log_scrolls_below_the_board(terminal, no_color):
    t = terminal(
        "solo", "--bot", "greedy", "--seed", "4", **({"NO_COLOR": "1"} if no_color else {})
    )
    rows = t.showing("blue>")
    assert rows[0] == LABELS and rows[9] == LABELS  # the board at the top
    assert rows[1].startswith(" 8 · · · · k · · · 8      gold · lower case · greedy bot")
    assert any(row.startswith("Supply, cost (left): Champion 2g (4)") for row in rows)
    assert any("You play blue (UPPER case) against gold (greedy bot)." in row for row in rows)
    assert rows[-3] == "Order 1 of 1: march or end orders"
    assert rows[-2] == "blue>"
    t.showing("turn 1: your turn · order phase")
    assert rows[-1].startswith(" turn 1: your turn · order phase")  # the toolbar, at the bottom
    for line in ("end", "end", "treasure all", "buy Champion"):
        t.type(line)
    t.showing("turn 2: your turn · order phase")
    t.type("e1e2")
    rows = t.showing("blue: King e1–e2")
    assert rows[0] == LABELS and rows[-2] == "blue>"  # still where it was, a turn later
    assert rows[7].startswith(" 2 · · · ·*K · · · 2")  # the last move, marked without colour
    assert rows[8].startswith(" 1 · · · ·*· · · · 1")
    assert any(row.startswith("gold: buys") for row in rows)  # the log pane
    assert rows[-3] == "Action 1 of 1: train a unit or end actions"
    t.type("quit")
    assert t.exit_status() == 0
    assert "Goodbye." in t.screen()
    assert (colours(t.raw) == []) is no_color


def test_the_screen_redraws_at_a_new_size(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4")
    t.showing("blue>")
    assert not any("Tab choices" in row for row in t.rows())  # 80 columns: no room for keys
    t.resize(30, 110)
    rows = t.showing("Tab choices")
    assert rows[0] == LABELS and rows[-2] == "blue>" and len(rows) == 30
    assert rows[-3] == "Order 1 of 1: march or end orders"
    t.press("\x04")  # Ctrl-D asks, in the prompt
    t.showing("Leave the game (it is not saved: `save FILE` keeps it)? [y/N]")
    t.type("y")
    assert t.exit_status() == 0
    assert "Leaving the game." in t.screen()


def test_pasted_lines_run_one_by_one(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4")
    t.showing("blue>")
    t.press("\x1b[200~end\rend\r\x1b[201~")  # a bracketed paste of two lines
    t.press("\r")
    rows = t.showing("blue: ends the action phase")
    assert any(row == "blue: ends the order phase" for row in rows)
    assert rows[-3].startswith("Buy 1 of 1, 0 gold")
    t.type("quit")
    assert t.exit_status() == 0


@pytest.mark.parametrize("no_color", [False, True])
def test_the_team_game_fits_80_by_24(terminal, no_color):
    env = {"NO_COLOR": "1"} if no_color else {}
    t = terminal("solo", "--bot", "greedy", "--variant", "team", "--seed", "3", **env)
    rows = t.showing("blue south-west>")
    assert rows[0].startswith("   a  b  c  d  e  f  g  h")  # the team board: a column for allies
    assert rows[1].startswith(" 8 ·  ·  ·  ·  k  ·  ·  ·  8")
    assert rows[8].startswith(" 1 ·  ·  ·  ·  K  ·  ·  ·  1")
    text = "\n".join(rows)
    for seat in ("gold north-east", "blue south-east", "gold north-west", "blue south-west"):
        assert seat in text  # every seat beside the board
    assert "' your ally's" in text  # the legend says how an ally's unit is marked
    assert any(row.startswith("Supply, cost (left): Champion 2g (4)") for row in rows)
    assert rows[-3] == "Order 1 of 1: march or end orders"
    assert rows[-2] == "blue south-west>"
    t.showing("turn 1: your turn")
    t.type("quit")
    assert t.exit_status() == 0
    assert (colours(t.raw) == []) is no_color


def test_plain_keeps_the_line_mode(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4", "--plain")
    first = t.shows("blue>")
    assert " 8 · · · · k · · · 8      gold · lower case · greedy bot" in first
    t.child.send("\x1b[200~end\rend\r\x1b[201~\r")  # a paste runs line by line here too
    t.shows("blue: ends the order phase")
    t.shows("blue: ends the action phase")
    t.type("quit")
    assert t.exit_status() == 0


def test_the_opponents_last_move_stays_on_the_board_at_80_by_24(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4", NO_COLOR="1")
    t.showing("blue>")
    for turn in range(1, 5):  # four turns of ours; gold's fourth moves its Pawn d7-d5
        # each line once the screen asks for it: the bot thinks beside the prompt, so a line
        # typed early would meet another phase
        t.showing(f"turn {turn}: your turn · order phase")
        t.type("end")
        t.showing(f"turn {turn}: your turn · action phase")
        t.type("end")
        t.showing(f"turn {turn}: your turn · buy phase")
        t.type("treasure all")
        spent = [f"buy phase · orders 0 · actions 0 · buys 1 · gold {g}" for g in range(1, 10)]
        rows = t.showing(*spent, "gold's turn", f"turn {turn + 1}: your turn")
        if any(text in row for row in rows for text in spent):
            t.type("end")  # something is affordable: the turn waits for its end
    rows = t.showing("turn 5: your turn")
    assert rows[2].startswith(" 7 · · ·*·") and rows[4].startswith(" 5 · · ·*p")
    assert "* last moves" in "\n".join(rows)
    t.type("quit")
    assert t.exit_status() == 0


def test_page_up_and_down_scroll_the_log_pane(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4")
    t.showing("blue>")
    t.type("help")
    rows = t.showing("Keys: Tab completes")
    assert not any("Type a decision, or a short form of one:" in row for row in rows)
    for _ in range(6):
        t.press("\x1b[5~")  # PageUp
    rows = t.showing("Type a decision, or a short form of one:")
    assert rows[0] == LABELS and rows[-2] == "blue>"  # only the log pane moved
    for _ in range(8):
        t.press("\x1b[6~")  # PageDown
    t.showing("Keys: Tab completes")
    t.type("quit")
    assert t.exit_status() == 0


def test_tab_completes_in_the_full_screen_layout(terminal):
    t = terminal("solo", "--bot", "greedy", "--seed", "4")
    t.showing("blue>")
    t.child.send("e1")
    t.press("\t")
    rows = t.showing("e1d1")  # the menu of the King's moves, over the log pane
    assert rows[0] == LABELS and rows[-1].startswith(" turn 1: your turn")
    t.press("\x15")  # Ctrl-U: clear the line
    t.type("quit")
    assert t.exit_status() == 0
