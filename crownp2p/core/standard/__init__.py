"""The second edition's own units and cards, registered by the built-in plugin."""

from __future__ import annotations

from ..cards import CardRegistry
from ..rules import Rules
from ..units import UnitRegistry
from .cards import STANDARD_CARDS, VARIABLE_NAMES
from .units import STANDARD_UNITS


def unit_registry() -> UnitRegistry:
    """A fresh registry holding the 24 second-edition unit types."""
    return UnitRegistry(STANDARD_UNITS)


def card_registry() -> CardRegistry:
    """A fresh registry holding the 33 second-edition cards."""
    return CardRegistry(STANDARD_CARDS)


def standard_rules() -> Rules:
    """The base game: two seats, the 24 units and the 33 cards."""
    return Rules(
        unit_registry(),
        card_registry(),
        variable_cards=list(VARIABLE_NAMES),
    )
