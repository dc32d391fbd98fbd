"""The shell's own commands every table has (``help``, ``moves``, ``log``, ``save`` ...).

A table's driver gives it its set: these, and its own (the local driver's ``undo`` in solo.py,
the networked driver's ``chat`` and ``quit`` in net_table.py). A command takes the table and
its words and returns a :class:`Reply`, the lines to print.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import threading
from collections.abc import Callable
from pathlib import Path

from ..core.board import parse_square, square_name
from ..core.decisions import Decision
from ..core.rules import Rules
from ..core.units import UnitType
from .diagram import diagram
from .guide import SECTIONS, section
from .parser import InputError, find_name, sentence
from .reply import Reply, ShellCommand, distinct_commands
from .table import Table
from .turns import renumbered

log = logging.getLogger(__name__)

__all__ = [
    "BOARD",
    "HELP",
    "HINT",
    "LOG",
    "MOVES",
    "QUIT",
    "RULES",
    "SAVE",
    "SAVE_OVER",
    "describe",
]


# -------------------------------------------------------------------- help

KEYS_HELP = [
    "Keys: Tab completes, Up/Down recall earlier lines, Ctrl-L redraws, Ctrl-D or Ctrl-C leaves.",
]


def _help(table: Table, args: list[str]) -> Reply:
    if args:
        return Reply(describe(table, " ".join(args)))
    lines = [
        "Type a decision, or a short form of one:",
        "  e2e4 or e2-e4 (march or attack from e2 to e4), deploy Knight b1, play Stables,",
        "  train Peon, treasure Peon, treasure all, buy Tower, end (ends the phase), done",
        "A card's step takes the words Tab shows (discard Peon, promote Queen ...), its",
        "prompt's own (put Peon on top), or a name alone (Peon); names may be cut short.",
        "Commands:",
    ]
    lines += [f"  {c.usage:<14} {c.help}" for c in distinct_commands(table.commands)]
    return Reply(lines + KEYS_HELP)


def describe(table: Table, name: str) -> list[str]:
    """A card's text and what the unit it trains does, or a unit's classes, the cards that
    train it and its moves on an empty board. A unique beginning of a name is enough."""
    from .game_commands import describe_card

    rules = table.rules
    unicode = getattr(table, "unicode", True)
    cards, units = rules.cards.names(), [u.name for u in rules.units]
    try:
        found = find_name(name, [*cards, *units], "card or unit")
    except InputError as err:
        return [sentence(err)]
    if found in cards:
        card = rules.cards.get(found)
        lines = describe_card(card).splitlines()
        if card.trains and card.trains in rules.units:
            lines += ["", *describe_unit(rules.units.get(card.trains), rules, unicode)]
        return lines
    return describe_unit(rules.units.get(found), rules, unicode)


def describe_unit(kind: UnitType, rules: Rules, unicode: bool = True) -> list[str]:
    classes = ", ".join(c.value for c in kind.classes)
    trainers = [c.name for c in rules.cards if c.trains == kind.name]
    trained = f"Trained by {', '.join(trainers)}." if trainers else "No card trains it."
    promotes = " On its last rank it may promote." if kind.is_foot else ""
    return [f"{kind.name} ({kind.letter}): {classes}. {trained}{promotes}", *diagram(kind, unicode)]


def _rules(table: Table, args: list[str]) -> Reply:
    from .context import catalog

    if not args:
        return Reply(section("", catalog()))
    try:
        name = find_name(" ".join(args), SECTIONS, "section of the rules")
    except InputError as err:
        return Reply([f"{sentence(err)} Sections: {', '.join(SECTIONS)}."])
    return Reply(section(name, catalog()))


# -------------------------------------------------------------------- the board


def _moves(table: Table, args: list[str]) -> Reply:
    if len(args) != 1:
        return Reply(["Usage: moves SQUARE, like `moves e2`."])
    try:
        sq = parse_square(args[0].lower())
    except ValueError as err:
        return Reply([f"{err}."[:1].upper() + f"{err}."[1:]])
    game = table.game
    unit = game.position.board[sq]
    name = square_name(sq)
    if unit is None:
        return Reply([f"There is no unit on {name}."])
    moves = game.position.unit_moves(sq)
    march = sorted({square_name(m.to) for m in moves if m.kind != "attack"})
    attack = sorted({square_name(c) for m in moves for c in m.captures})
    owner = game.seat_name(unit.owner)
    lines = [
        f"{owner} {unit.kind.name} on {name}: " + ", ".join(c.value for c in unit.kind.classes),
        f"  by its rules it marches to: {' '.join(march) or '(nowhere)'}",
        f"  and attacks: {' '.join(attack) or '(nothing)'}",
    ]
    now = [d for d in table.legal() if len(d) == 3 and d[1] == name and d[2][:1] in "abcdefgh"]
    if now:
        lines.append("  possible now: " + ", ".join(f"{d[0]} {d[1]}{d[2]}" for d in now))
    return Reply(lines)


def _log(table: Table, args: list[str]) -> Reply:
    count = 20
    if args:
        if not args[0].isdigit():
            return Reply(["Usage: log [N], like `log 40`."])
        count = int(args[0])
    game = table.game
    lines = game.log[-count:] if count else game.log  # `log 0`: all of it
    return Reply([renumbered(game, line) for line in lines] or ["Nothing has happened yet."])


def _board(table: Table, args: list[str]) -> Reply:
    return Reply(redraw=True)


def _save(table: Table, args: list[str]) -> Reply:
    return save(table, args, replace=False)


def _save_over(table: Table, args: list[str]) -> Reply:
    return save(table, args, replace=True)


def save(table: Table, args: list[str], *, replace: bool) -> Reply:
    """``save [FILE]``: the record to FILE (quoted if it has spaces), never over a file that
    is there unless ``replace`` (``save!``); without FILE, a new file among the kept games."""
    from .games import new_game_path

    try:
        words = shlex.split(" ".join(args))
    except ValueError:
        return Reply(['A quote is not closed: `save "my game.jsonl"`.'])
    if len(words) > 1:
        return Reply(["Usage: save [FILE], like `save game.jsonl` (quote a name with spaces)."])
    solo = table.record.game_id is None
    try:
        path = Path(words[0]).expanduser() if words else new_game_path("solo" if solo else "copy")
    except OSError as err:
        return Reply([f"Cannot make the games folder: {err.strerror}; give a FILE."])
    if path.exists() and not replace:
        return Reply([f"{path} is there already: `save! {quoted(path)}` replaces it."])
    try:
        table.record.save(path)
    except OSError as err:
        return Reply([f"Cannot save to {path}: {err.strerror}."])
    table.saved = True
    then = f"`crownp2p resume {quoted(path)}` continues it" if solo else "`crownp2p replay"
    if not solo:
        then += f" {quoted(path)}` plays it back"
    return Reply([f"Saved the record to {path}; {then}."])


def quoted(path: Path) -> str:
    """``path`` as a shell would need it typed."""
    return shlex.quote(str(path))


# -------------------------------------------------------------------- a hint


def hint(table: Table) -> Decision:
    """The search bot's choice for the person's decision now: from their seat's view only,
    within the table's think budget (else the normal level's), seeded by the step."""
    return _hint_search(table)()


def _hint_search(table: Table) -> Callable[[], Decision]:
    """The hint's search, ready to run on a copy of the game (in any thread)."""
    from ..bots import THINK, make_bot

    think = table.driver.think if table.driver.think is not None else THINK["normal"]
    bot = make_bot("normal", f"hint:{len(table.record.steps)}", think=think)
    game, seat = table.game.clone(), table.seat
    return lambda: bot.decide(game, seat)


