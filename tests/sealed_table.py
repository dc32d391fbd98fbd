"""A sealed game played the way a table will play it, with no network and no cryptography:
one engine for each seat, each told only what the rules open to that seat, beside one engine
that knows every card (as the audit's replay will). The truth engine stands in for the
cryptography: it says which card a sealed position holds when a seat's keys would.

Each seat's decisions come from a bot playing that seat's own engine. Before a decision is sent,
the seat's engine names what it opens (``Game.openings``); every engine learns those cards, and
then every engine applies the decision. After each step, each seat's engine learns the cards
drawn into the hands it sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from crownp2p.bots import make_bot
from crownp2p.bots.base import Bot
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource


@dataclass
class SealedTable:
    rules: Rules
    setup: Setup
    seed: int
    bot: str = "greedy"
    # Decisions taken whenever legal, before the bot is asked (``("buy", "Wish")``): to play
    # the cards a test is about.
    prefer: tuple[Decision, ...] = ()
    truth: Game = field(init=False)
    seats: list[Game] = field(init=False)
    bots: list[Bot] = field(init=False)
    steps: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        assert self.setup.sealed
        self.truth = Game(self.rules, self.setup)
        self.seats = [Game(self.rules, self.setup) for _ in self.rules.seating.seats]
        self.bots = [make_bot(self.bot, f"{self.seed}:{s}") for s in self.rules.seating.seats]
        self._chance = SeedSource(self.seed)
        self._orders = random.Random(f"sealed orders {self.seed}")

    @property
    def engines(self) -> list[Game]:
        return [self.truth, *self.seats]

    def chance(self) -> Decision:
        """What chance decides now: the Supply by a seed; a shuffle sealed; an opening by the
        names of the cards (which the truth engine knows, and the seats' keys would give)."""
        chance = self.truth.chance
        assert chance is not None
        if chance["kind"] == "supply":
            return ("seed", self._chance.next_seed())
        if chance["kind"] == "shuffle":
            return ("sealed",)
        return ("open", *[self.truth.cards[c] for c in chance["cards"]])

    def apply_chance(self, decision: Decision) -> None:
        for engine in self.engines:
            engine.apply(decision)
        # The order the seats' passes made, which only the audit learns: the truth engine
        # learns it (the game may have drawn from the new deck already).
        truth = self.truth
        fresh = sorted(c for p in truth.players for c in p.deck + p.hand if c in truth.unknown)
        names = [truth.cards[c] for c in fresh]
        self._orders.shuffle(names)
        for card, name in zip(fresh, names, strict=True):
            truth.learn(card, name)

    def decide(self, seat: int, decision: Decision) -> list[tuple[int, int | None]]:
        """The seat's decision, with what it opens first; the openings."""
        opened = self.seats[seat].openings(decision)
        for card, to in opened:
            name = self.truth.cards[card]
            if to is None:
                for engine in self.engines:
                    engine.learn(card, name, to_all=True)
            else:
                self.seats[to].learn(card, name)
        for engine in self.engines:
            engine.apply(decision)
        return opened

    def deal_knowledge(self) -> None:
        """Each seat's engine learns the cards of the hands it sees (what it drew)."""
        for viewer, engine in enumerate(self.seats):
            for owner, player in enumerate(engine.players):
                if self.rules.sees_hand(viewer, owner):
                    for card in player.hand:
                        if card in engine.unknown:
                            engine.learn(card, self.truth.cards[card])

    def _preferred(self, seat: int) -> Decision | None:
        legal = self.seats[seat].legal() if self.prefer else []
        return next((d for d in self.prefer if d in legal), None)

    def play(
        self, max_steps: int = 100_000, check: Callable[[SealedTable], None] | None = None
    ) -> Iterator[tuple[int, Decision]]:
        """Play on, yielding each step's seat (CHANCE for chance) and decision after it."""
        while not self.truth.over and self.steps < max_steps:
            seat = self.truth.to_decide
            if seat == CHANCE:
                decision = self.chance()
                self.apply_chance(decision)
            else:
                decision = self._preferred(seat) or self.bots[seat].decide(self.seats[seat], seat)
                self.decide(seat, decision)
            self.deal_knowledge()
            self.steps += 1
            if check is not None:
                check(self)
            yield seat, decision
