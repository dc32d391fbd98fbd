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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from ..bots import BOT_NAMES, make_bot
from ..core.decisions import Decision, decision_text
from ..core.game import CHANCE, Game
from ..core.play import Decider, Play, Seeds
from ..core.record import Record, RecordError, ReplayError
from ..core.rules import Rules
from ..core.setup import Setup
from ..packs import PackError
from .cli import CommandError
from .commands import BOARD, HELP, HINT, LOG, MOVES, QUIT, RULES, SAVE, SAVE_OVER
from .context import catalog
from .game_commands import setup_from_args
from .render import can_unicode
from .reply import Reply, ShellCommand, registry
from .table import Table
from .terminal import run_lines, run_terminal
from .thinking import Thinking

SEATS = {"blue": 0, "gold": 1}

__all__ = [
    "SEATS",
    "SOLO_COMMANDS",
    "LocalDriver",
    "is_solo_save",
    "make_table",
    "resumed_table",
    "run_solo",
    "solo_command",
    "solo_table",
]


@dataclass
class Line:
    """Where one of the person's lines began: the step, the chance seeds used and the bot's memory
    then (Bot.memory)."""

    step: int
    seeds_used: int
    bot_state: Any


class LocalDriver:
    """A game in this process against a bot (see the module's docstring)."""

    leaving_resigns = False
    pending = False  # the person's decision is applied at once
    intro: list[str] = []
    preface: list[str] = []

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
        think_aside: bool = False,
    ) -> None:
        self.rules = game.rules
        self.seat = seat
        self.who = players(self.rules, seat, bot)
        self.commands = SOLO_COMMANDS
        self.bot = make_bot(bot, seed if seed is not None else 0, think=think, workers=workers)
        # The bot's seats' decider; ``think_aside``: it will think beside a terminal's prompt.
        self.thinking = Thinking(self.bot, held=think_aside)
        self.think = think  # a `hint`'s budget too
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
        if self._record.steps:  # a saved game, continued
            self._drive(self._catch_up())
            table.shown = _turn_start(self._game.log)  # this turn so far is news again
            return
        self._drive(self._game)
        table.shown = _first_turn(self._game.log)  # the deal is not news; the bot's turn 1 is

    def _catch_up(self) -> Game:
        """Play the saved record again, the bot and chance deciding beside it as they did, so
        that both go on from where they were when it was saved (same bot, same seeds)."""
        assert self.table is not None
        steps = self._record.steps
        for game, step in self._record.replay(self.rules):
            if step is None:
                self.table.follow(game)
            else:
                self.table.observe(game, step)
            done = step.seq if step else 0
            if done < len(steps):
                seat = steps[done].seat
                if seat == CHANCE:
                    self.chance.decide(game, seat)
                elif seat != self.seat:
                    self.bot.decide(game, seat)
        return game

    def _drive(self, game: Game) -> None:
        """Play ``game`` (at the end of the record) from here to the person's next decision."""
        assert self.table is not None
        deciders: dict[int, Decider] = {s: self.thinking for s in self.rules.seating.seats}
        deciders[self.seat] = self.table
        deciders[CHANCE] = self.chance
        self._game = game
        self.play = Play(game, deciders, record=self._record, observers=[self.table])
        self.play.run()

    def think_aside(self, schedule: Callable[[Callable[[], None]], Any] | None) -> None:
        """The prompt's loop runs: the bot thinks in a worker thread from now on, and its
        answer is played when it comes (``schedule`` runs a job on the loop, from any
        thread). None: the loop ends; a thought under way is dropped."""
        if schedule is None:
            self.thinking.stop()
        else:
            self.thinking.aside(schedule, self._woken)

    def _woken(self) -> None:
        """The bot has answered: play on to the person's next decision (or its next
        thought), and show what happened."""
        assert self.play is not None and self.table is not None
        self.play.run()
        self.table.tell()

    def legal(self) -> list[Decision]:
        game = self._game
        if game.over or game.prompt().seat != self.seat:
            return []
        return game.legal()

    def submit(self, decision: Decision) -> None:
        """The person's line: its decision, then the game runs on to their next one."""
        assert self.play is not None
        steps = len(self._record.steps)
        self.lines.append(Line(steps, self.chance.used, self.bot.memory()))
        self.play.apply(decision)
        self.play.run()

    def undo(self) -> Reply:
        """Take back the person's last line and everything after it (the bot's reply): the
        record is replayed up to where the line began, and the bot and chance are put back
        to where they were then, so the game goes on as it did."""
        assert self.table is not None
        if not self.lines:
            return Reply(["There is nothing of yours to undo."])
        if self.thinking.busy:
            return Reply(["The bot is thinking: `undo` once it has moved."])
        line = self.lines.pop()
        record = self._record
        later = record.steps[line.step :]
        taken = [decision_text(s.decision) for s in later if s.seat == self.seat]
        del record.steps[line.step :]
        self.bot.recall(line.bot_state)
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
        if not self.thinking.busy:
            return None
        assert self.table is not None
        dots = "…" if self.table.unicode else "..."
        name = self._game.seat_name(self._game.prompt().seat)
        return f"{name[:1].upper()}{name[1:]} is thinking{dots}"

    def leave(self) -> None:
        pass

    def clock(self) -> tuple[int, float] | None:
        return None  # a game in this process waits for the person as long as it takes


