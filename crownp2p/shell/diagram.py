"""A unit's moves drawn on an empty board, for ``help UNIT``.

The squares come from the engine's own move generator (the unit type's movers), so the picture
cannot drift from the rules: a march is what the unit does on the empty board, an attack is a
square it captures when a lone enemy stands there, a swap (the Spy) a square where it trades
places with a lone unit of its own. The unit stands on d4 facing up (its owner's forward); the
picture is cut to the squares it reaches, with one square around them.
"""

from __future__ import annotations

from ..core.board import SIZE, SQUARES, file_of, rank_of, square, square_name
from ..core.movement import EMPTY, OWN, TARGET
from ..core.units import UnitType

__all__ = ["DIAGRAM_SQUARE", "MARKS", "diagram", "reach"]

DIAGRAM_SQUARE = square(3, 3)  # d4: room on every side, and forward is up
FORWARD = 1

MARCH, ATTACK, SWAP = "march", "attack", "swap"
# One mark per set of ways onto a square; letters, so the picture reads without colour.
MARKS = {
    frozenset({MARCH}): "o",
    frozenset({ATTACK}): "x",
    frozenset({MARCH, ATTACK}): "*",
    frozenset({SWAP}): "s",
    frozenset({SWAP, ATTACK}): "&",
}
MEANINGS = {
    "o": "marches there",
    "x": "attacks there",
    "*": "marches or attacks there",
    "s": "swaps with a unit of its own there",
    "&": "swaps or attacks there",
}


def reach(kind: UnitType, frm: int = DIAGRAM_SQUARE) -> dict[int, frozenset[str]]:
    """Square -> the ways ``kind`` standing on ``frm`` gets onto it, on an otherwise empty
    board: marching there, capturing a lone enemy there, swapping with a lone own unit."""
    empty = [EMPTY] * (SIZE * SIZE)
    ways: dict[int, set[str]] = {}
    for move in kind.moves(empty, frm, FORWARD):
        ways.setdefault(move.to, set()).add(MARCH)
    for sq in SQUARES:
        if sq == frm:
            continue
        for occupant, way in ((TARGET, ATTACK), (OWN, SWAP)):
            occ = list(empty)
            occ[sq] = occupant
            moves = kind.moves(occ, frm, FORWARD)
            if way == ATTACK and any(sq in m.captures for m in moves):
                ways.setdefault(sq, set()).add(ATTACK)
            if way == SWAP and any(m.kind == "swap" and m.to == sq for m in moves):
                ways.setdefault(sq, set()).add(SWAP)
    return {sq: frozenset(w) for sq, w in sorted(ways.items())}


def diagram(kind: UnitType, unicode: bool = True) -> list[str]:
    """The picture (rank numbers on the left, file letters below, ``kind``'s letter on d4) and
    a line naming the marks it uses."""
    ways = reach(kind)
    shown = [DIAGRAM_SQUARE, *ways]
    files = [file_of(sq) for sq in shown]
    ranks = [rank_of(sq) for sq in shown]
    lo_file, hi_file = max(min(files) - 1, 0), min(max(files) + 1, SIZE - 1)
    lo_rank, hi_rank = max(min(ranks) - 1, 0), min(max(ranks) + 1, SIZE - 1)
    empty = "·" if unicode else "."
    lines = []
    for rank in range(hi_rank, lo_rank - 1, -1):
        row = []
        for file in range(lo_file, hi_file + 1):
            sq = square(file, rank)
            if sq == DIAGRAM_SQUARE:
                row.append(kind.letter)
            else:
                row.append(MARKS[ways[sq]] if sq in ways else empty)
        lines.append(f"  {rank + 1} " + " ".join(row))
    names = [square_name(square(f, 0))[0] for f in range(lo_file, hi_file + 1)]
    lines.append("    " + " ".join(names))
    used = [mark for mark in MEANINGS if mark in {MARKS[w] for w in ways.values()}]
    between = " · " if unicode else " | "
    key = between.join(f"{mark} {MEANINGS[mark]}" for mark in used) or "it cannot move"
    return [*lines, f"  {kind.letter} on d4, forward is up: {key}"]
