"""The screen: labels, owners by case, both sides of the table, ASCII and NO_COLOR."""

from __future__ import annotations

import io
import re

from scenario import game

from crownp2p.shell import render

OPENING = "4k3/8/8/8/8/8/4P3/4K3 0 N p"


def screen_text(g, seat=0, **kw) -> str:
    return render.plain(render.screen(g, seat, **kw))


def test_the_screen_has_labels_owners_legend_hands_supply_and_the_prompt():
    g = game(OPENING, hand=["Peon", "Peon", "Guard"], opp_hand=["Peon"])
    text = screen_text(g, who={0: "you", 1: "greedy bot"})
    lines = text.splitlines()
    assert lines[0].strip() == "a b c d e f g h"
    assert lines[1].startswith(" 8 · · · · k · · · 8")  # gold's King, lower case
    assert lines[7].startswith(" 2 · · · · P · · · 2")  # blue's Pawn, upper case
    assert lines[8].startswith(" 1 · · · · K · · · 1")
    assert "K King  N Knight  P Pawn" in text and "UPPER = blue, lower = gold" in text
    assert "Hand: Guard, Peon ×2" in text  # only our own hand is shown
    assert "gold · lower case · greedy bot" in text
    assert "hand 1 · deck 0 · discard 0" in text
    assert "Barracks: Knight" in text and "Barracks: Pawn" in text
    assert "Supply, cost (left): Champion 2g (4) · Clergy 3g (8)" in text
    assert lines[-1] == "Order 1 of 1: march, deploy, play an Order card, or end orders"


def test_the_opponents_hand_is_never_shown():
    g = game(OPENING, hand=["Peon"], opp_hand=["Tower"])
    assert "Tower" not in screen_text(g).split("Supply")[0]
    assert "Hand: Tower" in screen_text(g, reveal=True)  # a replay shows every hand


def test_gold_sees_the_board_from_its_own_side():
    g = game(OPENING)
    lines = screen_text(g, seat=1).splitlines()
    assert lines[0].strip() == "h g f e d c b a"
    assert lines[1].startswith(" 1 · · · K · · · · 1")
    assert lines[8].startswith(" 8 · · · k · · · · 8")


def test_narrow_terminals_get_the_players_below_the_board():
    g = game(OPENING)
    text = screen_text(g, width=50)
    assert all(len(line) <= 50 for line in text.splitlines())
    assert text.splitlines()[11] == "gold · lower case"


def test_ascii_fallback_has_no_other_character():
    g = game(OPENING, hand=["Peon", "Peon"])
    text = screen_text(g, unicode=False)
    text.encode("ascii")  # raises if anything is not ASCII
    assert " 8 . . . . k . . . 8" in text and "Peon x2" in text
    news = render.plain(render.news(["blue: Pawn e2-e4"] * 2, 0, g, unicode=False))
    assert news == "blue: Pawn e2-e4 x2"


