"""The extended game and the team game, as variants of the base rules."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from crownp2p.core.board import square_name
from crownp2p.core.position import Unit
from crownp2p.core.rules import Rules
from crownp2p.core.seats import Seating
from crownp2p.core.setup import RANDOM_PILES, Setup
from crownp2p.core.state import GameState

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


@dataclass
class TeamState:
    """What the team game's rules remember, beyond the engine's state (``game.pack_state``)."""

    # seat -> the uids of the units it ordered on its latest turn
    last_orders: dict[int, list[int]] = field(default_factory=dict)
    # uid -> seat: the changed Mourning, no orders until that seat's next turn begins
    frozen_until: dict[int, int] = field(default_factory=dict)
    # uid -> seat: a Sovereign an ally protected stays uncapturable until that ally's next turn
    protected_until: dict[int, int] = field(default_factory=dict)


class TeamRules(Rules):
    """Four players in two sides; see docs/all-kings-men.md."""

    def seat_name(self, seat: int) -> str:
        return f"{self.seating.colour(seat)} {CORNERS[seat]}"

    def partner(self, seat: int) -> int:
        return next(
            s for s in self.seating.seats if s != seat and not self.seating.are_enemies(s, seat)
        )

    def home_squares(self, seat: int) -> list[str]:
        # Two Kings in all, one for each side, shared by the allies.
        return super().home_squares(seat) if seat < 2 else []

    def supply_index(self, game: GameState, seat: int) -> int:
        return WINGS[seat]

    def may_command(self, game: GameState, seat: int, unit: Unit, as_order: bool = True) -> bool:
        if unit.owner == seat and not unit.kind.is_sovereign:
            return True
        if not (unit.kind.is_sovereign and self.seating.is_own(seat, unit.owner, True)):
            return False
        # A side's Sovereigns take orders from either ally, but not from one whose partner
        # ordered it on the partner's turn just before.
        last = game.pack_state(TeamState).last_orders.get(self.partner(seat), [])
        return not as_order or unit.uid not in last

    def held_back(self, game: GameState, unit: Unit) -> str | None:
        until = game.pack_state(TeamState).frozen_until.get(unit.uid)
        if until is None:
            return None
        return f"cannot take orders until {self.seat_name(until)}'s next turn begins"

    def why_not_command(self, game: GameState, seat: int, unit: Unit, as_order: bool = True) -> str:
        if unit.kind.is_sovereign and self.seating.is_own(seat, unit.owner, True):
            return "took your ally's order on their turn just before: you cannot order it now"
        if not self.seating.are_enemies(seat, unit.owner):
            ally = self.seat_name(unit.owner)
            return f"is your ally {ally}'s: allies do not command each other's units"
        return super().why_not_command(game, seat, unit, as_order)

    def sees_hand(self, viewer: int, owner: int) -> bool:
        return not self.seating.are_enemies(viewer, owner)

    def freeze_beside_capture(self, game: GameState, seat: int, unit: Unit) -> None:
        # The changed Mourning: until the Mourning player's next turn.
        game.pack_state(TeamState).frozen_until[unit.uid] = seat

    def protect(self, game: GameState, seat: int, unit: Unit) -> None:
        super().protect(game, seat, unit)
        protected = game.pack_state(TeamState).protected_until
        if seat != unit.owner:
            protected[unit.uid] = seat
        else:  # its owner's own protection, as in the base game
            protected.pop(unit.uid, None)

    def protection_ends(self, game: GameState, seat: int, unit: Unit) -> bool:
        return game.pack_state(TeamState).protected_until.get(unit.uid, unit.owner) == seat

    def turn_started(self, game: GameState, seat: int) -> None:
        state = game.pack_state(TeamState)
        for statuses in (state.frozen_until, state.protected_until):
            for uid in [uid for uid, until in statuses.items() if until == seat]:
                del statuses[uid]

    def turn_ended(self, game: GameState, seat: int) -> None:
        game.pack_state(TeamState).last_orders[seat] = sorted(game.this_turn.ordered)

    def orders_ended(self, game: GameState, seat: int) -> None:
        # Shield counters: an enemy unit moved by the last order of the turn cannot be
        # captured until its owner's next turn begins.
        for sq, unit in game.position.units():
            if unit.uid in game.this_turn.order_moved and self.seating.are_enemies(
                seat, unit.owner
            ):
                self.protect(game, unit.owner, unit)
                game.note(
                    f"{self.seat_name(seat)}: a shield counter goes on the {unit.kind.name} "
                    f"on {square_name(sq)}"
                )
