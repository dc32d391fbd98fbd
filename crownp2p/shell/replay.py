"""``crownp2p replay RECORD``: step through a saved game, with the board drawn at each step.

The record is replayed once on loading (every decision checked, every hash compared), keeping
the state at the start of each turn, so any step is reached quickly from the nearest turn. A
step here is one decision of a seat; the chance seeds that follow it (shuffles) come with it.
Every hand is shown: a record holds the whole game.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.decisions import Decision, IllegalDecision, decision_text
from ..core.game import CHANCE, Game
from ..core.record import Record, RecordError, Step
from ..core.record import ReplayError as RecordReplayError
from ..core.rules import Rules
from . import render
from .cli import CommandError
from .commands import HELP, MOVES, QUIT, RULES
from .reply import Reply, ShellCommand, registry
from .table import TurnTally, marked_squares
from .toolbar import counts_left, fitted


class ReplayError(ValueError):
    """A record that cannot be replayed; the message says which step and why."""


class Replay:
    """A saved game, at one step of it; the terminal loops drive it like a table."""

    saves_crash_record = False  # the record is already a file

    def __init__(
        self, rules: Rules, record: Record, *, seat: int = 0, unicode: bool = True, name: str = ""
    ) -> None:
        self.rules = rules
        self.record = record
        self.seat = seat
        # A sealed game's record holds only what its own seat knew (docs/records.md); after
        # its audit, every card (``named``: what each sealed shuffle's step names).
        self.sealed = record.setup is not None and record.setup.sealed
        self.named: dict[int, list[tuple[int, str]]] = {}
        if self.sealed and record.audit is not None:
            self.named = _named_by_the_audit(rules, record)
        self.unicode = unicode
        self.name = name
        self.warnings: list[str] = []
        self._load()
        self.stops = [
            i for i in range(len(self.record.steps) + 1) if self._is_stop(i)
        ]  # positions where a seat is to decide, and the end
        self.at = 0
        self.game, self.tally = self._game_at(self.stops[0])
        self.at = self.stops[0]

    # ---------------------------------------------------------------- loading

    def _load(self) -> None:
        steps = self.record.steps
        self.snapshots: dict[int, dict[str, Any]] = {}
        self.logs: list[list[str]] = []  # what each step added to the log
        self.turns: list[int] = []  # the turn after each step
        self.turn_starts: dict[int, int] = {}
        mismatch = False
        told = 0
        try:  # the hashes are compared here: a record of another version still replays
            for i, (game, step) in enumerate(self.record.replay(self.rules, check=False)):
                self._learn_named(game, step)
                self.logs.append(game.log[told:])
                told = len(game.log)
                self.turns.append(game.turn)
                if step is None:
                    if game.table_hash() != self.record.start_hash:
                        self.warnings.append(
                            "The record's starting state differs from this version's."
                        )
                    self.snapshots[0] = self._snapshot(game)
                    self.turn_starts[game.turn] = 0
                else:
                    if game.turn != self.turns[-2]:
                        self.turn_starts.setdefault(game.turn, i)
                        self.snapshots[i] = self._snapshot(game)
                    if not mismatch and game.table_hash() != step.hash:
                        mismatch = True
                        self.warnings.append(
                            f"From step {step.seq} on, the states differ from the record's "
                            "hashes (it was made by another version?)."
                        )
                if i < len(steps):
                    self._check_next(game, steps[i])
        except RecordReplayError as err:
            raise ReplayError(f"step {err.seq}: {err.reason}" if err.seq else err.reason) from None
        self.final = game

    @staticmethod
    def _check_next(game: Game, step: Step) -> None:
        """Say which step of the record cannot follow ``game``, and why, before it is tried."""
        if game.over:
            raise ReplayError(f"step {step.seq}: the game was already over")
        seat = game.prompt().seat
        if seat != step.seat:
            who = "chance" if seat == CHANCE else game.seat_name(seat)
            raise ReplayError(
                f"step {step.seq}: the record has seat {step.seat} deciding, "
                f"but {who} was to decide"
            )
        # (a seed is checked when applied; so is a sealed step that opens cards first)
        if seat != CHANCE and not (step.opened or step.seen) and not game.is_legal(step.decision):
            try:
                game.apply(step.decision)  # raises with the engine's reason, changing nothing
            except IllegalDecision as err:
                text = decision_text(step.decision)
                raise ReplayError(f"step {step.seq}: `{text}` is not legal there: {err}") from None

    def _is_stop(self, i: int) -> bool:
        steps = self.record.steps
        return i == len(steps) or steps[i].seat != CHANCE

    def _game_at(self, position: int) -> tuple[Game, TurnTally]:
        """The game after ``position`` steps: on from here, or from the last turn's start."""
        if hasattr(self, "game") and self.at <= position < self.at + 200:
            game, tally, start = self.game, self.tally, self.at
        else:
            start = max(i for i in self.snapshots if i <= position)
            game = self._restore(self.snapshots[start])
            tally = TurnTally(game)
        for step in self.record.steps[start:position]:
            step.open_in(game)
            game.apply(step.decision)
            self._learn_named(game, step)
            tally.observe(game, step)
        return game, tally

    def _learn_named(self, game: Game, step: Step | None) -> None:
        for card, name in self.named.get(step.seq if step else 0, []):
            game.learn(card, name)

    def _snapshot(self, game: Game) -> Any:
        # A sealed game's engine holds stand-ins for the cards its seat never saw, which its
        # explicit state would pass off as real: it is kept as it is.
        return game.clone() if self.sealed else game.to_json()

    def _restore(self, snapshot: Any) -> Game:
        if self.sealed:
            game: Game = snapshot.clone()
            return game
        return Game.from_json(self.rules, snapshot)

    # ---------------------------------------------------------------- moving

    def go(self, position: int) -> Reply:
        position = max(self.stops[0], min(position, len(self.record.steps)))
        old = self.at
        self.game, self.tally = self._game_at(position)
        self.at = position
        lines: list[str] = []
        if position > old and len([s for s in self.stops if old < s <= position]) == 1:
            for i in range(old + 1, position + 1):
                lines.extend(self.logs[i])
        reply = Reply(redraw=True)
        if lines:
            reply.news = render.news(lines, None, self.game, self.unicode)
        reply.lines.append(self.where())
        return reply

    def where(self) -> str:
        if self.at == len(self.record.steps):
            end = "the end of the record"
            if self.game.over:
                end += ": " + render.outcome_line(self.game, None)[len("The game is over: ") :]
            return f"At {end}" + ("" if self.game.over else ".")
        return f"At step {self.step_number()} of {self.total}, turn {self.game.turn}."

    @property
    def total(self) -> int:
        """How many decisions of the seats the record holds."""
        return len(self.stops) - 1

    def step_number(self) -> int:
        """How many of them have been played here."""
        return self.stops.index(self.at)

    def next(self, count: int = 1) -> Reply:
        later = [s for s in self.stops if s > self.at]
        if not later:
            return Reply(["This is the end of the record (`back`, `turn N` or `start`)."])
        return self.go(later[min(count, len(later)) - 1])

    def back(self, count: int = 1) -> Reply:
        earlier = [s for s in self.stops if s < self.at]
        if not earlier:
            return Reply(["This is the start of the game (`next` steps on)."])
        return self.go(earlier[-min(count, len(earlier))])

    def turn(self, number: int) -> Reply:
        turns = sorted(self.turn_starts)
        if number not in self.turn_starts:
            return Reply(
                [f"The game has turns {turns[0]} to {turns[-1]}; there is no turn {number}."]
            )
        start = self.turn_starts[number]
        return self.go(next(s for s in self.stops if s >= start))

    # ---------------------------------------------------------------- the table interface

    commands: dict[str, ShellCommand] = {}

    def handle(self, line: str) -> Reply:
        words = line.strip().split()
        if not words:
            return self.next()
        command = self.commands.get(words[0].lower())
        if command is None:
            from .parser import did_you_mean

            close = did_you_mean(line, [], self.commands)
            hint = f" Did you mean `{close}`?" if close else ""
            return Reply(
                [
                    f"`{line.strip()}` is not a replay command.{hint} "
                    "Try next, back, turn N, start, end, help or quit."
                ]
            )
        return command.run(self, words[1:])

    def screen(self, width: int = 100) -> render.Fragments:
        step = self.record.steps[self.at - 1] if self.at else None
        marks = marked_squares(step.decision) if step and step.seat != CHANCE else []
        return render.screen(
            self.game,
            self.seat,
            unicode=self.unicode,
            width=width,
            who=self.players(),
            # (a sealed record shows what its seat saw, no more, until its audit)
            reveal=not self.sealed or bool(self.named),
            marks=marks,
            status=self.status(),
        )

    def players(self) -> dict[int, str]:
        bots = self.record.meta.get("bots")
        if isinstance(bots, list) and len(bots) == len(self.rules.seating.sides):
            return {s: str(b) for s, b in enumerate(bots)}
        return {}

    def status(self) -> str:
        game = self.game
        if game.over:
            return render.outcome_line(game, None)
        if self.at == len(self.record.steps):
            return "The record ends here; the game was not finished."
        seat = game.prompt().seat
        what = render.prompt_line(game, seat, self.tally)
        nxt = self.record.steps[self.at]
        return (
            f"Turn {game.turn}, {game.seat_name(seat)} to decide: {what}. "
            f"Next: {game.seat_name(nxt.seat)} `{decision_text(nxt.decision)}`."
        )

    def toolbar(self, width: int = 200) -> render.Fragments:
        game = self.game
        dot = " · " if self.unicode else " | "
        last = max(self.turn_starts)
        keys = "Right/Left step, PgDn/PgUp turn"
        parts = [f" replay{dot}step {self.step_number()} of {self.total}"]
        parts.append(f"turn {game.turn} of {last}")
        if not game.over:
            parts.append(f"{game.seat_name(game.active)}'s turn, {game.this_turn.phase}")
            left = counts_left(game)
            parts.append(
                f"orders {left['order']}{dot}actions {left['action']}{dot}buys {left['buy']}"
                f"{dot}gold {game.this_turn.gold}"
            )
        full = [("class:bottom-toolbar.turn", dot.join(parts)), ("", f"{dot}{keys} ")]
        turn = "class:bottom-toolbar.turn"
        return fitted(width, full, [(turn, dot.join(parts) + " ")], [(turn, dot.join(parts[:2]))])

    def message(self) -> str:
        return "replay> "

    def completer(self) -> Any:
        from .completer import DecisionCompleter

        return DecisionCompleter(lambda: [], list(self.commands), self.rules, lambda: self.game)

    def key_bindings(self) -> Any:
        from .keys import replay_bindings

        return replay_bindings()

    def opening(self) -> Reply:
        name = f"{self.name}: " if self.name else ""
        lines = [
            f"Replaying {name}{self.total} steps over {max(self.turn_starts)} turns. "
            "Enter steps on; back, turn N, start, end, help and quit do the rest.",
            *self.warnings,
        ]
        return Reply(lines)

    def leave_question(self) -> str | None:
        return None

    def listen(self, callback: Any) -> None:
        """Nothing arrives from outside in a replay."""

    def legal(self) -> list[Decision]:
        return []


