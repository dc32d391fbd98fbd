"""The hooks: what All the King's Men adds to crownp2p."""

from __future__ import annotations

from collections.abc import Callable

from crownp2p.core.cards import CardType
from crownp2p.core.setup import replace_starter
from crownp2p.hookspecs import SetupOption, Variant, hookimpl

from .starters import ALTERNATIVE_STARTERS
from .variants import TEAM_SEATING, TeamRules, TeamState, extended, team_setup


@hookimpl
def crownp2p_cards(register: Callable[[CardType, str], None]) -> None:
    for card in ALTERNATIVE_STARTERS:
        register(card, "alternative starter")


@hookimpl
def crownp2p_setup_options(register: Callable[[SetupOption], None]) -> None:
    register(
        SetupOption(
            "conscript",
            "a Conscript replaces one Peon in every starting deck",
            replace_starter("Peon", "Conscript"),
        )
    )
    register(
        SetupOption(
            "watchman",
            "a Watchman replaces one Guard in every starting deck",
            replace_starter("Guard", "Watchman"),
        )
    )
    register(
        SetupOption(
            "advisor",
            "an Advisor replaces one Guard in every starting deck",
            replace_starter("Guard", "Advisor"),
        )
    )


@hookimpl
def crownp2p_variants(register: Callable[[Variant], None]) -> None:
    register(
        Variant(
            "extended-13",
            "the extended game: 13 variable piles, 50% more starting and core cards",
            configure=extended(13, 1.5),
        )
    )
    register(
        Variant(
            "extended-16",
            "the extended game: 16 variable piles, twice the starting and core cards",
            configure=extended(16, 2.0),
        )
    )
    register(
        Variant(
            "team",
            "the team game: four players, two against two",
            TeamRules,
            seats=4,
            configure=team_setup,
            seating=TEAM_SEATING,
            state=TeamState,
        )
    )
