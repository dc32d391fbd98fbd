"""Helpers to run whole tables of bot peers over loopback sockets in one trio run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from crownp2p import __version__
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.net.deciders import LateBot
from crownp2p.net.events import Outcome
from crownp2p.net.link import Timeouts
from crownp2p.net.seating import HostReady, host_game, join_game
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
    ready: HostReady | None = None

    @property
    def players(self) -> int:
        return len(self.rules.seating.sides)

    def decider(self) -> LateBot:
        return LateBot(self.bot, self.seed)

    async def host(self, task_status=trio.TASK_STATUS_IGNORED, **kw: Any) -> None:
        def ready(session: Session) -> None:
            self.sessions[0] = session

        self.outcomes[0] = await host_game(
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

    async def join(self, order: int, port: int, task_status=trio.TASK_STATUS_IGNORED, **kw):
        seat_box: list[int] = []

        class Status:
            def started(self, seat: int) -> None:
                seat_box.append(seat)
                task_status.started(seat)

        def ready(session: Session) -> None:
            self.sessions[session.info.seat] = session

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
            task_status=Status(),
            **kw,
        )
        self.outcomes[seat_box[0]] = outcome

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
