"""``crownp2p solo``: a game against the built-in bot at the terminal.

On a terminal the game runs in the prompt_toolkit loop (terminal.py); when standard input or
output is not a terminal (a pipe, a script), the same table reads and prints plain lines.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..packs import PackError
from .cli import CommandError
from .context import catalog
from .game_commands import setup_from_args
from .render import can_unicode
from .table import SoloTable
from .terminal import run_lines, run_terminal

SEATS = {"blue": 0, "gold": 1}

__all__ = ["SEATS", "make_table", "run_lines", "run_terminal", "solo_command"]


def parse_seat(text: str) -> int:
    seat = SEATS.get(text.strip().lower())
    if seat is None:
        raise CommandError(f"--seat is blue (you move first) or gold, not {text!r}")
    return seat


def make_table(args: argparse.Namespace, stream: TextIO | None = None) -> SoloTable:
    setup = setup_from_args(args)
    try:
        rules = catalog().rules(setup.variant)
    except PackError as err:
        raise CommandError(str(err)) from None
    return SoloTable(
        rules,
        setup,
        seat=parse_seat(args.seat),
        bot=args.bot,
        seed=args.seed,
        unicode=can_unicode(stream or sys.stdout),
    )


def solo_command(args: argparse.Namespace) -> int:
    table = make_table(args)
    if sys.stdin.isatty() and sys.stdout.isatty():
        return run_terminal(table)
    return run_lines(table, sys.stdin, sys.stdout)