def test_the_encoding_decides_unicode():
    assert not render.can_unicode(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert render.can_unicode(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert not render.can_unicode(io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))


def test_news_folds_repeats_and_marks_turns():
    g = game(OPENING)
    lines = ["turn 2: gold", "gold: plays Peon: Add 1 gold.", "gold: plays Peon: Add 1 gold."]
    news = render.news(lines, 0, g)
    assert render.plain(news) == "—— turn 2: gold ——\ngold: plays Peon: Add 1 gold. ×2"
    assert news[0][0] == "class:news.turn" and news[2][0] == "class:news.other"
    assert render.plain(render.news(["gold: Knight g8-f6 captures Pawn"], 0, g)) == (
        "gold: Knight g8–f6 captures Pawn"
    )


def _printed(monkeypatch, no_color: bool) -> str:
    """The screen as the terminal loop prints it, escapes and all."""
    from prompt_toolkit.output.vt100 import Vt100_Output

    from crownp2p.shell.terminal import Screen

    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("PROMPT_TOOLKIT_COLOR_DEPTH", raising=False)
    out = io.StringIO()
    output = Vt100_Output(out, lambda: None, term="xterm-256color")  # type: ignore[arg-type]
    Screen(output).print(render.screen(game(OPENING), 0))
    return out.getvalue()


def colours(text: str) -> set[int]:
    """The colour parameters of every SGR escape in ``text``."""
    found = set()
    for params in re.findall(r"\x1b\[([0-9;]*)m", text):
        for p in params.split(";"):
            if p and (30 <= int(p) <= 49 or 90 <= int(p) <= 107):
                found.add(int(p))
    return found


def test_no_color_is_honoured(monkeypatch):
    coloured = _printed(monkeypatch, no_color=False)
    plain = _printed(monkeypatch, no_color=True)
    assert {33, 90} <= colours(coloured)  # gold in yellow, empty squares dim
    assert colours(plain) == set()
    assert "k" in plain and "K" in plain  # the owners still read, by case
    assert "\x1b[0;1mk" in plain  # bold survives: NO_COLOR is about colour only


def test_use_colour_follows_no_color_and_the_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert render.use_colour(Tty())
    assert not render.use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not render.use_colour(Tty())


def test_the_winner_is_told_to_each_player_and_to_onlookers():
    g = game("4k3/8/8/8/8/8/8/8", over=True, winner=1)
    assert render.outcome_line(g, 1) == "The game is over: you win (blue has no Sovereign left)."
    assert render.outcome_line(g, 0) == "The game is over: gold wins (you have no Sovereign left)."
    assert render.outcome_line(g, None) == (
        "The game is over: gold wins (blue has no Sovereign left)."
    )
    assert screen_text(g, 0).splitlines()[-1] == render.outcome_line(g, 0)
    drawn = game("8/8/8/8/8/8/8/8", over=True, winner=None)
    assert render.outcome_line(drawn, 0) == "The game is over: a draw."


# ------------------------------------------------------------------ reading the board at a glance


def test_attacked_units_and_captures_are_marked_without_colour():
    g = game("4k3/8/8/3p4/4P3/8/8/4K3 0 N p")  # blue's Pawn e4 and gold's d5 attack each other
    lines = screen_text(g).splitlines()
    assert lines[4].startswith(" 5 · · ·xp · · · · 5")  # gold's Pawn: we can capture it
    assert lines[5].startswith(" 4 · · · ·!P · · · 4")  # our Pawn: under attack
    assert "! attacked  x you can capture  * last moves" in screen_text(g, width=120)
    gold = screen_text(g, seat=1).splitlines()  # the same board from gold's side
    assert gold[4].startswith(" 4 · · ·xP · · · · 4") and gold[5].startswith(" 5 · · · ·!p")


def test_the_marks_follow_the_engines_attacks_not_its_marches():
    g = game("4k3/8/8/8/4p3/4P3/8/4K3 0 N p")  # Pawns face to face: neither attacks
    text = screen_text(g)
    assert "!" not in text.split("K King")[0] and "x" not in text.split("K King")[0]
    expected = {
        sq
        for other in (1,)
        for move in g.position.all_moves(other)
        if move.kind == "attack"
        for sq in move.captures
    }
    assert render.threats(g, 0) == (frozenset(expected), frozenset())


def test_an_attacked_sovereign_is_said_in_words():
    g = game("4k3/8/8/8/8/8/3p4/4K3 0 N p")
    assert screen_text(g).splitlines()[-1].startswith("Your King on e1 is under attack. Order 1")
    status = screen_text(g, seat=1, width=200).splitlines()[-1]
    assert status.startswith("You can capture blue's King on e1. Waiting for blue")
    assert "under attack" not in screen_text(game(OPENING))


def test_the_last_moves_are_marked_without_colour():
    g = game(OPENING)
    lines = screen_text(g, marks=[12, 28, 60, 59]).splitlines()  # e2-e4 and e8-d8
    assert lines[1].startswith(" 8 · · ·*·*k · · · 8")
    assert lines[5].startswith(" 4 · · · ·*· · · · 4") and lines[7].startswith(" 2 · · · ·*P")


def test_the_team_board_tells_our_units_from_our_allys_and_the_enemies():
    from test_all_kings_men import TEAM, state

    g = state(TEAM, "K0e1 K1e8 P0a2 P2h2 P1a7 P3h7")
    lines = screen_text(g, width=80).splitlines()
    assert lines[0] == "   a  b  c  d  e  f  g  h"
    assert lines[2].startswith(" 7 p  ·  ·  ·  ·  ·  ·  p  7")  # both enemies: lower case
    assert lines[7].startswith(" 2 P  ·  ·  ·  ·  ·  ·  P' 2")  # ours, and our ally's (')
    assert lines[8].startswith(" 1 ·  ·  ·  ·  K  ·  ·  ·  1")  # the shared King is ours
    assert "' your ally's" in screen_text(g, width=120)
    assert all(len(line) <= 80 for line in lines)
    # Four seats beside the board, a line each shorter: the screen leaves room at 80 x 24
    # for the log, the prompt and the toolbar.
    assert lines[2].endswith("hand 0 · deck 0 · discard 0 · Barracks: -")
    assert len(lines) <= 19


def test_a_long_log_line_folds_between_words_keeping_its_styles():
    line = [("class:prompt", "blue> "), ("class:echo", "help Hero"), ("", " explains the moves")]
    rows = render.folded(line, 16)
    assert [render.plain(row) for row in rows] == ["blue> help Hero", "explains the", "moves"]
    assert rows[0] == [
        ("class:prompt", "blue>"),
        ("class:prompt", " "),
        ("class:echo", "help"),
        ("class:echo", " "),
        ("class:echo", "Hero"),
    ]
    assert all(len(render.plain(row)) <= 16 for row in rows)
    # a word longer than the pane is cut where the row ends, and nothing is lost
    assert [render.plain(r) for r in render.folded([("", "abcdefghij klm")], 4)] == [
        "abcd",
        "efgh",
        "ij",
        "klm",
    ]
