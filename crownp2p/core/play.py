"""One play loop for every game: deciders answer the prompts, one path applies each decision.

Whoever decides is a :class:`Decider`: a bot, a person at the terminal, a peer across the
network, and chance too (OpenSpiel's "chance player"), filed under the seat ``CHANCE``.
:class:`Play` asks the decider the game prompts, applies its answer through the record (so each
step is hashed and kept) and tells every decider and observer of the step. A decider that has no
answer yet — a person still typing, a peer whose message is on its way — returns ``None``:
:meth:`Play.run` stops and names the seat it waits for, and the caller runs it again once the
answer can be had (or hands a decision in with :meth:`Play.apply`).

Selfplay, solo games, networked tables and the benchmarks all drive their game this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from .decisions import Decision
from .game import CHANCE, Game
from .record import Record, Step
from .shuffle import SeedSource

__all__ = ["CHANCE", "Decider", "Observer", "Play", "Seeds"]


class Observer(Protocol):
    def observe(self, game: Game, step: Step) -> None:
        """``step`` has just been applied to ``game`` (anyone's: ours, others', chance's)."""


class Decider(Observer, Protocol):
    def decide(self, game: Game, seat: int) -> Decision | None:
        """The decision for ``seat`` at the game's prompt, or None while it is not known yet.
        A bot reads only what ``seat`` may see (``game.view(seat)``)."""


class Seeds:
    """Chance in a game played in one process: seeds from a :class:`SeedSource` chain (the
    operating system's randomness when no number is given). Peers use commit-reveal instead.
    Every seed is kept, so play taken back to an earlier point (:meth:`rewind`) is dealt the
    same cards again."""

    def __init__(self, start: int | None = None) -> None:
        self.source = SeedSource(start)
        self.seeds: list[str] = []
        self.used = 0

    def decide(self, game: Game, seat: int) -> Decision:
        if self.used == len(self.seeds):
            self.seeds.append(self.source.next_seed())
        self.used += 1
        return ("seed", self.seeds[self.used - 1])

    def rewind(self, used: int) -> None:
        """Hand out the seeds again from the ``used``-th on."""
        self.used = used

    def observe(self, game: Game, step: Step) -> None:
        pass


class Play:
    """Drive ``game``: ``deciders[seat]`` answers each prompt (``deciders[CHANCE]`` the chance
    ones). With a ``record`` every step is recorded with its state hash; without one, steps are
    not hashed (their ``hash`` is "") and play is faster. ``max_turns`` (0: no limit) stops
    play once the game is past that turn."""

    def __init__(
        self,
        game: Game,
        deciders: Mapping[int, Decider],
        *,
        record: Record | None = None,
        max_turns: int = 0,
        observers: Iterable[Observer] = (),
    ) -> None:
        self.game = game
        self.deciders = dict(deciders)
        self.record = record
        self.max_turns = max_turns
        self.steps = len(record.steps) if record is not None else 0
        self.decisions = 0  # seats' decisions applied by this play (chance's not counted)
        told: list[Observer] = []
        for who in [*self.deciders.values(), *observers]:
            if not any(who is seen for seen in told):  # one seat's decider may serve several
                told.append(who)
        self.told = told

    @property
    def finished(self) -> bool:
        """The game is over, or past the turn limit."""
        game = self.game
        return game.over or bool(self.max_turns and game.turn > self.max_turns)

    def run(self) -> int | None:
        """Ask and apply until a decider has no answer yet — then return its seat (``CHANCE``
        for chance) — or play is finished (None)."""
        game = self.game
        while not self.finished:
            seat = game.to_decide
            decision = self.deciders[seat].decide(game, seat)
            if decision is None:
                return seat
            self._apply(seat, decision)
        return None

    def apply(self, decision: Decision) -> Step:
        """Apply the prompted seat's ``decision`` and tell everyone. An illegal one raises
        :class:`~.decisions.IllegalDecision` and changes nothing."""
        return self._apply(self.game.to_decide, decision)

    def _apply(self, seat: int, decision: Decision) -> Step:
        """:meth:`apply`, ``seat`` being ``game.to_decide`` (the loop has just asked it)."""
        game = self.game
        if self.record is not None:
            step = self.record.apply(game, decision)
        else:
            game.apply(decision)
            step = Step(self.steps + 1, seat, tuple(decision), "")
        self.steps += 1
        if seat != CHANCE:
            self.decisions += 1
        for who in self.told:
            who.observe(game, step)
        return step
