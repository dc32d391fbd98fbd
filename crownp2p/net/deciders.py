"""Bots at a networked seat. A bot is a decider (core/play.py) like any other: the session asks
it at each of our positions. A person's seat has no decider: the shell offers what is typed."""

from __future__ import annotations

from ..bots import Bot, make_bot
from ..core.decisions import Decision
from ..core.game import Game
from ..core.record import Step
from .local import bot_seed


def seat_bot(
    name: str, seed: int | str, seat: int, *, think: float | None = None, workers: int = 1
) -> Bot:
    """One of the engine's bots for ``seat``, seeded as ``selfplay`` and ``play_local`` seed it
    (``think`` and ``workers``: a search bot's budget, :func:`make_bot`)."""
    return make_bot(name, bot_seed(seed, seat), think=think, workers=workers)


class LateBot:
    """A bot whose seat is known only once the host has seated us: made at its first question."""

    def __init__(
        self, name: str, seed: int | str, *, think: float | None = None, workers: int = 1
    ) -> None:
        self.name = name
        self.seed = seed
        self.think = think
        self.workers = workers
        self.bot: Bot | None = None

    def decide(self, game: Game, seat: int) -> Decision:
        if self.bot is None:
            self.bot = seat_bot(self.name, self.seed, seat, think=self.think, workers=self.workers)
        return self.bot.decide(game, seat)

    def observe(self, game: Game, step: Step) -> None:
        if self.bot is not None:  # a search bot remembers what it put on top of its deck
            self.bot.observe(game, step)
