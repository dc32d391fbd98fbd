"""A seat at a game, without the terminal: what a typed line does, and what to show.

:class:`Table` is one seat's place at a game: it reads the person's lines (the parser),
answers the shell's commands, says what happened (news, the last move's squares, "Order 2 of
3") and draws the screen. It runs no game flow of its own; a :class:`Driver` does:

- the local driver (solo.py) plays a :class:`~crownp2p.core.play.Play` over the bot, chance
  and the person, and takes lines back (``undo``);
- the networked driver (net_table.py) sends the person's decisions to the session and hands
  the table the steps, the chat, the links and the end as they come.

Both tell the table of every step (:meth:`Table.observe` as a play in this process applies
it; :meth:`Table.applied`, with where it was decided, as the session reports it), and both ask
the table for the person's decision (:meth:`Table.decide`, the person's decider): the next
Treasure of ``treasure all``, or a line typed while our last decision was on its way, read
against the position it was typed for; None until the person types.

The terminal loop (terminal.py) and the tests use a table through ``handle``, ``screen``,
``status``, ``toolbar``, ``message``, ``completer``, ``opening``, ``leave_question``, ``leave``
and ``listen``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..core.board import parse_square
from ..core.decisions import Decision
from ..core.game import CHANCE, Game, Moment, Passed
from ..core.record import Record, Step
from . import render
from .parser import InputError, normal, parse_input, unit_names, why_not
from .reply import Reply, ShellCommand
from .toolbar import table_toolbar
from .turns import players_turn, renumbered

if TYPE_CHECKING:
    from .completer import DecisionCompleter

__all__ = ["Driver", "Table", "TurnTally", "marked_squares"]

NO_UNDO = "There is no `undo` at a networked table: a decision is not taken back."


class Driver(Protocol):
    """Where a table's game comes from and where the person's decisions go."""

    seat: int
    who: dict[int, str]  # seat -> who plays it ("you", "greedy bot", a peer's name)
    commands: dict[str, ShellCommand]  # the shell's commands at this table
    intro: list[str]  # what to say before the game's opening
    preface: list[str]  # what to say first of all (where the seating draw put us)
    leaving_resigns: bool  # a game still on is lost by leaving (`quit` asks first)
    pending: bool  # the person's decision is on its way
    think: float | None  # seconds a `hint` may think (None: the normal level's)

    @property
    def game(self) -> Game: ...

    @property
    def record(self) -> Record: ...

    @property
    def over(self) -> bool:
        """Nothing more is to be decided: the game is over, or the table has ended it."""

    def start(self, table: Table) -> None:
        """Follow the game for ``table``: tell it of every step (its ``observe`` or
        ``applied``), and ask its ``decide`` when the person is to decide."""

    def legal(self) -> list[Decision]:
        """The person's decisions now ([] while another seat decides or ours is on its way)."""

    def submit(self, decision: Decision) -> None:
        """The person's decision, one of :meth:`legal`."""

    def status(self) -> str | None:
        """What the screen's last line says instead of the engine's prompt, if anything."""

    def leave(self) -> None:
        """The person leaves the table."""

    def clock(self) -> tuple[int, float] | None:
        """The seat whose decision clock runs and the seconds left on it (None: none runs)."""

    def think_aside(self, schedule: Callable[[Callable[[], None]], Any] | None) -> None:
        """The prompt's loop runs (``schedule(job)`` runs a job on it from any thread): a bot
        in this process may think beside the prompt. None: the loop ends, stop thinking."""


