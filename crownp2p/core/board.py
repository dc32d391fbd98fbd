"""Squares of the 8x8 board and their names.

A square is an int 0..63: ``file + 8 * rank`` with a1 = 0, h1 = 7, a8 = 56, h8 = 63.
Directions are relative to a unit's owner: every seat has a *forward* sign, +1 for a seat that
plays up the board from rank 1 and -1 for one that plays down from rank 8.
"""

from __future__ import annotations

FILES = "abcdefgh"
RANKS = "12345678"
SIZE = 8
SQUARES = range(SIZE * SIZE)

SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
_SQUARE_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square(file: int, rank: int) -> int:
    """The square at 0-based ``file`` and ``rank``."""
    return file + SIZE * rank


def file_of(sq: int) -> int:
    return sq % SIZE


def rank_of(sq: int) -> int:
    return sq // SIZE


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """``"e4"`` -> 28; raises ValueError with a sentence a user can act on."""
    try:
        return _SQUARE_BY_NAME[text.strip().lower()]
    except KeyError:
        raise ValueError(
            f"{text!r} is not a square: use a file a-h and a rank 1-8, like e4"
        ) from None


def relative_rank(sq: int, forward: int) -> int:
    """0 for the owner's first rank, 7 for the owner's last rank."""
    r = rank_of(sq)
    return r if forward > 0 else SIZE - 1 - r


def distance(a: int, b: int) -> int:
    """King steps from square ``a`` to square ``b``."""
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def adjacent(sq: int) -> tuple[int, ...]:
    """The up-to-8 squares touching ``sq`` by a side or a corner."""
    return _ADJACENT[sq]


def _adjacent_of(sq: int) -> tuple[int, ...]:
    f, r = file_of(sq), rank_of(sq)
    return tuple(
        square(f + df, r + dr)
        for dr in (-1, 0, 1)
        for df in (-1, 0, 1)
        if (df or dr) and on_board(f + df, r + dr)
    )


_ADJACENT: tuple[tuple[int, ...], ...] = tuple(_adjacent_of(sq) for sq in SQUARES)
