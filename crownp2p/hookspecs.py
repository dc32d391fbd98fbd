"""The hooks a variant pack implements (pluggy project name ``crownp2p``).

Every hook receives a ``register`` callback and calls it once per thing it adds; the base game
itself is registered by the built-in plugin (crownp2p/builtin.py) through these same hooks. Hooks
are synchronous and return nothing: they hand over data and callables, and the engine calls
those. See docs/plugins.md for a worked example.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pluggy

from .core.rules import Rules
from .core.seats import TWO_SEATS, Seating
from .core.setup import Setup
from .core.units import UnitType

PROJECT = "crownp2p"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -------------------------------------------------------------------------------------------
# What the hooks register besides units and cards
# -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupOption:
    """A word for ``--option``: ``apply`` turns a setup into the one the option asks for."""

    name: str
    help: str
    apply: Callable[[Setup], Setup]


@dataclass(frozen=True)
class Variant:
    """A way to play: its rules, seats and seating, how it changes the setup, and its state."""

    name: str
    help: str
    rules_class: type[Rules] = Rules
    seats: int = 2
    configure: Callable[[Setup], Setup] = lambda setup: setup
    seating: Seating = TWO_SEATS
    # What its rules keep besides the engine's state: a dataclass of plain values, made fresh
    # with no arguments, hashed and saved under the pack's name (game.pack_state(state)).
    state: type[Any] | None = None


# -------------------------------------------------------------------------------------------
# Pieces: units and cards
# -------------------------------------------------------------------------------------------


@hookspec
def crownp2p_units(register: Callable[[UnitType], None]) -> None:
    """Add unit types.

    Call ``register(unit_type)`` for each :class:`crownp2p.core.units.UnitType`: a name, one
    upper-case letter no other unit has, its classes, and its movement as a tuple of movers
    (leapers, riders, steppers... from :mod:`crownp2p.core.movement`). A name or letter that is
    already taken makes the whole pack fail to load, with that reason.
    """


@hookspec
def crownp2p_cards(register: Callable[..., None]) -> None:
    """Add cards.

    Call ``register(card, role)`` for each :class:`crownp2p.core.cards.CardType`, where
    ``role`` is ``"variable"`` (a Supply pile that may be chosen), ``"core"`` (in every
    Supply), ``"starter"`` (in the starting decks) or ``"alternative starter"`` (brought in by
    a setup option). A card's effects are tuples of steps from :mod:`crownp2p.core.steps`, or
    of the pack's own :class:`~crownp2p.core.steps.EffectStep` subclasses.
    """


# -------------------------------------------------------------------------------------------
# Setup: named Supplies and options
# -------------------------------------------------------------------------------------------


@hookspec
def crownp2p_supplies(register: Callable[[str, tuple[str, ...]], None]) -> None:
    """Add named Supplies: ``register(name, piles)``, for ``--supply name``."""


@hookspec
def crownp2p_setup_options(register: Callable[[SetupOption], None]) -> None:
    """Add setup options (``--option name``): ``register(SetupOption(name, help, apply))``,
    where ``apply(setup) -> setup`` returns the changed :class:`~crownp2p.core.setup.Setup`
    (an alternative starter replacing a starting card, say)."""


# -------------------------------------------------------------------------------------------
# Rule policies: variants
# -------------------------------------------------------------------------------------------


@hookspec
def crownp2p_variants(register: Callable[[Variant], None]) -> None:
    """Add variants (``--variant name``): ``register(Variant(...))``.

    A variant names how many seats it needs, how it changes the setup (``configure``), and its
    rule policies: a subclass of :class:`crownp2p.core.rules.Rules` whose methods decide seats
    and sides (``seating``), turn order (``next_seat``), who may command which unit
    (``may_command``, ``is_own``), which units are enemies (the sides of ``seating``), what
    happens when a turn starts and when the orders end (``turn_started``, ``orders_ended``),
    what a seat may see (``sees_hand``), which Supply a seat uses (``supply_index``) and how the
    game is won (``outcome``). One answer wins: a variant's name belongs to one pack.
    """
