"""The shell's own commands every table has (``help``, ``moves``, ``log``, ``save`` ...).

A table's driver gives it its set: these, and its own (the local driver's ``undo`` in solo.py,
the networked driver's ``chat`` and ``quit`` in net_table.py). A command takes the table and
its words and returns a :class:`Reply`, the lines to print.
"""

from __future__ import annotations

from ..core.board import parse_square, square_name
from .reply import Reply, ShellCommand, distinct_commands
from .table import Table
from .turns import renumbered

__all__ = ["BOARD", "HELP", "LOG", "MOVES", "QUIT", "SAVE", "describe"]


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
        "Words of a card's step (discard Peon, promote Queen ...) are typed as Tab shows them.",
        "Commands:",
    ]
    lines += [f"  {c.usage:<14} {c.help}" for c in distinct_commands(table.commands)]
    return Reply(lines + KEYS_HELP)


def describe(table: Table, name: str) -> list[str]:
    """A card's text, or a unit type's letter and classes."""
    from .game_commands import describe_card

    rules = table.rules
    try:
        return describe_card(rules.cards.get(name)).splitlines()
    except (KeyError, ValueError):
        pass
    try:
        kind = rules.units.get(name)
    except (KeyError, ValueError):
        return [f"There is no card or unit called {name!r}."]
    classes = ", ".join(c.value for c in kind.classes)
    return [f"{kind.name} ({kind.letter}): {classes}. `moves SQUARE` shows where one can go."]


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
    if len(args) != 1:
        return Reply(["Usage: save FILE, like `save game.jsonl`."])
    try:
        table.record.save(args[0])
    except OSError as err:
        return Reply([f"Cannot save to {args[0]}: {err.strerror}."])
    table.saved = True
    return Reply([f"Saved the record to {args[0]}; `crownp2p replay {args[0]}` plays it back."])


def _quit(table: Table, args: list[str]) -> Reply:
    return Reply(["Goodbye."], quit=True)


HELP = ShellCommand("help", "help [CARD]", "this help, or a card's or unit's text", _help, ("?",))
MOVES = ShellCommand("moves", "moves SQUARE", "where the unit on SQUARE can go", _moves)
LOG = ShellCommand("log", "log [N]", "the last N things that happened (20; 0: all)", _log)
BOARD = ShellCommand("board", "board", "show the board again", _board)
SAVE = ShellCommand("save", "save FILE", "save the game's record", _save)
QUIT = ShellCommand("quit", "quit", "leave the game", _quit, ("exit",))
