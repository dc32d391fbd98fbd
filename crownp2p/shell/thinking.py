"""A bot that thinks beside the prompt: its decisions are worked out in a worker thread.

:class:`Thinking` stands in for a bot as the decider of its seats. Until a terminal's loop runs
(:meth:`Thinking.aside`) it asks the bot at once, as a pipe or a test does. Once it does, a
question starts the bot on a copy of the game in a worker thread and answers None (the play
waits, core/play.py); the prompt stays live meanwhile. The answer comes back through the loop
(``schedule``, safe from any thread), and ``woken`` runs the play on with it. A shell that
is to run in a terminal holds the bot's first question until its loop runs. The bot gets the
same copy of the game and its own random state either way, so a seeded game plays the same
moves with or without the thread.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..bots import Bot
from ..core.decisions import Decision
from ..core.game import Game
from ..core.record import Step

__all__ = ["Thinking"]


class Thinking:
    """A bot as a decider that thinks in a worker thread once :meth:`aside` is called."""

    def __init__(self, bot: Bot, *, held: bool = False) -> None:
        """``held``: a terminal's loop is to come, so a question is kept for it (the shell
        does not wait on the bot before its first screen)."""
        self.bot = bot
        self._held = held
        self._asked = False  # a question kept for the loop
        self._schedule: Callable[[Callable[[], None]], Any] | None = None
        self._woken: Callable[[], None] = lambda: None
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future[Decision] | None = None
        self._answer: Decision | None = None

    @property
    def busy(self) -> bool:
        """The bot is thinking now."""
        return self._future is not None or self._asked

    def aside(
        self, schedule: Callable[[Callable[[], None]], Any], woken: Callable[[], None]
    ) -> None:
        """From now on think in a worker thread: ``schedule(job)`` runs ``job`` on the
        prompt's loop (called from the worker), ``woken()`` goes on once an answer is in."""
        self._schedule, self._woken = schedule, woken
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="bot")
        if self._asked:
            self._asked = False
            schedule(woken)  # ask again, now beside the prompt

    def decide(self, game: Game, seat: int) -> Decision | None:
        if self._executor is None:
            if self._held:
                self._asked = True
                return None
            return self.bot.decide(game, seat)
        if self._answer is not None:
            answer, self._answer = self._answer, None
            return answer
        if self._future is None:
            self._future = self._executor.submit(self.bot.decide, game.clone(), seat)
            self._future.add_done_callback(self._done)
        return None

    def _done(self, future: Future[Decision]) -> None:
        """In the worker thread: hand the answer to the prompt's loop."""
        schedule = self._schedule
        if schedule is not None and not future.cancelled():
            schedule(lambda: self._answered(future))

    def _answered(self, future: Future[Decision]) -> None:
        if future is not self._future:  # stopped meanwhile
            return
        self._future = None
        self._answer = future.result()
        self._woken()

    def observe(self, game: Game, step: Step) -> None:
        self.bot.observe(game, step)

    def stop(self) -> None:
        """Think no more: wait for a thought under way (a search cannot be cut short; its
        budget bounds the wait), drop its answer and end the worker thread."""
        executor, self._executor = self._executor, None
        self._schedule, self._future, self._answer = None, None, None
        self._held = self._asked = False
        if executor is not None:
            executor.shutdown(wait=True)
