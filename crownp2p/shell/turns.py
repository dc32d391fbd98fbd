"""Turns as players count them.

The engine numbers every seat's turn in one count (a ply: blue's second turn is the game's
turn 3), and the record keeps that count. Players count their own turns: each seat plays one
turn per round, in a fixed order, so a seat's Nth turn is "turn N" — the round it belongs to.
"""

from __future__ import annotations

import re

from ..core.game import Game
from ..core.rules import Rules

__all__ = ["players_turn", "renumbered", "turn_limit"]

_HEADING = re.compile(r"turn (\d+): ")


def players_turn(rules: Rules, ply: int) -> int:
    """The game's turn ``ply`` as its player counts it."""
    return (ply - 1) // len(rules.seating.seats) + 1


def turn_limit(rules: Rules, turns_each: int) -> int:
    """The engine's turn limit (``Play``'s ``max_turns``, 0: none) for a game stopped once
    every seat has played ``turns_each`` turns."""
    return turns_each * len(rules.seating.seats)


def renumbered(game: Game, line: str) -> str:
    """A log line, its turn heading ("turn 37: blue") counted as players count."""
    found = _HEADING.match(line)
    if found is None:
        return line
    return f"turn {players_turn(game.rules, int(found.group(1)))}: {line[found.end() :]}"