class TurnTally:
    """Orders, actions and buys used so far this turn, so the screen can say "Order 2 of 3".

    The engine keeps only what is left; a phase decision taken outside any card (a march, a
    deploy, an Order card played, a unit trained, a card bought) uses one. :meth:`count`
    counts a decision by where it was taken; :meth:`observe` does so for a game followed step
    by step, remembering where the game stood before each step."""

    PHASES = ("order", "action", "buy")

    def __init__(self, game: Game) -> None:
        self.turn = -1
        self.counts = dict.fromkeys(self.PHASES, 0)
        self._moment = game.moment()

    def observe(self, game: Game, step: Step) -> None:
        """``step`` has just been applied to ``game``."""
        moment, self._moment = self._moment, game.moment()
        self.count(moment, step.decision)

    def count(self, where: Moment, decision: Decision) -> None:
        """``decision`` was taken ``where``."""
        turn, phase = where.turn, where.phase
        if turn != self.turn:
            self.turn, self.counts = turn, dict.fromkeys(self.PHASES, 0)
        if where.card is not None or decision[0] == "seed" or decision == ("end",):
            return
        if phase in ("order", "action") or (phase == "buy" and decision[0] == "buy"):
            self.counts[phase] += 1

    def used(self, game: Game) -> dict[str, int]:
        if game.turn != self.turn:
            return dict.fromkeys(self.PHASES, 0)
        return dict(self.counts)


def ended_by_itself(passed: Passed) -> str:
    """Why one of the person's phases ended without their `end`."""
    why = {
        ("order", True): "No orders left",
        ("order", False): "Nothing you can order",
        ("action", True): "No actions left",
        ("action", False): "Nothing you can play or train",
        ("buy", True): "No buys left",
        ("buy", False): "Nothing you can afford",
    }[passed.phase, passed.used_up]
    what = "your turn" if passed.phase == "buy" else f"your {passed.phase} phase"
    return f"{why}: {what} ends."


def dropped(lines: list[str], turn: int) -> str:
    """One sentence for lines typed for a turn that is over."""
    count = f"{len(lines)} line{'s' if len(lines) > 1 else ''}"
    typed = ", ".join(f"`{line.strip()}`" for line in lines)
    return f"Dropped {count} typed for turn {turn}: {typed}."


def coming_outcome_line(game: Game, seat: int, winner: int | None) -> str:
    """The outcome the end of this turn will bring, said to ``seat`` as soon as it shows."""
    mine = game.active == seat
    ends = "when this turn ends" + (" (end your turn to finish)" if mine else "")
    if winner is None:
        return f"No side has a Sovereign left on the board: the game is drawn {ends}."
    if winner == render.side_of(game, seat):
        losers = sorted(
            {game.side_name(render.side_of(game, s)) for s in game.rules.seating.seats}
            - {game.side_name(winner)}
        )
        line = f"{' and '.join(losers)} has no Sovereign left on the board: you win {ends}."
        return line[0].upper() + line[1:]
    return f"You have no Sovereign left on the board: {game.side_name(winner)} wins {ends}."


def marked_squares(decision: Decision) -> list[int]:
    """The squares a decision touches, to highlight as the last move."""
    out = []
    for word in decision[1:]:
        if len(word) == 2 and word[0] in "abcdefgh" and word[1] in "12345678":
            out.append(parse_square(word))
    return out


