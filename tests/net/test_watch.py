"""Spectators over loopback: the public projection only, no decisions, a bounded gallery, and a
late spectator caught up."""

from __future__ import annotations

import contextlib
import copy
import json
from functools import partial
from typing import Any

import pytest
import trio
from tables import CODE, FAST, PACKS, Table, wait_until
from test_tables import same_as_one_process

from crownp2p.core.rules import Rules
from crownp2p.net.errors import ConnectionLost, NetError
from crownp2p.net.events import Event, Heard, News, Scene, Watching
from crownp2p.net.handshake import watch_dial
from crownp2p.net.link import FramedStream
from crownp2p.net.messages import make
from crownp2p.net.session import Session
from crownp2p.net.watching import watch_game


def public_part(seat_view: dict[str, Any]) -> dict[str, Any]:
    """What of a seat's view anyone may see: its hands folded into the unseen cards, its
    glimpses and legal decisions left out."""
    v = copy.deepcopy(seat_view)
    v["seat"] = None
    v.pop("legal", None)
    v["this_turn"]["glimpses"] = []
    for p in v["players"]:
        if "hand" in p:
            p["unseen"] = sorted(p["unseen"] + p.pop("hand"))
    return normal(v)


def normal(data: Any) -> Any:
    return json.loads(json.dumps(data))


class Watcher:
    def __init__(self) -> None:
        self.events: list[Event] = []

    @property
    def scenes(self) -> list[Scene]:
        return [e for e in self.events if isinstance(e, Scene)]

    @property
    def news(self) -> list[str]:
        return [line for e in self.events if isinstance(e, News) for line in e.lines]

    async def watch(self, port: int, task_status=trio.TASK_STATUS_IGNORED, **kw: Any) -> str:
        return await watch_game(
            "127.0.0.1",
            port,
            code=CODE,
            packs=PACKS,
            name="eve",
            timeouts=FAST,
            on_event=self.events.append,
            task_status=task_status,
            **kw,
        )


async def play_watched(table: Table, watcher: Watcher, *, late_after: int = 0) -> str:
    """Host, a spectator, the joiners; the spectator comes once ``late_after`` steps are in."""
    farewell = ""

    async def watch(task_status=trio.TASK_STATUS_IGNORED) -> None:
        nonlocal farewell
        assert table.ready is not None
        if late_after:
            await wait_until(
                lambda: table.sessions and len(host_session(table).record.steps) >= late_after
            )
        farewell = await watcher.watch(table.ready.port, task_status=task_status)

    async with trio.open_nursery() as nursery:
        table.ready = await nursery.start(table.host)
        if late_after:
            nursery.start_soon(watch)
        else:
            await nursery.start(watch)
        for order in range(1, table.players):
            await nursery.start(table.join, order, table.ready.port)
    return farewell


def host_session(table: Table) -> Session:
    return table.sessions[table.seats[0]]


async def test_a_spectator_sees_a_whole_game_and_nothing_any_seat_could_not(rules2: Rules) -> None:
    table = Table(rules2, bot="greedy", seed=3, max_turns=40)
    watcher = Watcher()
    with trio.fail_after(30):
        farewell = await play_watched(table, watcher)
    same_as_one_process(table)
    assert farewell.startswith("the game is over")
    record = host_session(table).record
    scenes = {s.seq: normal(s.view) for s in watcher.scenes}
    assert max(scenes) == len(record.steps) and 0 in scenes
    checked = 0
    for game, step in record.replay(rules2):
        seq = 0 if step is None else step.seq
        if seq in scenes:
            for seat in rules2.seating.seats:
                assert scenes[seq] == public_part(game.view(seat)), (seq, seat)
            checked += 1
    assert checked == len(scenes)
    # Nothing hidden in any view: hands only as counts, no glimpse, no seed
    for view in scenes.values():
        assert all("hand" not in p for p in view["players"])
        assert "seed" not in json.dumps(view)
    assert watcher.news == [line for line in record_log(table) if line]


def record_log(table: Table) -> list[str]:
    return list(host_session(table).game.log)


async def test_a_spectator_cannot_decide_and_its_leaving_changes_nothing(rules2: Rules) -> None:
    table = Table(rules2, bot="random", seed=5, max_turns=40)
    refused: list[dict[str, Any]] = []

    async def spectator(port: int) -> None:
        framed = FramedStream(await trio.open_tcp_stream("127.0.0.1", port))
        await watch_dial(framed, code=CODE, name="mallory", packs=PACKS, timeout=5)
        while (msg := await framed.receive())["t"] != "scene" or msg["seq"] < 3:
            pass
        prev = host_session(table).game.state_hash()
        seat = host_session(table).game.prompt().seat
        await framed.send(
            make("decision", seq=msg["seq"] + 1, seat=seat, decision=["end"], prev=prev)
        )
        while (msg := await framed.receive())["t"] != "error":
            pass
        refused.append(msg)
        await framed.send(make("leave", text="bye"))
        await framed.aclose()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            nursery.start_soon(spectator, table.ready.port)
            await nursery.start(table.join, 1, table.ready.port)
    assert refused[0]["code"] == "spectator"
    assert "cannot decide" in refused[0]["text"]
    same_as_one_process(table)  # the decision never reached the game; leaving changed nothing


