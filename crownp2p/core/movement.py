"""Movement primitives: leapers, riders and the few bent or special movers.

A unit type's movement is a tuple of movers. Offsets are ``(dx, dy)`` with ``dy`` measured toward
the owner's *forward*, so one description serves both seats; every mover precomputes, for each
forward sign and each square, the squares it can reach on an empty board, so generation is a walk
over small tuples.

Generation reads an *occupancy* list of 64 ints seen from the moving unit's side:
``EMPTY``; ``TARGET`` (an enemy it may capture); ``OWN`` (a unit of its owner: blocks, and is a
Spy's swap partner); ``BLOCKED`` (any other unit it can neither pass nor capture: an ally, or an
enemy that cannot be captured). Movers append :class:`UnitMove` values to ``out``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .board import (
    SIZE,
    SQUARE_NAMES,
    SQUARES,
    file_of,
    on_board,
    rank_of,
    relative_rank,
    square,
)
from .memo import Memo

EMPTY, TARGET, OWN, BLOCKED = 0, 1, 2, 3

MARCH, ATTACK = 1, 2
BOTH = MARCH | ATTACK

Offset = tuple[int, int]

KING_STEPS: tuple[Offset, ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
STRAIGHT: tuple[Offset, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Offset, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT: tuple[Offset, ...] = (
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
)


def symmetric(a: int, b: int) -> tuple[Offset, ...]:
    """Every (±a, ±b) and (±b, ±a) leap, without repeats, in a fixed order."""
    seen: list[Offset] = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                off = (sx * x, sy * y)
                if off not in seen:
                    seen.append(off)
    return tuple(seen)


class UnitMove(NamedTuple):
    """One way a unit can carry out a march or an attack by its normal rules.

    ``kind`` is ``"march"`` (to an empty square), ``"swap"`` (the Spy's march) or ``"attack"``.
    ``captures`` lists the captured squares in path order: one for most attacks, several for a
    Charger, and for the Oracle ``to == frm`` because it captures without moving.
    """

    kind: str
    frm: int
    to: int
    captures: tuple[int, ...] = ()


def move_decision(move: UnitMove) -> tuple[str, ...]:
    """The decision that stands for ``move``: ``march e2 e4``; an Oracle's attack names the
    square it captures on."""
    return MOVE_DECISIONS[move]


def _make_move_decision(move: UnitMove) -> tuple[str, ...]:
    kind, frm, to, captures = move
    key = to if to != frm or not captures else captures[0]
    return (kind, SQUARE_NAMES[frm], SQUARE_NAMES[key])


# Every move's decision, made the first time it is asked for: a listing of a phase's decisions
# looks up one for each of a few dozen moves, and a look-up is a quarter of the cost of making
# one. It holds at most every move the movers can make (some thousands).
MOVE_DECISIONS: Memo[UnitMove, tuple[str, ...]] = Memo(_make_move_decision)


FORWARDS = (1, -1)


def _target(frm: int, off: Offset, forward: int) -> int | None:
    f, r = file_of(frm) + off[0], rank_of(frm) + off[1] * forward
    return square(f, r) if on_board(f, r) else None


def _ray(frm: int, off: Offset, forward: int, limit: int = SIZE) -> tuple[int, ...]:
    out = []
    f, r = file_of(frm), rank_of(frm)
    for _ in range(limit):
        f, r = f + off[0], r + off[1] * forward
        if not on_board(f, r):
            break
        out.append(square(f, r))
    return tuple(out)


def _per_square(build: Callable[[int, int], Any]) -> dict[int, tuple[Any, ...]]:
    return {fw: tuple(build(sq, fw) for sq in SQUARES) for fw in FORWARDS}


def _leaps(offsets: tuple[Offset, ...]) -> dict[int, tuple[Any, ...]]:
    """For each forward sign and square, the squares one leap by ``offsets`` reaches."""

    def build(sq: int, fw: int) -> tuple[int, ...]:
        return tuple(t for off in offsets if (t := _target(sq, off, fw)) is not None)

    return _per_square(build)


class Mover:
    """Base class: ``generate`` appends this mover's moves from ``frm`` to ``out``."""

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        raise NotImplementedError

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        """Append every square on which this mover could capture an enemy standing there (the
        square's own unit, if any, taken for a capturable enemy; the rest of ``occ`` as it
        is): what an attack map is made of."""
        raise NotImplementedError


@dataclass(frozen=True, eq=False)
class Leap(Mover):
    """Jumps straight to each offset, ignoring what lies between."""

    offsets: tuple[Offset, ...]
    mode: int = BOTH
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        leaps = _leaps(self.offsets)  # once, not once a square

        def build(sq: int, fw: int) -> tuple[tuple[int, UnitMove | None, UnitMove | None], ...]:
            return tuple(_ready_moves(self.mode, sq, t) for t in leaps[fw][sq])

        object.__setattr__(self, "_table", _per_square(build))

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        add = out.append
        for t, march, attack in self._table[forward][frm]:
            c = occ[t]
            if c == EMPTY:
                if march:
                    add(march)
            elif c == TARGET and attack:
                add(attack)

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        out.extend(t for t, _, attack in self._table[forward][frm] if attack)


@dataclass(frozen=True, eq=False)
class Ride(Mover):
    """Slides along each direction until blocked.

    ``reach`` caps the distance and ``nearest`` is the shortest move it may make, march or
    attack (a Monk's straight move is exactly 2, a Sniper attacks from 2 away); ``in_place``
    captures without moving (the Oracle). Any vector rides, so a Nightrider is a Ride over the
    knight's offsets.
    """

    directions: tuple[Offset, ...]
    mode: int = BOTH
    reach: int = SIZE
    nearest: int = 1
    in_place: bool = False
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def build(sq: int, fw: int) -> tuple[tuple[Any, ...], ...]:
            return tuple(
                tuple(self._ready(sq, t, distance) for distance, t in enumerate(ray, 1))
                for ray in self._rays(sq, fw)
            )

        object.__setattr__(self, "_table", _per_square(build))

    def _rays(self, sq: int, fw: int) -> tuple[tuple[int, ...], ...]:
        rays = (_ray(sq, d, fw, self.reach) for d in self.directions)
        return tuple(ray for ray in rays if ray)

    def _ready(self, frm: int, t: int, distance: int) -> tuple[int, Any, Any]:
        """Square ``t`` of a ray with the march and attack that end there (None: not allowed
        at this distance)."""
        if distance < self.nearest:
            return t, None, None
        t, march, attack = _ready_moves(self.mode, frm, t)
        if attack and self.in_place:
            attack = UnitMove("attack", frm, frm, (t,))
        return t, march, attack

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        add = out.append
        for ray in self._table[forward][frm]:
            for t, march, attack in ray:
                c = occ[t]
                if c == EMPTY:
                    if march:
                        add(march)
                    continue
                if c == TARGET and attack:
                    add(attack)
                break

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        if not self.mode & ATTACK:
            return
        for ray in self._table[forward][frm]:
            for t, _, attack in ray:
                if attack:
                    out.append(t)
                if occ[t] != EMPTY:
                    break


def _ready_moves(mode: int, frm: int, t: int) -> tuple[int, UnitMove | None, UnitMove | None]:
    """The march and the attack from ``frm`` to ``t`` a mover of ``mode`` may make, built once
    when the mover is (moves are values: generation hands out the same ones every time)."""
    march = UnitMove("march", frm, t) if mode & MARCH else None
    attack = UnitMove("attack", frm, t, (t,)) if mode & ATTACK else None
    return t, march, attack


@dataclass(frozen=True, eq=False)
class PawnPush(Ride):
    """A forward march of one square, or two from the owner's first or second rank."""

    directions: tuple[Offset, ...] = ((0, 1),)
    mode: int = MARCH

    def _rays(self, sq: int, fw: int) -> tuple[tuple[int, ...], ...]:
        reach = 2 if relative_rank(sq, fw) <= 1 else 1
        ray = _ray(sq, self.directions[0], fw, reach)
        return (ray,) if ray else ()


@dataclass(frozen=True, eq=False)
class StepThenRide(Mover):
    """One step, then optionally a ride outward (Gryphon, Sphinx).

    ``paths`` pairs each first step with the directions it may continue in. A capture on the step
    ends the move; a unit on the step square blocks the whole path.
    """

    paths: tuple[tuple[Offset, tuple[Offset, ...]], ...]
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def build(sq: int, fw: int) -> tuple[Any, ...]:
            out = []
            for step, onward in self.paths:
                t = _target(sq, step, fw)
                if t is not None:
                    rays = tuple(r for d in onward if (r := _ray(t, d, fw)))
                    out.append((t, rays))
            return tuple(out)

        object.__setattr__(self, "_table", _per_square(build))

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        for t, rays in self._table[forward][frm]:
            c = occ[t]
            if c == TARGET:
                out.append(UnitMove("attack", frm, t, (t,)))
            if c != EMPTY:
                continue
            out.append(UnitMove("march", frm, t))
            for ray in rays:
                for u in ray:
                    c = occ[u]
                    if c == EMPTY:
                        out.append(UnitMove("march", frm, u))
                        continue
                    if c == TARGET:
                        out.append(UnitMove("attack", frm, u, (u,)))
                    break

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        for t, rays in self._table[forward][frm]:
            out.append(t)
            if occ[t] != EMPTY:
                continue
            for ray in rays:
                for u in ray:
                    out.append(u)
                    if occ[u] != EMPTY:
                        break


@dataclass(frozen=True, eq=False)
class KingSteps(Mover):
    """Up to ``steps`` king steps in any combination, never through a unit; a capture stops it
    (the Warlord). Stepping out and back, a march in place, is not a move here: only a card's march
    offers it, where standing still has a consequence (see :func:`can_march_in_place`)."""

    steps: int = 2
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_table", _leaps(KING_STEPS))

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        for t, c in self._walk(occ, frm, forward):
            if c == EMPTY:
                out.append(UnitMove("march", frm, t))
            elif c == TARGET:
                out.append(UnitMove("attack", frm, t, (t,)))

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        out.extend(t for t, _ in self._walk(occ, frm, forward))

    def _walk(self, occ: Sequence[int], frm: int, forward: int) -> Iterator[tuple[int, int]]:
        """Every square within ``steps`` king steps by way of empty squares, once, nearest
        first, with what stands there."""
        table = self._table[forward]
        seen = {frm}
        frontier = [frm]
        for _ in range(self.steps):
            reached = []
            for here in frontier:
                for t in table[here]:
                    if t in seen:
                        continue
                    seen.add(t)
                    c = occ[t]
                    yield t, c
                    if c == EMPTY:
                        reached.append(t)
            frontier = reached

    def can_march_in_place(self, occ: Sequence[int], frm: int, forward: int) -> bool:
        """True when it could step to an empty square and back in one march."""
        return self.steps >= 2 and any(occ[t] == EMPTY for t in self._table[forward][frm])


@dataclass(frozen=True, eq=False)
class DoubleLeap(Mover):
    """Two leaps by ``offsets`` in a row, the first onto an empty square (the Phantom). Only the
    first landing can block it; ending where it started is no move."""

    offsets: tuple[Offset, ...] = KNIGHT
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_table", _leaps(self.offsets))

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        for t in self._landings(occ, frm, forward):
            c = occ[t]
            if c == EMPTY:
                out.append(UnitMove("march", frm, t))
            elif c == TARGET:
                out.append(UnitMove("attack", frm, t, (t,)))

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        out.extend(self._landings(occ, frm, forward))

    def _landings(self, occ: Sequence[int], frm: int, forward: int) -> Iterator[int]:
        """Every square the second leap reaches, once, but the start."""
        table = self._table[forward]
        seen = {frm}
        for mid in table[frm]:
            if occ[mid] != EMPTY:
                continue
            for t in table[mid]:
                if t not in seen:
                    seen.add(t)
                    yield t


@dataclass(frozen=True, eq=False)
class Charge(Mover):
    """1 to ``reach`` squares in a straight line, capturing every enemy on the way and stopping
    short of any unit it cannot capture (the Charger)."""

    directions: tuple[Offset, ...] = STRAIGHT
    reach: int = 3
    _table: dict[int, tuple[Any, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        def build(sq: int, fw: int) -> tuple[tuple[int, ...], ...]:
            return tuple(r for d in self.directions if (r := _ray(sq, d, fw, self.reach)))

        object.__setattr__(self, "_table", _per_square(build))

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        for ray in self._table[forward][frm]:
            captured: tuple[int, ...] = ()
            for t in ray:
                c = occ[t]
                if c == TARGET:
                    captured += (t,)
                elif c != EMPTY:
                    break
                out.append(UnitMove("attack" if captured else "march", frm, t, captured))

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        for ray in self._table[forward][frm]:
            for t in ray:
                out.append(t)
                if occ[t] != EMPTY and occ[t] != TARGET:  # it charges on through enemies
                    break


@dataclass(frozen=True, eq=False)
class SwapWithOwn(Mover):
    """Marches by trading places with any other unit of its owner on the board (the Spy)."""

    def generate(self, occ: Sequence[int], frm: int, forward: int, out: list[UnitMove]) -> None:
        for t in SQUARES:
            if occ[t] == OWN and t != frm:
                out.append(UnitMove("swap", frm, t))

    def attacks(self, occ: Sequence[int], frm: int, forward: int, out: list[int]) -> None:
        """It never captures."""
