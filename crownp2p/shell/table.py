"""A seat at a game, without the terminal: what a typed line does, and what to show.

:class:`Table` is one seat's place at a game: it turns the player's lines into decisions (the
parser), answers the shell's commands, keeps the record and says what happened. Where the
*other* decisions come from is the subclass's business:

- :class:`SoloTable` plays chance (a local seed source) and the bot itself, right after each of
  the player's decisions (:meth:`Table.advance`), and can take decisions back (``undo``).
- A networked table sends the player's decisions to its peers (:meth:`Table.submit`) and hands
  the peers' decisions in with :meth:`Table.receive`, which applies them and tells the terminal
  (:meth:`Table.listen`), so the board and the news update while the player is typing. Where a
  network session applies every decision to the game itself, it calls :meth:`Table.observe`
  before each and :meth:`Table.refresh` after, and ``submit`` hands the player's decision to
  the session instead of applying it. Call these from the terminal's event loop thread (trio
  in guest mode runs there).

The terminal loop (terminal.py) and the tests drive a table only through ``handle``,
``screen``, ``toolbar``, ``message``, ``completer`` and ``listen``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bots import make_bot
from ..core.decisions import Decision, decision_text
from ..core.game import CHANCE, Game
from ..core.record import Record
from ..core.rules import Rules
from ..core.setup import Setup
from ..core.shuffle import SeedSource
from . import render
from .commands import SOLO_COMMANDS, TABLE_COMMANDS, Reply, ShellCommand
from .parser import InputError, normal, parse_input, why_not

__all__ = ["Reply", "SoloTable", "Table", "TurnTally"]


class TurnTally:
    """Orders, actions and buys used so far this turn, so the screen can say "Order 2 of 3".

    The engine keeps only what is left; a phase decision taken outside any card (a march, a
    deploy, an Order card played, a unit trained, a card bought) uses one."""

    PHASES = ("order", "action", "buy")

    def __init__(self) -> None:
        self.turn = -1
        self.counts = dict.fromkeys(self.PHASES, 0)

    def before(self, game: Game, decision: Decision) -> None:
        self.count(game.turn, game.phase, game.stack[-1].card if game.stack else None, decision)

    def count(self, turn: int, phase: str, card: str | None, decision: Decision) -> None:
        """``decision`` was taken in ``turn`` and ``phase``, in ``card``'s effect (None: a
        decision of the phase itself)."""
        if turn != self.turn:
            self.turn, self.counts = turn, dict.fromkeys(self.PHASES, 0)
        if card is not None or decision[0] == "seed" or decision == ("end",):
            return
        if phase in ("order", "action") or (phase == "buy" and decision[0] == "buy"):
            self.counts[phase] += 1

    def used(self, game: Game) -> dict[str, int]:
        if game.turn != self.turn:
            return dict.fromkeys(self.PHASES, 0)
        return dict(self.counts)


def marked_squares(decision: Decision) -> list[int]:
    """The squares a decision touches, to highlight as the last move."""
    from ..core.board import parse_square

    out = []
    for word in decision[1:]:
        if len(word) == 2 and word[0] in "abcdefgh" and word[1] in "12345678":
            out.append(parse_square(word))
    return out


class Table:
    """One seat's place at a game (see the module's docstring)."""

    commands: dict[str, ShellCommand] = TABLE_COMMANDS

    def __init__(
        self,
        rules: Rules,
        game: Game,
        record: Record,
        *,
        seat: int,
        who: dict[int, str] | None = None,
        unicode: bool = True,
    ) -> None:
        self.rules = rules
        self.game = game
        self.record = record
        self.seat = seat
        self.who = who or {seat: "you"}
        self.unicode = unicode
        self.tally = TurnTally()
        self.marks: list[int] = []
        self.saved = False
        self.shown = len(game.log)  # log lines already told
        self._listeners: list[Callable[[Reply], None]] = []

    # ---------------------------------------------------------------- the game moves on

    @property
    def over(self) -> bool:
        return self.game.over

    def legal(self) -> list[Decision]:
        """The decisions this seat may take now ([] when another seat or chance decides)."""
        if self.game.over or self.game.prompt().seat != self.seat:
            return []
        return self.game.legal()

    def apply(self, decision: Decision) -> None:
        """Apply any seat's decision to the game and the record (every decision passes here)."""
        self.observe(decision)
        self.record.apply(self.game, decision)

    def observe(self, decision: Decision) -> None:
        """Note a decision about to be applied (for "Order 2 of 3" and the last move). A driver
        that applies decisions to the game itself calls this first, then :meth:`refresh`."""
        self.tally.before(self.game, decision)
        if decision[0] != "seed":
            self.marks = marked_squares(decision)

    def refresh(self) -> Reply:
        """Tell the listeners what happened since the last time (after :meth:`observe`)."""
        reply = self.news_reply()
        self.notify(reply)
        return reply

    def submit(self, decision: Decision) -> None:
        """The player's own decision. A networked table also sends it to the peers."""
        self.apply(decision)

    def advance(self) -> None:
        """After the player's decision: whatever this table decides itself (chance, bots)."""

    def receive(self, decision: Decision) -> Reply:
        """A decision from outside (a peer), applied and told to the listeners."""
        self.apply(decision)
        self.advance()
        return self.refresh()

    def listen(self, callback: Callable[[Reply], None]) -> None:
        """``callback(reply)`` is called when something happens that no typed line caused."""
        self._listeners.append(callback)

    def notify(self, reply: Reply) -> None:
        for callback in self._listeners:
            callback(reply)

    def news(self) -> list[str]:
        lines = self.game.log[self.shown :]
        self.shown = len(self.game.log)
        return lines

    def news_reply(self, lines: list[str] | None = None) -> Reply:
        told = self.news()
        reply = Reply(list(lines or []), redraw=True)
        if told:
            reply.news = render.news(told, self.seat, self.game, self.unicode)
        if self.game.over:
            reply.lines.append(render.outcome_line(self.game, self.seat))
            reply.lines.append("`log` shows the game, `save FILE` keeps it, `quit` leaves.")
        return reply

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
        reply.news = [
            ("class:status", greeting),
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
            marks=self.marks,
            tally=self.tally,
            status=self.table_status(),
        )

    def table_status(self) -> str | None:
        """What the screen's last line says instead of the engine's prompt, if anything (a
        networked table: waiting for players, a decision on its way)."""
        return None

    def status(self) -> str:
        return self.table_status() or render.prompt_line(self.game, self.seat, self.tally)

    def toolbar(self, width: int = 200) -> render.Fragments:
        from .toolbar import table_toolbar

        return table_toolbar(self, width)

    def message(self) -> str:
        """The prompt's text: whose seat, and where in the turn."""
        return f"{self.game.seat_name(self.seat)}> "

    def completer(self) -> Any:
        from .completer import DecisionCompleter

        return DecisionCompleter(self.legal, self.command_words(), self.rules, lambda: self.game)

    def command_words(self) -> list[str]:
        return list(self.commands)

    def leave_question(self) -> str | None:
        """What to ask before leaving, or None to leave without asking."""
        if self.game.over:
            return None
        unsaved = "" if self.saved else " (it is not saved: `save FILE` keeps it)"
        return f"Leave the game{unsaved}? [y/N] "

    # ---------------------------------------------------------------- input

    def handle(self, line: str) -> Reply:
        words = line.strip().split()
        if not words:
            return Reply()
        command = self.commands.get(words[0].lower())
        if command is not None and not self._is_decision(line):
            return command.run(self, words[1:])
        try:
            decisions = parse_input(line, self.legal())
        except InputError:
            return Reply([why_not(line, self.game, self.seat, self.command_words())])
        return self.play_line(line, decisions)

    def play_line(self, line: str, decisions: list[Decision]) -> Reply:
        """Carry out what one line stood for: one decision, or each Treasure in turn."""
        if normal(line) == "treasure all":  # one by one while any is left: each may change
            while treasures := [d for d in self.legal() if d[0] == "treasure"]:  # the next
                self.submit(treasures[0])
        else:
            self.submit(decisions[0])
        self.advance()
        return self.news_reply()

    def _is_decision(self, line: str) -> bool:
        try:
            parse_input(line, self.legal())
        except InputError:
            return False
        return True


