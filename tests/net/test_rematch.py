"""An evening at one table: games in a row on the same links (net/rematch.py)."""

from __future__ import annotations

import trio
from tables import Table

from crownp2p.core.record import Record, verify
from crownp2p.net.events import Ended, EveningOver, Event, Score
from crownp2p.net.rematch import always


def answers(*said: bool):
    """A seat's answers to `again`, one per game, in order."""
    left = list(said)

    async def again(outcome) -> bool:
        return left.pop(0)

    return again


async def evening(table: Table, host_again, join_again) -> dict[str, list[Event]]:
    """Host and join with the given answers; each peer's events, by its name."""
    seen: dict[str, list[Event]] = {"host": [], "joiner1": []}

    def follow(who: str):
        return seen[who].append

    async with trio.open_nursery() as nursery:
        table.ready = await nursery.start(
            lambda task_status: table.host(
                task_status=task_status,
                again=host_again,
                on_event=follow("host"),
            )
        )
        await nursery.start(
            lambda task_status: table.join(
                1,
                table.ready.port,
                task_status=task_status,
                again=join_again,
                on_event=follow("joiner1"),
            )
        )
    return seen


def ended(events: list) -> list:
    return [e.outcome for e in events if isinstance(e, Ended)]


async def test_two_games_in_a_row_on_the_same_links(rules2, tmp_path) -> None:
    with trio.fail_after(60):
        table = Table(rules2, bot="greedy", seed=2)
        table.records = {0: tmp_path / "host.txt", 1: tmp_path / "join.txt"}
        got = await evening(table, answers(True, False), always)
    host, joiner = got["host"], got["joiner1"]
    games = list(zip(ended(host), ended(joiner), strict=True))
    assert len(games) == 2
    for ours, theirs in games:
        assert ours.final_hash == theirs.final_hash
        assert ours.result != "desync"
    assert games[0][0].final_hash != games[1][0].final_hash
    # Each game's record is its own file, with a fresh game id, the same on both peers, and
    # its last hash the game's final hash.
    ids = []
    for n, name in enumerate(["{}.txt", "{}-2.txt"]):
        host_record = Record.load(tmp_path / name.format("host"))
        join_record = Record.load(tmp_path / name.format("join"))
        assert host_record.game_id == join_record.game_id
        assert host_record.steps[-1].hash == games[n][0].final_hash
        assert verify(rules2, join_record).ok
        ids.append(host_record.game_id)
    assert len(set(ids)) == 2
    assert not (tmp_path / "join-3.txt").exists()
    scores = [e for e in joiner if isinstance(e, Score)]
    assert [s.games for s in scores] == [1, 2]
    wins = dict(scores[-1].wins)
    assert set(wins) == {"host", "joiner1"}
    expected = {"host": 0, "joiner1": 0}
    for outcome in ended(joiner):
        if outcome.winner is not None and outcome.result in ("win", "loss"):
            winner_is_me = outcome.result == "win"
            expected["joiner1" if winner_is_me else "host"] += 1
    assert wins == expected
    assert [e for e in host if isinstance(e, Score)][-1].wins == scores[-1].wins
    said = [e.reason for e in joiner if isinstance(e, EveningOver)]
    assert said == ["host has left: host does not want another game"]
