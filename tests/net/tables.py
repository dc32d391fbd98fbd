"""Helpers to run whole tables of bot peers over loopback sockets in one trio run."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from crownp2p import __version__
from crownp2p.core.game import Game
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.net import crypto
from crownp2p.net import draw as seating_draw
from crownp2p.net.deciders import LateBot
from crownp2p.net.errors import NetError
from crownp2p.net.events import Outcome
from crownp2p.net.handshake import join_accept, join_dial
from crownp2p.net.link import FramedStream, Timeouts
from crownp2p.net.messages import make
from crownp2p.net.seating import HostReady, host_game, join_game, resume_game
from crownp2p.net.session import Session

PACKS = [("crownp2p", __version__)]
CODE = "test-code-1"
FAST = Timeouts(
    handshake=2, keepalive=0.3, idle=1.5, reveal=3, reconnect=6, dial_retry=0.05, start=8, finish=2
)


@dataclass
class Table:
    rules: Rules
    bot: str = "random"
    seed: int = 1
    setup: Setup = field(default_factory=Setup)
    max_turns: int = 300
    timeouts: Timeouts = FAST
    records: dict[int, Path] = field(default_factory=dict)  # by join order: 0 is the host
    outcomes: dict[int, Outcome] = field(default_factory=dict)  # by seat
    sessions: dict[int, Session] = field(default_factory=dict)  # by seat
    seats: dict[int, int] = field(default_factory=dict)  # each seat, by join order (0: host)
    ready: HostReady | None = None

    @property
    def players(self) -> int:
        return len(self.rules.seating.sides)

    def decider(self) -> LateBot:
        return LateBot(self.bot, self.seed)

    async def host(self, task_status=trio.TASK_STATUS_IGNORED, **kw: Any) -> None:
        def ready(session: Session) -> None:
            self.sessions[session.info.seat] = session
            self.seats[0] = session.info.seat

        outcome = await host_game(
            self.rules,
            self.setup,
            decider=self.decider(),
            packs=PACKS,
            name="host",
            bind="127.0.0.1",
            port=kw.pop("port", 0),
            code=CODE,
            record=self.records.get(0),
            max_turns=self.max_turns,
            timeouts=self.timeouts,
            test_seed=self.seed,
            session_ready=ready,
            task_status=task_status,
            **kw,
        )
        self.outcomes[outcome.seat] = outcome

    async def join(self, order: int, port: int, task_status=trio.TASK_STATUS_IGNORED, **kw):
        def ready(session: Session) -> None:
            self.sessions[session.info.seat] = session
            self.seats[order] = session.info.seat

        outcome = await join_game(
            self.rules,
            "127.0.0.1",
            port,
            code=kw.pop("code", CODE),
            decider=self.decider(),
            packs=kw.pop("packs", PACKS),
            name=f"joiner{order}",
            record=self.records.get(order),
            timeouts=self.timeouts,
            test_seed=self.seed,
            session_ready=ready,
            task_status=task_status,
            **kw,
        )
        self.outcomes[outcome.seat] = outcome

    async def play(self, *, join_port: int | None = None) -> dict[int, Outcome]:
        """Host, join every seat (in order, one after another) and play to the end."""
        async with trio.open_nursery() as nursery:
            self.ready = await nursery.start(self.host)
            for order in range(1, self.players):
                await nursery.start(self.join, order, join_port or self.ready.port)
        return self.outcomes


async def wait_until(predicate, interval: float = 0.005) -> None:
    while not predicate():
        await trio.sleep(interval)


async def seated_stranger(port: int) -> tuple[FramedStream, dict[str, Any]]:
    """A raw client that joins the table at ``port`` by hand (the whole handshake, its link
    sealed) and reads its table; returns the link and the table, for a test to send anything."""
    framed = FramedStream(await trio.open_tcp_stream("127.0.0.1", port))
    static = crypto.new_static()
    nonce = seating_draw.new_nonce(None, "raw")
    commit = seating_draw.commitment(crypto.static_public(static), nonce)
    await join_dial(
        framed,
        code=CODE,
        name="raw",
        packs=PACKS,
        listen_port=1,
        commit=commit,
        timeout=5,
        static=static,
    )
    while (table := await framed.receive())["t"] in ("ping", "lobby", "draw"):
        if table["t"] == "draw":  # the seating draw: open our commitment
            await framed.send(make("opening", nonce=nonce))
    assert table["t"] == "table", table
    return framed, table


async def offer_table(
    rules: Rules,
    *,
    setup: Setup | None = None,
    statics: Callable[[bytes, bytes], list[bytes]] | None = None,
    draw: Callable[[list[list[bytes]], bytes], list[list[bytes]]] | None = None,
    tamper: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    **fields: Any,
) -> tuple[str, dict[str, Any]]:
    """A rogue host: it seats one joiner, runs the seating draw with it (sending the
    commitments as ``draw(commits, joiner's key)`` changes them), and hands it a table with
    ``setup`` (the standard one by default), the seats in ``statics(ours, theirs)``, ``fields``
    changed and then ``tamper`` applied; returns the sentence of the joiner's NetError and what
    the joiner answered last."""
    setup = setup or Setup()
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    replies: list[dict] = []

    async def fake_host() -> None:
        framed = FramedStream(await listeners[0].accept())
        hello = await framed.receive()
        joiner = await join_accept(framed, hello, code=CODE, packs=PACKS, timeout=5)
        await framed.send(make("welcome", players=2))  # sealed from here on
        ours = crypto.static_public(crypto.new_static())
        nonce = crypto.new_nonce()
        commits = sorted(
            [[ours, seating_draw.commitment(ours, nonce)], [joiner.static, joiner.commit]]
        )
        await framed.send(make("draw", commits=draw(commits, joiner.static) if draw else commits))
        opening = await framed.receive()
        if opening["t"] != "opening":
            replies.append(opening)
            return
        nonces = {ours: nonce, joiner.static: opening["nonce"]}
        honest = seating_draw.Draw(
            tuple(tuple(c) for c in commits), tuple(nonces[k] for k, _ in commits)
        )
        seats = honest.seats(rules.seating.sides)
        names = ["host" if k == ours else "joiner" for k in seats]
        table = dict(
            game_id=b"g" * 16,
            seat=seats.index(joiner.static),
            host=seats.index(ours),
            players=2,
            names=names,
            addrs=[["127.0.0.1", port], ["127.0.0.1", 0]],
            setup=setup.to_json(),
            start_hash=Game(rules, Setup()).state_hash(),  # never built from a rogue setup
            max_turns=0,
            reveal_timeout=5.0,
            clock=300.0,
            statics=statics(ours, joiner.static) if statics else seats,
            commits=commits,
            nonces=list(honest.nonces),
            teams=[],
        )
        await framed.send(make("table", **(tamper or dict)(table | fields)))
        replies.append(await framed.receive())

    said = ""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fake_host)
            try:
                await Table(rules).join(1, port)
            except NetError as err:
                said = str(err)
    assert said, "the joiner took the rogue table"
    return said, replies[0]


async def crash_one_of_two(table: Table, rules: Rules, victim: str, steps: int) -> None:
    """Two peers: the host or the joiner (``victim``) is cancelled once it has applied ``steps``
    steps and resumed from its record (``table.records`` go by join order); both outcomes end
    in ``table.outcomes``."""
    order = 0 if victim == "host" else 1  # the records and the crash go by join order
    crash = trio.CancelScope()
    async with trio.open_nursery() as nursery:

        async def host(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            with crash if order == 0 else trio.CancelScope():
                await table.host(task_status=task_status)

        async def join(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            with crash if order == 1 else trio.CancelScope():
                await table.join(1, table.ready.port, task_status=task_status)

        table.ready = await nursery.start(host)
        await nursery.start(join)
        await wait_until(
            lambda: order in table.seats and table.sessions[table.seats[order]].ls.applied >= steps
        )
        seat = table.seats[order]
        crash.cancel()
        await wait_until(lambda: table.sessions[seat].stopping)
        await trio.sleep(0.2)
        table.outcomes[seat] = await resume_game(
            rules, table.records[order], decider=table.decider(), packs=PACKS, timeouts=FAST
        )
        await wait_until(lambda: len(table.outcomes) == 2)


async def crash_the_middle_joiner(table: Table, rules: Rules, steps: int) -> int:
    """Four peers: the middle of the three joiners by seat (it listens for the joiner above it
    and dials the one below and the host) is cancelled once it has applied ``steps`` steps,
    mid-game, and resumed from its record; every seat's outcome is in ``table.outcomes``.
    Its seat."""
    crashes = {order: trio.CancelScope() for order in range(1, 4)}
    async with trio.open_nursery() as nursery:
        table.ready = await nursery.start(table.host)

        async def joiner(order: int, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            with crashes[order]:
                await table.join(order, table.ready.port, task_status=task_status)

        for order in range(1, 4):
            await nursery.start(joiner, order)
        await wait_until(lambda: len(table.seats) == 4)
        order = sorted(range(1, 4), key=table.seats.__getitem__)[1]
        seat = table.seats[order]
        info = table.sessions[seat].info
        assert info.callers and info.dialled  # both roles
        await wait_until(lambda: table.sessions[seat].ls.applied >= steps)
        assert table.sessions[seat].ls.outcome is None  # (mid-game)
        crashes[order].cancel()
        await wait_until(lambda: table.sessions[seat].stopping)
        table.outcomes[seat] = await resume_game(
            rules, table.records[order], decider=table.decider(), packs=PACKS, timeouts=FAST
        )
        await wait_until(lambda: len(table.outcomes) == 4)
    return seat