class SoloTable(Table):
    """A game against a bot: this table plays chance and the bot after each of ours."""

    commands = SOLO_COMMANDS

    def __init__(
        self,
        rules: Rules,
        setup: Setup,
        *,
        seat: int = 0,
        bot: str = "greedy",
        seed: int | None = None,
        unicode: bool = True,
    ) -> None:
        game = Game(rules, setup)
        names = {s: ("you" if s == seat else f"{bot} bot") for s in rules.seating.seats}
        record = Record.begin(
            game, bots=[names[s] for s in rules.seating.seats], seed=seed, seat=seat
        )
        super().__init__(rules, game, record, seat=seat, who=names, unicode=unicode)
        self.bot_name = bot
        self.bot = make_bot(bot, seed if seed is not None else 0)
        self.seed = seed
        self._seed_source = SeedSource(seed)
        self._seeds: list[str] = []  # every seed handed out, so an undo replays the same ones
        self._bot_states: dict[int, Any] = {}  # step index -> the bot's random state then
        self._line_starts: list[int] = []  # where each of the player's lines began
        self.advance()
        self.shown = _first_turn(self.game.log)  # the deal is not news; the bot's turn 1 is

    def _next_seed(self) -> str:
        used = sum(1 for s in self.record.steps if s.seat == CHANCE)
        if used >= len(self._seeds):
            self._seeds.append(self._seed_source.next_seed())
        return self._seeds[used]

    def advance(self) -> None:
        """Play chance and the bot until it is the player's decision or the game is over."""
        game = self.game
        while not game.over:
            seat = game.prompt().seat
            if seat == CHANCE:
                self.apply(("seed", self._next_seed()))
            elif seat != self.seat:
                rng = getattr(self.bot, "rng", None)
                if rng is not None:
                    self._bot_states.setdefault(len(self.record.steps), rng.getstate())
                self.apply(self.bot.decide(game, seat))
            else:
                return

    def play_line(self, line: str, decisions: list[Decision]) -> Reply:
        self._line_starts.append(len(self.record.steps))
        return super().play_line(line, decisions)

    def undo(self) -> Reply:
        """Take back the player's last line and everything after it (the bot's reply)."""
        if not self._line_starts:
            return Reply(["There is nothing of yours to undo."])
        keep = self._line_starts.pop()
        steps = self.record.steps
        taken = [decision_text(s.decision) for s in steps[keep:] if s.seat == self.seat]
        game = self.record.new_game(self.rules)
        self.game, self.tally, self.marks = game, TurnTally(), []
        kept = steps[:keep]
        for step in kept:  # the steps keep their hashes: no need to record them again
            self.tally.before(game, step.decision)
            game.apply(step.decision)
            if step.seat != CHANCE:
                self.marks = marked_squares(step.decision)
        self.record.steps = kept
        later = [i for i in self._bot_states if i >= keep]
        if later and getattr(self.bot, "rng", None) is not None:
            self.bot.rng.setstate(self._bot_states[min(later)])
        for i in later:
            del self._bot_states[i]
        self.shown = len(game.log)
        what = ", ".join(f"`{t}`" for t in taken) or "your last line"
        return Reply([f"Took back {what}."], redraw=True)


def _first_turn(log: list[str]) -> int:
    for i, line in enumerate(log):
        if line.startswith("turn "):
            return i
    return len(log)
