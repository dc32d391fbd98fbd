"""An evening at one table: games in a row on the same links (net/rematch.py)."""

from __future__ import annotations

import trio
from tables import Table, wait_until

from crownp2p.core.record import Record, verify
from crownp2p.net import rematch
from crownp2p.net.events import Ended, EveningOver, Event, PeerError, Score, Seated, StepApplied
from crownp2p.net.messages import make
from crownp2p.net.rematch import always
from crownp2p.net.session import Session


def answers(*said: bool):
    """A seat's answers to `again`, one per game, in order."""
    left = list(said)

    async def again(outcome) -> bool:
        return left.pop(0)

    return again


async def evening(
    table: Table, host_again, join_again, heard=lambda event: None
) -> dict[str, list[Event]]:
    """Host and join every seat with the given answers (the joiners' alike; None: one game);
    each peer's events, by its name. The joiners' events are also ``heard``."""
    names = ["host"] + [f"joiner{order}" for order in range(1, table.players)]
    seen: dict[str, list[Event]] = {name: [] for name in names}

    def telling(name: str):
        return lambda event: (seen[name].append(event), heard(event))

    async with trio.open_nursery() as nursery:
        table.ready = await nursery.start(
            lambda task_status: table.host(
                task_status=task_status, again=host_again, on_event=seen["host"].append
            )
        )
        for order in range(1, table.players):
            await nursery.start(
                lambda task_status, order=order: table.join(
                    order,
                    table.ready.port,
                    task_status=task_status,
                    again=join_again,
                    on_event=telling(f"joiner{order}"),
                )
            )
    return seen


def ended(events: list) -> list:
    return [e.outcome for e in events if isinstance(e, Ended)]


async def test_two_games_in_a_row_on_the_same_links(rules2, tmp_path) -> None:
    with trio.fail_after(60):
        table = Table(rules2, bot="random", seed=1)
        table.records = {1: tmp_path / "join.txt"}  # one peer's: each fsync costs
        got = await evening(table, answers(True, False), always)
    host, joiner = got["host"], got["joiner1"]
    games = list(zip(ended(host), ended(joiner), strict=True))
    assert len(games) == 2
    for ours, theirs in games:
        assert ours.final_hash == theirs.final_hash
        assert ours.result != "desync"
    assert games[0][0].final_hash != games[1][0].final_hash
    # Each game's record is its own file, with a fresh game id (its seeds come from it), its
    # last hash the final hash every peer has.
    ids = []
    for n, name in enumerate(["join.txt", "join-2.txt"]):
        record = Record.load(tmp_path / name)
        assert record.steps[-1].hash == games[n][0].final_hash
        assert verify(rules2, record).ok
        ids.append(record.game_id)
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


async def test_four_peers_play_two_games_over_the_same_mesh(rules4) -> None:
    with trio.fail_after(60):
        table = Table(rules4, bot="random", seed=5, max_turns=40)
        got = await evening(table, answers(True, False), always)
    for game in range(2):
        hashes = {ended(events)[game].final_hash for events in got.values()}
        assert len(hashes) == 1, game
    assert all(len(ended(events)) == 2 for events in got.values())
    # Each game's seats come from its own draw, told to every peer alike.
    tables = {
        name: [e.names for e in events if isinstance(e, Seated)] for name, events in got.items()
    }
    assert len({tuple(t) for t in tables.values()}) == 1
    first, second = tables["host"]
    assert sorted(first) == sorted(second) and first != second
    # The host's no ends the evening. A joiner names the first goodbye it hears: the host's,
    # or that of another joiner that heard the host's first and left (a race in the mesh).
    for name, events in got.items():
        (over,) = [e.reason for e in events if isinstance(e, EveningOver)]
        if name == "host":
            assert over == "host does not want another game"
        else:
            others = {f"{other} has left" for other in got if other not in ("host", name)}
            assert over in {"host has left: host does not want another game"} | others, over


