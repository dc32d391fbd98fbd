"""Card types: data, whose effects are sequences of steps (see steps.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from .keys import Key

TRAINING, ORDER, ACTION, TREASURE = "training", "order", "action", "treasure"
EFFECT_KINDS = (TRAINING, ORDER, ACTION, TREASURE)


class CardStep(Protocol):
    """What a card needs of its steps: the keys each reads and writes (checked when the card is
    defined), and whether it counts and always does something (so the card is offered without a
    probe). The steps themselves (steps.py) are the engine's to run; a card is only data made
    of them."""

    @property
    def counts(self) -> bool: ...

    def always_possible(self) -> bool: ...

    def reads(self) -> tuple[Key[Any], ...]: ...

    def writes(self) -> tuple[Key[Any], ...]: ...


@dataclass(frozen=True)
class Effect:
    """One of a card's two effects. ``text`` is our own wording, shown to players."""

    kind: str
    text: str
    steps: tuple[CardStep, ...] = ()
    always_does_something: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in EFFECT_KINDS:
            raise ValueError(
                f"an effect's kind is one of {', '.join(EFFECT_KINDS)}, not {self.kind!r}"
            )
        # What a step reads, an earlier step must write: else the card silently does less.
        written: list[str] = []
        for step in self.steps:
            for key in step.reads():
                if not key.given and key.name not in written:
                    raise ValueError(
                        f"{type(step).__name__} in {self.text!r} reads {key.name!r}, "
                        "which no earlier step of the effect writes"
                    )
            written += [key.name for key in step.writes()]
        # Does one of its steps that count always do something, whatever the game? Then the
        # effect may be played without probing the game first. Asked at every listing: a
        # plain attribute, read faster than a cached property.
        always = any(step.counts and step.always_possible() for step in self.steps)
        object.__setattr__(self, "always_does_something", always)


@dataclass(frozen=True)
class CardType:
    name: str
    cost: int
    effects: tuple[Effect, ...]
    trains: str | None = None  # the unit type its Training effect puts in the Barracks
    train_count: int = 0

    @cached_property
    def gold(self) -> int:
        """The most gold one play of the card adds by itself (a step's "+N gold"; not gold that
        depends on the turn, as Legend's does): what it brings to a hand, for a bot weighing a
        deck."""
        return max(
            (sum(getattr(step, "gold", 0) for step in e.steps) for e in self.effects), default=0
        )

    @property
    def is_training_card(self) -> bool:
        return any(e.kind == TRAINING for e in self.effects)

    def effect_numbers(self, kind: str) -> tuple[int, ...]:
        """1-based numbers of this card's effects of ``kind``."""
        return self._numbers.get(kind, ())

    @cached_property
    def _numbers(self) -> dict[str, tuple[int, ...]]:
        # Asked for every card in hand each time the legal decisions are listed.
        return {
            kind: tuple(i + 1 for i, e in enumerate(self.effects) if e.kind == kind)
            for kind in EFFECT_KINDS
        }


class CardRegistry:
    """The card types known to a game, by name (any case)."""

    def __init__(self, cards: Iterable[CardType] = ()) -> None:
        self._by_key: dict[str, CardType] = {}
        # The engine asks by the card's own name hundreds of thousands of times in a search:
        # that name is found as it is, without normalising it first.
        self._by_name: dict[str, CardType] = {}
        self._prices: dict[int, dict[str, int]] = {}  # by discount (see prices)
        self._numbers: dict[str, dict[str, tuple[int, ...]]] = {}  # by kind (see numbers)
        for c in cards:
            self.register(c)

    def register(self, card: CardType) -> None:
        key = card.name.lower()
        if key in self._by_key:
            raise ValueError(f"a card named {card.name!r} is already registered")
        self._by_key[key] = card
        self._by_name[card.name] = card
        self._prices.clear()
        self._numbers.clear()

    def prices(self, discount: int) -> Mapping[str, int]:
        """What every card costs with ``discount`` off (never below 0), by name: made once per
        discount, as a buy list prices the whole Supply each time it is listed."""
        prices = self._prices.get(discount)
        if prices is None:
            prices = {name: max(0, card.cost - discount) for name, card in self._by_name.items()}
            self._prices[discount] = prices
        return prices

    def numbers(self, kind: str) -> Mapping[str, tuple[int, ...]]:
        """Every card's :meth:`CardType.effect_numbers` for ``kind``, by its name: made once
        per kind, as a listing asks it of every card in the hand."""
        numbers = self._numbers.get(kind)
        if numbers is None:
            numbers = {name: card.effect_numbers(kind) for name, card in self._by_name.items()}
            self._numbers[kind] = numbers
        return numbers

    def get(self, name: str) -> CardType:
        card = self._by_name.get(name)
        if card is not None:
            return card
        try:
            return self._by_key[name.strip().lower()]
        except KeyError:
            raise ValueError(f"there is no card called {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.strip().lower() in self._by_key

    def __iter__(self) -> Iterator[CardType]:
        return iter(self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def names(self) -> list[str]:
        return [c.name for c in self]