@pytest.mark.parametrize("limit, why", [(0, "takes no spectators"), (1, "gallery is full")])
async def test_the_gallery_holds_at_most_its_spectators(
    rules2: Rules, limit: int, why: str
) -> None:
    table = Table(rules2, bot="random", seed=2, max_turns=20)
    first, second = Watcher(), Watcher()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            ready = table.ready = await nursery.start(
                lambda task_status: table.host(task_status, spectators=limit)
            )
            if limit:
                await nursery.start(first.watch, ready.port)
            with pytest.raises(NetError, match=why):
                await second.watch(ready.port)
            await nursery.start(table.join, 1, ready.port)
    same_as_one_process(table)
    assert second.events == []


async def test_a_late_spectator_is_caught_up_from_the_public_record(rules2: Rules) -> None:
    table = Table(rules2, bot="greedy", seed=4, max_turns=40)
    watcher = Watcher()
    with trio.fail_after(30):
        await play_watched(table, watcher, late_after=30)
    first = watcher.scenes[0]
    assert first.seq >= 30
    # The log came first, whole: every line the game wrote before the spectator's first scene.
    before = watcher.events.index(first)
    caught_up = [line for e in watcher.events[:before] if isinstance(e, News) for line in e.lines]
    assert len(caught_up) > 10
    assert watcher.news == [line for line in record_log(table) if line]


async def test_a_flooding_spectator_is_cut_off_and_the_game_goes_on(rules2: Rules) -> None:
    table = Table(rules2, bot="random", seed=6, max_turns=40)
    heard: list[Event] = []
    answers: list[dict[str, Any]] = []

    async def flooder(port: int) -> None:
        framed = FramedStream(await trio.open_tcp_stream("127.0.0.1", port))
        await watch_dial(framed, code=CODE, name="mallory", packs=PACKS, timeout=5)
        for i in range(30):  # past the chat burst
            await framed.send(make("chat", text=f"spam {i}"))
        for _ in range(6):  # past the refusals a link answers
            await framed.send(make("decision", seq=1, seat=0, decision=["end"], prev="0" * 64))
        with contextlib.suppress(ConnectionLost):
            while True:
                if (msg := await framed.receive())["t"] == "error":
                    answers.append(msg)
        await framed.aclose()

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(partial(table.host, on_event=heard.append))
            nursery.start_soon(flooder, table.ready.port)
            await nursery.start(table.join, 1, table.ready.port)
    spoken = [e for e in heard if isinstance(e, Heard)]
    assert len(spoken) == 20  # the burst; the rest dropped
    assert [a["code"] for a in answers] == ["slow-down", "spectator", "spectator", "spectator"]
    assert Watching("mallory", False) in heard  # cut off at the 4th refusal
    same_as_one_process(table)


def test_the_gallery_starts_each_game_of_an_evening_afresh(rules2: Rules) -> None:
    """After a game ends (its spectators told so), the next game of the evening (a rematch on
    the same links) is shown afresh: no farewell waiting for a new spectator, no old log."""
    from crownp2p.core.game import Game
    from crownp2p.net.events import Ended, Outcome, Started, StepApplied
    from crownp2p.net.gallery import Gallery

    gallery = Gallery(2, 2, FAST, None)
    gallery.seat_names = ["ann", "bob"]
    first = Game(rules2)
    gallery.observe(Started(), first, 0)
    gallery.observe(StepApplied(None, ("blue: King e1-e2",), None), first, 1)  # type: ignore[arg-type]
    gallery.observe(Ended(Outcome("win", 0, 3, "h", 1, "blue won", 0)), first, 1)
    assert gallery.farewell is not None and list(gallery.log) == ["blue: King e1-e2"]
    second = Game(rules2)
    gallery.observe(Started(), second, 0)
    assert gallery.farewell is None and not gallery.log
    scene = gallery.latest_scene()
    assert scene is not None and scene["seq"] == 0


def test_the_gallery_makes_no_scene_until_someone_watches(
    rules2: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public view costs the host a good part of a step: with no spectator it is made only
    when one comes, of the game as it is then (the last step shown)."""
    from crownp2p.core.game import CHANCE, Game
    from crownp2p.net.events import Started, StepApplied
    from crownp2p.net.gallery import Gallery

    made: list[int] = []
    view = Game.view
    monkeypatch.setattr(Game, "view", lambda game, seat: made.append(1) or view(game, seat))
    gallery = Gallery(2, 2, FAST, None)
    gallery.seat_names = ["ann", "bob"]
    game = Game(rules2)
    gallery.observe(Started(), game, 0)
    for seq in range(1, 4):
        game.apply(("seed", f"{seq:064x}") if game.to_decide == CHANCE else game.legal()[0])
        gallery.observe(StepApplied(None, (f"step {seq}",), None), game, seq)  # type: ignore[arg-type]
    assert made == []
    scene = gallery.latest_scene()
    assert scene is not None and scene["seq"] == 3 and scene["view"] == game.view(None)
    assert gallery.latest_scene() is scene and len(made) == 2  # made once (and once here)
