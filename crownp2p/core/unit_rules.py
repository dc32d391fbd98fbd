"""The small rules a unit step is given, as objects: where ``Deploy`` may put a unit, where
``OrderUnit`` may take one and what follows the order, and which moves ``MoveUnit`` offers.

Each carries its own words for the prompt (``text``), so a step reads as its card does:
``Deploy(next_to(SOVEREIGN))`` prompts "deploy a unit next to one of your Sovereigns". A pack
adds a rule by writing a class with the same two members; nothing here is looked up by name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import compress
from typing import Protocol

from .board import SIZE, SQUARES, adjacent, relative_rank
from .keys import Key
from .mechanics import Mechanics
from .movement import UnitMove
from .position import Unit
from .state import Frame
from .units import UnitClass, UnitType

RANK_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def own_squares(g: Mechanics, seat: int, cls: UnitClass | None = None) -> list[int]:
    """Squares of ``seat``'s own units (of class ``cls``): "one of your ... units"."""
    is_own, board = g.rules.is_own, g.position.board
    return [  # (the class first: it rules out most units without asking the rules)
        sq
        for sq in compress(SQUARES, board)  # the occupied squares (a unit is true)
        if (u := board[sq]) is not None and (cls is None or u.kind.has(cls)) and is_own(g, seat, u)
    ]


def empty_around(g: Mechanics, anchors: list[int]) -> list[int]:
    board = g.position.board
    return sorted({t for a in anchors for t in adjacent(a) if board[t] is None})


# ==================================================================== Deploy: where


class Placement(Protocol):
    """Where ``Deploy`` may put a unit of type ``kind`` for ``seat``."""

    @property
    def text(self) -> str: ...  # "" or " on your first rank": follows "deploy a unit"

    def squares(self, g: Mechanics, seat: int, kind: UnitType) -> list[int]: ...


@dataclass(frozen=True)
class ByTheRules:
    """The usual deploy: where the unit type itself may be deployed."""

    text = ""

    def squares(self, g: Mechanics, seat: int, kind: UnitType) -> list[int]:
        return g.position.deploy_squares(seat, kind)


@dataclass(frozen=True)
class OnRank:
    """Any empty square of the seat's ``rank`` (0: its first rank)."""

    rank: int

    @property
    def text(self) -> str:
        return f" on your {RANK_WORDS[self.rank]} rank"

    def squares(self, g: Mechanics, seat: int, kind: UnitType) -> list[int]:
        board, forward = g.position.board, g.rules.seating.forward(seat)
        return [sq for sq in _RANK_SQUARES[forward, self.rank] if board[sq] is None]


# The squares of each rank counted from a side's first (0), for each forward sign, in board
# order: a placement on a rank looks at its eight squares, not the whole board.
_RANK_SQUARES = {
    (forward, rank): tuple(sq for sq in SQUARES if relative_rank(sq, forward) == rank)
    for forward in (1, -1)
    for rank in range(SIZE)
}


@dataclass(frozen=True)
class NextTo:
    """Any empty square touching one of the seat's own units of class ``cls``."""

    cls: UnitClass

    @property
    def text(self) -> str:
        what = "Sovereigns" if self.cls is UnitClass.SOVEREIGN else f"{self.cls.value} units"
        return f" next to one of your {what}"

    def squares(self, g: Mechanics, seat: int, kind: UnitType) -> list[int]:
        return empty_around(g, own_squares(g, seat, self.cls))


BY_THE_RULES = ByTheRules()


def on_rank(rank: int) -> OnRank:
    return OnRank(rank - 1)


def next_to(cls: UnitClass) -> NextTo:
    return NextTo(cls)


# ==================================================================== OrderUnit: where, and after


class Destination(Protocol):
    """A square an order may end on."""

    @property
    def text(self) -> str: ...  # follows "march your unit"

    def allows(self, g: Mechanics, seat: int, move: UnitMove) -> bool: ...


@dataclass(frozen=True)
class Unthreatened:
    text = " to a square where no enemy could capture it"

    def allows(self, g: Mechanics, seat: int, move: UnitMove) -> bool:
        return not g.position.would_be_threatened(move.frm, move.to)


