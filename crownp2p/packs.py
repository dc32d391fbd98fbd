"""Variant packs: finding them, loading them, and building a game's rules from what they add.

Packs are pip-installed distributions with an entry point in the group ``crownp2p``. We loop
over the entry points ourselves so that one broken pack is reported in one line and skipped,
never a crash; ``check_pending()`` turns a misspelled hook into such a report.
``CROWNP2P_PACKS`` limits which packs load: a comma-separated list of pack names, or ``none``
(the built-in base game always loads).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from importlib import metadata
from typing import Any

import pluggy

from . import __version__, hookspecs
from .core.cards import CardRegistry, CardType
from .core.rules import Rules
from .core.setup import Setup
from .core.units import UnitRegistry, UnitType
from .hookspecs import SetupOption, Variant

ENTRY_POINT_GROUP = "crownp2p"
ENV_PACKS = "CROWNP2P_PACKS"
ROLES = ("starter", "core", "variable", "alternative starter")


@dataclass
class Pack:
    """One loaded pack and what it provides."""

    name: str
    version: str
    provides: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "provides": list(self.provides)}


class PackError(Exception):
    """A pack that cannot be used; the message is one sentence."""


@dataclass
class Catalog:
    """Everything the loaded packs provide, merged."""

    units: UnitRegistry = field(default_factory=UnitRegistry)
    cards: CardRegistry = field(default_factory=CardRegistry)
    roles: dict[str, str] = field(default_factory=dict)  # card name -> role
    supplies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    options: dict[str, SetupOption] = field(default_factory=dict)
    variants: dict[str, Variant] = field(default_factory=dict)
    variant_packs: dict[str, str] = field(default_factory=dict)  # variant name -> its pack
    packs: list[Pack] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line per pack that failed

    def cards_with(self, role: str) -> list[str]:
        return [name for name, r in self.roles.items() if r == role]

    def rules(self, variant: str = "standard") -> Rules:
        """The rules of a game of ``variant``, with every loaded unit and card."""
        try:
            v = self.variants[variant]
        except KeyError:
            names = ", ".join(self.variants)
            raise PackError(f"there is no variant called {variant!r}: choose {names}") from None
        return v.rules_class(
            self.units,
            self.cards,
            v.seating,
            variable_cards=self.cards_with("variable"),
            states={self.variant_packs[variant]: v.state} if v.state else {},
        )

    def setup(
        self,
        supply: str = "first-game",
        *,
        variant: str = "standard",
        options: Iterable[str] = (),
    ) -> Setup:
        """A setup from command-line words; raises PackError with a sentence for the user."""
        from .core.setup import parse_supply

        if variant not in self.variants:
            raise PackError(
                f"there is no variant called {variant!r}: choose {', '.join(self.variants)}"
            )
        key = supply.strip().lower()
        if key in self.supplies:
            setup = Setup(piles=self.supplies[key])
        else:
            try:
                setup = parse_supply(supply, self.cards_with("variable"), self.cards.names())
            except ValueError as err:
                raise PackError(str(err)) from None
        setup = replace(setup, variant=variant)
        setup = _guarded(f"the {variant} variant", self.variants[variant].configure, setup)
        for name in options:
            option = self.options.get(name.strip().lower())
            if option is None:
                known = ", ".join(self.options) or "none are installed"
                raise PackError(f"there is no setup option called {name!r} ({known})")
            if option.name in setup.options:  # each replaces one starting card, once
                raise PackError(f"the {option.name} option is given twice")
            setup = _guarded(f"the {option.name} option", option.apply, setup)
            setup = replace(setup, options=(*setup.options, option.name))
        return setup


def _guarded(what: str, change: Callable[[Setup], Setup], setup: Setup) -> Setup:
    """Run a pack's setup code; whatever goes wrong in it becomes one sentence."""
    try:
        result = change(setup)
    except Exception as err:
        raise PackError(f"{what} cannot be set up: {_sentence(err)}") from None
    if not isinstance(result, Setup):
        raise PackError(f"{what} cannot be set up: it did not return a Setup")
    return result


def _plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return pm


