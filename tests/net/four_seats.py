"""Four-seat rules for the network's tests, whatever packs are installed (bench/net_latency.py
plays the pack's team game instead)."""

from __future__ import annotations

from crownp2p.core.rules import Rules
from crownp2p.core.seats import Seating
from crownp2p.core.standard import card_registry, unit_registry
from crownp2p.core.standard.cards import VARIABLE_NAMES


class FourSeats(Rules):
    """A four-seat team game whatever packs are installed: seats 0 and 2 against 1 and 3; only
    seats 0 and 1 have a Sovereign."""

    def home_squares(self, seat: int) -> list[str]:
        return super().home_squares(seat) if seat < 2 else []


def four_seat_rules() -> Rules:
    return FourSeats(unit_registry(), card_registry(), Seating((0, 1, 0, 1)), list(VARIABLE_NAMES))
