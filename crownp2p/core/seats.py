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
    shared_sovereigns: bool = False  # the team game: a side's Sovereigns belong to both allies

    @property
    def seats(self) -> range:
        return range(len(self.sides))

    def forward(self, seat: int) -> int:
        return 1 if self.sides[seat] == 0 else -1

    def are_enemies(self, a: int, b: int) -> bool:
        return self.sides[a] != self.sides[b]

    def is_own(self, seat: int, owner: int, sovereign: bool = False) -> bool:
        """Does a unit of ``owner`` count as ``seat``'s own?"""
        if owner == seat:
            return True
        return self.shared_sovereigns and sovereign and self.sides[owner] == self.sides[seat]

    def colour(self, seat: int) -> str:
        return COLOURS[self.sides[seat]]


TWO_SEATS = Seating()
