"""The board, the Barracks and the seat to move, with a FEN-like text form.

Text form (see docs/notation.md)::

    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR 0 NP -

the board from rank 8 down to rank 1, ``/`` between ranks, a digit for a run of empty squares and
one letter per unit (upper case: seat 0, blue; lower case: seat 1, gold); then, optionally, the
seat to move and one field per seat listing its Barracks (``-`` when empty).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress

from .board import SIZE, SQUARES, adjacent, relative_rank, square, square_name
from .movement import BLOCKED, EMPTY, OWN, TARGET, UnitMove
from .seats import TWO_SEATS, Seating
from .units import UnitRegistry, UnitType

# A "cannot take orders" status (Mourning, False Orders; Wish's lock on Order cards), as bits:
# it may hold for the rest of the current turn and for the owner's next turn at once.
FROZEN_NONE, FROZEN_NEXT, FROZEN_NOW = 0, 1, 2


def status_at_turn_start(status: int) -> int:
    """At the start of the owner's turn, "next turn" becomes "this turn"."""
    return FROZEN_NOW if status else FROZEN_NONE


def status_at_turn_end(status: int) -> int:
    """At the end of the owner's turn, "this turn" is over; a "next turn" set meanwhile stays."""
    return status & FROZEN_NEXT


class PositionError(ValueError):
    """A position string that cannot be read; the message names the offending part."""


@dataclass(slots=True, eq=False)
class Unit:
    """A unit on the board. It stays the same unit when it moves, is promoted or morphs."""

    kind: UnitType
    owner: int
    uid: int = 0
    uncapturable: bool = False  # Armor, Wish: no capture of any kind (Rules.protection_ends)
    frozen: int = FROZEN_NONE  # cannot take orders: bits FROZEN_NEXT and FROZEN_NOW

    def copy(self) -> Unit:
        # Filled slot by slot: a quarter faster than __init__, and a search copies every unit
        # of the board for each clone.
        new = object.__new__(Unit)
        new.kind, new.owner, new.uid = self.kind, self.owner, self.uid
        new.uncapturable, new.frozen = self.uncapturable, self.frozen
        return new

    def freeze(self) -> None:
        """It cannot take orders on its owner's next turn (Mourning, False Orders), and still
        cannot for the rest of this one if it could not already."""
        self.frozen |= FROZEN_NEXT

    @property
    def frozen_now(self) -> bool:
        return bool(self.frozen & FROZEN_NOW)