@dataclass(frozen=True)
class NextToOwn:
    text = " to a square touching another of your units"

    def allows(self, g: Mechanics, seat: int, move: UnitMove) -> bool:
        """Judged on the board as the move leaves it: a Spy's swap puts the unit it swapped
        with on the square it left."""
        board = g.position.board

        def after(t: int) -> Unit | None:
            if t == move.frm:
                return board[move.to] if move.kind == "swap" else None
            return board[t]

        return any(
            (u := after(t)) is not None and g.rules.is_own(g, seat, u) for t in adjacent(move.to)
        )


UNTHREATENED = Unthreatened()
NEXT_TO_OWN = NextToOwn()


class Aftermath(Protocol):
    """What follows an order by a card: ``unit`` has just made ``move`` for ``seat``."""

    @property
    def text(self) -> str: ...  # a clause: "; nothing can capture it until your next turn"

    def __call__(self, g: Mechanics, seat: int, move: UnitMove, unit: Unit) -> None: ...


@dataclass(frozen=True)
class Uncapturable:
    text = "; nothing can capture it until your next turn"

    def __call__(self, g: Mechanics, seat: int, move: UnitMove, unit: Unit) -> None:
        g.rules.protect(g, seat, unit)


@dataclass(frozen=True)
class FreezeUnit:
    text = "; it cannot take orders on its owner's next turn"

    def __call__(self, g: Mechanics, seat: int, move: UnitMove, unit: Unit) -> None:
        unit.freeze()


@dataclass(frozen=True)
class FreezeNeighbours:
    text = "; the units touching the captured one cannot take orders"

    def __call__(self, g: Mechanics, seat: int, move: UnitMove, unit: Unit) -> None:
        for captured in move.captures:
            for t in adjacent(captured):
                neighbour = g.position.board[t]
                if neighbour is not None and neighbour is not unit:
                    g.rules.freeze_beside_capture(g, seat, neighbour)


UNCAPTURABLE = Uncapturable()
FREEZE_UNIT = FreezeUnit()
FREEZE_NEIGHBOURS = FreezeNeighbours()


# ==================================================================== MoveUnit: which moves


class Relocation(Protocol):
    """The (from, to) squares ``MoveUnit`` offers: a unit picked up and put down elsewhere,
    whatever its movement. ``movable`` are the squares of the units the seat may choose."""

    @property
    def text(self) -> str: ...

    def reads(self) -> tuple[Key[int], ...]: ...

    def moves(self, g: Mechanics, f: Frame, movable: list[int]) -> Iterator[tuple[int, int]]: ...


@dataclass(frozen=True)
class NextToRegal:
    """Consort: a non-Sovereign unit to an empty square touching a different Regal unit."""

    text = "move a non-Sovereign unit next to another of your Regal units"

    def reads(self) -> tuple[Key[int], ...]:
        return ()

    def moves(self, g: Mechanics, f: Frame, movable: list[int]) -> Iterator[tuple[int, int]]:
        regals = own_squares(g, f.seat, UnitClass.REGAL)
        for sq in movable:
            if g.unit_at(sq).kind.is_sovereign:
                continue
            for t in empty_around(g, [r for r in regals if r != sq]):
                yield sq, t


@dataclass(frozen=True)
class RegalToSafety:
    """Aviary: a Regal unit to any empty square where no enemy could capture it."""

    text = "move a Regal unit to an empty square where it is not threatened"

    def reads(self) -> tuple[Key[int], ...]:
        return ()

    def moves(self, g: Mechanics, f: Frame, movable: list[int]) -> Iterator[tuple[int, int]]:
        pos = g.position
        for sq in movable:
            if not g.unit_at(sq).kind.has(UnitClass.REGAL):
                continue
            for t in range(64):
                if pos.board[t] is None and not pos.would_be_threatened(sq, t):
                    yield sq, t


@dataclass(frozen=True)
class AroundSquare:
    """Sanctuary: a unit touching the one on the square kept under ``key``, to another empty
    square touching it."""

    key: Key[int]
    text = "move a unit next to your Heavy unit to an empty square next to it"

    def reads(self) -> tuple[Key[int], ...]:
        return (self.key,)

    def moves(self, g: Mechanics, f: Frame, movable: list[int]) -> Iterator[tuple[int, int]]:
        if not f.has(self.key):
            return
        board = g.position.board
        around = adjacent(f.value(self.key))
        for sq in around:
            if sq in movable:
                for t in around:
                    if board[t] is None:
                        yield sq, t


NEXT_TO_REGAL = NextToRegal()
REGAL_TO_SAFETY = RegalToSafety()


def around(key: Key[int]) -> AroundSquare:
    return AroundSquare(key)
