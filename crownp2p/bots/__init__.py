"""Bots choose among the engine's legal decisions; they import core only.

The bots by name: :func:`make_bot` is the one place that knows them all.
"""

from __future__ import annotations

from .base import Bot, RandomBot
from .greedy import GreedyBot

__all__ = ["BOT_NAMES", "Bot", "make_bot"]

KINDS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
BOT_NAMES = ("greedy", "random")


def make_bot(name: str, seed: int | str = 0) -> Bot:
    if name not in KINDS:
        raise ValueError(f"there is no bot called {name!r}: choose {' or '.join(KINDS)}")
    return KINDS[name](seed)
