"""The bottom toolbar: the turn, the phase, orders, actions and buys left, and gold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .render import Fragments

if TYPE_CHECKING:
    from .table import Table


def table_toolbar(table: Table) -> Fragments:
    game = table.game
    dot = " · " if table.unicode else " | "
    if game.over:
        result = "a draw" if game.winner is None else f"{game.side_name(game.winner)} wins"
        return [
            ("class:bottom-toolbar.turn", f" game over: {result} "),
            ("", f"{dot}log{dot}save FILE{dot}quit "),
        ]
    active = game.active
    whose = "your turn" if active == table.seat else f"{game.seat_name(active)}'s turn"
    phase = game.phase if game.phase in ("order", "action", "buy") else "between phases"
    counts = (
        f"orders {game.orders}{dot}actions {game.actions}{dot}buys {game.buys}{dot}gold {game.gold}"
    )
    return [
        ("class:bottom-toolbar.turn", f" turn {game.turn}: {whose}"),
        ("", f"{dot}{phase} phase{dot}"),
        ("", counts),
        ("", f"{dot}"),
        ("class:bottom-toolbar.key", "Tab"),
        ("", " choices  "),
        ("class:bottom-toolbar.key", "help"),
        ("", " "),
    ]