# -------------------------------------------------------------------- commands


def _count(args: list[str]) -> int | None:
    if not args:
        return 1
    return int(args[0]) if args[0].isdigit() and int(args[0]) > 0 else None


def _next(replay: Replay, args: list[str]) -> Reply:
    count = _count(args)
    return replay.next(count) if count else Reply(["Usage: next [N], like `next 5`."])


def _back(replay: Replay, args: list[str]) -> Reply:
    count = _count(args)
    return replay.back(count) if count else Reply(["Usage: back [N], like `back 5`."])


def _turn(replay: Replay, args: list[str]) -> Reply:
    if not args:
        return replay.turn(replay.game.turn + 1)
    text = args[0]
    try:
        number = int(text)
    except ValueError:
        return Reply(["Usage: turn N (or turn +1, turn -1), like `turn 12`."])
    if text[0] in "+-":
        number += replay.game.turn
    return replay.turn(number)


def _start(replay: Replay, args: list[str]) -> Reply:
    return replay.go(0)


def _end(replay: Replay, args: list[str]) -> Reply:
    return replay.go(len(replay.record.steps))


def _board(replay: Replay, args: list[str]) -> Reply:
    return Reply(redraw=True)


def _log(replay: Replay, args: list[str]) -> Reply:
    count = int(args[0]) if args and args[0].isdigit() else 20
    lines = [line for chunk in replay.logs[: replay.at + 1] for line in chunk]
    lines = lines[-count:] if count else []
    return Reply(lines or ["Nothing has happened yet."])


