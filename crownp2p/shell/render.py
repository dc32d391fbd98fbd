"""The screen as text: board, legend, hands, Supply, Barracks and whose decision it is.

Everything here renders a *view* (what one seat may see), never the full state. Owners read
without colour: upper case is blue (seat 0), lower case gold (seat 1). Colour, when the terminal
allows it and NO_COLOR is not set, only adds to that.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..core.board import FILES, square
from ..core.game import CHANCE, Game

COLOURS = ("blue", "gold")


def use_colour(stream: Any = None) -> bool:
    stream = stream or sys.stdout
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def can_unicode(stream: Any = None) -> bool:
    encoding = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        "·–×".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def counted(names: Iterable[str], times: str = "x") -> str:
    counts = Counter(names)
    if not counts:
        return "-"
    return ", ".join(f"{n} {times}{c}" if c > 1 else n for n, c in sorted(counts.items()))


def board_lines(game: Game, seat: int, unicode: bool = True) -> list[str]:
    """The board from ``seat``'s side of the table, with file and rank labels."""
    ranks = range(7, -1, -1) if game.rules.seating.forward(seat) > 0 else range(8)
    files = list(range(8)) if game.rules.seating.forward(seat) > 0 else list(range(7, -1, -1))
    empty = "·" if unicode else "."
    labels = "   " + " ".join(FILES[f] for f in files)
    lines = [labels]
    for r in ranks:
        cells = []
        for f in files:
            unit = game.position.board[square(f, r)]
            if unit is None:
                cells.append(empty)
            else:
                letter = unit.kind.letter
                cells.append(
                    letter if game.rules.seating.sides[unit.owner] == 0 else letter.lower()
                )
        lines.append(f"{r + 1:>2} {' '.join(cells)} {r + 1}")
    lines.append(labels)
    return lines


def legend(game: Game) -> str:
    kinds = sorted(
        {u.kind for _, u in game.position.units()} | {k for b in game.position.barracks for k in b},
        key=lambda k: k.letter,
    )
    return "  ".join(f"{k.letter}={k.name}" for k in kinds)


def player_lines(game: Game, seat: int, unicode: bool = True) -> list[str]:
    view = game.view(seat)
    times = "×" if unicode else "x"
    lines = []
    for other, p in enumerate(view["players"]):
        name = game.seat_name(other)
        case = "upper case" if game.rules.seating.sides[other] == 0 else "lower case"
        you = " (you)" if other == seat else ""
        barracks = counted(view["barracks"][other], times)
        lines.append(
            f"{name}{you} [{case}]: hand {p['hand_size']}, deck {p['deck']}, "
            f"discard {len(p['discard'])}, Barracks {barracks}"
        )
    mine = view["players"][seat]
    lines.append(f"your hand: {counted(mine['hand'], times)}")
    if mine["in_play"]:
        lines.append(f"in play: {counted(mine['in_play'], times)}")
    for _viewer, other, names in view["glimpses"]:
        lines.append(
            f"{game.seat_name(other)}'s hand (seen with Astrology): {counted(names, times)}"
        )
    return lines


def supply_line(game: Game, unicode: bool = True) -> str:
    dot = " · " if unicode else " | "
    items = []
    for name, left in game.supply.items():
        cost = game.cost(name)
        items.append(f"{name} {cost}g ({left})" if left else f"{name} (empty)")
    lines, line = [], "Supply: "
    for i, item in enumerate(items):
        piece = item if i == 0 else dot + item
        if len(line) + len(piece) > 100 and line.strip():
            lines.append(line.rstrip())
            line, piece = "  ", item
        line += piece
    lines.append(line)
    return "\n".join(lines)


def prompt_line(game: Game, seat: int) -> str:
    if game.over:
        if game.winner is None:
            return "The game is over: a draw."
        return f"The game is over: {COLOURS[game.winner]} wins."
    prompt = game.prompt()
    if prompt.seat == CHANCE:
        return "Shuffling..."
    if prompt.seat != seat:
        return f"Waiting for {game.seat_name(prompt.seat)}: {prompt.text}"
    if prompt.kind == "order" and not game.stack:
        return f"Order {game.orders} left: march, attack, deploy, play an Order card, or end orders"
    if prompt.kind == "action" and not game.stack:
        return f"Actions {game.actions} left: play an Action card, train a unit, or end actions"
    if prompt.kind == "buy" and not game.stack:
        treasure = "" if game.bought else "play treasures, "
        return f"Buy phase, {game.gold} gold and {game.buys} buy(s): {treasure}buy, or end"
    return prompt.text[:1].upper() + prompt.text[1:]


def screen(game: Game, seat: int, unicode: bool = True) -> str:
    """The whole screen for ``seat``, as plain text."""
    lines = board_lines(game, seat, unicode)
    lines.append(legend(game))
    lines.append("")
    lines.extend(player_lines(game, seat, unicode))
    lines.append(supply_line(game, unicode))
    lines.append("")
    lines.append(prompt_line(game, seat))
    return "\n".join(lines)


def toolbar_text(game: Game, seat: int) -> str:
    if game.over:
        return " game over "
    phase = game.phase if game.phase != "over" else "over"
    turn_of = game.seat_name(game.active)
    return (
        f" turn {game.turn} · {turn_of} · {phase} · orders {game.orders} · "
        f"actions {game.actions} · buys {game.buys} · gold {game.gold} "
    )
