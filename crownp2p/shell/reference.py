"""Reference commands: ``units`` and ``moves``."""

from __future__ import annotations

import argparse
import json

from ..core.board import parse_square, square_name
from ..core.position import Position, PositionError
from ..core.standard import unit_registry
from .cli import CommandError


def units_command(args: argparse.Namespace) -> int:
    registry = unit_registry()
    if args.json:
        print(
            json.dumps(
                [
                    {"name": u.name, "letter": u.letter, "classes": [c.value for c in u.classes]}
                    for u in registry
                ]
            )
        )
        return 0
    width = max(len(u.name) for u in registry)
    for u in registry:
        print(f"{u.letter}  {u.name:<{width}}  {', '.join(c.value for c in u.classes)}")
    return 0


def moves_command(args: argparse.Namespace) -> int:
    registry = unit_registry()
    try:
        position = Position.from_fen(args.position, registry)
    except PositionError as err:
        raise CommandError(f"bad position: {err}") from None
    try:
        sq = parse_square(args.square)
    except ValueError as err:
        raise CommandError(str(err)) from None
    unit = position.board[sq]
    if unit is None:
        raise CommandError(f"there is no unit on {square_name(sq)}")
    moves = position.unit_moves(sq)
    march = sorted({square_name(m.to) for m in moves if m.kind != "attack"})
    attack = sorted({square_name(c) for m in moves for c in m.captures})
    if args.json:
        print(
            json.dumps(
                {
                    "square": square_name(sq),
                    "unit": unit.kind.name,
                    "owner": unit.owner,
                    "march": march,
                    "attack": attack,
                }
            )
        )
        return 0
    colour = position.seating.colour(unit.owner)
    print(f"{colour} {unit.kind.name} on {square_name(sq)}")
    swaps = any(m.kind == "swap" for m in moves)
    print(f"  {'swap with' if swaps else 'march to'}: {' '.join(march) or '(none)'}")
    print(f"  attack: {' '.join(attack) or '(none)'}")
    return 0