@dataclass(eq=False)
class Position:
    registry: UnitRegistry
    seating: Seating = TWO_SEATS
    board: list[Unit | None] = field(default_factory=lambda: [None] * (SIZE * SIZE))
    barracks: list[list[UnitType]] = field(default_factory=list)
    to_move: int = 0

    def __post_init__(self) -> None:
        if not self.barracks:
            self.barracks = [[] for _ in self.seating.seats]

    # ----------------------------------------------------------------- reading the board

    def units(self) -> Iterator[tuple[int, Unit]]:
        for sq in SQUARES:
            unit = self.board[sq]
            if unit is not None:
                yield sq, unit

    def occupancy(self, seat: int) -> list[int]:
        """The board as ``seat``'s units see it (the categories of movement.py)."""
        seating = self.seating
        sides = seating.sides
        my_side = sides[seat]
        shared = seating.shared_sovereigns
        board = self.board
        occ = [EMPTY] * (SIZE * SIZE)
        for sq in compress(SQUARES, board):  # the occupied squares (a unit is true)
            unit = board[sq]
            assert unit is not None
            owner = unit.owner
            if owner == seat or (shared and sides[owner] == my_side and unit.kind.is_sovereign):
                occ[sq] = OWN
            elif sides[owner] != my_side and not unit.uncapturable:
                occ[sq] = TARGET
            else:
                occ[sq] = BLOCKED
        return occ

    def unit_moves(self, sq: int, occ: list[int] | None = None) -> list[UnitMove]:
        """The marches and attacks the unit on ``sq`` can make by its normal rules."""
        unit = self.board[sq]
        if unit is None:
            raise ValueError(f"there is no unit on {square_name(sq)}")
        if occ is None:
            occ = self.occupancy(unit.owner)
        return unit.kind.moves(occ, sq, self.seating.forward(unit.owner))

    def all_moves(self, seat: int) -> list[UnitMove]:
        occ = self.occupancy(seat)
        forward = self.seating.forward(seat)
        out: list[UnitMove] = []
        for sq, unit in enumerate(self.board):
            if unit is not None and unit.owner == seat:
                for mover in unit.kind.movers:
                    mover.generate(occ, sq, forward, out)
        return out

    def would_be_threatened(self, frm: int, to: int) -> bool:
        """Could an enemy capture the unit on ``frm`` by a normal attack once it stands on
        ``to``? Judged after the move, as the rules say: the unit is lifted from ``frm`` first."""
        unit = self.board[frm]
        if unit is None:
            raise ValueError(f"there is no unit on {square_name(frm)}")
        displaced = self.board[to]
        self.board[frm], self.board[to] = None, unit
        try:
            return any(
                to in move.captures
                for enemy in self.seating.seats
                if self.seating.are_enemies(unit.owner, enemy)
                for move in self.all_moves(enemy)
            )
        finally:
            self.board[to], self.board[frm] = displaced, unit

    def attack_map(self) -> AttackMap:
        """Which squares each side attacks, and from where (see :class:`AttackMap`)."""
        sides = self.seating.sides
        by_side: list[list[list[int]]] = [[[] for _ in SQUARES] for _ in range(max(sides) + 1)]
        occ_of: dict[int, list[int]] = {}
        attacked: list[int] = []
        for sq, unit in enumerate(self.board):
            if unit is None:
                continue
            owner = unit.owner
            occ = occ_of.get(owner)
            if occ is None:
                occ = occ_of[owner] = self.occupancy(owner)
            forward = self.seating.forward(owner)
            for mover in unit.kind.movers:
                mover.attacks(occ, sq, forward, attacked)
            into = by_side[sides[owner]]
            for t in attacked:
                if sq not in into[t]:
                    into[t].append(sq)
            attacked.clear()
        units = tuple(
            None if u is None else (u.owner, not u.uncapturable, u.kind.is_sovereign)
            for u in self.board
        )
        attackers = tuple(tuple(tuple(a) for a in side) for side in by_side)
        return AttackMap(sides, units, attackers)

    def deploy_squares(self, seat: int, kind: UnitType) -> list[int]:
        """Empty squares of the seat's first rank, and of its second for a Foot unit."""
        board = self.board
        home = _HOME_RANKS[self.seating.forward(seat), kind.is_foot]
        return [sq for sq in home if board[sq] is None]

    def is_last_rank(self, sq: int, seat: int) -> bool:
        return relative_rank(sq, self.seating.forward(seat)) == SIZE - 1

    def sovereign_squares(self, seat: int) -> list[int]:
        return [sq for sq, u in self.units() if u.owner == seat and u.kind.is_sovereign]

    def adjacent_units(self, sq: int) -> list[int]:
        return [t for t in adjacent(sq) if self.board[t] is not None]

    # ----------------------------------------------------------------- text form

    def board_fen(self) -> str:
        rows = []
        for rank in reversed(range(SIZE)):
            row, empties = "", 0
            for file in range(SIZE):
                unit = self.board[square(file, rank)]
                if unit is None:
                    empties += 1
                    continue
                if empties:
                    row, empties = row + str(empties), 0
                row += self._symbol(unit.kind, unit.owner)
            rows.append(row + (str(empties) if empties else ""))
        return "/".join(rows)

    def fen(self) -> str:
        barracks = [
            "".join(sorted(self._symbol(k, seat) for k in self.barracks[seat])) or "-"
            for seat in self.seating.seats
        ]
        return " ".join([self.board_fen(), str(self.to_move), *barracks])

    def _symbol(self, kind: UnitType, owner: int) -> str:
        return kind.letter if self.seating.sides[owner] == 0 else kind.letter.lower()

    @classmethod
    def from_fen(cls, text: str, registry: UnitRegistry, seating: Seating = TWO_SEATS) -> Position:
        if len(seating.sides) != 2:
            raise PositionError("the text form describes two-seat positions only")
        fields = text.split()
        if not fields:
            raise PositionError("a position needs at least the board field")
        if len(fields) > 2 + len(seating.sides):
            raise PositionError(
                f"too many fields: expected the board, the seat to move and "
                f"{len(seating.sides)} Barracks fields, got {len(fields)} fields"
            )
        if len(fields) not in (1, 2, 2 + len(seating.sides)):
            raise PositionError("give a Barracks field for every seat, or none")
        pos = cls(registry, seating)
        pos._read_board(fields[0])
        if len(fields) > 1:
            pos.to_move = _read_seat(fields[1], seating)
        for seat, text_field in enumerate(fields[2:]):
            pos.barracks[seat] = pos._read_barracks(text_field, seat)
        return pos

    def _read_board(self, text: str) -> None:
        rows = text.split("/")
        if len(rows) != SIZE:
            raise PositionError(
                f"the board field needs {SIZE} ranks separated by '/', not {len(rows)}"
            )
        uid = 0
        for row_index, row in enumerate(rows):
            rank = SIZE - 1 - row_index
            file = 0
            for ch in row:
                if ch in "12345678":
                    file += int(ch)
                else:
                    kind = self.registry.by_letter(ch) if ch.isascii() and ch.isalpha() else None
                    if kind is None:
                        raise PositionError(f"{ch!r} on rank {rank + 1} is not a unit letter")
                    if file >= SIZE:
                        raise PositionError(f"rank {rank + 1} has more than {SIZE} squares")
                    uid += 1
                    owner = 0 if ch.isupper() else 1
                    self.board[square(file, rank)] = Unit(kind, owner, uid)
                    file += 1
                if file > SIZE:
                    raise PositionError(f"rank {rank + 1} has more than {SIZE} squares")
            if file != SIZE:
                raise PositionError(f"rank {rank + 1} has {file} squares, not {SIZE}")

    def _read_barracks(self, text: str, seat: int) -> list[UnitType]:
        if text == "-":
            return []
        kinds = []
        for ch in text:
            kind = self.registry.by_letter(ch) if ch.isascii() and ch.isalpha() else None
            if kind is None:
                raise PositionError(f"{ch!r} in seat {seat}'s Barracks is not a unit letter")
            if ch != self._symbol(kind, seat):
                raise PositionError(
                    f"{ch!r} in seat {seat}'s Barracks has the wrong case for that seat"
                )
            kinds.append(kind)
        return sorted(kinds, key=lambda k: k.letter)

    def copy(self) -> Position:
        # Field by field, without __init__: a search copies the position for every clone.
        new = object.__new__(Position)
        new.registry, new.seating, new.to_move = self.registry, self.seating, self.to_move
        new.board = [unit if unit is None else unit.copy() for unit in self.board]
        new.barracks = [list(b) for b in self.barracks]
        return new

    def __str__(self) -> str:
        return self.fen()


