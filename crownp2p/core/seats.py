"""Seats (players) and sides (teams), and which way each side faces.

The base game has two seats on two sides. A variant with more seats (the team game) supplies its
own :class:`Seating`; nothing else in the engine assumes two.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("blue", "gold")


@dataclass(frozen=True)
class Seating:
    """``sides[seat]`` is that seat's side; side 0 plays up the board from rank 1, side 1 down."""

    sides: tuple[int, ...] = (0, 1)

    @property
    def seats(self) -> range:
        return range(len(self.sides))

    def forward(self, seat: int) -> int:
        return 1 if self.sides[seat] == 0 else -1

    def are_enemies(self, a: int, b: int) -> bool:
        return self.sides[a] != self.sides[b]

    def colour(self, seat: int) -> str:
        return COLOURS[self.sides[seat]]


TWO_SEATS = Seating()
