"""What lasts one turn: one value, replaced whole when the next turn begins.

Nothing here is reset field by field: :meth:`Mechanics.begin_turn` makes a fresh
:class:`TurnState`, so a counter a card adds cannot outlive its turn by a forgotten reset. The
defaults are the start of a turn, which is also what the explicit-state loader assumes for a
missing field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import ORDER


@dataclass(slots=True)
class TurnState:
    phase: str = ORDER  # order, action, buy, housekeeping; setup before the first turn, over
    orders: int = 1  # left this turn
    actions: int = 1
    buys: int = 1
    gold: int = 0
    discount: int = 0  # off every cost (Quartermaster)
    treasures: int = 0  # treasure effects played (Legend)
    bought: bool = False  # a card was bought: no more Treasures
    ordered: list[int] = field(default_factory=list)  # uids given an order
    order_moved: list[int] = field(default_factory=list)  # uids the current order moved
    # unit types back in the Barracks after their order this turn (recalled, an Immortal captured)
    recalled: list[str] = field(default_factory=list)
    glimpses: dict[int, dict[int, list[str]]] = field(
        default_factory=dict
    )  # viewer -> seat -> hand
    revealed: list[str] = field(default_factory=list)  # cards shown to everyone (False Orders)

    def copy(self) -> TurnState:
        """An independent copy (a search plays on from it), without a generic deep copy."""
        glimpses = {
            viewer: {seat: list(hand) for seat, hand in seen.items()}
            for viewer, seen in self.glimpses.items()
        }
        return TurnState(
            self.phase,
            self.orders,
            self.actions,
            self.buys,
            self.gold,
            self.discount,
            self.treasures,
            self.bought,
            list(self.ordered),
            list(self.order_moved),
            list(self.recalled),
            glimpses,
            list(self.revealed),
        )
