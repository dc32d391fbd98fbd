"""The 24 unit types of the second edition, as movement descriptions.

Offsets are (sideways, forward) from the owner's point of view; see ../movement.py.
"""

from __future__ import annotations

from ..movement import (
    ATTACK,
    DIAGONAL,
    KING_STEPS,
    KNIGHT,
    MARCH,
    STRAIGHT,
    Charge,
    DoubleLeap,
    KingSteps,
    Leap,
    PawnPush,
    Ride,
    StepThenRide,
    SwapWithOwn,
    symmetric,
)
from ..units import UnitClass, UnitType

FOOT, HEAVY, MOUNTED = UnitClass.FOOT, UnitClass.HEAVY, UnitClass.MOUNTED
PIOUS, REGAL, SOVEREIGN = UnitClass.PIOUS, UnitClass.REGAL, UnitClass.SOVEREIGN

# Gryphon: a diagonal step, then outward along either straight component of that step.
GRYPHON_PATHS = tuple(((dx, dy), ((dx, 0), (0, dy))) for dx, dy in DIAGONAL)
# Sphinx: a straight step, then outward along either diagonal that continues it.
SPHINX_PATHS = tuple(((dx, dy), ((dx or 1, dy or 1), (dx or -1, dy or -1))) for dx, dy in STRAIGHT)

STANDARD_UNITS: tuple[UnitType, ...] = (
    UnitType("Pawn", "P", (FOOT,), (PawnPush(), Leap(((1, 1), (-1, 1)), ATTACK))),
    UnitType("Knight", "N", (MOUNTED,), (Leap(KNIGHT),)),
    UnitType("Bishop", "B", (PIOUS,), (Ride(DIAGONAL),)),
    UnitType("Rook", "R", (HEAVY,), (Ride(STRAIGHT),)),
    UnitType("Queen", "Q", (REGAL,), (Ride(KING_STEPS),)),
    UnitType("King", "K", (SOVEREIGN,), (Leap(KING_STEPS),)),
    UnitType("Spy", "S", (HEAVY,), (SwapWithOwn(), Leap(KING_STEPS, ATTACK))),
    UnitType("Warlord", "W", (HEAVY,), (KingSteps(2),)),
    UnitType(
        "Oracle",
        "O",
        (PIOUS,),
        (Leap(DIAGONAL, MARCH), Ride(KING_STEPS, ATTACK, reach=2, nearest=2, in_place=True)),
    ),
    UnitType("Gryphon", "G", (HEAVY, REGAL), (StepThenRide(GRYPHON_PATHS),)),
    UnitType("Chancellor", "C", (REGAL,), (Ride(STRAIGHT), Leap(KNIGHT))),
    UnitType("Anointed", "A", (PIOUS, SOVEREIGN), (Ride(DIAGONAL, reach=2),)),
    UnitType(
        "Acolyte",
        "Y",
        (PIOUS,),
        (Leap(DIAGONAL + tuple((2 * dx, 2 * dy) for dx, dy in DIAGONAL) + ((2, 0), (-2, 0))),),
    ),
    UnitType("Phantom", "F", (MOUNTED, REGAL), (DoubleLeap(KNIGHT),)),
    UnitType("Hero", "H", (MOUNTED,), (Leap(symmetric(1, 3) + symmetric(2, 3)),)),
    UnitType("Banshee", "E", (REGAL,), (Ride(DIAGONAL), Ride(KNIGHT))),
    UnitType("Charger", "J", (HEAVY,), (Charge(STRAIGHT, 3),)),
    UnitType("Dragoon", "D", (MOUNTED, REGAL), (Leap(KING_STEPS), Leap(KNIGHT))),
    UnitType("Immortal", "I", (FOOT,), (Leap(KING_STEPS),), returns_to_barracks=True),
    UnitType("Monk", "M", (FOOT, PIOUS), (Leap(DIAGONAL), Ride(STRAIGHT, reach=2, nearest=2))),
    UnitType("Nightrider", "V", (MOUNTED,), (Ride(KNIGHT),)),
    UnitType(
        "Sniper",
        "Z",
        (HEAVY,),
        (Ride(KING_STEPS, MARCH, reach=2), Ride(KING_STEPS, ATTACK, nearest=2)),
    ),
    UnitType("Sphinx", "X", (PIOUS, REGAL), (StepThenRide(SPHINX_PATHS),)),
    UnitType(
        "Striker",
        "T",
        (FOOT,),
        (Leap(((0, 1), (1, 1), (-1, 1))), Ride(((0, -1),), MARCH)),
    ),
)
