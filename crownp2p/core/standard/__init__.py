"""The second edition's own units and cards, registered by the built-in plugin."""

from ..units import UnitRegistry
from .units import STANDARD_UNITS


def unit_registry() -> UnitRegistry:
    """A fresh registry holding the 24 second-edition unit types."""
    return UnitRegistry(STANDARD_UNITS)
