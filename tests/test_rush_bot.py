"""The benchmark's rush baseline (bench/bots.py) plays legal decisions, repeats from its seed
and keeps to its plan: it trains only into an empty Barracks and keeps its Peons for gold."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from benches import bench

from crownp2p.bots.greedy import GreedyBot
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

RULES = standard_rules()
RUSH_SEAT = 0


@functools.cache
def played_rush_game(seed: int) -> tuple[Game, list[tuple[Decision, int]]]:
    """:func:`rush_game`, played once for the tests that only read it."""
    return rush_game(seed)


def rush_game(seed: int) -> tuple[Game, list[tuple[Decision, int]]]:
    """A whole game, the rush against greedy: the rush's decisions, each with the number of
    units waiting in its Barracks when it made it. Every decision is checked to be legal."""
    game = Game(RULES, Setup())
    rush, greedy = bench("bots").RushBot(seed), GreedyBot(seed)
    seeds = SeedSource(seed)
    made: list[tuple[Decision, int]] = []
    while not game.over and game.turn <= 300:
        seat = game.prompt().seat
        if seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
            continue
        decision = (rush if seat == RUSH_SEAT else greedy).decide(game, seat)
        assert decision in game.legal()
        if seat == RUSH_SEAT:
            made.append((decision, len(game.position.barracks[seat])))
        game.apply(decision)
    return game, made


def test_the_rush_plays_a_whole_game_legally_and_repeats_from_its_seed() -> None:
    game, made = played_rush_game(2)
    again, made_again = rush_game(2)
    assert game.over
    assert made == made_again and game.state_hash() == again.state_hash()


def test_the_rush_trains_only_into_an_empty_barracks_and_keeps_its_peons() -> None:
    _, made = played_rush_game(2)
    trained = [(d[1], waiting) for d, waiting in made if d[0] == "train"]
    assert trained
    assert all(waiting == 0 and card != "Peon" for card, waiting in trained)


def test_an_unfinished_bench_game_keeps_a_record_that_replays_it(tmp_path: Path) -> None:
    # `bench/bots.py --records DIR`: a game at the turn cap is kept, to see why it got there.
    bots = bench("bots")
    capped = bots.play("easy:random", 4, None, 6, tmp_path)
    finished = bots.play("easy:random", 4, None, 0, tmp_path)
    assert not capped["over"] and finished["over"]
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["easy-random-4.jsonl"]  # the finished game left none
    record = Record.load(tmp_path / kept[0])
    *_, (game, step) = record.replay(RULES)  # every hash checked on the way
    assert step is not None and game.turn == capped["turns"]
    assert record.meta == {"bots": ["easy", "random"], "seed": 4}


def test_the_bench_report_gives_the_games_lengths(capsys: pytest.CaptureFixture[str]) -> None:
    # The unfinished games are the tail of the lengths' spread: the report gives both.
    games = [
        {"match": "normal:normal", "seed": s, "won": s % 2 == 0, "over": t <= 300, "turns": t}
        | {"times": [0.1], "walls": [0.1]}
        for s, t in enumerate([40, 100, 120, 200, 301])
    ]
    summary = bench("bots").report("normal:normal", games)
    assert summary["turns_quartiles"] == [70.0, 120.0, 250.5]
    assert "length: median 120 turns, quartiles 70–250" in capsys.readouterr().out


def test_the_bench_refuses_a_match_of_no_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It divided by the games played, and stopped with a ZeroDivisionError.
    monkeypatch.setattr("sys.argv", ["bots.py", "--games", "0", "--match", "normal:greedy"])
    with pytest.raises(SystemExit) as stop:
        bench("bots").main()
    assert stop.value.code == 2
    assert "--games and --workers take a number of at least 1" in capsys.readouterr().err
