"""The base game, registered as a plugin through the same hooks as any variant pack."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .core.cards import CardType
from .core.setup import NAMED_SUPPLIES, replace_starter
from .core.standard.cards import CORE, STARTERS, VARIABLE
from .core.standard.units import STANDARD_UNITS
from .core.units import UnitType
from .hookspecs import SetupOption, Variant, hookimpl


@hookimpl
def crownp2p_units(register: Callable[[UnitType], None]) -> None:
    for unit in STANDARD_UNITS:
        register(unit)


@hookimpl
def crownp2p_cards(register: Callable[[CardType, str], None]) -> None:
    for card in STARTERS:
        register(card, "alternative starter" if card.name == "Squire" else "starter")
    for card in CORE:
        register(card, "core")
    for card in VARIABLE:
        register(card, "variable")


@hookimpl
def crownp2p_supplies(register: Callable[[str, tuple[str, ...]], None]) -> None:
    for name, piles in NAMED_SUPPLIES.items():
        register(name, piles)


@hookimpl
def crownp2p_setup_options(register: Callable[[SetupOption], None]) -> None:
    register(
        SetupOption(
            "squire",
            "a Squire replaces one Guard in every starting deck",
            replace_starter("Guard", "Squire"),
        )
    )
    register(
        SetupOption(
            "anointed",
            "both sides start with an Anointed instead of the King",
            lambda s: replace(s, sovereign="Anointed"),
        )
    )


@hookimpl
def crownp2p_variants(register: Callable[[Variant], None]) -> None:
    register(Variant("standard", "the second-edition game for two players"))
