"""Sealed games between peers on an in-memory bus: each peer its own engine, its own
SealedCards and its own bot; every message goes through the bus, in order on each link, as on
the table's links. No Lockstep: decisions travel as ``("decision", decision)`` items, so the
cards' protocol is tested alone."""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crownp2p.bots import make_bot
from crownp2p.bots.base import Bot
from crownp2p.core.decisions import Decision, IllegalDecision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Step
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.net.sealed_cards import SealedCards

GAME_ID = bytes(range(16))


def secret_of(seat: int, salt: str = "") -> bytes:
    return hashlib.sha256(f"game secret {salt}{seat}".encode()).digest()


@dataclass
class Peer:
    seat: int
    game: Game
    cards: SealedCards
    bot: Bot
    chance: SeedSource
    inbox: deque[tuple[int, Any]] = field(default_factory=deque)
    decided: dict[int, deque[Decision]] = field(default_factory=dict)  # seat -> its decisions
    ours: Decision | None = None  # sent, waiting for what it opens to us
    steps: list[tuple[int, Decision]] = field(default_factory=list)
    record: list[Step] = field(default_factory=list)  # as the Lockstep records it
    hashes: list[str] = field(default_factory=list)
    # Every card the rules have let this seat see so far, by the engine's own account: cards
    # of the hands it sees, cards every seat has seen, hands its Astrology looked at.
    allowed: set[int] = field(default_factory=set)
    looked: int = 0  # of game.looks


class Bus:
    def __init__(
        self,
        rules: Rules,
        setup: Setup,
        seed: int,
        bot: str = "greedy",
        prefer: tuple[Decision, ...] = (),
    ) -> None:
        self.rules = rules
        self.peers = []
        for seat in rules.seating.seats:
            game = Game(rules, setup)
            self.peers.append(
                Peer(
                    seat,
                    game,
                    SealedCards(game, GAME_ID, seat, secret_of(seat), secret_of(seat, "signing ")),
                    make_bot(bot, f"{seed}:{seat}"),
                    SeedSource(seed),
                )
            )
        self.prefer = prefer
        self.sent = 0  # messages through the bus
        # A test may change what a peer sends: (sender, receiver, message) -> messages to send.
        self.tamper: Callable[[int, int, Any], list[Any]] | None = None

    def post(self, sender: Peer, to: int, item: Any) -> None:
        items = [item] if self.tamper is None else self.tamper(sender.seat, to, item)
        for each in items:
            self.sent += 1
            self.peers[to].inbox.append((sender.seat, each))

    def flush(self, peer: Peer) -> None:
        for to, msg in peer.cards.take_outbox():
            self.post(peer, to, msg)

    def broadcast(self, peer: Peer, decision: Decision) -> None:
        for other in self.peers:
            if other is not peer:
                self.post(peer, other.seat, ("decision", decision))

    # ------------------------------------------------------------------ one peer

    def read(self, peer: Peer) -> bool:
        moved = bool(peer.inbox)
        while peer.inbox:
            sender, item = peer.inbox.popleft()
            if isinstance(item, tuple) and item[0] == "decision":
                peer.decided.setdefault(sender, deque()).append(item[1])
            else:
                peer.cards.on_message(sender, item)
        self.flush(peer)
        return moved

    def step(self, peer: Peer) -> bool:
        """Apply the next step if it is in hand; False when waiting."""
        game, cards = peer.game, peer.cards
        seat = game.to_decide
        decision: Decision | None
        if seat == CHANCE:
            kind = game.prompt().kind
            if kind == "supply":
                decision = ("seed", peer.chance.next_seed())
            elif kind == "shuffle":
                decision = cards.shuffle()
            else:
                decision = cards.face_up()
        elif seat == peer.seat:
            if peer.ours is None:
                if cards.missing():
                    return False
                legal = game.legal()
                decision = next((d for d in self.prefer if d in legal), None)
                decision = decision or peer.bot.decide(game, seat)
                ready = cards.ours(decision)
                self.flush(peer)  # what it opens goes before the decision
                self.broadcast(peer, decision)
                peer.ours = decision
                if not ready:
                    return True
            elif not cards.ours_ready(peer.ours):
                return False
            decision, peer.ours = peer.ours, None
        else:
            queue = peer.decided.get(seat)
            if not queue:
                return False
            decision = queue[0]
            if not cards.theirs(seat, decision):
                self.flush(peer)
                return False
            queue.popleft()
            if not game.is_legal(decision):
                raise IllegalDecision(f"seat {seat}: {game.why_illegal(decision)}")
        self.flush(peer)
        if decision is None:
            return False
        self.note_opened(peer, decision)
        game.apply(decision)
        opened, seen = cards.take_learnt()
        peer.record.append(Step(len(peer.steps) + 1, seat, decision, "", None, opened, seen))
        cards.after_step(seat, decision)
        self.flush(peer)
        peer.steps.append((seat, decision))
        peer.hashes.append(game.public_hash())
        self.note_allowed(peer)
        return True

    def note_opened(self, peer: Peer, decision: Decision) -> None:
        """The cards the step opens to this seat, by its engine's account: they may leave the
        hand and go through a shuffle within the step, and never show in note_allowed after
        it. (Those the seat opens to all are learnt, so shown, before the decision.)"""
        game = peer.game
        self.note_allowed(peer)
        if game.chance is None:
            opened = [c for c, to in game.openings(decision) if to in (None, peer.seat)]
            peer.allowed.update(opened)
        elif game.chance["kind"] == "open":
            peer.allowed.update(game.chance["cards"])

    def note_allowed(self, peer: Peer) -> None:
        game = peer.game
        for owner, player in enumerate(game.players):
            if self.rules.sees_hand(peer.seat, owner):
                peer.allowed.update(player.hand)
            peer.allowed.update(c for c in player.deck + player.hand if c in game.shown)
            peer.allowed.update(player.discard + player.in_play)
        peer.allowed.update(game.trash)
        for viewer, _, cards in game.looks[peer.looked :]:
            if viewer == peer.seat:
                peer.allowed.update(cards)
        peer.looked = len(game.looks)

    # ------------------------------------------------------------------ the table

    def run(self, max_steps: int = 100_000) -> None:
        """Play until every game is over or the step limit, or nothing can move."""
        while True:
            moved = False
            for peer in self.peers:
                moved |= self.read(peer)
                while not peer.game.over and len(peer.steps) < max_steps and self.step(peer):
                    moved = True
                    self.read(peer)
            if not moved:
                return

    def audit(self) -> dict[int, dict[int, bytes]]:
        """Every peer reveals its game secret; each audits: the secrets each holds after, by
        seat (for its replay)."""
        secrets = {p.seat: p.cards.secret for p in self.peers}
        return {
            p.seat: p.cards.audit({s: v for s, v in secrets.items() if s != p.seat})
            for p in self.peers
        }


def openable(peer: Peer) -> set[int]:
    """Every sealed card this peer could open with what it holds: its own key and, for the
    position, every other seat's key it received."""
    others = len(peer.cards.seats) - 1
    out = set()
    for card, slot in peer.cards.slots.items():
        got = peer.cards.shuffles[slot.shuffle]._keys.get(slot.position, {})
        if len(got) >= others:
            out.add(card)
    return out
