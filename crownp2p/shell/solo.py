"""``crownp2p solo``: a game against the built-in bot at the terminal.

:class:`LocalDriver` is the table's driver in one process: a :class:`~crownp2p.core.play.Play`
over the bot, chance (a local seed chain) and the person — the table, which answers None until
the person types. Each line the person plays runs the game on to their next decision; ``undo``
takes a line back by replaying the record up to where it began.

On a terminal the game runs in the prompt_toolkit loop (terminal.py); when standard input or
output is not a terminal (a pipe, a script), the same table reads and prints plain lines.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from ..bots import make_bot
from ..core.decisions import Decision, decision_text
from ..core.game import CHANCE, Game
from ..core.play import Decider, Play, Seeds
from ..core.record import Record
from ..core.rules import Rules
from ..core.setup import Setup
from ..packs import PackError
from .cli import CommandError
from .commands import BOARD, HELP, LOG, MOVES, QUIT, SAVE
from .context import catalog
from .game_commands import setup_from_args
from .render import can_unicode
from .reply import Reply, ShellCommand, registry
from .table import Table
from .terminal import run_lines, run_terminal

SEATS = {"blue": 0, "gold": 1}

__all__ = ["SEATS", "SOLO_COMMANDS", "LocalDriver", "make_table", "solo_command", "solo_table"]


@dataclass
class Line:
    """Where one of the person's lines began: the step, and the bot's random state then."""

    step: int
    seeds_used: int
    bot_state: Any


class LocalDriver:
    """A game in this process against a bot (see the module's docstring)."""

    leaving_resigns = False
    pending = False  # the person's decision is applied at once
    intro: list[str] = []

    def __init__(
        self,
        game: Game,
        record: Record,
        *,
        seat: int = 0,
        bot: str = "greedy",
        seed: int | None = None,
        think: float | None = None,
        workers: int = 1,
    ) -> None:
        self.rules = game.rules
        self.seat = seat
        self.who = players(self.rules, seat, bot)
        self.commands = SOLO_COMMANDS
        self.bot = make_bot(bot, seed if seed is not None else 0, think=think, workers=workers)
        self.chance = Seeds(seed)
        self.lines: list[Line] = []  # where each of the person's lines began
        self._game = game
        self._record = record
        self.table: Table | None = None
        self.play: Play | None = None

    @property
    def game(self) -> Game:
        return self._game

    @property
    def record(self) -> Record:
        return self._record

    @property
    def over(self) -> bool:
        return self._game.over

    def start(self, table: Table) -> None:
        self.table = table
        self._drive(self._game)
        table.shown = _first_turn(self._game.log)  # the deal is not news; the bot's turn 1 is

    def _drive(self, game: Game) -> None:
        """Play ``game`` (at the end of the record) from here to the person's next decision."""
        assert self.table is not None
        deciders: dict[int, Decider] = {s: self.bot for s in self.rules.seating.seats}
        deciders[self.seat] = self.table
        deciders[CHANCE] = self.chance
        self._game = game
        self.play = Play(game, deciders, record=self._record, observers=[self.table])
        self.play.run()

    def legal(self) -> list[Decision]:
        game = self._game
        if game.over or game.prompt().seat != self.seat:
            return []
        return game.legal()

    def submit(self, decision: Decision) -> None:
        """The person's line: its decision, then the game runs on to their next one."""
        assert self.play is not None
        steps = len(self._record.steps)
        self.lines.append(Line(steps, self.chance.used, self.bot.rng.getstate()))
        self.play.apply(decision)
        self.play.run()

    def undo(self) -> Reply:
        """Take back the person's last line and everything after it (the bot's reply): the
        record is replayed up to where the line began, and the bot and chance are put back
        to where they were then, so the game goes on as it did."""
        assert self.table is not None
        if not self.lines:
            return Reply(["There is nothing of yours to undo."])
        line = self.lines.pop()
        record = self._record
        later = record.steps[line.step :]
        taken = [decision_text(s.decision) for s in later if s.seat == self.seat]
        del record.steps[line.step :]
        self.bot.rng.setstate(line.bot_state)
        self.chance.rewind(line.seeds_used)
        table = self.table
        for game, step in record.replay(self.rules, check=False):  # steps checked as made
            if step is None:
                table.follow(game)
            else:
                table.observe(game, step)
        table.shown = len(game.log)
        self._drive(game)
        what = ", ".join(f"`{t}`" for t in taken) or "your last line"
        return Reply([f"Took back {what}."], redraw=True)

    def status(self) -> str | None:
        return None

    def leave(self) -> None:
        pass

    def clock(self) -> tuple[int, float] | None:
        return None  # a game in this process waits for the person as long as it takes


def _undo(table: Table, args: list[str]) -> Reply:
    driver = table.driver
    assert isinstance(driver, LocalDriver)
    return driver.undo()


UNDO = ShellCommand("undo", "undo", "take back your last line (and the bot's reply)", _undo)
SOLO_COMMANDS = registry(HELP, MOVES, LOG, BOARD, UNDO, SAVE, QUIT)


def players(rules: Rules, seat: int, bot: str) -> dict[int, str]:
    """Who plays each seat: the person ``seat``, the bot the others."""
    return {s: ("you" if s == seat else f"{bot} bot") for s in rules.seating.seats}


def _first_turn(log: list[str]) -> int:
    for i, line in enumerate(log):
        if line.startswith("turn "):
            return i
    return len(log)


def solo_table(
    rules: Rules,
    setup: Setup,
    *,
    seat: int = 0,
    bot: str = "greedy",
    seed: int | None = None,
    think: float | None = None,
    workers: int = 1,
    unicode: bool = True,
) -> Table:
    """A new game in this process: ``seat`` is the person's, the others the bot's."""
    game = Game(rules, setup)
    who = players(rules, seat, bot)
    record = Record.begin(game, bots=[who[s] for s in rules.seating.seats], seed=seed, seat=seat)
    driver = LocalDriver(game, record, seat=seat, bot=bot, seed=seed, think=think, workers=workers)
    return Table(driver, unicode=unicode)


def parse_seat(text: str) -> int:
    seat = SEATS.get(text.strip().lower())
    if seat is None:
        raise CommandError(f"--seat is blue (you move first) or gold, not {text!r}")
    return seat


def make_table(args: argparse.Namespace, stream: TextIO | None = None) -> Table:
    setup = setup_from_args(args)
    try:
        rules = catalog().rules(setup.variant)
    except PackError as err:
        raise CommandError(str(err)) from None
    return solo_table(
        rules,
        setup,
        seat=parse_seat(args.seat),
        bot=args.bot,
        seed=args.seed,
        think=args.think,
        workers=args.workers,
        unicode=can_unicode(stream or sys.stdout),
    )


def solo_command(args: argparse.Namespace) -> int:
    table = make_table(args)
    if sys.stdin.isatty() and sys.stdout.isatty():
        return run_terminal(table)
    return run_lines(table, sys.stdin, sys.stdout)
