"""What a game starts from: the Supply, the starting decks and the setup options."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

FIRST_GAME = (
    "Armor",
    "Bureaucracy",
    "Evangelism",
    "Heir",
    "Legend",
    "Patronage",
    "Quartermaster",
    "Refiner",
    "Stables",
    "Versatility",
)
# The designer's tournament Supplies. The third is listed with nine piles; we play it as listed
# (docs/rulings.md).
TOURNAMENT = (
    (
        "Sanctuary",
        "Sacrifice",
        "Academy",
        "Vigilance",
        "Onslaught",
        "Subterfuge",
        "Fog",
        "Temple",
        "Mourning",
        "Aviary",
    ),
    (
        "Versatility",
        "Scribes",
        "Legend",
        "Executive Action",
        "Onslaught",
        "Quartermaster",
        "Temple",
        "False Orders",
        "Bureaucracy",
        "Wish",
    ),
    (
        "Astrology",
        "Scribes",
        "Academy",
        "Sacrifice",
        "Executive Action",
        "Subterfuge",
        "Armor",
        "Destiny",
        "Aviary",
    ),
    (
        "Astrology",
        "Stables",
        "Refiner",
        "Sanctuary",
        "Patronage",
        "Vigilance",
        "Fog",
        "False Orders",
        "Mourning",
        "Wish",
    ),
)
NAMED_SUPPLIES = {"first-game": FIRST_GAME} | {
    f"tournament-{i + 1}": piles for i, piles in enumerate(TOURNAMENT)
}

CORE_PILES = (("Champion", 4), ("Clergy", 8), ("Tower", 8), ("Consort", 4))
VARIABLE_PILE_SIZE = 4
RANDOM_PILES = 10


@dataclass(frozen=True)
class Setup:
    """Everything agreed before the first shuffle.

    ``piles`` are the variable Supply piles; with ``fill_piles`` set, a Supply with fewer
    variable piles is filled up to that many at random (a chance decision) from the variable
    cards not already chosen. A variant with several Supplies (the team game: one per wing)
    sets ``supply_count``; ``more_piles`` lists the variable piles of the second and later
    Supplies. Every pile of the game is different.
    """

    piles: tuple[str, ...] = FIRST_GAME
    fill_piles: int = 0
    variant: str = "standard"
    options: tuple[str, ...] = ()  # the names of the setup options applied (for people)
    supply_count: int = 1
    more_piles: tuple[tuple[str, ...], ...] = ()
    sovereign: str = "King"  # the unit each seat starts with on its home squares
    starting_deck: tuple[tuple[str, int], ...] = (("Peon", 6), ("Guard", 4))
    core_piles: tuple[tuple[str, int], ...] = CORE_PILES
    pile_size: int = VARIABLE_PILE_SIZE
    hand_size: int = 5
    extra: tuple[tuple[str, Any], ...] = field(default=())  # options a variant pack defines
    # Sealed decks (docs/sealed-decks.md): no seat sees another's hand or any deck's order, so
    # the engine decides nothing by itself from a hidden card.
    sealed: bool = False

    def deck_list(self) -> list[str]:
        return [name for name, count in self.starting_deck for _ in range(count)]

    def to_json(self) -> dict[str, Any]:
        return {
            "piles": list(self.piles),
            "fill_piles": self.fill_piles,
            "variant": self.variant,
            "options": list(self.options),
            "supply_count": self.supply_count,
            "more_piles": [list(p) for p in self.more_piles],
            "sovereign": self.sovereign,
            "starting_deck": [[n, c] for n, c in self.starting_deck],
            "core_piles": [[n, c] for n, c in self.core_piles],
            "pile_size": self.pile_size,
            "hand_size": self.hand_size,
            "extra": [[k, v] for k, v in self.extra],
            # (only when set: the states of games with open decks keep the hashes they had)
            **({"sealed": True} if self.sealed else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        return cls(
            piles=tuple(data["piles"]),
            fill_piles=int(data.get("fill_piles", 0)),
            variant=str(data.get("variant", "standard")),
            options=tuple(data.get("options", ())),
            supply_count=int(data.get("supply_count", 1)),
            more_piles=tuple(tuple(p) for p in data.get("more_piles", ())),
            sovereign=str(data.get("sovereign", "King")),
            starting_deck=tuple(
                (n, int(c)) for n, c in data.get("starting_deck", (("Peon", 6), ("Guard", 4)))
            ),
            core_piles=tuple((n, int(c)) for n, c in data.get("core_piles", CORE_PILES)),
            pile_size=int(data.get("pile_size", VARIABLE_PILE_SIZE)),
            hand_size=int(data.get("hand_size", 5)),
            extra=tuple((k, v) for k, v in data.get("extra", ())),
            sealed=bool(data.get("sealed", False)),
        )


def parse_supply(text: str, variable_cards: list[str], all_cards: list[str]) -> Setup:
    """``first-game``, ``tournament-1`` … ``tournament-4``, ``random`` or ``CARD,CARD,…``
    (variable piles; the core piles are always there)."""
    key = text.strip().lower()
    if key in NAMED_SUPPLIES:
        return Setup(piles=NAMED_SUPPLIES[key])
    if key == "random":
        return Setup(piles=(), fill_piles=RANDOM_PILES)
    by_lower = {name.lower(): name for name in variable_cards}
    others = {name.lower(): name for name in all_cards}
    piles: list[str] = []
    for word in text.split(","):
        name = word.strip()
        if not name:
            continue
        if name.lower() not in by_lower and name.lower() in others:
            raise ValueError(
                f"{others[name.lower()]} is not a variable Supply pile: the starting and core "
                "cards are always in the game"
            )
        if name.lower() not in by_lower:
            raise ValueError(
                f"{name!r} is not a card: name Supply piles as `crownp2p cards` lists them, "
                "or use first-game, tournament-1 to tournament-4, or random"
            )
        canonical = by_lower[name.lower()]
        if canonical in piles:
            raise ValueError(f"{canonical} is listed twice in the Supply")
        piles.append(canonical)
    if not piles:
        raise ValueError("the Supply needs at least one pile")
    return Setup(piles=tuple(piles))


def with_options(setup: Setup, **options: Any) -> Setup:
    return replace(setup, **options)


def replace_starter(old: str, new: str) -> Callable[[Setup], Setup]:
    """A setup option's change: one ``old`` card of every starting deck becomes ``new``."""

    def apply(setup: Setup) -> Setup:
        deck = dict(setup.starting_deck)
        if deck.get(old, 0) < 1:
            raise ValueError(f"no {old} is left in the starting deck for the {new} to replace")
        deck[old] -= 1
        deck[new] = deck.get(new, 0) + 1
        return replace(setup, starting_deck=tuple((n, c) for n, c in deck.items() if c))

    return apply