def _hint(table: Table, args: list[str]) -> Reply:
    """The hint and why; it is not played. With the terminal's loop running, the search runs
    in a worker thread and the hint is told when it comes, so typing never waits for it."""
    if args:
        return Reply(["Usage: hint (it takes no words)."])
    if not table.legal():
        return Reply(["There is nothing for you to decide now: ask for a hint on your turn."])
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop (lines from a pipe): the answer comes at once
        return Reply([_hint_line(table, hint(table))])
    if table.hinting:
        return Reply(["A hint is on its way."])
    from .terminal import schedule_guarded

    table.hinting = True
    search, steps = _hint_search(table), len(table.record.steps)
    schedule = schedule_guarded(loop)  # a failure in telling it is said as a typed line's is

    def told(decision: Decision | Exception) -> None:  # on the loop, once the search is done
        table.hinting = False
        if isinstance(decision, Exception):
            log.debug("the hint's search failed", exc_info=decision)
            table.notify(Reply([f"No hint this time: its search failed ({decision})."]))
        elif not table.leaving and len(table.record.steps) == steps and table.legal():
            table.notify(Reply([_hint_line(table, decision)]))
        # else the decision it was for is made: the hint is moot

    def work() -> None:
        try:
            decision: Decision | Exception = search()
        except Exception as err:  # noqa: BLE001 - one sentence at the prompt, not a traceback
            decision = err
        with contextlib.suppress(RuntimeError):  # the loop has closed: no one to tell
            schedule(lambda: told(decision))

    threading.Thread(target=work, name="hint", daemon=True).start()
    dots = "…" if table.unicode else "..."
    return Reply([f"Thinking of a hint{dots}"])


def _hint_line(table: Table, decision: Decision) -> str:
    from ..bots.explain import named, why

    dash = "—" if table.unicode else "-"
    return f"hint: {named(table.game, decision)} {dash} {why(table.game, table.seat, decision)}"


def _quit(table: Table, args: list[str]) -> Reply:
    return Reply(["Goodbye."], quit=True)


HELP = ShellCommand(
    "help", "help [NAME]", "this help, or a card's or unit's text and moves", _help, ("?",)
)
RULES = ShellCommand("rules", "rules [TOPIC]", "the game in brief: turn, deploy, ...", _rules)
MOVES = ShellCommand("moves", "moves SQUARE", "where the unit on SQUARE can go", _moves)
LOG = ShellCommand("log", "log [N]", "the last N things that happened (20; 0: all)", _log)
BOARD = ShellCommand("board", "board", "show the board again", _board)
SAVE = ShellCommand("save", "save [FILE]", "save the game (not over an existing FILE)", _save)
SAVE_OVER = ShellCommand("save!", "save! FILE", "save the game, replacing FILE", _save_over)
HINT = ShellCommand("hint", "hint", "the search bot's choice for your decision, and why", _hint)
QUIT = ShellCommand("quit", "quit", "leave the game", _quit, ("exit",))
