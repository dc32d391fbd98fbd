"""Movement of the 24 unit types, checked against the rules reference.

Every expected march set and attack set below was worked out by hand from the second-edition
rules reference ("The units" table and the designer's clarifications) and the first-edition
movement glossary (forward, backward, sideways, leaping, riding). None of them was produced by
running the engine.

A case is written as a list of units, ``"Qd4 pf6"``: a letter and a square each, upper case for
seat 0 (plays up the board from rank 1), lower case for seat 1 (plays down from rank 8). The
first unit listed is the one that moves. ``march`` is the sorted list of squares it can march to
(for the Spy: the squares of the friendly units it can swap with); ``attack`` is the sorted list
of squares of enemy units it can capture with one attack.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scenario import board_field

from crownp2p.core.board import parse_square, square_name
from crownp2p.core.position import Position, Unit
from crownp2p.core.standard import unit_registry

REGISTRY = unit_registry()

LETTERS = {
    "Pawn": "P",
    "Knight": "N",
    "Bishop": "B",
    "Rook": "R",
    "Queen": "Q",
    "King": "K",
    "Spy": "S",
    "Warlord": "W",
    "Oracle": "O",
    "Gryphon": "G",
    "Chancellor": "C",
    "Anointed": "A",
    "Acolyte": "Y",
    "Phantom": "F",
    "Hero": "H",
    "Banshee": "E",
    "Charger": "J",
    "Dragoon": "D",
    "Immortal": "I",
    "Monk": "M",
    "Nightrider": "V",
    "Sniper": "Z",
    "Sphinx": "X",
    "Striker": "T",
}
NAME_OF = {letter: name for name, letter in LETTERS.items()}


# --------------------------------------------------------------------------- helpers


def parse_units(units: str) -> list[tuple[str, str]]:
    """``"Qd4 pf6"`` -> ``[("Q", "d4"), ("p", "f6")]``."""
    return [(token[0], token[1:]) for token in units.split()]


def build(units: str, uncapturable: tuple[str, ...] = ()) -> Position:
    position = Position.from_fen(board_field(units), REGISTRY)
    for name in uncapturable:
        unit = position.board[parse_square(name)]
        assert unit is not None, f"no unit on {name} to make uncapturable"
        unit.uncapturable = True
    return position


def summary(position: Position, frm: str) -> tuple[list[str], list[str]]:
    """(sorted march squares, sorted squares of capturable enemies) for the unit on ``frm``."""
    moves = position.unit_moves(parse_square(frm))
    march = sorted({square_name(m.to) for m in moves if m.kind in ("march", "swap")})
    attack = sorted({square_name(c) for m in moves if m.kind == "attack" for c in m.captures})
    return march, attack


def mirror_square(name: str) -> str:
    return name[0] + str(9 - int(name[1]))


def mirror_units(units: str) -> str:
    return " ".join(letter.swapcase() + mirror_square(sq) for letter, sq in parse_units(units))


def mirror_list(names: list[str]) -> list[str]:
    return sorted(mirror_square(n) for n in names)


@dataclass(frozen=True)
class Case:
    id: str
    units: str
    march: list[str]
    attack: list[str]
    uncapturable: tuple[str, ...] = ()

    @property
    def frm(self) -> str:
        return parse_units(self.units)[0][1]

    @property
    def letter(self) -> str:
        return parse_units(self.units)[0][0].upper()


# Squares used again and again.
ROOK_D4 = ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "d6", "d7", "d8", "e4", "f4", "g4", "h4"]
BISHOP_D4 = ["a1", "a7", "b2", "b6", "c3", "c5", "e3", "e5", "f2", "f6", "g1", "g7", "h8"]
KNIGHT_D4 = ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
KING_D4 = ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
NIGHTRIDER_D4 = ["b3", "b5", "b8", "c2", "c6", "e2", "e6", "f3", "f5", "f8", "h2", "h6"]
# Warlord: every square within two king steps of d4 (files b-f, ranks 2-6) but d4 itself.
WARLORD_D4 = [
    "b2",
    "b3",
    "b4",
    "b5",
    "b6",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "d2",
    "d3",
    "d5",
    "d6",
    "e2",
    "e3",
    "e4",
    "e5",
    "e6",
    "f2",
    "f3",
    "f4",
    "f5",
    "f6",
]
# Phantom: two knight leaps from d4; the offsets (±1,±1), (±2,0), (0,±2), (±4,0), (0,±4),
# (±1,±3), (±3,±1), (±3,±3), (±2,±4), (±4,±2) that stay on the board. Never a knight square.
PHANTOM_D4 = [
    "a1",
    "a3",
    "a5",
    "a7",
    "b4",
    "b8",
    "c1",
    "c3",
    "c5",
    "c7",
    "d2",
    "d6",
    "d8",
    "e1",
    "e3",
    "e5",
    "e7",
    "f4",
    "f8",
    "g1",
    "g3",
    "g5",
    "g7",
    "h2",
    "h4",
    "h6",
]
# Sniper: every square at most 2 away along the 8 lines from d4.
SNIPER_D4 = [
    "b2",
    "b4",
    "b6",
    "c3",
    "c4",
    "c5",
    "d2",
    "d3",
    "d5",
    "d6",
    "e3",
    "e4",
    "e5",
    "f2",
    "f4",
    "f6",
]

CASES: list[Case] = [
    # ---------------------------------------------------------------- Pawn (P)
    # March 1 forward, 2 from the owner's first or second rank if the first square is empty;
    # attack 1 diagonally forward; no en passant.
    Case("pawn-centre", "Pd4", ["d5"], []),
    Case("pawn-first-rank-double", "Pd1", ["d2", "d3"], []),
    Case("pawn-second-rank-double", "Pd2", ["d3", "d4"], []),
    Case("pawn-third-rank-single", "Pd3", ["d4"], []),
    Case("pawn-double-needs-first-square-empty", "Pd2 nd3", [], []),
    Case("pawn-double-own-blocker", "Pd2 Nd3", [], []),
    Case("pawn-double-second-square-blocked", "Pd2 Nd4", ["d3"], []),
    Case("pawn-attacks-diagonal-forward-only", "Pd4 pc5 pd5 pe5 pc3 pe3 pc4 pe4", [], ["c5", "e5"]),
    Case("pawn-no-en-passant", "Pe5 pd5", ["e6"], []),
    Case("pawn-own-unit-not-attacked", "Pd4 Pc5", ["d5"], []),
    Case("pawn-edge", "Pa2 pb3", ["a3", "a4"], ["b3"]),
    Case("pawn-corner-first-rank", "Pa1 pb2", ["a2", "a3"], ["b2"]),
    Case("pawn-corner-last-rank", "Ph8 pg7", [], []),
    Case("pawn-to-last-rank", "Ph7 pg8", ["h8"], ["g8"]),
    Case("pawn-uncapturable", "Pd4 pc5 pe5", ["d5"], ["e5"], uncapturable=("c5",)),
    # ---------------------------------------------------------------- Knight (N)
    Case("knight-centre", "Nd4", KNIGHT_D4, []),
    Case("knight-edge", "Na4", ["b2", "b6", "c3", "c5"], []),
    Case("knight-corner", "Na1", ["b3", "c2"], []),
    Case("knight-corner-h8", "Nh8", ["f7", "g6"], []),
    Case(
        "knight-leaps-over-blockers",
        "Nd4 Pc4 Pd5 Pe4 Pd3 Pf5 pe5 pe6",
        ["b3", "b5", "c2", "c6", "e2", "f3"],
        ["e6"],
    ),
    Case(
        "knight-uncapturable",
        "Nd4 ne6",
        ["b3", "b5", "c2", "c6", "e2", "f3", "f5"],
        [],
        uncapturable=("e6",),
    ),
    # ---------------------------------------------------------------- Bishop (B)
    Case("bishop-centre", "Bd4", BISHOP_D4, []),
    Case("bishop-edge", "Ba4", ["b3", "b5", "c2", "c6", "d1", "d7", "e8"], []),
    Case("bishop-corner", "Bh8", ["a1", "b2", "c3", "d4", "e5", "f6", "g7"], []),
    Case("bishop-blockers", "Bd4 Bf6 Bc3 pb6 pa7 pe3 pf2 pg7", ["c5", "e5"], ["b6", "e3"]),
    # ---------------------------------------------------------------- Rook (R)
    Case("rook-centre", "Rd4", ROOK_D4, []),
    Case(
        "rook-edge",
        "Rd1",
        ["a1", "b1", "c1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "e1", "f1", "g1", "h1"],
        [],
    ),
    Case(
        "rook-corner",
        "Ra1",
        ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
        [],
    ),
    Case(
        "rook-blockers", "Rd4 Rd6 pd2 pd1 pg4 Rb4 pa4", ["c4", "d3", "d5", "e4", "f4"], ["d2", "g4"]
    ),
    Case(
        "rook-uncapturable-blocks",
        "Rd4 rd6 rd7",
        ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "e4", "f4", "g4", "h4"],
        [],
        uncapturable=("d6",),
    ),
    # ---------------------------------------------------------------- Queen (Q)
    Case(
        "queen-centre",
        "Qd4",
        [
            "a1",
            "a4",
            "a7",
            "b2",
            "b4",
            "b6",
            "c3",
            "c4",
            "c5",
            "d1",
            "d2",
            "d3",
            "d5",
            "d6",
            "d7",
            "d8",
            "e3",
            "e4",
            "e5",
            "f2",
            "f4",
            "f6",
            "g1",
            "g4",
            "g7",
            "h4",
            "h8",
        ],
        [],
    ),
    Case(
        "queen-edge",
        "Qh5",
        [
            "a5",
            "b5",
            "c5",
            "d1",
            "d5",
            "e2",
            "e5",
            "e8",
            "f3",
            "f5",
            "f7",
            "g4",
            "g5",
            "g6",
            "h1",
            "h2",
            "h3",
            "h4",
            "h6",
            "h7",
            "h8",
        ],
        [],
    ),
    Case(
        "queen-corner",
        "Qa1",
        [
            "a2",
            "a3",
            "a4",
            "a5",
            "a6",
            "a7",
            "a8",
            "b1",
            "b2",
            "c1",
            "c3",
            "d1",
            "d4",
            "e1",
            "e5",
            "f1",
            "f6",
            "g1",
            "g7",
            "h1",
            "h8",
        ],
        [],
    ),
    Case(
        "queen-blockers",
        "Qd4 Qd5 pf6 pb4 Qe3",
        [
            "a1",
            "a7",
            "b2",
            "b6",
            "c3",
            "c4",
            "c5",
            "d1",
            "d2",
            "d3",
            "e4",
            "e5",
            "f4",
            "g4",
            "h4",
        ],
        ["b4", "f6"],
    ),
    # ---------------------------------------------------------------- King (K)
    Case("king-centre", "Kd4", KING_D4, []),
    Case("king-edge", "Ka4", ["a3", "a5", "b3", "b4", "b5"], []),
    Case("king-corner", "Kh8", ["g7", "g8", "h7"], []),
    Case("king-blockers", "Kd4 Pc3 Nd5 pe5 pe4 pd6", ["c4", "c5", "d3", "e3"], ["e4", "e5"]),
    Case(
        "king-uncapturable",
        "Kd4 pe5",
        ["c3", "c4", "c5", "d3", "d5", "e3", "e4"],
        [],
        uncapturable=("e5",),
    ),
    # ---------------------------------------------------------------- Spy (S)
    # March = swap with any other friendly unit anywhere; attack 1 square any direction.
    Case("spy-alone", "Sd4", [], []),
    Case("spy-centre", "Sd4 Ke1 Pa2 Rh8 ke8 pd5 nc3 qd6", ["a2", "e1", "h8"], ["c3", "d5"]),
    Case("spy-edge", "Sa4 Ke1 pa5 pb3 pa6", ["e1"], ["a5", "b3"]),
    Case("spy-corner", "Sh1 Pg2 ph2 ng1", ["g2"], ["g1", "h2"]),
    Case("spy-uncapturable", "Sd4 Ke1 pc5", ["e1"], [], uncapturable=("e1", "c5")),
    # ---------------------------------------------------------------- Warlord (W)
    # 1 or 2 king steps; never through a unit; a capture ends it; no march in place.
    Case("warlord-centre", "Wd4", WARLORD_D4, []),
    Case(
        "warlord-edge",
        "Wa4",
        ["a2", "a3", "a5", "a6", "b2", "b3", "b4", "b5", "b6", "c2", "c3", "c4", "c5", "c6"],
        [],
    ),
    Case("warlord-corner", "Wa1", ["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"], []),
    Case("warlord-capture-ends-move", "Wa1 Pa2 Pb2 pb1 pc1 pc2", [], ["b1"]),
    Case(
        "warlord-one-gap",
        "Wd4 Pc3 Pc4 Pc5 Pd3 Pd5 Pe3 Pe5 pf5 pf6 pb4",
        ["e4", "f3", "f4"],
        ["f5"],
    ),
    Case(
        "warlord-no-stepping-through",
        "Wd4 pd5 Pc5 Pe5 pd6",
        [
            "b2",
            "b3",
            "b4",
            "b5",
            "c2",
            "c3",
            "c4",
            "d2",
            "d3",
            "e2",
            "e3",
            "e4",
            "f2",
            "f3",
            "f4",
            "f5",
        ],
        ["d5"],
    ),
    Case(
        "warlord-capture-two-away",
        "Wd4 pd6",
        [sq for sq in WARLORD_D4 if sq != "d6"],
        ["d6"],
    ),
    Case("warlord-uncapturable", "Wa1 Pa2 Pb2 pb1 pc1", [], [], uncapturable=("b1",)),
    # ---------------------------------------------------------------- Oracle (O)
    # March 1 diagonally; capture without moving a unit exactly 2 away, straight or diagonal,
    # the square between empty.
    Case("oracle-centre", "Od4", ["c3", "c5", "e3", "e5"], []),
    Case("oracle-edge", "Oh5", ["g4", "g6"], []),
    Case("oracle-corner", "Oa1", ["b2"], []),
    Case(
        "oracle-attacks",
        "Od4 Pc4 pd6 pf6 pb4 pc3 pb2 pf2 pd3 pd2 pe6 ph4",
        ["c5", "e3", "e5"],
        ["d6", "f2", "f6"],
    ),
    Case("oracle-corner-attacks", "Oa8 pa6 pc6 pc8", ["b7"], ["a6", "c6", "c8"]),
    Case(
        "oracle-uncapturable",
        "Od4 pd6 pe5 pf6",
        ["c3", "c5", "e3"],
        [],
        uncapturable=("d6", "e5"),
    ),
    # ---------------------------------------------------------------- Gryphon (G)
    # Step 1 diagonally, then optionally ride straight outward.
    Case(
        "gryphon-centre",
        "Gd4",
        [
            "a3",
            "a5",
            "b3",
            "b5",
            "c1",
            "c2",
            "c3",
            "c5",
            "c6",
            "c7",
            "c8",
            "e1",
            "e2",
            "e3",
            "e5",
            "e6",
            "e7",
            "e8",
            "f3",
            "f5",
            "g3",
            "g5",
            "h3",
            "h5",
        ],
        [],
    ),
    Case(
        "gryphon-edge",
        "Ga4",
        [
            "b1",
            "b2",
            "b3",
            "b5",
            "b6",
            "b7",
            "b8",
            "c3",
            "c5",
            "d3",
            "d5",
            "e3",
            "e5",
            "f3",
            "f5",
            "g3",
            "g5",
            "h3",
            "h5",
        ],
        [],
    ),
    Case(
        "gryphon-corner",
        "Ga1",
        ["b2", "b3", "b4", "b5", "b6", "b7", "b8", "c2", "d2", "e2", "f2", "g2", "h2"],
        [],
    ),
    Case(
        "gryphon-blockers",
        "Gd4 pe5 pe6 pg3 pa3 pd5 Pc5 Pe1",
        ["b3", "c1", "c2", "c3", "e2", "e3", "f3"],
        ["a3", "e5", "g3"],
    ),
    Case(
        "gryphon-uncapturable-blocks-path",
        "Gd4 pe5 pc5",
        ["a3", "b3", "c1", "c2", "c3", "e1", "e2", "e3", "f3", "g3", "h3"],
        ["c5"],
        uncapturable=("e5",),
    ),
    # ---------------------------------------------------------------- Chancellor (C)
    Case(
        "chancellor-centre",
        "Cd4",
        [
            "a4",
            "b3",
            "b4",
            "b5",
            "c2",
            "c4",
            "c6",
            "d1",
            "d2",
            "d3",
            "d5",
            "d6",
            "d7",
            "d8",
            "e2",
            "e4",
            "e6",
            "f3",
            "f4",
            "f5",
            "g4",
            "h4",
        ],
        [],
    ),
    Case(
        "chancellor-edge",
        "Ca5",
        [
            "a1",
            "a2",
            "a3",
            "a4",
            "a6",
            "a7",
            "a8",
            "b3",
            "b5",
            "b7",
            "c4",
            "c5",
            "c6",
            "d5",
            "e5",
            "f5",
            "g5",
            "h5",
        ],
        [],
    ),
    Case(
        "chancellor-corner",
        "Ch1",
        [
            "a1",
            "b1",
            "c1",
            "d1",
            "e1",
            "f1",
            "f2",
            "g1",
            "g3",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "h7",
            "h8",
        ],
        [],
    ),
    Case(
        "chancellor-blockers",
        "Cd4 Pd5 Pc4 Pe4 Pd3 pe6 Pf5 pd6",
        ["b3", "b5", "c2", "c6", "e2", "f3"],
        ["e6"],
    ),
    # ---------------------------------------------------------------- Anointed (A)
    # 1-2 squares diagonally, not leaping.
    Case("anointed-centre", "Ad4", ["b2", "b6", "c3", "c5", "e3", "e5", "f2", "f6"], []),
    Case("anointed-edge", "Aa4", ["b3", "b5", "c2", "c6"], []),
    Case("anointed-corner", "Aa1", ["b2", "c3"], []),
    Case("anointed-blockers", "Ad4 Pe5 Pf2 pc5 pb2 pf6 pb6", ["c3", "e3"], ["b2", "c5"]),
    # ---------------------------------------------------------------- Acolyte (Y)
    # Leap 1 or 2 diagonally, or exactly 2 sideways.
    Case(
        "acolyte-centre",
        "Yd4",
        ["b2", "b4", "b6", "c3", "c5", "e3", "e5", "f2", "f4", "f6"],
        [],
    ),
    Case("acolyte-edge", "Ya4", ["b3", "b5", "c2", "c4", "c6"], []),
    Case("acolyte-corner", "Yh8", ["f6", "f8", "g7"], []),
    Case(
        "acolyte-leaps-over-blockers",
        "Yd4 Pc3 Pc4 Pf4 pe5 pf6 pb4 pd6 pd5",
        ["b2", "b6", "c5", "e3", "f2"],
        ["b4", "e5", "f6"],
    ),
    # ---------------------------------------------------------------- Phantom (F)
    # Leap (1,2) to an empty square, then leap (1,2) again; only the first landing can block.
    Case("phantom-centre", "Fd4", PHANTOM_D4, []),
    Case(
        "phantom-edge",
        "Fa4",
        [
            "a2",
            "a6",
            "a8",
            "b1",
            "b3",
            "b5",
            "b7",
            "c4",
            "c8",
            "d1",
            "d3",
            "d5",
            "d7",
            "e2",
            "e4",
            "e6",
        ],
        [],
    ),
    Case(
        "phantom-corner",
        "Fa1",
        ["a3", "a5", "b4", "c1", "c5", "d2", "d4", "e1", "e3"],
        [],
    ),
    Case(
        "phantom-first-landing-blocks",
        "Fa1 Pb3 Pe3 Pb2 Pa2 pd4 pc5 pb1",
        ["a3", "b4", "e1"],
        ["d4"],
    ),
    Case("phantom-enemy-on-first-landing", "Fa1 pb3 pc2", [], []),
    Case("phantom-one-landing-taken", "Fd4 pe6 Pd5", [sq for sq in PHANTOM_D4 if sq != "f8"], []),
    Case(
        "phantom-uncapturable",
        "Fa1 pc2 pd4",
        ["a5", "c1", "c5", "d2"],
        [],
        uncapturable=("c2", "d4"),
    ),
    # ---------------------------------------------------------------- Hero (H)
    # Leap (1,3) or (2,3).
    Case(
        "hero-centre",
        "Hd4",
        [
            "a2",
            "a3",
            "a5",
            "a6",
            "b1",
            "b7",
            "c1",
            "c7",
            "e1",
            "e7",
            "f1",
            "f7",
            "g2",
            "g3",
            "g5",
            "g6",
        ],
        [],
    ),
    Case("hero-edge", "Hh5", ["e3", "e4", "e6", "e7", "f2", "f8", "g2", "g8"], []),
    Case("hero-corner", "Ha1", ["b4", "c4", "d2", "d3"], []),
    Case(
        "hero-blockers",
        "Hd4 Pc3 Pc4 Pc5 Pd3 Pd5 Pe3 Pe4 Pe5 pe7 pa2 Pg5 pd7 pb6",
        ["a3", "a5", "a6", "b1", "b7", "c1", "c7", "e1", "f1", "f7", "g2", "g3", "g6"],
        ["a2", "e7"],
    ),
    # ---------------------------------------------------------------- Banshee (E)
    # Bishop + Nightrider.
    Case(
        "banshee-centre",
        "Ed4",
        [
            "a1",
            "a7",
            "b2",
            "b3",
            "b5",
            "b6",
            "b8",
            "c2",
            "c3",
            "c5",
            "c6",
            "e2",
            "e3",
            "e5",
            "e6",
            "f2",
            "f3",
            "f5",
            "f6",
            "f8",
            "g1",
            "g7",
            "h2",
            "h6",
            "h8",
        ],
        [],
    ),
    Case(
        "banshee-edge",
        "Eh5",
        [
            "b2",
            "b8",
            "d1",
            "d3",
            "d7",
            "e2",
            "e8",
            "f1",
            "f3",
            "f4",
            "f6",
            "f7",
            "g3",
            "g4",
            "g6",
            "g7",
        ],
        [],
    ),
    Case(
        "banshee-corner",
        "Ea1",
        ["b2", "b3", "c2", "c3", "c5", "d4", "d7", "e3", "e5", "f6", "g4", "g7", "h8"],
        [],
    ),
    Case(
        "banshee-blockers",
        "Ed4 Pe5 pc6 pb2 pa1",
        [
            "a7",
            "b3",
            "b5",
            "b6",
            "c2",
            "c3",
            "c5",
            "e2",
            "e3",
            "e6",
            "f2",
            "f3",
            "f5",
            "f8",
            "g1",
            "h2",
            "h6",
        ],
        ["b2", "c6"],
    ),
    Case(
        "banshee-uncapturable-blocks",
        "Ed4 pe5 pf5",
        [
            "a1",
            "a7",
            "b2",
            "b3",
            "b5",
            "b6",
            "b8",
            "c2",
            "c3",
            "c5",
            "c6",
            "e2",
            "e3",
            "e6",
            "f2",
            "f3",
            "f8",
            "g1",
            "h2",
        ],
        [],
        uncapturable=("e5", "f5"),
    ),
    # ---------------------------------------------------------------- Charger (J)
    # 1-3 squares straight, capturing every enemy on the way; can't pass a friendly unit.
    Case(
        "charger-centre",
        "Jd4",
        ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "d6", "d7", "e4", "f4", "g4"],
        [],
    ),
    Case("charger-edge", "Jh5", ["e5", "f5", "g5", "h2", "h3", "h4", "h6", "h7", "h8"], []),
    Case("charger-corner", "Ja1", ["a2", "a3", "a4", "b1", "c1", "d1"], []),
    Case(
        "charger-multi-capture",
        "Jd4 pd5 pd7 Pf4 pd3 Pd2 pb4 pa4 pd8",
        ["c4", "e4"],
        ["a4", "b4", "d3", "d5", "d7"],
    ),
    Case(
        "charger-uncapturable-stops-it",
        "Jd4 pd5 pd6",
        ["a4", "b4", "c4", "d1", "d2", "d3", "e4", "f4", "g4"],
        ["d5"],
        uncapturable=("d6",),
    ),
    # ---------------------------------------------------------------- Dragoon (D)
    # King + Knight.
    Case(
        "dragoon-centre",
        "Dd4",
        [
            "b3",
            "b5",
            "c2",
            "c3",
            "c4",
            "c5",
            "c6",
            "d3",
            "d5",
            "e2",
            "e3",
            "e4",
            "e5",
            "e6",
            "f3",
            "f5",
        ],
        [],
    ),
    Case(
        "dragoon-edge",
        "Da4",
        ["a3", "a5", "b2", "b3", "b4", "b5", "b6", "c3", "c5"],
        [],
    ),
    Case("dragoon-corner", "Dh1", ["f2", "g1", "g2", "g3", "h2"], []),
    Case(
        "dragoon-blockers",
        "Dd4 Pc3 Pc4 Pc5 Pd3 Pd5 Pe3 Pe4 pe5 pe6 Pf5",
        ["b3", "b5", "c2", "c6", "e2", "f3"],
        ["e5", "e6"],
    ),
    # ---------------------------------------------------------------- Immortal (I)
    Case("immortal-centre", "Id4", KING_D4, []),
    Case("immortal-edge", "Ie1", ["d1", "d2", "e2", "f1", "f2"], []),
    Case("immortal-corner", "Ia8", ["a7", "b7", "b8"], []),
    Case("immortal-blockers", "Id4 Pd5 pe5", ["c3", "c4", "c5", "d3", "e3", "e4"], ["e5"]),
    # ---------------------------------------------------------------- Monk (M)
    # 1 diagonally, or exactly 2 straight with the middle square empty.
    Case("monk-centre", "Md4", ["b4", "c3", "c5", "d2", "d6", "e3", "e5", "f4"], []),
    Case("monk-edge", "Ma5", ["a3", "a7", "b4", "b6", "c5"], []),
    Case("monk-corner", "Ma1", ["a3", "b2", "c1"], []),
    Case(
        "monk-blockers",
        "Md4 Pd5 Pf4 Pc3 pd6 pd3 pd2 pb4 pe5",
        ["c5", "e3"],
        ["b4", "e5"],
    ),
    # ---------------------------------------------------------------- Nightrider (V)
    # Repeated (1,2) leaps in one direction while the landing squares are empty.
    Case("nightrider-centre", "Vd4", NIGHTRIDER_D4, []),
    Case(
        "nightrider-edge",
        "Vh5",
        ["b2", "b8", "d3", "d7", "f1", "f4", "f6", "g3", "g7"],
        [],
    ),
    Case("nightrider-corner", "Va1", ["b3", "c2", "c5", "d7", "e3", "g4"], []),
    Case("nightrider-corner-blockers", "Va1 Pc5 Pb2 Pb1 pe3 pd7 pg4", ["b3", "c2"], ["e3"]),
    Case(
        "nightrider-centre-blockers",
        "Vd4 pe6 pf8 pb8 Pf5 Pc2",
        ["b3", "b5", "c6", "e2", "f3", "h2"],
        ["b8", "e6"],
    ),
    # ---------------------------------------------------------------- Sniper (Z)
    # Rides straight or diagonally; marches at most 2; attacks at least 2 away.
    Case("sniper-centre", "Zd4", SNIPER_D4, []),
    Case(
        "sniper-edge",
        "Zh5",
        ["f3", "f5", "f7", "g4", "g5", "g6", "h3", "h4", "h6", "h7"],
        [],
    ),
    Case("sniper-corner", "Za1", ["a2", "a3", "b1", "b2", "c1", "c3"], []),
    Case(
        "sniper-attacks",
        "Zd4 pd5 pd8 ph8 pf4 Pb4 pd1 pe3 pg1 pa1",
        ["b2", "b6", "c3", "c4", "c5", "d2", "d3", "e4", "e5", "f6"],
        ["a1", "d1", "f4", "h8"],
    ),
    Case(
        "sniper-uncapturable",
        "Zd4 pd6",
        [sq for sq in SNIPER_D4 if sq != "d6"],
        [],
        uncapturable=("d6",),
    ),
    # ---------------------------------------------------------------- Sphinx (X)
    # Step 1 straight, then optionally ride diagonally outward.
    Case(
        "sphinx-centre",
        "Xd4",
        [
            "a2",
            "a6",
            "a8",
            "b1",
            "b3",
            "b5",
            "b7",
            "c2",
            "c4",
            "c6",
            "d3",
            "d5",
            "e2",
            "e4",
            "e6",
            "f1",
            "f3",
            "f5",
            "f7",
            "g2",
            "g6",
            "g8",
            "h1",
            "h7",
        ],
        [],
    ),
    Case(
        "sphinx-edge",
        "Xa4",
        [
            "a3",
            "a5",
            "b2",
            "b4",
            "b6",
            "c1",
            "c3",
            "c5",
            "c7",
            "d2",
            "d6",
            "d8",
            "e1",
            "e7",
            "f8",
        ],
        [],
    ),
    Case(
        "sphinx-corner",
        "Xa1",
        [
            "a2",
            "b1",
            "b3",
            "c2",
            "c4",
            "d3",
            "d5",
            "e4",
            "e6",
            "f5",
            "f7",
            "g6",
            "g8",
            "h7",
        ],
        [],
    ),
    Case(
        "sphinx-blockers",
        "Xd4 pd5 pf1 pa6 pb3 pe6 pf3 pe5 Pe4 Pc2",
        ["b5", "c4", "d3", "e2"],
        ["a6", "b3", "d5", "f1"],
    ),
    # ---------------------------------------------------------------- Striker (T)
    # March or attack 1 forward (straight or diagonal); march straight backward any distance.
    Case("striker-centre", "Td4", ["c5", "d1", "d2", "d3", "d5", "e5"], []),
    Case("striker-edge", "Ta4", ["a1", "a2", "a3", "a5", "b5"], []),
    Case("striker-last-rank", "Ta8", ["a1", "a2", "a3", "a4", "a5", "a6", "a7"], []),
    Case("striker-corner", "Th1", ["g2", "h2"], []),
    Case("striker-attacks", "Td4 pc5 pd5 Pe5 pd2 pc4 pe4 pc3", ["d3"], ["c5", "d5"]),
]

CASE_IDS = [c.id for c in CASES]


# --------------------------------------------------------------------------- the table itself


def test_every_unit_type_has_centre_edge_and_corner_cases() -> None:
    assert len(REGISTRY) == 24
    assert {u.name: u.letter for u in REGISTRY} == LETTERS
    for name, letter in LETTERS.items():
        ids = [c.id for c in CASES if c.letter == letter]
        for where in ("centre", "edge", "corner"):
            assert any(where in i for i in ids), f"{name} has no {where} case"


def test_expected_lists_are_written_sorted() -> None:
    for case in CASES:
        assert case.march == sorted(case.march), case.id
        assert case.attack == sorted(case.attack), case.id


# --------------------------------------------------------------------------- seat 0


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_march_and_attack_sets(case: Case) -> None:
    position = build(case.units, case.uncapturable)
    march, attack = summary(position, case.frm)
    assert march == case.march
    assert attack == case.attack


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_move_records_are_consistent(case: Case) -> None:
    """Kinds and squares of each UnitMove, per the rules for the moving unit."""
    position = build(case.units, case.uncapturable)
    frm = parse_square(case.frm)
    name = NAME_OF[case.letter]
    for move in position.unit_moves(frm):
        assert move.frm == frm
        if move.kind == "march":
            assert name != "Spy"
            assert move.captures == ()
            assert move.to != frm
        elif move.kind == "swap":
            assert name == "Spy"
            assert move.captures == ()
        else:
            assert move.kind == "attack"
            if name == "Oracle":
                assert move.to == frm and len(move.captures) == 1
            elif name == "Charger":
                assert move.captures and move.to != frm
            else:
                # Every other unit moves onto the one unit it captures (the Sniper too).
                assert move.captures == (move.to,)


# --------------------------------------------------------------------------- both seats


@pytest.mark.parametrize("name", list(LETTERS))
def test_mirrored_for_seat_1(name: str) -> None:
    """The same cases, flipped top to bottom with the colours swapped, give the mirrored sets."""
    cases = [c for c in CASES if c.letter == LETTERS[name]]
    assert cases
    for case in cases:
        uncapturable = tuple(mirror_square(s) for s in case.uncapturable)
        position = build(mirror_units(case.units), uncapturable)
        frm = mirror_square(case.frm)
        assert position.board[parse_square(frm)].owner == 1
        march, attack = summary(position, frm)
        assert march == mirror_list(case.march), case.id
        assert attack == mirror_list(case.attack), case.id


def test_seat_1_pawn_explicitly() -> None:
    # Seat 1's first and second ranks are 8 and 7, and its forward is down the board.
    assert summary(build("pd7"), "d7") == (["d5", "d6"], [])
    assert summary(build("pd8"), "d8") == (["d6", "d7"], [])
    assert summary(build("pd6"), "d6") == (["d5"], [])
    assert summary(build("pd4 Pc3 Pe3 Pc5 Pe5"), "d4") == (["d3"], ["c3", "e3"])
    # A seat-0 Pawn on rank 7 is not on its first or second rank: one step only.
    assert summary(build("Pd7"), "d7") == (["d8"], [])


def test_seat_1_striker_explicitly() -> None:
    # Seat 1's forward is down: d3, c3 and e3; backward is up the d-file, stopped by d6.
    assert summary(build("td4 Pc3 Pd6"), "d4") == (["d3", "d5", "e3"], ["c3"])


# --------------------------------------------------------------------------- special cases


def names(squares) -> list[str]:
    return sorted(square_name(s) for s in squares)


def test_spy_marches_only_by_swapping() -> None:
    position = build("Sd4 Ke1 Pa2 Rh8 ke8")
    moves = position.unit_moves(parse_square("d4"))
    swaps = [m for m in moves if m.kind == "swap"]
    assert names(m.to for m in swaps) == ["a2", "e1", "h8"]
    assert not [m for m in moves if m.kind == "march"]
    # The empty squares next to it are not marches; the enemy King far away is not an attack.
    assert not [m for m in moves if m.kind == "attack"]


def test_oracle_captures_without_moving() -> None:
    position = build("Od4 pd6 pf2 Pb4")
    frm = parse_square("d4")
    attacks = [m for m in position.unit_moves(frm) if m.kind == "attack"]
    assert sorted((square_name(m.to), names(m.captures)) for m in attacks) == [
        ("d4", ["d6"]),
        ("d4", ["f2"]),
    ]


def test_sniper_moves_onto_what_it_captures() -> None:
    position = build("Zd4 pd7 pa1")
    attacks = [m for m in position.unit_moves(parse_square("d4")) if m.kind == "attack"]
    assert sorted((square_name(m.to), names(m.captures)) for m in attacks) == [
        ("a1", ["a1"]),
        ("d7", ["d7"]),
    ]
    # Marches reach at most 2: d5 and d6 towards d7, b2 and c3 towards a1.
    march, _ = summary(position, "d4")
    assert "d6" in march and "d7" not in march and "d8" not in march
    assert "b2" in march and "a1" not in march


def test_charger_captures_everything_on_its_path() -> None:
    position = build("Jd4 pd5 pd7 Pf4 pd3 Pd2 pb4 pa4 pd8")
    attacks = [m for m in position.unit_moves(parse_square("d4")) if m.kind == "attack"]
    got = sorted((square_name(m.to), [square_name(c) for c in m.captures]) for m in attacks)
    assert got == [
        ("a4", ["b4", "a4"]),  # path order
        ("b4", ["b4"]),
        ("d3", ["d3"]),
        ("d5", ["d5"]),
        ("d6", ["d5"]),  # may keep going after a capture and stop on an empty square
        ("d7", ["d5", "d7"]),
    ]


def test_charger_stops_short_of_a_friend_after_capturing() -> None:
    position = build("Jd4 pd5 Pd6 pd7")
    moves = position.unit_moves(parse_square("d4"))
    up = [
        (m.kind, square_name(m.to), names(m.captures))
        for m in moves
        if square_name(m.to)[0] == "d" and int(square_name(m.to)[1]) > 4
    ]
    assert up == [("attack", "d5", ["d5"])]


def test_warlord_offers_no_march_in_place() -> None:
    position = build("Wd4")
    frm = parse_square("d4")
    assert all(m.to != frm for m in position.unit_moves(frm))


def test_warlord_march_in_place_needs_an_empty_neighbour() -> None:
    # Stepping out and back needs an empty square to step to; a capture would end the move.
    warlord = REGISTRY.get("Warlord")
    for units, expected in [
        ("Wd4", True),
        ("Wa1 Pa2 Pb2 pb1", False),
        ("Wa1 Pa2 Pb2", True),
    ]:
        position = build(units)
        frm = parse_square(parse_units(units)[0][1])
        occ = position.occupancy(0)
        assert warlord.can_march_in_place(occ, frm, 1) is expected, units
    assert not REGISTRY.get("King").can_march_in_place(build("Kd4").occupancy(0), 27, 1)


def test_phantom_never_ends_on_its_start() -> None:
    for sq in ("d4", "a1", "h8", "b2"):
        position = build("F" + sq)
        frm = parse_square(sq)
        assert all(m.to != frm for m in position.unit_moves(frm))


def test_phantom_needs_a_first_landing_on_the_board() -> None:
    # From b2, c3 (offset 1,1) is reached through d1 or a4. a1 (offset -1,-1) would need a first
    # landing on c0 or on a file left of a: it is not reachable.
    march, _ = summary(build("Fb2"), "b2")
    assert "c3" in march
    assert "a1" not in march


def test_only_the_immortal_returns_to_the_barracks() -> None:
    flags = {u.name: u.returns_to_barracks for u in REGISTRY}
    assert flags.pop("Immortal") is True
    assert not any(flags.values())


# --------------------------------------------------------------------------- threatened squares


def threatened(units: str, frm: str, to: str) -> bool:
    return build(units).would_be_threatened(parse_square(frm), parse_square(to))


def test_would_be_threatened_by_a_rider() -> None:
    units = "Ke1 ra2"
    assert threatened(units, "e1", "e2")
    assert threatened(units, "e1", "d2")
    assert threatened(units, "e1", "f2")
    assert not threatened(units, "e1", "d1")
    assert not threatened(units, "e1", "f1")


def test_would_be_threatened_is_judged_after_the_unit_leaves() -> None:
    # The King shields e1 from the Rook on e8 only while it stands on e2.
    units = "Ke2 re8"
    assert threatened(units, "e2", "e1")
    assert not threatened(units, "e2", "d1")
    assert not threatened(units, "e2", "d2")


def test_would_be_threatened_after_a_capture() -> None:
    # Taking the Knight on e2 puts the King on the Rook's rank.
    units = "Ke1 ne2 ra2"
    assert threatened(units, "e1", "e2")
    assert not threatened(units, "e1", "d1")


def test_pawn_marches_do_not_threaten() -> None:
    # Seat 1's Pawn on d3 attacks c2 and e2 (diagonally forward = down); it marches to d2.
    units = "Ke1 pd3"
    assert threatened(units, "e1", "e2")
    assert not threatened(units, "e1", "d2")
    assert not threatened(units, "e1", "f2")
    assert not threatened(units, "e1", "d1")


def test_would_be_threatened_for_seat_1() -> None:
    # Seat 0's Pawn on d6 attacks c7 and e7 and marches to d7.
    units = "ke8 Pd6"
    assert threatened(units, "e8", "e7")
    assert not threatened(units, "e8", "d7")
    assert not threatened(units, "e8", "f7")
    assert not threatened(units, "e8", "d8")


def test_oracle_threatens_without_moving() -> None:
    units = "Ke1 oe4"
    assert threatened(units, "e1", "e2")  # exactly 2 away straight, e3 empty
    assert not threatened(units, "e1", "d2")
    assert not threatened(units, "e1", "f2")


def test_charger_threatens_through_a_capture() -> None:
    # The Charger on e5 can charge e4, e3 (capturing the Pawn) and e2.
    units = "Ke1 Pe3 je5"
    assert threatened(units, "e1", "e2")
    assert not threatened(units, "e1", "d2")
    assert not threatened(units, "e1", "f1")


def test_would_be_threatened_needs_a_unit() -> None:
    with pytest.raises(ValueError):
        threatened("Ke1", "d4", "d5")


# --------------------------------------------------------------------------- deploy squares


def deploy(units: str, seat: int, name: str) -> list[str]:
    return names(build(units).deploy_squares(seat, REGISTRY.get(name)))


def test_deploy_squares_seat_0() -> None:
    units = "Nb1 Ke1 rh1 Pc2 qd3"
    first = ["a1", "c1", "d1", "f1", "g1"]
    second = ["a2", "b2", "d2", "e2", "f2", "g2", "h2"]
    for name in ("Rook", "Knight", "Queen", "Anointed", "Gryphon"):
        assert deploy(units, 0, name) == first, name
    for name in ("Pawn", "Immortal", "Monk", "Striker"):
        assert deploy(units, 0, name) == sorted(first + second), name


def test_deploy_squares_seat_1() -> None:
    units = "ra8 ke8 pd7 Qc6 Ke1"
    first = ["b8", "c8", "d8", "f8", "g8", "h8"]
    second = ["a7", "b7", "c7", "e7", "f7", "g7", "h7"]
    for name in ("Knight", "King", "Sphinx"):
        assert deploy(units, 1, name) == first, name
    for name in ("Pawn", "Monk"):
        assert deploy(units, 1, name) == sorted(first + second), name


def test_deploy_squares_full_rank() -> None:
    position = Position.from_fen("8/8/8/8/8/8/PPPPPPPP/RNBQKBNR", REGISTRY)
    assert position.deploy_squares(0, REGISTRY.get("Rook")) == []
    assert position.deploy_squares(0, REGISTRY.get("Pawn")) == []
    # Seat 1's ranks are untouched.
    assert names(position.deploy_squares(1, REGISTRY.get("Rook"))) == [
        "a8",
        "b8",
        "c8",
        "d8",
        "e8",
        "f8",
        "g8",
        "h8",
    ]


# --------------------------------------------------------------------------- mirror property

LETTER_POOL = "".join(LETTERS.values())


@st.composite
def random_positions(draw):
    placed = draw(
        st.dictionaries(
            st.integers(0, 63),
            st.tuples(st.sampled_from(LETTER_POOL), st.integers(0, 1), st.booleans()),
            max_size=24,
        )
    )
    return placed


@settings(max_examples=150, deadline=None)
@given(random_positions())
def test_mirrored_random_positions_give_mirrored_moves(placed) -> None:
    def make(mirror: bool) -> Position:
        position = Position(REGISTRY)
        for sq, (letter, owner, uncap) in placed.items():
            target = (sq % 8) + 8 * (7 - sq // 8) if mirror else sq
            position.board[target] = Unit(
                REGISTRY.by_letter(letter), 1 - owner if mirror else owner, uncapturable=uncap
            )
        return position

    plain, flipped = make(False), make(True)

    def flip(sq: int) -> int:
        return (sq % 8) + 8 * (7 - sq // 8)

    for sq in placed:
        a = sorted(
            (m.kind, flip(m.to), tuple(flip(c) for c in m.captures)) for m in plain.unit_moves(sq)
        )
        b = sorted((m.kind, m.to, m.captures) for m in flipped.unit_moves(flip(sq)))
        assert a == b
