"""Deciders: who chooses the local seat's decisions. A bot is one; a person at the terminal is
another (``crownp2p.shell.net_table.HumanDecider``, whose ``decide`` returns an awaitable)."""

from __future__ import annotations

from ..bots import make_bot
from ..core.decisions import Decision
from ..core.game import Game
from .local import bot_seed


class BotDecider:
    """One of the engine's bots, seeded per seat as ``selfplay`` seeds them."""

    def __init__(self, name: str, seed: int | str, seat: int) -> None:
        self.name = name
        self.seed = seed
        self.bot = make_bot(name, bot_seed(seed, seat))

    def decide(self, game: Game) -> Decision:
        return self.bot.decide(game, game.prompt().seat)

    def replay(self, game: Game, decision: Decision) -> None:
        """A resumed game shows us our past decisions: choosing again at each brings the
        bot's random source to where it was (the choice itself is the recorded one)."""
        self.bot.decide(game, game.prompt().seat)


class LateBotDecider:
    """A bot whose seat is known only once the host has seated us."""

    def __init__(self, name: str, seed: int | str) -> None:
        self.name = name
        self.seed = seed
        self._bot: BotDecider | None = None

    def _for(self, game: Game) -> BotDecider:
        if self._bot is None:
            self._bot = BotDecider(self.name, self.seed, game.prompt().seat)
        return self._bot

    def decide(self, game: Game) -> Decision:
        return self._for(game).decide(game)

    def replay(self, game: Game, decision: Decision) -> None:
        self._for(game).replay(game, decision)
