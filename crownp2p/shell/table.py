"""A game at the terminal, without the terminal: what a line of input does, and what to say.

``SoloTable`` owns the game, the bot, the local seed source and the record; ``handle(line)``
returns the lines to print. The prompt_toolkit loop (solo.py) and the tests both drive it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..bots import make_bot
from ..core.board import parse_square, square_name
from ..core.decisions import Decision, IllegalDecision, decision_text
from ..core.game import CHANCE, Game
from ..core.record import Record
from ..core.rules import Rules
from ..core.setup import Setup
from ..core.shuffle import SeedSource
from . import render
from .parser import InputError, parse_input


@dataclass
class Reply:
    lines: list[str] = field(default_factory=list)
    redraw: bool = False  # print the whole screen again
    quit: bool = False


@dataclass(frozen=True)
class ShellCommand:
    name: str
    usage: str
    help: str
    run: Callable[[SoloTable, list[str]], Reply]


class SoloTable:
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
        self.rules = rules
        self.seat = seat
        self.bot_name = bot
        self.unicode = unicode
        self.seed = seed
        self.seeds = SeedSource(seed)
        self.bot = make_bot(bot, seed if seed is not None else 0)
        self.game = Game(rules, setup)
        self.record = Record.begin(self.game, bots=[bot if s != seat else "you" for s in (0, 1)])
        self.shown = 0  # log lines already shown
        self.advance()
        self.shown = len(self.game.log)  # the deal is not news

    # ---------------------------------------------------------------- the game moves on

    def apply(self, decision: Decision) -> None:
        self.record.apply(self.game, decision)

    def advance(self) -> None:
        """Play chance and the bot until it is our decision or the game is over."""
        game = self.game
        while not game.over:
            seat = game.prompt().seat
            if seat == CHANCE:
                self.apply(("seed", self.seeds.next_seed()))
            elif seat != self.seat:
                self.apply(self.bot.choose(game))
            else:
                return

    def news(self) -> list[str]:
        lines = self.game.log[self.shown :]
        self.shown = len(self.game.log)
        return lines

    def screen(self) -> str:
        return render.screen(self.game, self.seat, self.unicode)

    def toolbar(self) -> str:
        return render.toolbar_text(self.game, self.seat)

    def legal(self) -> list[Decision]:
        if self.game.over or self.game.prompt().seat != self.seat:
            return []
        return self.game.legal()

    # ---------------------------------------------------------------- input

    def handle(self, line: str) -> Reply:
        words = line.strip().split()
        if not words:
            return Reply([render.prompt_line(self.game, self.seat)])
        command = COMMANDS.get(words[0].lower())
        if command is not None and not self._is_decision(line):
            return command.run(self, words[1:])
        if self.game.over:
            return Reply(["The game is over. Type `quit` to leave, or `log` to read it."])
        try:
            decisions = parse_input(line, self.legal())
        except InputError as err:
            return Reply([self._explain(line) or str(err)])
        if " ".join(line.lower().split()) == "treasure all":  # one by one while any is left
            while self.game.prompt().seat == self.seat and (
                treasures := [d for d in self.legal() if d[0] == "treasure"]
            ):
                self.apply(treasures[0])
        else:
            try:
                self.apply(decisions[0])
            except IllegalDecision as err:
                return Reply([str(err)])
        self.advance()
        return Reply(self.news(), redraw=True)

    def _explain(self, line: str) -> str | None:
        """A more helpful sentence for a few common mistakes."""
        words = line.split(maxsplit=1)
        game = self.game
        verb = words[0].lower() if words else ""
        if verb in ("treasure", "buy") and game.phase in ("order", "action") and not game.stack:
            return f"Treasures and buys come in the buy phase; `end` ends the {game.phase} phase."
        if verb == "train" and game.phase == "order" and not game.stack:
            return "Training is an action: `end` ends the order phase first."
        if len(words) == 2 and words[0].lower() == "buy" and game.phase == "buy":
            name = words[1].strip()
            if name in game.rules.cards:
                card = game.rules.cards.get(name)
                if card.name not in game.supply:
                    return f"{card.name} is not in this game's Supply."
                if game.supply[card.name] == 0:
                    return f"The {card.name} pile is empty."
                if game.buys == 0:
                    return "You have no buys left."
                if game.cost(card.name) > game.gold:
                    return (
                        f"{card.name} costs {game.cost(card.name)} and you have {game.gold} "
                        "gold (play treasures first: `treasure all`)."
                    )
        return None

    def _is_decision(self, line: str) -> bool:
        try:
            parse_input(line, self.legal())
        except InputError:
            return False
        return True

    def undo(self) -> Reply:
        """Take back our last decision (and what the bot did after it)."""
        steps = self.record.steps
        mine = [i for i, s in enumerate(steps) if s.seat == self.seat]
        if not mine:
            return Reply(["There is nothing of yours to undo."])
        keep = steps[: mine[-1]]
        game = self.record.new_game(self.rules)
        for step in keep:
            game.apply(step.decision)
        self.game = game
        self.record.steps = keep
        self.shown = len(game.log)
        return Reply([f"Took back `{decision_text(steps[mine[-1]].decision)}`."], redraw=True)


# -------------------------------------------------------------------- the shell's commands


def _help(table: SoloTable, args: list[str]) -> Reply:
    if args:
        from .game_commands import describe_card

        name = " ".join(args)
        if name in table.rules.cards:
            return Reply(describe_card(table.rules.cards.get(name)).splitlines())
        if name in table.rules.units:
            kind = table.rules.units.get(name)
            classes = ", ".join(c.value for c in kind.classes)
            return Reply([f"{kind.name} ({kind.letter}): {classes}. Try `moves SQUARE` on one."])
        return Reply([f"There is no card or unit called {name!r}."])
    lines = [
        "Type a decision, or a short form of one:",
        "  e2e4 (march or attack), deploy Knight b1, play Stables, train Peon,",
        "  treasure Clergy, treasure all, buy Tower, end (ends the phase), done",
        "Tab completes from what is possible now. Commands:",
    ]
    lines += [f"  {c.usage:<14} {c.help}" for name, c in COMMANDS.items() if name == c.name]
    return Reply(lines)


def _moves(table: SoloTable, args: list[str]) -> Reply:
    if len(args) != 1:
        return Reply(["Usage: moves SQUARE, like `moves e2`."])
    try:
        sq = parse_square(args[0])
    except ValueError as err:
        return Reply([str(err)])
    unit = table.game.position.board[sq]
    if unit is None:
        return Reply([f"There is no unit on {square_name(sq)}."])
    moves = table.game.position.unit_moves(sq)
    march = sorted({square_name(m.to) for m in moves if m.kind != "attack"})
    attack = sorted({square_name(c) for m in moves for c in m.captures})
    owner = table.game.seat_name(unit.owner)
    return Reply(
        [
            f"{owner} {unit.kind.name} on {square_name(sq)}",
            f"  march: {' '.join(march) or '(none)'}",
            f"  attack: {' '.join(attack) or '(none)'}",
        ]
    )


def _log(table: SoloTable, args: list[str]) -> Reply:
    count = 20
    if args and args[0].isdigit():
        count = int(args[0])
    return Reply(table.game.log[-count:] or ["Nothing has happened yet."])


def _board(table: SoloTable, args: list[str]) -> Reply:
    return Reply(redraw=True)


def _undo(table: SoloTable, args: list[str]) -> Reply:
    return table.undo()


def _quit(table: SoloTable, args: list[str]) -> Reply:
    return Reply(["Goodbye."], quit=True)


def _save(table: SoloTable, args: list[str]) -> Reply:
    if len(args) != 1:
        return Reply(["Usage: save FILE"])
    try:
        table.record.save(args[0])
    except OSError as err:
        return Reply([f"Cannot save to {args[0]}: {err.strerror}."])
    return Reply([f"Saved the record to {args[0]}; `crownp2p replay {args[0]}` plays it back."])


COMMANDS: dict[str, ShellCommand] = {
    c.name: c
    for c in (
        ShellCommand("help", "help [CARD]", "this help, or a card's or unit's text", _help),
        ShellCommand("moves", "moves SQUARE", "what the unit on SQUARE can do", _moves),
        ShellCommand("log", "log [N]", "the last N things that happened", _log),
        ShellCommand("board", "board", "show the screen again", _board),
        ShellCommand("undo", "undo", "take back your last decision", _undo),
        ShellCommand("save", "save FILE", "save the game record", _save),
        ShellCommand("quit", "quit", "leave the game", _quit),
    )
}
COMMANDS["exit"] = COMMANDS["quit"]