def _help(replay: Replay, args: list[str]) -> Reply:
    if args:
        return HELP.run(replay, args)
    lines = ["Commands (Enter alone is `next`):"]
    lines += [f"  {c.usage:<14} {c.help}" for name, c in replay.commands.items() if name == c.name]
    lines.append("Keys: Right/Left step on and back, PgDn/PgUp a turn, Tab completes.")
    return Reply(lines)


Replay.commands = registry(
    ShellCommand("next", "next [N]", "step on (N steps)", _next, ("n",)),
    ShellCommand("back", "back [N]", "step back (N steps)", _back, ("b", "prev")),
    ShellCommand(
        "turn", "turn N", "go to the start of turn N (+1, -1: on, back)", _turn, ("go", "t")
    ),
    ShellCommand("start", "start", "go to the start of the game", _start, ("first",)),
    ShellCommand("end", "end", "go to the end of the record", _end, ("last",)),
    ShellCommand("board", "board", "show the board again", _board),
    ShellCommand("log", "log [N]", "the last N things that happened, up to here", _log),
    ShellCommand(
        "help", "help [NAME]", "this help, or a card's or unit's text and moves", _help, ("?",)
    ),
    RULES,
    MOVES,
    QUIT,
)


# -------------------------------------------------------------------- the command