class AttackMap:
    """Which squares each side attacks, and with which units, in one position: a square is
    attacked by a unit when that unit could capture an enemy standing there by a normal attack
    (whatever stands there now, so a side's own units count as defended). Every mover counts,
    the odd ones too (the Oracle's capture from afar, the Charger's run, the Warlord's two
    steps); who may order the unit this turn does not. Built by :meth:`Position.attack_map`,
    it is a value: later moves do not change it (a game keeps one until its next decision,
    ``Game.attack_map``)."""

    def __init__(
        self,
        sides: tuple[int, ...],
        units: tuple[tuple[int, bool, bool] | None, ...],
        by_side: tuple[tuple[tuple[int, ...], ...], ...],
    ) -> None:
        self._sides = sides  # seat -> side
        self._units = units  # square -> (owner, capturable, is a Sovereign), or None
        self._by_side = by_side  # side -> square -> squares of that side's units attacking it
        self._sovereigns = [
            [
                sq
                for sq, unit in enumerate(units)
                if unit is not None and unit[0] == seat and unit[2]
            ]
            for seat in range(len(sides))
        ]

    def attackers(self, side: int, sq: int) -> tuple[int, ...]:
        """The squares of ``side``'s units that attack ``sq``, in board order."""
        return self._by_side[side][sq]

    def attacked(self, side: int) -> list[int]:
        """Every square ``side`` attacks."""
        return [sq for sq, by in enumerate(self._by_side[side]) if by]

    def threatened(self, sq: int) -> bool:
        """Could an enemy capture the unit on ``sq`` by a normal attack now? (False for an
        empty square or an uncapturable unit.)"""
        unit = self._units[sq]
        if unit is None or not unit[1]:
            return False
        mine = self._sides[unit[0]]
        return any(by[sq] for side, by in enumerate(self._by_side) if side != mine)

    def under_attack(self, side: int) -> list[int]:
        """The squares of ``side``'s units an enemy could capture now (for the other side:
        the enemy units it can capture)."""
        return [
            sq
            for sq, unit in enumerate(self._units)
            if unit is not None and self._sides[unit[0]] == side and self.threatened(sq)
        ]

    def sovereign_attacked(self, seat: int) -> bool:
        """Is a Sovereign of ``seat`` threatened?"""
        return any(self.threatened(sq) for sq in self._sovereigns[seat])


# The squares a unit may be deployed on when empty, by forward sign and "is a Foot unit".
_HOME_RANKS = {
    (forward, foot): tuple(
        sq for sq in SQUARES if relative_rank(sq, forward) in ((0, 1) if foot else (0,))
    )
    for forward in (1, -1)
    for foot in (True, False)
}


def _read_seat(text: str, seating: Seating) -> int:
    if text.isdigit() and int(text) in seating.seats:
        return int(text)
    raise PositionError(f"{text!r} is not a seat to move: use 0 (blue) or 1 (gold)")