class Table:
    """One seat's place at a game (see the module's docstring)."""

    def __init__(self, driver: Driver, *, unicode: bool = True) -> None:
        self.driver = driver
        self.seat = driver.seat
        self.who = driver.who
        self.commands = driver.commands
        self.unicode = unicode
        self.saved = False
        self.leaving = False  # the person has left (the terminal is closed)
        self.hinting = False  # a `hint` is being worked out beside the prompt
        self.treasure_all = False  # `treasure all`: the next Treasure is the person's answer
        self.ahead: list[str] = []  # lines typed while our last decision was on its way
        self.ahead_turn = 0  # the turn they were typed in
        # How to tell the terminal later (the terminal passes its loop's call_soon, so that
        # many steps in a row make one redraw); by default at once.
        self.schedule: Callable[[Callable[[], None]], Any] | None = None
        self._listeners: list[Callable[[Reply], None]] = []
        self._told: list[str] = []  # lines to say with the next news from outside
        self._news_due = False
        # The person's turn that ended by itself since they last saw the screen: a line typed
        # before they saw it was meant for that turn, and is dropped. The terminal's loop
        # sets ``typing_ahead`` when the next line was waiting before the screen was shown.
        self.ended_unseen: int | None = None
        self.typing_ahead = False
        self.your_turn_note = False  # the toolbar says our networked turn has begun
        self._bell_due = False
        self._decided_told = -1  # the turn whose coming outcome we said
        self.follow(driver.game)
        driver.start(self)

    @property
    def game(self) -> Game:
        return self.driver.game

    @property
    def record(self) -> Record:
        return self.driver.record

    @property
    def rules(self) -> Any:
        return self.game.rules

    @property
    def over(self) -> bool:
        return self.driver.over

    @property
    def confirm_quit(self) -> bool:
        """`quit` asks first where leaving resigns."""
        return self.driver.leaving_resigns

    def legal(self) -> list[Decision]:
        return self.driver.legal()

    @property
    def waiting(self) -> bool:
        """A line typed now waits its turn: our decision is on its way, `treasure all` is
        playing, or earlier lines wait."""
        return self.driver.pending or self.treasure_all or bool(self.ahead)

    # ---------------------------------------------------------------- following the game

    def follow(self, game: Game) -> None:
        """Follow ``game`` from here (a start, or after an undo): its log so far is told."""
        self.tally = TurnTally(game)
        self.marks: list[int] = []  # the squares of the last step
        self.last_moves: dict[int, list[int]] = {}  # by seat: the squares of its last move
        self.steps_seen = 0
        self.shown = len(game.log)  # log lines already told
        self._passed = len(game.passed)  # phases ended by themselves, already noted
        self._asides: list[tuple[int, str]] = []  # (log index, sentence) to tell before it

    def observe(self, game: Game, step: Step) -> None:
        """``step`` has just been applied to ``game`` (the person's, another seat's,
        chance's), by a play in this process."""
        self.tally.observe(game, step)
        self._saw(step)

    def applied(self, step: Step, where: Moment) -> None:
        """``step`` was applied, decided ``where``: a networked game tells where, as its game
        may have moved on since."""
        self.tally.count(where, step.decision)
        self._saw(step)

    def _saw(self, step: Step) -> None:
        self.steps_seen += 1
        self._note_passed()
        if step.seat == CHANCE:
            return
        self.marks = marked_squares(step.decision)
        if self.marks:
            self.last_moves[step.seat] = self.marks
        if step.seat != self.seat and self.ahead:
            # Typed ahead for a position that is gone: another seat decides now.
            self._drop_ahead()

    def _note_passed(self) -> None:
        """Say where one of our phases ended by itself, and why; a turn that did so takes
        the lines typed for it along."""
        game = self.game
        for passed in game.passed[self._passed :]:
            if passed.seat != self.seat:
                continue
            self._asides.append((passed.at, ended_by_itself(passed)))
            if passed.phase == "buy":
                self.ended_unseen = players_turn(game.rules, passed.turn)
                self._drop_ahead()
        self._passed = len(game.passed)

    def _drop_ahead(self) -> None:
        if self.ahead:
            self._told.append(dropped(self.ahead, self.ahead_turn))
            self.ahead.clear()

    def decide(self, game: Game, seat: int) -> Decision | None:
        """The person's decision from what they typed: the next Treasure of `treasure all`,
        else the next line typed ahead; None until they type."""
        legal = self.legal()
        if self.treasure_all:
            treasures = [d for d in legal if d[0] == "treasure"]
            if treasures:
                return treasures[0]
            self.treasure_all = False
        if not self.ahead or not legal:
            return None
        line = self.ahead.pop(0)
        try:
            decisions = parse_input(line, legal, unit_names(game))
        except InputError:  # it cannot be played: what was typed after it waited on it
            lines = [why_not(line, game, seat, self.command_words())]
            lines += [f"Not played: `{later}`." for later in self.ahead]
            self.ahead.clear()
            self.notify(Reply(lines))
            return None
        if normal(line) == "treasure all":
            self.treasure_all = True
        return decisions[0]

    # ---------------------------------------------------------------- telling

    def listen(self, callback: Callable[[Reply], None]) -> None:
        """``callback(reply)`` is called when something happens that no typed line caused."""
        self._listeners.append(callback)

    def notify(self, reply: Reply) -> None:
        for callback in self._listeners:
            callback(reply)

    def later(self, job: Callable[[], None]) -> None:
        """Run ``job`` from the terminal's loop (at once without one)."""
        if self.schedule is None:
            job()
        else:
            self.schedule(job)

    def tell(self, lines: list[str] | tuple[str, ...] = ()) -> None:
        """Something happened that no typed line caused (a peer's move, a chat line): tell
        the listeners, with the news, once the terminal's loop comes round to it."""
        self._told.extend(lines)
        if not self._news_due:
            self._news_due = True
            self.later(self._tell)

    def _tell(self) -> None:
        self._news_due = False
        if self.leaving:  # the shell has closed: nothing more to show
            return
        self.notify(self.news_reply())
        self.ended_unseen = None  # it is on the screen now

    def news(self) -> list[str]:
        """The log lines not told yet, with what we say about them where it belongs."""
        log, start = self.game.log, self.shown
        asides, self._asides = self._asides, []
        lines = [text for at, text in asides if at < start]
        for at, line in enumerate(log[start:], start):
            lines += [text for where, text in asides if where == at]
            lines.append(line)
        lines += [text for at, text in asides if at >= max(len(log), start)]
        self.shown = len(log)
        return [renumbered(self.game, line) for line in lines]

    def news_reply(self, lines: list[str] | None = None) -> Reply:
        """The news, after ``lines`` and what waited to be said."""
        told = self.news()
        said, self._told = [*self._told, *(lines or [])], []
        reply = Reply(said, redraw=True)
        if told:
            reply.news = render.news(told, self.seat, self.game, self.unicode)
        reply.bell, self._bell_due = self._bell_due, False
        if self.game.over:
            reply.lines.append(render.outcome_line(self.game, self.seat))
            reply.lines.append("`log` shows the game, `save FILE` keeps it, `quit` leaves.")
        else:
            reply.lines += self._coming_outcome()
        return reply

    def turn_begins(self, *, bell: bool) -> None:
        """Our turn has begun at a networked table: the toolbar says so until the person
        types, and the terminal rings its bell (unless ``bell`` is off: `--quiet`)."""
        self.your_turn_note = True
        self._bell_due = bell
        self.tell()

    def _coming_outcome(self) -> list[str]:
        """Once a side has no Sovereign left, the end of this turn decides the game (the
        turn is played out: docs/rulings.md, call 7): say so once, at once."""
        game = self.game
        over, winner = game.rules.outcome(game)
        if not over or self._decided_told == game.turn:
            return []
        self._decided_told = game.turn
        return [coming_outcome_line(game, self.seat, winner)]

    def opening(self) -> Reply:
        """What to say before the first prompt: who is who, and what happened already."""
        game, me = self.game, self.seat
        seating = game.rules.seating

        def seats(which: list[int]) -> str:
            return " and ".join(
                f"{game.seat_name(s)} ({self.who.get(s, f'seat {s}')})" for s in which
            )

        others = [s for s in seating.seats if s != me]
        partners = [s for s in others if not seating.are_enemies(me, s)]
        enemies = [s for s in others if seating.are_enemies(me, s)]
        greeting = (
            f"You play {game.seat_name(me)} ({render.owner_case(game, me)})"
            + (f" with {seats(partners)}" if partners else "")
            + (f" against {seats(enemies)}" if enemies else "")
            + ". `help` explains the moves; Tab lists what you can do now."
        )
        reply = self.news_reply()
        # Where we sit, who is who and what this table offers, then what happened already.
        reply.news = [
            *[part for line in self.driver.preface for part in (("", line), ("", "\n"))],
            ("class:status", greeting),
            *[part for line in self.driver.intro for part in (("", "\n"), ("", line))],
            *([("", "\n"), *reply.news] if reply.news else []),
        ]
        return reply

    # ---------------------------------------------------------------- what to show

    def screen(self, width: int = 100) -> render.Fragments:
        return render.screen(
            self.game,
            self.seat,
            unicode=self.unicode,
            width=width,
            who=self.who,
            marks=[sq for squares in self.last_moves.values() for sq in squares],
            tally=self.tally,
            status=self.driver.status(),
        )

    def status(self) -> str:
        return render.status_line(self.game, self.seat, self.driver.status(), self.tally)

    def toolbar(self, width: int = 200) -> render.Fragments:
        return table_toolbar(
            self.game,
            self.seat,
            width,
            over=self.over,
            unicode=self.unicode,
            clock=self.driver.clock(),
            note="your turn now" if self.your_turn_note and not self.over else None,
        )

    def message(self) -> str:
        """The prompt's text: whose seat, and where in the turn."""
        return f"{self.game.seat_name(self.seat)}> "

    def completer(self) -> DecisionCompleter:
        from .completer import DecisionCompleter

        return DecisionCompleter(self.legal, self.command_words(), self.rules, lambda: self.game)

    def command_words(self) -> list[str]:
        return list(self.commands)

    def leave_question(self) -> str | None:
        """What to ask before leaving, or None to leave without asking."""
        if self.over:
            return None
        if self.driver.leaving_resigns:
            return "Leave the game? You resign if you leave. [y/N] "
        unsaved = "" if self.saved else " (it is not saved: `save FILE` keeps it)"
        return f"Leave the game{unsaved}? [y/N] "

    def think_aside(self, schedule: Callable[[Callable[[], None]], Any] | None) -> None:
        """A bot in this process thinks beside the prompt from now on (``schedule``: the
        prompt's loop, see :meth:`Driver.think_aside`), or no more (None)."""
        self.driver.think_aside(schedule)

    def leave(self) -> None:
        """The person leaves: nothing more is shown, and the driver is told."""
        self.leaving = True
        self.driver.leave()

    # ---------------------------------------------------------------- input

    def handle(self, line: str) -> Reply:
        words = line.strip().split()
        if not words:
            return Reply()
        first = words[0].lower()
        if first == "undo" and first not in self.commands:  # a solo habit: say why
            return Reply([NO_UNDO])
        command = self.commands.get(first)
        ahead, self.typing_ahead = self.typing_ahead, False
        self.your_turn_note = False
        if not ahead:  # typed with the screen in sight
            self.ended_unseen = None
        elif command is None and self.ended_unseen is not None and not self.over:
            # Typed before the person saw their turn end by itself: it was meant for that turn.
            return Reply([dropped([line], self.ended_unseen)])
        if command is None and self.waiting and not self.over:
            # Our last decision is still on its way (or `treasure all` is playing, or earlier
            # lines wait): keep the line, in order, and read it against the position it was
            # typed for, once we are asked again (type-ahead).
            if not self.ahead:
                self.ahead_turn = players_turn(self.rules, self.game.turn)
            self.ahead.append(line)
            return Reply()
        if command is not None and not self._is_decision(line):
            return command.run(self, words[1:])
        try:
            decisions = parse_input(line, self.legal(), unit_names(self.game))
        except InputError:
            return Reply([why_not(line, self.game, self.seat, self.command_words())])
        return self.play_line(line, decisions)

    def play_line(self, line: str, decisions: list[Decision]) -> Reply:
        """Carry out what one line stood for: its decision (with `treasure all`, each
        Treasure in turn, as the driver asks for the next)."""
        self.treasure_all = normal(line) == "treasure all"
        seen = self.steps_seen
        self.driver.submit(decisions[0])
        if self.steps_seen == seen:  # on its way (a networked table): news come later
            return Reply()
        return self.news_reply()

    def _is_decision(self, line: str) -> bool:
        try:
            parse_input(line, self.legal(), unit_names(self.game))
        except InputError:
            return False
        return True
