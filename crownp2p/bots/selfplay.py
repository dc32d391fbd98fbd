"""Whole games between bots in one process, recorded and reproducible from one number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.game import CHANCE, Game
from ..core.play import Decider, Play, Seeds
from ..core.record import Record
from ..core.rules import Rules
from ..core.setup import Setup
from . import make_bot

DEFAULT_MAX_TURNS = 300


@dataclass
class Result:
    seed: int
    winner: int | None
    turns: int
    decisions: int
    finished: bool
    final_hash: str
    record: Record | None

    def to_json(self, game_number: int) -> dict[str, Any]:
        return {
            "game": game_number,
            "seed": self.seed,
            "winner": self.winner,
            "turns": self.turns,
            "decisions": self.decisions,
            "finished": self.finished,
            "final_hash": self.final_hash,
        }


def play_game(
    rules: Rules,
    setup: Setup,
    bot_names: list[str],
    seed: int,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    record: bool = False,
    think: float | None = None,
    workers: int = 1,
) -> Result:
    """Play one game: seat ``i`` is ``bot_names[i]``; chance seeds come from ``seed``
    (``think`` and ``workers``: a search bot's budget, :func:`make_bot`)."""
    game = Game(rules, setup)
    deciders: dict[int, Decider] = {
        seat: make_bot(name, f"{seed}:{seat}", think=think, workers=workers)
        for seat, name in enumerate(bot_names)
    }
    deciders[CHANCE] = Seeds(seed)
    rec = Record.begin(game, bots=list(bot_names), seed=seed) if record else None
    play = Play(game, deciders, record=rec, max_turns=max_turns)
    play.run()
    return Result(seed, game.winner, game.turn, play.decisions, game.over, game.state_hash(), rec)