def replay_command(args: argparse.Namespace) -> int:
    from ..packs import PackError
    from .context import catalog
    from .solo import parse_seat
    from .terminal import run_lines, run_terminal

    try:
        record = Record.load(args.record)
    except RecordError as err:
        raise CommandError(str(err)) from None
    own = record.meta.get("seat")
    sealed = record.setup is not None and record.setup.sealed
    if args.seat is not None:
        seat = parse_seat(args.seat)
    elif sealed and isinstance(own, int):
        seat = own
    else:
        seat = own if own in (0, 1) else 0
    if sealed and seat != own and record.audit is None:
        raise CommandError(
            f"this record of a sealed game holds only what seat {own} saw: replay it as that "
            "seat (after its audit the record would hold every card)"
        )
    try:
        rules = catalog().rules(record.variant)
    except PackError as err:
        raise CommandError(f"this record needs {err}") from None
    try:
        replay = Replay(
            rules,
            record,
            seat=seat,
            unicode=render.can_unicode(sys.stdout),
            name=args.record,
        )
    except ReplayError as err:
        raise CommandError(str(err)) from None
    if sys.stdin.isatty() and sys.stdout.isatty():
        return run_terminal(replay, full_screen=not args.plain)
    return run_lines(replay, sys.stdin, sys.stdout)


def _named_by_the_audit(rules: Rules, record: Record) -> dict[int, list[tuple[int, str]]]:
    """What each sealed shuffle of an audited record named, or one sentence why not."""
    from ..net.sealed_cards import AuditFault, named_by_the_audit

    try:
        return named_by_the_audit(rules, record)
    except AuditFault as fault:
        raise ReplayError(str(fault)) from None
