"""An in-memory table of Lockstep peers: messages are delivered by hand, so tests can drop,
reorder, forge or replay them, with no sockets and no clock."""

from __future__ import annotations

from collections import deque
from typing import Any

from crownp2p.bots import make_bot
from crownp2p.core.game import Game
from crownp2p.core.record import Record
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.net import crypto
from crownp2p.net.frames import FrameDecoder, decode_body, encode_frame
from crownp2p.net.local import bot_seed
from crownp2p.net.lockstep import Lockstep
from crownp2p.net.messages import validate


class MemoryTable:
    def __init__(
        self,
        rules: Rules,
        setup: Setup,
        bots: list[str],
        *,
        seed: int = 0,
        test_seed: int = 0,
        max_turns: int = 0,
        reveal_timeout: float = 10.0,
        clock: float | None = None,
    ) -> None:
        self.rules = rules
        self.n = len(rules.seating.sides)
        self.game_id = crypto.new_game_id(test_seed)
        self.bots = [make_bot(name, bot_seed(seed, s)) for s, name in enumerate(bots)]
        self.now = 0.0
        self.peers: list[Lockstep] = []
        for seat in range(self.n):
            game = Game(rules, setup)
            self.peers.append(
                Lockstep(
                    game,
                    Record.begin(game),
                    seat=seat,
                    game_id=self.game_id,
                    names=[f"p{s}" for s in range(self.n)],
                    nonces=lambda r, s=seat: crypto.insecure_nonce(test_seed, s, r),
                    # (a sealed game's secret: fixed here, so a test's games are the same)
                    secret=crypto.insecure_nonce(test_seed, seat, 0),
                    signing_seed=crypto.insecure_nonce(test_seed, seat, 1 << 20),
                    max_turns=max_turns,
                    reveal_timeout=reveal_timeout,
                    clock=clock,
                )
            )
        # wire[(src, dst)] holds messages in flight, in order
        self.wire: dict[tuple[int, int], deque[dict[str, Any]]] = {
            (a, b): deque() for a in range(self.n) for b in range(self.n) if a != b
        }
        self.log: list[tuple[int, int, dict[str, Any]]] = []  # everything delivered
        self.bot_seats = set(range(self.n))
        self.tamper = None  # callable(src, dst, msg) -> list of msgs to deliver instead

    def connect(self) -> None:
        for p in self.peers:
            for s in p.peers:
                p.on_link_up(s, self.now)
        self.pump()
        for p in self.peers:
            p.begin(self.now)

    def collect(self, seat: int) -> None:
        for dest, msg in self.peers[seat].take_outbox():
            # through the real codec and schema, as on a socket
            (body,) = FrameDecoder().feed(encode_frame(msg))
            self.wire[(seat, dest)].append(validate(decode_body(body)))

    def pump(self, limit: int = 1_000_000) -> int:
        """Deliver until nothing moves; bots decide when prompted. Returns messages moved."""
        moved = 0
        for _ in range(limit):
            progressed = False
            for seat, p in enumerate(self.peers):
                if seat in self.bot_seats:
                    while p.my_turn and p.outcome is None:
                        p.decide(self.bots[seat].decide(p.game, seat), self.now)
                self.collect(seat)
            for (src, dst), q in self.wire.items():
                if q:
                    msg = q.popleft()
                    out = [msg] if self.tamper is None else self.tamper(src, dst, msg)
                    for m in out:
                        self.log.append((src, dst, m))
                        self.peers[dst].on_message(src, m, self.now)
                    progressed = True
                    moved += 1
            if not progressed:
                for p in self.peers:
                    p.idle()
                    due = p.next_deadline()
                    if due is not None and due <= self.now:  # (as a session wakes for it)
                        p.on_tick(self.now)
                    self.collect(self.peers.index(p))
                if not any(self.wire.values()):
                    return moved
        raise AssertionError("the table did not settle")

    def inject(self, src: int, dst: int, msg: dict[str, Any]) -> None:
        self.peers[dst].on_message(src, validate(msg), self.now)

    def tick(self, seconds: float) -> None:
        self.now += seconds
        for p in self.peers:
            p.on_tick(self.now)
        self.pump()