async def test_a_player_who_says_no_ends_the_evening_for_the_table(rules2) -> None:
    with trio.fail_after(30):
        table = Table(rules2, bot="random", seed=3, max_turns=20)
        got = await evening(table, always, answers(False))
    host, joiner = got["host"], got["joiner1"]
    assert len(ended(host)) == len(ended(joiner)) == 1
    assert [e.reason for e in host if isinstance(e, EveningOver)] == [
        "joiner1 has left: joiner1 does not want another game"
    ]
    assert [e.reason for e in joiner if isinstance(e, EveningOver)] == [
        "joiner1 does not want another game"
    ]


async def test_a_peer_that_says_yes_again_and_again_is_dropped_by_its_refusal_budget(
    rules2, caplog
) -> None:
    sessions: list[Session] = []

    async def yes_five_times(outcome) -> bool:
        hub = sessions[-1].hub
        host = sessions[-1].info.host
        for _ in range(5):
            hub.send(host, make("again", commit=bytes(32)))
        return True

    with trio.fail_after(30):
        table = Table(rules2, bot="random", seed=3, max_turns=20)
        seen: list[Event] = []
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(
                lambda task_status: table.host(
                    task_status=task_status, again=always, on_event=seen.append
                )
            )
            # the joiner's sessions, as the table tells them
            table.sessions = _Recorder(sessions)
            await nursery.start(
                lambda task_status: table.join(
                    1, table.ready.port, task_status=task_status, again=yes_five_times
                )
            )
    assert len(ended(seen)) == 1
    assert [e.reason for e in seen if isinstance(e, EveningOver)] == [
        "the link to joiner1 was lost"
    ]
    assert "sent more than 3 messages we refuse (the last: unexpected)" in caplog.text


class _Recorder(dict):
    """Table.sessions that also keeps every session in order."""

    def __init__(self, into: list[Session]) -> None:
        super().__init__()
        self.into = into

    def __setitem__(self, seat: int, session: Session) -> None:
        super().__setitem__(seat, session)
        self.into.append(session)


async def test_a_next_game_whose_seats_do_not_follow_from_the_draw_is_refused(
    rules2, monkeypatch
) -> None:
    real_make = rematch.make

    def swapped(kind: str, **fields):
        if kind == "next":  # only the host sends it: it seats the players its own way
            fields["statics"] = fields["statics"][::-1]
        return real_make(kind, **fields)

    monkeypatch.setattr(rematch, "make", swapped)
    table = Table(rules2, bot="random", seed=3, max_turns=20)
    joiner: list[Event] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(
                lambda task_status: table.host(task_status=task_status, again=always)
            )
            await nursery.start(
                lambda task_status: table.join(
                    1,
                    table.ready.port,
                    task_status=task_status,
                    again=always,
                    on_event=joiner.append,
                )
            )
            await wait_until(lambda: any(isinstance(e, EveningOver) for e in joiner))
            nursery.cancel_scope.cancel()  # the host would wait for its start window
    assert len(ended(joiner)) == 1
    assert [e.reason for e in joiner if isinstance(e, EveningOver)] == [
        "the host's next game cannot be played here: the seats do not follow from the seating draw"
    ]


async def test_a_table_of_one_game_keeps_a_yes_that_comes_before_its_game_ends(rules2) -> None:
    # A bot joining `crownp2p host --bot …` (one game) says yes as soon as its own game ends,
    # which may be a step before the host's: that is no fault, only a question the host's
    # goodbye answers. Here the joiner's yes comes mid-game, the earliest it could.
    sessions: list[Session] = []
    sent: list[int] = []

    def yes_early(event: Event) -> None:
        if isinstance(event, StepApplied) and not sent:
            session = sessions[-1]
            session.hub.send(session.info.host, make("again", commit=bytes(32)))
            sent.append(event.step.seq)

    with trio.fail_after(30):
        table = Table(rules2, bot="random", seed=3, max_turns=20)
        table.sessions = _Recorder(sessions)
        got = await evening(table, None, always, heard=yes_early)
    host, joiner = got["host"], got["joiner1"]
    assert sent
    assert [e for e in host if isinstance(e, PeerError)] == []
    assert ended(host)[0].final_hash == ended(joiner)[0].final_hash
