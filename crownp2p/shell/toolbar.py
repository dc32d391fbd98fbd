"""The bottom toolbar: the turn, the phase, orders, actions and buys left, and gold — and the
decision clock, once it runs low."""

from __future__ import annotations

from ..core.game import Game
from .render import Fragments
from .turns import players_turn

PHASES = ("order", "action", "buy")
CLOCK_LOW = 30.0  # seconds left on a decision clock from which the toolbar shows it


def counts_left(game: Game) -> dict[str, int]:
    """Orders, actions and buys that can still be used this turn: none of a phase that has
    passed (the engine keeps the number it ended with)."""
    now = PHASES.index(game.this_turn.phase) if game.this_turn.phase in PHASES else len(PHASES)
    counts = {
        "order": game.this_turn.orders,
        "action": game.this_turn.actions,
        "buy": game.this_turn.buys,
    }
    return {p: counts[p] if i >= now else 0 for i, p in enumerate(PHASES)}


def table_toolbar(
    game: Game,
    seat: int,
    width: int = 200,
    *,
    over: bool = False,
    unicode: bool = True,
    clock: tuple[int, float] | None = None,
    note: str | None = None,
) -> Fragments:
    """The toolbar for ``seat`` at a table, as much of it as fits in ``width`` columns.
    ``over``: the table has ended a game the engine has not (a resignation, a forfeit).
    ``clock``: the seat whose decision clock runs, and the seconds left on it. ``note``: a
    word to catch the eye first (a networked turn that has just become ours)."""
    dot = " · " if unicode else " | "
    if game.over or over:
        result = ""
        if game.over:
            result = ": a draw" if game.winner is None else f": {game.side_name(game.winner)} wins"
        return [
            ("class:bottom-toolbar.turn", f" game over{result}"),
            ("", f"{dot}log{dot}save FILE{dot}quit "),
        ]
    active = game.active
    whose = "your turn" if active == seat else f"{game.seat_name(active)}'s turn"
    phase = game.this_turn.phase if game.this_turn.phase in PHASES else "between phases"
    left = counts_left(game)
    counts = f"orders {left['order']}{dot}actions {left['action']}{dot}buys {left['buy']}"
    counts += f"{dot}gold {game.this_turn.gold}"
    keys: Fragments = [
        ("", dot),
        ("class:bottom-toolbar.key", "Tab"),
        ("", " choices  "),
        ("class:bottom-toolbar.key", "help"),
        ("", " "),
    ]
    full: Fragments = [
        *([("class:bottom-toolbar.key", f" {note} ")] if note else []),
        # (the note says whose turn it is: the turn's number alone then, to fit 80 columns)
        (
            "class:bottom-toolbar.turn",
            f" turn {players_turn(game.rules, game.turn)}" + ("" if note else f": {whose}"),
        ),
        ("", f"{dot}{phase} phase{dot}"),
        ("", counts),
    ]
    short: Fragments = [
        *([("class:bottom-toolbar.key", f" {note} ")] if note else []),
        ("", f" {phase}{dot}{counts} "),
    ]
    if clock is not None and clock[1] < CLOCK_LOW:
        who = "you have" if clock[0] == seat else f"{game.seat_name(clock[0])} has"
        low: Fragments = [("class:bottom-toolbar.clock", f" {who} {max(0, int(clock[1]))} s left ")]
        return fitted(width, low + full + keys, low + full, low + short, low)
    return fitted(width, full + keys, full, short)


def fitted(width: int, *choices: Fragments) -> Fragments:
    """The first of ``choices`` that fits in ``width`` columns (else the last)."""
    for choice in choices:
        if sum(len(text) for _, text in choice) <= width:
            return choice
    return choices[-1]
