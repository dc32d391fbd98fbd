"""The bot interface and the uniform random bot."""

from __future__ import annotations

import random
from typing import Any

from ..core.decisions import Decision
from ..core.game import Game
from ..core.record import Step


class Bot:
    """A decider (core/play.py) that chooses one of ``game.legal()`` for the seat that is to
    decide. Bots keep their own seeded random source, so a game between bots replays exactly
    from its seeds."""

    name = "bot"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"{self.name}:{seed}")

    def decide(self, game: Game, seat: int) -> Decision:
        raise NotImplementedError

    def observe(self, game: Game, step: Step) -> None:
        """Bots that keep no memory of the game need not be told of its steps."""

    def memory(self) -> Any:
        """What the bot carries from one decision to the next (its random state), for
        :meth:`recall` to put back (solo's `undo`), so that it decides again as it did."""
        return self.rng.getstate()

    def recall(self, memory: Any) -> None:
        self.rng.setstate(memory)


class RandomBot(Bot):
    """Uniform over the legal decisions."""

    name = "random"

    def decide(self, game: Game, seat: int) -> Decision:
        return self.rng.choice(game.legal())
