"""A whole game sampled from what one seat may see: the start of any search that must not peek.

A view (``Game.view``) hides the other hands and every deck's order but gives each player's
``unseen`` cards, public by counting. :func:`determinize` deals those out again from a seed —
the glimpsed cards back into their hand, the cards the seat knows lie on top of a deck (a
:class:`KnownTops`) back on top, the rest at random — and returns a legal game that the seat
cannot tell from the true one. Two true games with the same view give the same samples.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .rules import Rules

# What a view adds to the explicit state, and what it leaves out of it.
_VIEW_ONLY = ("seat", "prompt", "legal")


@dataclass
class KnownTops:
    """The cards a seat knows lie on top of each deck, top first; ``None`` marks a card put
    there that it did not see. Fed the deck sizes of each view after a step (:meth:`update`)
    and what the seat itself put on top (:meth:`put`)."""

    tops: dict[int, list[str | None]] = field(default_factory=dict)
    sizes: dict[int, int] = field(default_factory=dict)

    def update(self, view: dict[str, Any], *, shuffled: bool) -> None:
        """Cards leave a deck only from its top; a deck that grew by a shuffle is all new."""
        for seat, player in enumerate(view["players"]):
            size, before = player["deck"], self.sizes.get(seat, player["deck"])
            tops = self.tops.setdefault(seat, [])
            if size < before:
                del tops[: before - size]
            elif size > before:
                if shuffled:
                    tops.clear()
                else:
                    tops[:0] = [None] * (size - before)
            self.sizes[seat] = size

    def put(self, seat: int, name: str) -> None:
        """``name`` is now the top card of ``seat``'s deck (call after :meth:`update`)."""
        tops = self.tops.setdefault(seat, [])
        if tops and tops[0] is None:
            tops[0] = name
        elif not tops:
            tops.append(name)


def determinize(
    rules: Rules, view: dict[str, Any], seed: int | str, tops: KnownTops | None = None
) -> Game:
    """A game consistent with ``view`` (between card effects: a view keeps no mid-card state),
    its hidden cards dealt from ``seed``."""
    if view["stack"]:
        raise ValueError("a game can be sampled from a view only between card effects")
    rng = random.Random(f"determinize:{seed}")
    known = tops.tops if tops is not None else {}
    glimpsed: dict[int, list[str]] = {}
    for viewer, seen in view["this_turn"]["glimpses"]:
        if viewer == view["seat"]:
            glimpsed.update({seat: names for seat, names in seen})
    data = {key: value for key, value in view.items() if key not in _VIEW_ONLY}
    data["players"] = [
        _deal(player, known.get(seat, []), glimpsed.get(seat, []), rng)
        for seat, player in enumerate(view["players"])
    ]
    return Game.from_json(rules, data)


def _deal(
    player: dict[str, Any], tops: list[str | None], glimpse: list[str], rng: random.Random
) -> dict[str, list[str]]:
    """One player's zones: the unseen cards split between a hidden hand and the deck."""
    pool = list(player["unseen"])
    size = player["deck"]
    top: list[str | None] = []
    for name in tops[:size]:  # a stale memory (a card no longer there) is forgotten
        top.append(_take(pool, name) if name is not None else None)
    hand = player.get("hand")
    if hand is None:
        hand = []
        for name in glimpse:  # the glimpsed hand, as far as it can still be there
            if len(hand) < player["hand_size"] and _take(pool, name) is not None:
                hand.append(name)
        rng.shuffle(pool)
        wanted = player["hand_size"] - len(hand)
        hand, pool = sorted(hand + pool[:wanted]), pool[wanted:]
    rng.shuffle(pool)
    deck = [name if name is not None else pool.pop() for name in top] + pool
    return {"deck": deck, "hand": hand, "discard": player["discard"], "in_play": player["in_play"]}


def _take(pool: list[str], name: str) -> str | None:
    if name in pool:
        pool.remove(name)
        return name
    return None


__all__ = ["KnownTops", "determinize"]
