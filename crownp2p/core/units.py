"""Unit types, their classes, and the registry that names them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .movement import KingSteps, Mover, UnitMove


class UnitClass(StrEnum):
    FOOT = "Foot"
    HEAVY = "Heavy"
    MOUNTED = "Mounted"
    PIOUS = "Pious"
    REGAL = "Regal"
    SOVEREIGN = "Sovereign"


# The first edition's names for two classes.
_CLASS_ALIASES = {"holy": UnitClass.PIOUS, "horse": UnitClass.MOUNTED}


def parse_class(text: str) -> UnitClass:
    key = text.strip().lower()
    for cls in UnitClass:
        if cls.value.lower() == key:
            return cls
    if key in _CLASS_ALIASES:
        return _CLASS_ALIASES[key]
    names = ", ".join(c.value for c in UnitClass)
    raise ValueError(f"{text!r} is not a unit class: use one of {names}")


@dataclass(frozen=True, eq=False)
class UnitType:
    """A kind of unit: its name, its one-letter symbol (upper case), classes and movement."""

    name: str
    letter: str
    classes: tuple[UnitClass, ...]
    movers: tuple[Mover, ...]
    returns_to_barracks: bool = False  # the Immortal: captured, it goes home instead of to Stock
    # Asked of every unit on the board several times a decision: plain attributes, set once
    # (a plain attribute is read faster than a cached property).
    is_sovereign: bool = field(init=False, repr=False)
    is_foot: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_sovereign", UnitClass.SOVEREIGN in self.classes)
        object.__setattr__(self, "is_foot", UnitClass.FOOT in self.classes)

    def has(self, cls: UnitClass) -> bool:
        return cls in self.classes

    def moves(self, occ: Sequence[int], frm: int, forward: int) -> list[UnitMove]:
        """Every march and attack from ``frm`` on the occupancy ``occ`` (see movement.py)."""
        out: list[UnitMove] = []
        for mover in self.movers:
            mover.generate(occ, frm, forward, out)
        return out

    def can_march_in_place(self, occ: Sequence[int], frm: int, forward: int) -> bool:
        return any(
            isinstance(m, KingSteps) and m.can_march_in_place(occ, frm, forward)
            for m in self.movers
        )

    def __repr__(self) -> str:
        return f"UnitType({self.name!r})"


class UnitRegistry:
    """The unit types of one game, looked up by name (any case) or letter."""

    def __init__(self, types: Iterable[UnitType] = ()) -> None:
        self._by_name: dict[str, UnitType] = {}
        self._by_letter: dict[str, UnitType] = {}
        self._exact: dict[str, UnitType] = {}  # by the type's own name: no normalising
        for t in types:
            self.register(t)

    def register(self, unit: UnitType) -> None:
        letter = unit.letter
        if len(letter) != 1 or not letter.isascii() or not letter.isupper():
            raise ValueError(
                f"unit {unit.name!r} needs one upper-case ASCII letter, not {letter!r}"
            )
        if unit.name.lower() in self._by_name:
            raise ValueError(f"a unit named {unit.name!r} is already registered")
        if letter in self._by_letter:
            other = self._by_letter[letter].name
            raise ValueError(f"unit {unit.name!r} wants letter {letter!r}, which {other} has")
        self._by_name[unit.name.lower()] = unit
        self._exact[unit.name] = unit
        self._by_letter[letter] = unit

    def __iter__(self) -> Iterator[UnitType]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_name

    def get(self, name: str) -> UnitType:
        unit = self._exact.get(name)
        if unit is not None:
            return unit
        try:
            return self._by_name[name.strip().lower()]
        except KeyError:
            raise ValueError(f"there is no unit called {name!r}") from None

    def by_letter(self, letter: str) -> UnitType | None:
        """The type whose symbol is ``letter`` in either case, or None."""
        return self._by_letter.get(letter.upper())