def _collect(catalog: Catalog, pm: pluggy.PluginManager, plugin: object, pack: Pack) -> None:
    """Call one plugin's hooks into a scratch catalog first, so a failure adds nothing."""
    units: list[UnitType] = []
    cards: list[tuple[CardType, str]] = []
    supplies: list[tuple[str, tuple[str, ...]]] = []
    options: list[SetupOption] = []
    variants: list[Variant] = []

    def card(c: CardType, role: str = "variable") -> None:
        if role not in ROLES:
            raise PackError(f"card {c.name!r} has role {role!r}; use one of {', '.join(ROLES)}")
        cards.append((c, role))

    registers: dict[str, Callable[..., None]] = {
        "crownp2p_units": units.append,
        "crownp2p_cards": card,
        "crownp2p_supplies": lambda name, piles: supplies.append((name, tuple(piles))),
        "crownp2p_setup_options": options.append,
        "crownp2p_variants": variants.append,
    }
    for hook_name, register in registers.items():
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            if impl.plugin is plugin:
                impl.function(register=register)
    # Check everything before adding anything.
    unit_check = UnitRegistry(catalog.units)
    for u in units:
        unit_check.register(u)
    card_check = CardRegistry(catalog.cards)
    for c, _ in cards:
        card_check.register(c)
    for name, _ in supplies:
        if name.lower() in catalog.supplies:
            raise PackError(f"a Supply named {name!r} is already registered")
    for o in options:
        if o.name.lower() in catalog.options:
            raise PackError(f"a setup option named {o.name!r} is already registered")
    for v in variants:
        if v.name in catalog.variants:
            raise PackError(f"a variant named {v.name!r} is already registered")
    known_units = {u.name.lower() for u in unit_check}
    for c, _ in cards:
        if c.trains and c.trains.lower() not in known_units:
            raise PackError(f"card {c.name!r} trains {c.trains!r}, which is no known unit")
    catalog.units = unit_check
    catalog.cards = card_check
    for c, role in cards:
        catalog.roles[c.name] = role
    catalog.supplies.update((n.lower(), p) for n, p in supplies)
    catalog.options.update((o.name.lower(), o) for o in options)
    catalog.variants.update((v.name, v) for v in variants)
    catalog.variant_packs.update((v.name, pack.name) for v in variants)
    pack.provides = (
        [f"unit:{u.name}" for u in units]
        + [f"card:{c.name}" for c, _ in cards]
        + [f"supply:{n}" for n, _ in supplies]
        + [f"option:{o.name}" for o in options]
        + [f"variant:{v.name}" for v in variants]
    )


def _allowed() -> set[str] | None:
    value = os.environ.get(ENV_PACKS)
    if value is None:
        return None
    words = {w.strip().lower() for w in value.split(",") if w.strip()}
    return set() if words <= {"none"} else words


def _given(plugin: object) -> Callable[[], object]:
    return lambda: plugin


def load(extra: Iterable[tuple[str, object]] = (), *, entry_points: bool = True) -> Catalog:
    """Load the built-in base game, every installed pack the environment allows, and
    ``extra`` (name, plugin) pairs (tests register packs this way)."""
    from . import builtin

    catalog = Catalog()
    pm = _plugin_manager()
    sources: list[tuple[str, str, Callable[[], object]]] = [
        ("crownp2p", __version__, lambda: builtin)
    ]
    if entry_points:
        allowed = _allowed()
        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            if allowed is not None and ep.name.lower() not in allowed:
                continue
            version = ep.dist.version if ep.dist is not None else "unknown"
            sources.append((ep.name, version, ep.load))
    sources += [(name, "test", _given(plugin)) for name, plugin in extra]
    for name, version, get in sources:
        pack = Pack(name, version)
        plugin: object = None
        try:
            plugin = get()
            pm.register(plugin, name=name)
            pm.check_pending()
            _collect(catalog, pm, plugin, pack)
        except Exception as err:  # a broken pack is reported and skipped, whatever it did
            if plugin is not None and pm.is_registered(plugin):
                pm.unregister(plugin)
            catalog.problems.append(f"variant pack {name!r} was skipped: {_sentence(err)}")
            continue
        catalog.packs.append(pack)
    return catalog


def _sentence(err: BaseException) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return f"{type(err).__name__}: {text}" if not isinstance(err, (PackError, ValueError)) else text


def installed_packs(catalog: Catalog) -> list[tuple[str, str]]:
    """(name, version) of every loaded pack, for the peers' handshake."""
    return [(p.name, p.version) for p in catalog.packs]
