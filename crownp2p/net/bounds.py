"""The bounds a joiner holds the host's table to, before it builds anything from it.

The message schema (messages.py) checks each field's type; these check that the setup and the
timeouts make a game this peer can play in sane memory and time — so a rogue host cannot make
a joiner build a deck of two million cards, wait a day for a reveal, or play a card its engine
does not know. docs/protocol.md lists the same bounds. Each refusal is one sentence saying what
was wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.rules import Rules
from ..core.setup import Setup
from .messages import MAX_DECK as MAX_DECK_PASS

MAX_DECK = 100  # cards in a seat's starting deck
MAX_PILE = 100  # cards in one Supply pile
MAX_SEALED = MAX_DECK_PASS  # every card of a sealed game: one pass carries a whole deck
MAX_PILES = 40  # variable Supply piles, all Supplies together
MAX_HAND = 20  # cards a seat draws for its hand
MAX_SUPPLIES = 4
REVEAL = (1.0, 600.0)  # seconds a commitment or reveal may take
CLOCK = (1.0, 86_400.0)  # seconds a decision may take (or no clock)
RECONNECT = (1.0, 3_600.0)  # seconds a peer's link may stay down
DEFAULT_CLOCK = 300.0  # generous for a person thinking; `--clock none` for a friendly table


class OutOfBounds(ValueError):
    """What is wrong with a table, in one sentence."""


def check_setup(setup: Setup, rules: Rules) -> None:
    """Refuse a setup that is too big to build, or names what our engine does not know."""
    deck = sum(count for _, count in setup.starting_deck)
    _within("the starting deck", deck, 1, MAX_DECK, "cards")
    for name, count in setup.core_piles:
        _within(f"the {name} pile", count, 0, MAX_PILE, "cards")
    _within("each variable pile", setup.pile_size, 0, MAX_PILE, "cards")
    _within("the hand size", setup.hand_size, 1, MAX_HAND, "cards")
    _within("the number of Supplies", setup.supply_count, 1, MAX_SUPPLIES, "")
    piles = len(setup.piles) + sum(len(more) for more in setup.more_piles)
    _within("the Supply", max(piles, setup.fill_piles), 0, MAX_PILES, "variable piles")
    if setup.sealed:  # every card could end up in one seat's deck, sent in one pass
        cards = deck + sum(c for _, c in setup.core_piles) * setup.supply_count
        cards += setup.pile_size * max(piles, setup.fill_piles * setup.supply_count)
        _within("every card of a sealed game", cards, 1, MAX_SEALED, "cards")
    for name in _card_names(setup):
        if name not in rules.cards:
            raise OutOfBounds(f"the setup names a card this engine does not know: {name!r:.80}")
    if setup.sovereign not in rules.units:
        raise OutOfBounds(
            f"the setup names a unit this engine does not know: {setup.sovereign!r:.80}"
        )


def check_seat(seat: int, host: int, players: int) -> None:
    """A joiner's seat and the host's are two of the table's."""
    for whose, n in (("us", seat), ("the host", host)):
        if not 0 <= n < players:
            raise OutOfBounds(
                f"the table gives {whose} seat {n}, but its seats are 0 to {players - 1}"
            )
    if seat == host:
        raise OutOfBounds(f"the table gives us seat {seat}, the host's own")


def check_timeout(what: str, seconds: float, bounds: tuple[float, float]) -> None:
    low, high = bounds
    if not low <= seconds <= high:
        raise OutOfBounds(f"the {what} is {seconds:g} s; this peer accepts {low:g} to {high:g} s")


def _within(what: str, n: int, low: int, high: int, unit: str) -> None:
    if not low <= n <= high:
        unit = f" {unit}" if unit else ""
        raise OutOfBounds(f"{what} is {n:,}{unit}; this peer accepts {low} to {high}")


def _card_names(setup: Setup) -> Iterator[Any]:
    yield from setup.piles
    for more in setup.more_piles:
        yield from more
    for name, _ in (*setup.starting_deck, *setup.core_piles):
        yield name
