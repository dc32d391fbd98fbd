"""Bots choose among the engine's legal decisions; they import core only.

The bots by name: :func:`make_bot` is the one place that knows them all. The levels a player
picks are names too: ``easy`` is the greedy bot, ``normal`` and ``hard`` the search bot with a
think budget of about 0.2 and 1 second a decision (as iterations, so a game repeats exactly).
"""

from __future__ import annotations

from .base import Bot, RandomBot
from .greedy import GreedyBot
from .search import SearchBot, iterations_for

__all__ = ["BOT_NAMES", "LEVELS", "THINK", "Bot", "make_bot"]

KINDS: dict[str, type[Bot]] = {"greedy": GreedyBot, "random": RandomBot}
THINK = {"normal": 0.2, "hard": 1.0}  # seconds a decision, on one core
LEVELS = ("easy", *THINK)
BOT_NAMES = (*LEVELS, *KINDS)


def make_bot(
    name: str, seed: int | str = 0, *, think: float | None = None, workers: int = 1
) -> Bot:
    """The bot called ``name``. ``think`` (seconds a decision) overrides a search level's own
    budget; ``workers`` is how many processes a search uses."""
    if name == "easy":
        return GreedyBot(seed)
    if name in THINK:
        budget = iterations_for((think if think is not None else THINK[name]) * workers)
        return SearchBot(seed, iterations=budget, workers=workers)
    if name not in KINDS:
        raise ValueError(f"there is no bot called {name!r}: choose {', '.join(BOT_NAMES)}")
    return KINDS[name](seed)
