"""Turns as players count them.

The engine numbers every seat's turn in one count (a ply: blue's second turn is the game's
turn 3), and the record keeps that count. Players count their own turns: each seat plays one
turn per round, in a fixed order, so a seat's Nth turn is "turn N" — the round it belongs to.
"""

from __future__ import annotations

import re

from ..core.game import Game

__all__ = ["players_turn", "renumbered"]

_HEADING = re.compile(r"turn (\d+): ")


def players_turn(game: Game, turn: int | None = None) -> int:
    """The game's ``turn`` (by default the current one) as its player counts it."""
    ply = game.turn if turn is None else turn
    return (ply - 1) // len(game.rules.seating.seats) + 1


def renumbered(game: Game, line: str) -> str:
    """A log line, its turn heading ("turn 37: blue") counted as players count."""
    found = _HEADING.match(line)
    if found is None:
        return line
    return f"turn {players_turn(game, int(found.group(1)))}: {line[found.end() :]}"
