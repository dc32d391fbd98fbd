"""The position text form: ``BOARD SEAT BARRACKS0 BARRACKS1``.

The board runs from rank 8 down to rank 1 with ``/`` between ranks, a digit for a run of empty
squares, upper case for seat 0 and lower case for seat 1; the seat to move is 0 or 1; each
Barracks field lists its units' letters, sorted, in its seat's case, or ``-`` when empty.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crownp2p.core.board import parse_square, square_name
from crownp2p.core.position import Position, PositionError, Unit
from crownp2p.core.standard import unit_registry

REGISTRY = unit_registry()
LETTERS = "PNBRQKSWOGCAYFHEJDIMVZXT"
EMPTY_BOARD = "8/8/8/8/8/8/8/8"


# --------------------------------------------------------------------------- round trips

CANONICAL = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR 0 - -",
    "4k3/8/8/8/8/8/8/4K3 0 - -",
    "4k3/8/8/8/8/8/8/4K3 1 NPP bq",
    "4k3/8/8/8/3C4/8/8/4K3 0 ACDEFGHIJMNOSTVWXYZ - ",
    "s1w1o1g1/c1a1y1f1/h1e1j1d1/i1m1v1z1/X1T1P1N1/B1R1Q1K1/1S1W1O1G/1C1A1Y1F 1 - dehijmtvxz",
    "8/8/8/8/8/8/8/8 0 - -",
    "K7/8/8/8/8/8/8/7k 1 PPPP pppp",
]


@pytest.mark.parametrize("text", [t.strip() for t in CANONICAL])
def test_canonical_strings_round_trip(text: str) -> None:
    assert Position.from_fen(text, REGISTRY).fen() == text


def test_board_is_read_square_by_square() -> None:
    position = Position.from_fen("4k3/8/8/8/3C4/8/p7/4K2r 1 NP -", REGISTRY)
    placed = {square_name(sq): (u.kind.name, u.owner) for sq, u in position.units()}
    assert placed == {
        "e8": ("King", 1),
        "d4": ("Chancellor", 0),
        "a2": ("Pawn", 1),
        "e1": ("King", 0),
        "h1": ("Rook", 1),
    }
    assert position.to_move == 1
    assert [k.name for k in position.barracks[0]] == ["Knight", "Pawn"]
    assert position.barracks[1] == []
    assert position.board[parse_square("a1")] is None


def test_board_field_alone() -> None:
    position = Position.from_fen("4k3/8/8/8/8/8/8/4K3", REGISTRY)
    assert position.to_move == 0
    assert position.barracks == [[], []]
    assert position.fen() == "4k3/8/8/8/8/8/8/4K3 0 - -"


def test_board_and_seat_only() -> None:
    assert Position.from_fen("4k3/8/8/8/8/8/8/4K3 1", REGISTRY).fen() == "4k3/8/8/8/8/8/8/4K3 1 - -"


def test_barracks_are_written_sorted() -> None:
    position = Position.from_fen(f"{EMPTY_BOARD} 0 RPNP qbp", REGISTRY)
    assert position.fen() == f"{EMPTY_BOARD} 0 NPPR bpq"


# --------------------------------------------------------------------------- errors

BAD = [
    # (text, a piece of the message that names the fault)
    # (X is the Sphinx; L and U are the two letters no unit uses.)
    ("4l3/8/8/8/8/8/8/4K3", "'l'"),
    ("4L3/8/8/8/8/8/8/4K3", "'L'"),
    ("8/8/8/8/8/8/8/4K2u", "'u'"),
    ("9/8/8/8/8/8/8/8", "'9'"),
    ("0/8/8/8/8/8/8/8", "'0'"),
    ("8/8/8/8/8/8/8/4K3?", "'?'"),
    ("4K4/8/8/8/8/8/8/8", "rank 8"),
    ("KKKKKKKKK/8/8/8/8/8/8/8", "rank 8"),
    ("8/8/8/8/8/8/8/44K", "rank 1"),
    ("8/8/8/7/8/8/8/8", "rank 5"),
    ("8/8/8", "3"),
    ("8/8/8/8/8/8/8/8/8", "9"),
    (f"{EMPTY_BOARD} 2", "'2'"),
    (f"{EMPTY_BOARD} x", "'x'"),
    (f"{EMPTY_BOARD} -1", "'-1'"),
    (f"{EMPTY_BOARD} 0 n -", "'n'"),
    (f"{EMPTY_BOARD} 0 - N", "'N'"),
    (f"{EMPTY_BOARD} 0 PL -", "'L'"),
    (f"{EMPTY_BOARD} 0 - pu", "'u'"),
]


@pytest.mark.parametrize(("text", "named"), BAD, ids=[b[0] for b in BAD])
def test_bad_strings_name_the_offending_part(text: str, named: str) -> None:
    with pytest.raises(PositionError, match=re.escape(named)) as info:
        Position.from_fen(text, REGISTRY)
    assert isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_wrong_case_barracks_letter_says_so() -> None:
    with pytest.raises(PositionError, match="case"):
        Position.from_fen(f"{EMPTY_BOARD} 0 - N", REGISTRY)
    with pytest.raises(PositionError, match="case"):
        Position.from_fen(f"{EMPTY_BOARD} 0 Px -", REGISTRY)


def test_too_many_squares_says_so() -> None:
    with pytest.raises(PositionError, match="more than 8 squares"):
        Position.from_fen("4K4/8/8/8/8/8/8/8", REGISTRY)


@pytest.mark.parametrize(
    "text",
    ["", "   ", f"{EMPTY_BOARD} 0 -", f"{EMPTY_BOARD} 0 - - -"],
    ids=["empty", "blank", "one-barracks", "three-barracks"],
)
def test_wrong_number_of_fields(text: str) -> None:
    with pytest.raises(PositionError):
        Position.from_fen(text, REGISTRY)


# --------------------------------------------------------------------------- properties


def encode(board: dict[int, tuple[str, int]], to_move: int, barracks: list[list[str]]) -> str:
    """The text form, written here independently of the engine."""
    rows = []
    for rank in range(7, -1, -1):
        row, empties = "", 0
        for file in range(8):
            unit = board.get(file + 8 * rank)
            if unit is None:
                empties += 1
                continue
            if empties:
                row, empties = row + str(empties), 0
            letter, owner = unit
            row += letter if owner == 0 else letter.lower()
        rows.append(row + (str(empties) if empties else ""))
    fields = ["/".join(rows), str(to_move)]
    for seat, letters in enumerate(barracks):
        text = "".join(sorted(letters))
        fields.append((text if seat == 0 else text.lower()) or "-")
    return " ".join(fields)


boards = st.dictionaries(
    st.integers(0, 63), st.tuples(st.sampled_from(LETTERS), st.integers(0, 1)), max_size=40
)
barracks_lists = st.lists(st.sampled_from(LETTERS), max_size=8)


def position_from(board, to_move=0, barracks=((), ()), uncapturable=frozenset()) -> Position:
    position = Position(REGISTRY)
    for sq, (letter, owner) in board.items():
        kind = REGISTRY.by_letter(letter)
        position.board[sq] = Unit(kind, owner, uncapturable=sq in uncapturable)
    position.to_move = to_move
    position.barracks = [[REGISTRY.by_letter(x) for x in b] for b in barracks]
    return position


@settings(max_examples=200, deadline=None)
@given(boards, st.integers(0, 1), barracks_lists, barracks_lists)
def test_random_positions_round_trip(board, to_move, b0, b1) -> None:
    text = encode(board, to_move, [b0, b1])
    position = position_from(board, to_move, (b0, b1))
    assert position.fen() == text
    parsed = Position.from_fen(text, REGISTRY)
    assert parsed.fen() == text
    assert {sq: (u.kind.letter, u.owner) for sq, u in parsed.units()} == board
    assert parsed.to_move == to_move
    assert sorted(k.letter for k in parsed.barracks[0]) == sorted(b0)
    assert sorted(k.letter for k in parsed.barracks[1]) == sorted(b1)


@settings(max_examples=200, deadline=None)
@given(boards, st.data())
def test_random_positions_give_sane_moves(board, data) -> None:
    squares = st.sampled_from(sorted(board)) if board else st.nothing()
    uncapturable = data.draw(st.frozensets(squares))
    position = position_from(board, uncapturable=uncapturable)
    for sq, (letter, owner) in board.items():
        for move in position.unit_moves(sq):
            assert move.frm == sq
            assert 0 <= move.to <= 63
            if move.kind == "march":
                # Marches go to empty squares.
                assert move.to not in board
                assert move.captures == ()
            elif move.kind == "swap":
                # Only the Spy swaps, and only with another unit of its owner.
                assert letter == "S"
                assert move.to != sq and board[move.to][1] == owner
            else:
                assert move.kind == "attack"
                assert move.captures
                for c in move.captures:
                    # Captures hold capturable enemy units.
                    assert 0 <= c <= 63
                    assert c in board and board[c][1] != owner
                    assert c not in uncapturable
                assert len(set(move.captures)) == len(move.captures)
                if letter == "O":
                    assert move.to == sq
                elif letter != "J":
                    assert move.captures == (move.to,)
                else:
                    assert move.to not in board or move.to in move.captures
