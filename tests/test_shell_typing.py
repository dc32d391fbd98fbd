"""Lines typed ahead belong to the turn they were typed in; a phase or turn that ends by
itself says so and why; the coming outcome is said the moment it shows."""

from __future__ import annotations

import io
import json
import os
from types import SimpleNamespace

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from scenario import RULES, game
from wire import WireDriver

from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.shell.cli import main
from crownp2p.shell.render import plain
from crownp2p.shell.solo import LocalDriver, solo_table
from crownp2p.shell.table import Table
from crownp2p.shell.terminal import run_lines, run_terminal
from crownp2p.shell.turns import players_turn, renumbered, turn_limit

# Seed 11: blue's first buy phase has 1 gold and nothing costs 1, so the turn ends by itself
# after `treasure all`; the `end` typed for that buy phase must not end turn 3's orders.
REPRO = ["end", "train guard", "treasure all", "end", "quit"]
DROPPED = "Dropped 1 line typed for turn 1: `end`."


def repro_table() -> Table:
    return solo_table(RULES, Setup(), seat=0, bot="greedy", seed=11)


def test_a_line_piped_for_a_turn_that_ended_by_itself_is_dropped_with_a_sentence():
    table = repro_table()
    read, write = os.pipe()
    os.write(write, "".join(f"{line}\n" for line in REPRO).encode())
    os.close(write)
    out = io.StringIO()
    with open(read, encoding="utf-8") as src:
        assert run_lines(table, src, out) == 0
    shown = out.getvalue()
    assert "blue: trains a Pawn with Guard\nNo actions left: your action phase ends." in shown
    ended = shown.index("Nothing you can afford: your turn ends.")
    assert shown.index("blue: plays Peon (treasure)") < ended < shown.index("turn 1: gold")
    assert DROPPED in shown
    assert table.game.turn == 3 and table.game.this_turn.phase == "order"  # orders kept


def test_keys_typed_at_once_at_the_terminal_are_type_ahead_too():
    table = repro_table()
    with create_pipe_input() as pipe:
        pipe.send_text("".join(f"{line}\r" for line in REPRO))
        assert run_terminal(table, input=pipe, output=DummyOutput()) == 0
    assert table.game.turn == 3 and table.game.this_turn.phase == "order"


def test_a_line_typed_after_the_screen_showed_the_new_turn_is_played():
    table = repro_table()
    table.opening()
    for line in REPRO[:3]:
        table.handle(line)
    table.typing_ahead = True  # the terminal's loop: this line waited before the screen
    assert table.handle("end").lines == [DROPPED]
    assert table.game.this_turn.phase == "order"
    assert table.handle("end").lines == []  # typed with the screen in sight: played
    assert table.game.this_turn.phase == "action"


def test_lines_waiting_for_a_turn_that_ends_by_itself_are_dropped_at_once():
    g = game("4k3/8/8/8/8/8/4P3/4K3", deck=["Peon"] * 5, opp_deck=["Peon"] * 5)
    wire = WireDriver(g, held=True)
    t = Table(wire)
    heard = []
    t.listen(heard.append)
    t.handle("e2e4")
    for line in ("end", "buy Champion"):  # meant for the action and buy phases
        assert t.handle(line).lines == []
    wire.deliver()  # the last order: nothing is left to do in the turn
    t.tell()
    (reply,) = heard
    assert reply.lines == ["Dropped 2 lines typed for turn 1: `end`, `buy Champion`."]
    assert plain(reply.news).splitlines()[:4] == [
        "blue: Pawn e2–e4",
        "No orders left: your order phase ends.",
        "Nothing you can play or train: your action phase ends.",
        "Nothing you can afford: your turn ends.",
    ]
    assert wire.sent == [("march", "e2", "e4")] and g.prompt().seat == 1


def test_the_coming_win_is_said_once_the_last_sovereign_falls():
    g = game("4k3/8/8/8/8/8/8/4Q2K", hand=["Peon"], deck=["Peon"] * 5, opp_deck=["Peon"] * 5)
    t = Table(LocalDriver(g, Record.begin(g, state=g.to_json()), seat=0))
    reply = t.handle("e1xe8")
    assert not t.game.over and t.game.this_turn.phase == "action"  # the turn is played out
    assert reply.lines == [
        "Gold has no Sovereign left on the board: you win when this turn ends"
        " (end your turn to finish)."
    ]
    assert t.handle("end").lines == []  # said once
    assert t.handle("end").lines[0] == "The game is over: you win (gold has no Sovereign left)."


def test_turns_are_counted_as_players_count_them_while_the_record_keeps_plies():
    table = repro_table()
    table.opening()
    for line in ("end", "train guard", "treasure all"):  # blue's turn 1 ends by itself
        table.handle(line)
    assert table.game.turn == 3  # the engine's count: blue, gold, blue
    assert plain(table.toolbar()).startswith(" turn 2: your turn")
    assert "turn 1: gold" in table.handle("log").lines
    assert table.handle("log 1").lines == ["turn 2: blue"]
    assert table.handle("log 0").lines[:3] == ["blue: shuffles", "gold: shuffles", "turn 1: blue"]


def test_each_seat_of_a_four_seat_game_plays_one_turn_a_round():
    seats = SimpleNamespace(seating=SimpleNamespace(seats=[0, 1, 2, 3]))
    g = SimpleNamespace(turn=6, rules=seats)
    assert [players_turn(seats, ply) for ply in range(1, 10)] == [1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert turn_limit(seats, 20) == 80 and turn_limit(seats, 0) == 0  # 0: no limit
    assert renumbered(g, "turn 9: gold north-west") == "turn 3: gold north-west"
    assert renumbered(g, "gold: buys Legend") == "gold: buys Legend"


def test_max_turns_counts_each_players_turns_and_says_so(capsys):
    args = ["selfplay", "--bots", "random,random", "--max-turns", "3"]
    assert main(args) == 0
    assert "unfinished after 3 turns each (--max-turns), " in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["turns"] == 7  # the record's count: 3 turns each, and the 7th begun


def test_the_coming_loss_is_said_as_the_other_side_takes_the_last_sovereign():
    g = game("4k3/8/8/8/8/8/8/4K2q", active=1, hand=["Peon"], deck=["Peon"] * 5)
    t = Table(WireDriver(g, held=True))
    heard = []
    t.listen(heard.append)
    (capture,) = [d for d in g.legal() if d[1:] == ("h1", "e1")]
    t.observe(g, t.record.apply(g, capture))
    t.tell()
    assert not g.over
    assert heard[-1].lines == [
        "You have no Sovereign left on the board: gold wins when this turn ends."
    ]