def _undo(table: Table, args: list[str]) -> Reply:
    driver = table.driver
    assert isinstance(driver, LocalDriver)
    return driver.undo()


UNDO = ShellCommand("undo", "undo", "take back your last line (and the bot's reply)", _undo)
SOLO_COMMANDS = registry(HELP, RULES, MOVES, LOG, BOARD, HINT, UNDO, SAVE, SAVE_OVER, QUIT)


def players(rules: Rules, seat: int, bot: str) -> dict[int, str]:
    """Who plays each seat: the person ``seat``, the bot the others."""
    return {s: ("you" if s == seat else f"{bot} bot") for s in rules.seating.seats}


def _turn_start(log: list[str]) -> int:
    starts = [i for i, line in enumerate(log) if line.startswith("turn ")]
    return starts[-1] if starts else len(log)


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
    think_aside: bool = False,
) -> Table:
    """A new game in this process: ``seat`` is the person's, the others the bot's
    (``think_aside``: it will think beside a terminal's prompt, run_terminal's)."""
    game = Game(rules, setup)
    who = players(rules, seat, bot)
    record = Record.begin(
        game,
        bots=[who[s] for s in rules.seating.seats],
        seed=seed,
        seat=seat,
        think=think,  # the bot's budget, so that a resumed game goes on with the same bot
        workers=workers,
    )
    driver = LocalDriver(
        game,
        record,
        seat=seat,
        bot=bot,
        seed=seed,
        think=think,
        workers=workers,
        think_aside=think_aside,
    )
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
        think_aside=on_terminal(),
    )


def resumed_table(path: str, stream: TextIO | None = None) -> Table:
    """The solo game saved in ``path``, where it was saved: its seat, bot and seeds."""
    try:
        record = Record.load(path)
        rules = catalog().rules(record.variant)
    except (RecordError, PackError) as err:
        raise CommandError(str(err)) from None
    if record.game_id is not None:
        raise CommandError(f"{path} is a networked game's record: `crownp2p resume` takes it")
    who = _solo_players(record)
    if who is None:
        raise CommandError(f"{path} is not a solo game's record (from `save` in `crownp2p solo`)")
    seat, bot, seed = who
    think, workers = record.meta.get("think"), record.meta.get("workers", 1)
    if not isinstance(think, int | float | None) or not isinstance(workers, int) or workers < 1:
        raise CommandError(f"{path} is not a solo game's record (its bot's budget is not one)")
    game = record.new_game(rules)
    driver = LocalDriver(
        game,
        record,
        seat=seat,
        bot=bot,
        seed=seed,
        think=think,
        workers=workers,
        think_aside=on_terminal(),
    )
    try:
        table = Table(driver, unicode=can_unicode(stream or sys.stdout))
    except ReplayError as err:
        raise CommandError(f"{path} does not replay: {err}") from None
    table.saved = True
    return table


def is_solo_save(path: str) -> bool:
    """Whether ``path`` is a solo game's record (from `save`)."""
    try:
        return _solo_players(Record.load(path)) is not None
    except RecordError:
        return False


def _solo_players(record: Record) -> tuple[int, str, int | None] | None:
    """The person's seat, the bot and the seed of a solo game's record (see solo_table);
    None for any other record (a networked game's, selfplay's)."""
    meta = record.meta
    seat, seed, bots = meta.get("seat"), meta.get("seed"), meta.get("bots")
    if record.game_id is not None or not isinstance(seat, int) or not isinstance(bots, list):
        return None
    if seed is not None and not isinstance(seed, int):
        return None
    names = [str(b).removesuffix(" bot") for b in bots]
    if seat not in range(len(names)) or names[seat] != "you":
        return None
    bot = next((b for s, b in enumerate(names) if s != seat), "")
    return (seat, bot, seed) if bot in BOT_NAMES else None


def solo_command(args: argparse.Namespace) -> int:
    table = resumed_table(args.resume) if args.resume else make_table(args)
    return run_solo(table, plain=args.plain)


def on_terminal() -> bool:
    """Whether the game is played at a terminal (else by lines: a pipe, a script)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run_solo(table: Table, *, plain: bool = False) -> int:
    """Play ``table`` in the terminal (full-screen unless ``plain``), the bot thinking beside
    the prompt, or by lines in a pipe (the bot answers before the next line is read)."""
    if on_terminal():
        return run_terminal(table, full_screen=not plain, think_aside=True)
    return run_lines(table, sys.stdin, sys.stdout)
