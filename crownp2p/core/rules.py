"""The rule set a game runs under: registries and replaceable policies.

The base game's policies live here as methods; a variant pack subclasses :class:`Rules` (or hands
the engine an instance configured by its hooks) to change seats, turn order, who may command
which unit, what a seat may see and how the game is won, without touching the engine.
"""

from __future__ import annotations

from typing import Any

from .cards import CardRegistry
from .position import Unit
from .seats import TWO_SEATS, Seating
from .state import GameState
from .units import UnitRegistry


class Rules:
    def __init__(
        self,
        units: UnitRegistry,
        cards: CardRegistry,
        seating: Seating = TWO_SEATS,
        variable_cards: list[str] | None = None,
        states: dict[str, type[Any]] | None = None,
    ) -> None:
        self.units = units
        self.cards = cards
        self.seating = seating
        self.variable_cards = variable_cards if variable_cards is not None else []
        # The state the policies keep besides the engine's, by namespace: a dataclass of plain
        # values each, made fresh with no arguments (game.packs[namespace]; docs/plugins.md).
        self.states = states or {}

    # ---------------------------------------------------------------- seats and turns

    def first_seat(self) -> int:
        return 0

    def next_seat(self, game: GameState, seat: int) -> int:
        return (seat + 1) % len(self.seating.sides)

    def seat_name(self, seat: int) -> str:
        return self.seating.colour(seat)

    def opponents(self, seat: int) -> list[int]:
        return [s for s in self.seating.seats if self.seating.are_enemies(seat, s)]

    def home_squares(self, seat: int) -> list[str]:
        """Where the seat's starting Sovereign stands."""
        return ["e1"] if self.seating.forward(seat) > 0 else ["e8"]

    def supply_index(self, game: GameState, seat: int) -> int:
        """Which Supply ``seat`` buys and gains from (the team game has one per wing)."""
        return 0

    # ---------------------------------------------------------------- who may do what

    def is_own(self, game: GameState, seat: int, unit: Unit) -> bool:
        """Is ``unit`` one of ``seat``'s own (for "next to one of your units", and the like)?"""
        return self.seating.is_own(seat, unit.owner, unit.kind.is_sovereign)

    def may_command(self, game: GameState, seat: int, unit: Unit, as_order: bool = True) -> bool:
        """May ``seat`` order, move, swap, morph or choose ``unit`` as its own (``as_order``:
        as an order, or by a card played for its Order)?"""
        return unit.owner == seat

    def held_back(self, game: GameState, unit: Unit) -> str | None:
        """Why the variant holds ``unit`` back from orders beyond the engine's own statuses, as
        the rest of a sentence that begins "The Pawn on e2" ("cannot take orders until …"), or
        None when it does not."""
        return None

    def why_not_command(self, game: GameState, seat: int, unit: Unit, as_order: bool = True) -> str:
        """Why :meth:`may_command` refuses: the rest of a sentence that begins "The Pawn on
        e2", such as "is gold's". A pack that changes ``may_command`` says its own reason."""
        return f"is {self.seat_name(unit.owner)}'s"

    # ---------------------------------------------------------------- events

    def turn_started(self, game: GameState, seat: int) -> None:
        """Called when ``seat``'s turn begins, after the engine's own upkeep."""

    def orders_ended(self, game: GameState, seat: int) -> None:
        """Called when ``seat``'s order phase ends; ``game.this_turn.order_moved`` lists the
        units its last order moved."""

    def turn_ended(self, game: GameState, seat: int) -> None:
        """Called when ``seat``'s turn is over, before the next one begins (``game.this_turn``
        is still the ended turn's)."""

    def freeze_beside_capture(self, game: GameState, seat: int, unit: Unit) -> None:
        """A card ``seat`` played captured a unit next to ``unit``, which now cannot take orders
        on its owner's next turn. (The team game lengthens this.)"""
        unit.freeze()

    def protect(self, game: GameState, seat: int, unit: Unit) -> None:
        """A card ``seat`` played makes ``unit`` uncapturable until ``seat``'s next turn."""
        unit.uncapturable = True

    def protection_ends(self, game: GameState, seat: int, unit: Unit) -> bool:
        """``seat``'s turn begins: does the uncapturable ``unit`` lose its protection? In the
        base game only a seat's own units are protected, until its next turn."""
        return unit.owner == seat

    def sees_hand(self, viewer: int, owner: int) -> bool:
        return viewer == owner

    # ---------------------------------------------------------------- the end

    def outcome(self, game: GameState) -> tuple[bool, int | None]:
        """Checked at the end of every turn: (is the game over, winning side or None for a
        draw). A side with no Sovereign on the board has lost."""
        side_of = self.seating.sides
        alive = {  # (the board itself, not units(): this runs every turn)
            side_of[u.owner] for u in filter(None, game.position.board) if u.kind.is_sovereign
        }
        if len(alive) == len(set(side_of)):
            return False, None
        return True, alive.pop() if len(alive) == 1 else None  # the one side left, or a draw
