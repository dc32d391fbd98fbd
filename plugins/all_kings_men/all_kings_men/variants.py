"""The extended game and the team game, as variants of the base rules."""

from __future__ import annotations

from dataclasses import replace

from crownp2p.core.board import square_name
from crownp2p.core.game import Game
from crownp2p.core.position import Unit
from crownp2p.core.rules import Rules
from crownp2p.core.seats import Seating
from crownp2p.core.setup import RANDOM_PILES, Setup

# ------------------------------------------------------------------------------ extended game


def extended(piles: int, factor: float):
    """More variable piles, and ``factor`` times every starting and core card."""

    def configure(setup: Setup) -> Setup:
        deck = tuple((n, round(c * factor)) for n, c in setup.starting_deck)
        core = tuple((n, round(c * factor)) for n, c in setup.core_piles)
        # A named Supply of 10 piles is filled up to ``piles`` at random.
        return replace(setup, starting_deck=deck, core_piles=core, fill_piles=piles)

    return configure


# ------------------------------------------------------------------------------ team game

# Seats in turn order, which is the hourglass: south-west, north-east (diagonally across),
# south-east, north-west. Blue (side 0) sits south and plays up from rank 1.
CORNERS = ("south-west", "north-east", "south-east", "north-west")
TEAM_SEATING = Seating(sides=(0, 1, 0, 1), shared_sovereigns=True)
WINGS = (0, 1, 1, 0)  # west, east: each wing buys from its own Supply


def team_setup(setup: Setup) -> Setup:
    """Two Supplies, one per wing, each with the core piles and its own variable piles: a named
    Supply goes to the west wing and the east wing's piles are drawn at random; a random Supply
    draws both. Every variable pile of the game is different."""
    return replace(setup, supply_count=2, fill_piles=max(setup.fill_piles, RANDOM_PILES))


class TeamRules(Rules):
    """Four players in two sides; see docs/all-kings-men.md."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        kwargs["seating"] = TEAM_SEATING
        super().__init__(*args, **kwargs)

    def seat_name(self, seat: int) -> str:
        return f"{self.seating.colour(seat)} {CORNERS[seat]}"

    def partner(self, seat: int) -> int:
        return next(
            s for s in self.seating.seats if s != seat and not self.seating.are_enemies(s, seat)
        )

    def home_squares(self, seat: int) -> list[str]:
        # Two Kings in all, one for each side, shared by the allies.
        return super().home_squares(seat) if seat < 2 else []

    def supply_index(self, game: Game, seat: int) -> int:
        return WINGS[seat]

    def may_command(self, game: Game, seat: int, unit: Unit, as_order: bool = True) -> bool:
        if unit.owner == seat and not unit.kind.is_sovereign:
            return True
        if not (unit.kind.is_sovereign and self.seating.is_own(seat, unit.owner, True)):
            return False
        # A side's Sovereigns take orders from either ally, but not from one whose partner
        # ordered it on the partner's turn just before.
        return not as_order or unit.uid not in game.last_orders[self.partner(seat)]

    def sees_hand(self, viewer: int, owner: int) -> bool:
        return not self.seating.are_enemies(viewer, owner)

    def freeze_after_capture(self, game: Game, seat: int, unit: Unit) -> None:
        # The changed Mourning: until the Mourning player's next turn.
        unit.frozen_until = seat

    def orders_ended(self, game: Game, seat: int) -> None:
        # Shield counters: an enemy unit moved by the last order of the turn cannot be
        # captured until its owner's next turn begins.
        for sq, unit in game.position.units():
            if unit.uid in game.order_moved and self.seating.are_enemies(seat, unit.owner):
                unit.protect_until(unit.owner)
                game.note(
                    f"{self.seat_name(seat)}: a shield counter goes on the {unit.kind.name} "
                    f"on {square_name(sq)}"
                )
