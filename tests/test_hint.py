"""`hint`: the search bot's choice for the person's decision, with one line on why
(bots/explain.py), never played."""

from __future__ import annotations

import io
import random
from types import SimpleNamespace

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from scenario import RULES, fen, game

from crownp2p.bots.explain import _brings, named, why
from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.shell.commands import hint
from crownp2p.shell.net_table import net_table
from crownp2p.shell.solo import LocalDriver, solo_table
from crownp2p.shell.table import Table
from crownp2p.shell.terminal import run_lines, run_terminal

ENTER = "\r"


def table_at(units: str) -> Table:
    """A solo table at blue's order phase in a constructed position."""
    g = game(fen(units), phase="order", counters={"orders": 1})
    record = Record.begin(g, bots=["you", "greedy bot"], seed=1, seat=0)
    return Table(LocalDriver(g, record, seat=0, bot="greedy", seed=1))


def test_a_hint_names_the_capture_it_wins():
    table = table_at("Ke1 Nc3 pd5 ke8")
    assert table.handle("hint").lines == ["hint: Knight c3xd5 — wins a Pawn"]
    assert not table.record.steps  # not played


def test_a_hint_names_the_threat_it_meets():
    table = table_at("Ke1 re8 kh8")
    line = table.handle("hint").lines[0]
    assert line.startswith("hint: King e1-") and line.endswith(" — your King is attacked on e1")


def test_why_names_a_threat_made_and_a_buy():
    g = game(fen("Ke1 Ra1 ph5 ke8"), phase="order", counters={"orders": 1})
    assert why(g, 0, ("march", "a1", "a5")) == "attacks the Pawn on h5"
    assert named(g, ("march", "a1", "a5")) == "Rook a1-a5"
    g = game(fen("Ke1 ke8"), phase="buy", counters={"gold": 9, "buys": 1})
    assert why(g, 0, ("buy", "Tower")) == "the card it wants most: 3 gold, or trains a Rook"
    assert why(g, 0, ("buy", "Consort")) == "the card it wants most: trains a Queen"


def test_hints_are_legal_and_never_played_along_a_seeded_game():
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=8)
    rng = random.Random(8)
    hinted = 0
    while not table.over and table.game.turn < 8:
        legal = table.legal()
        steps = len(table.record.steps)
        if len(legal) > 1:
            assert hint(table) in legal
            assert len(table.record.steps) == steps
            hinted += 1
        table.driver.submit(rng.choice(legal))
    assert hinted > 5


def test_hint_through_the_pipe_and_the_prompt():
    out = io.StringIO()
    table = solo_table(RULES, Setup(), seat=1, bot="greedy", seed=2, unicode=False)
    assert run_lines(table, io.StringIO("hint\nhint now\nquit\n"), out) == 0
    said = out.getvalue()
    assert "hint: " in said and " - " in said.split("hint: ")[1].splitlines()[0]
    assert "Usage: hint (it takes no words)." in said

    # At the prompt, the search runs beside it: a line typed meanwhile is answered at once,
    # and the hint is told when it comes.
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=2)
    table.driver.think = 1.0  # a search long enough that the next line comes before it ends
    said = []
    handle = table.handle
    table.handle = lambda line: said.append(handle(line)) or said[-1]
    with create_pipe_input() as pipe:

        def heard(reply) -> None:
            said.append(reply)
            if reply.lines and reply.lines[0].startswith("hint: "):
                pipe.send_text("quit" + ENTER)

        table.listen(heard)
        pipe.send_text("hint" + ENTER + "hint" + ENTER + "log 1" + ENTER)
        assert run_terminal(table, input=pipe, output=DummyOutput(), think_aside=True) == 0
    lines = [reply.lines[0] for reply in said if reply.lines]
    assert lines[:2] == ["Thinking of a hint…", "A hint is on its way."]
    hinted = next(n for n, line in enumerate(lines) if line.startswith("hint: "))
    assert hinted > 2  # `log 1` was answered before the hint came
    assert all(step.seat != 0 for step in table.record.steps)  # the hint was not played


def test_a_hint_at_a_networked_table_for_our_own_seat():
    g = game(fen("Ke1 Nc3 pd5 ke8"), phase="order", counters={"orders": 1})
    session = SimpleNamespace(
        game=g,
        record=Record.begin(g, state=g.to_json()),
        seat=0,
        names=["blue", "gold"],
        started=True,
        asked=True,  # our decision
        outcome=None,
        clock_left=lambda: None,
    )
    table = net_table(session, token=object(), unicode=False)  # no trio run: nothing is sent
    assert table.handle("hint").lines == ["hint: Knight c3xd5 - wins a Pawn"]
    assert not session.record.steps and not table.driver.pending  # nothing offered
    session.asked = False
    assert table.handle("hint").lines == [
        "There is nothing for you to decide now: ask for a hint on your turn."
    ]


def test_a_buys_reason_says_what_the_card_brings():
    g = game(fen("Ke1 ke8"), phase="buy", counters={"gold": 9, "buys": 1})
    assert _brings(g, "Evangelism") == ": trains 2 Acolytes"
    assert _brings(g, "Sacrifice") == ": trains an Immortal"
    assert _brings(g, "Peon") == ": 1 gold, or trains a Pawn"
    assert _brings(g, "Stables") == ""  # neither: the reason is the card alone


def test_in_the_hunt_a_hint_says_how_far_the_enemy_king_is_hemmed_in():
    # The Rook on the fourth rank leaves the King on d5 the ranks above it but the Rook's
    # h-file and the Bishop's g5: 4 x 7 - 1 squares, the board search's own measure.
    sold_out = [[["Champion", 0], ["Clergy", 0], ["Tower", 0], ["Consort", 0]]]
    g = game(fen("Ke1 Rh1 Bc1 Pa2 Pb2 kd5"), supplies=sold_out)
    assert why(g, 0, ("march", "h1", "h4")) == "hems in the King on d5: 27 squares left"
