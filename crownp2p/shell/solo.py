"""``crownp2p solo``: a game against the built-in bot at the terminal.

The terminal loop is prompt_toolkit's PromptSession: history, tab completion from the legal
decisions, a bottom toolbar with the phase and the counters. Ctrl-C and Ctrl-D ask before
leaving. When standard input is not a terminal (a pipe, a script), the same table reads plain
lines instead.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..core.standard import standard_rules
from .cli import CommandError
from .game_commands import resolve_setup
from .render import can_unicode, use_colour
from .table import COMMANDS, Reply, SoloTable

SEATS = {"blue": 0, "gold": 1}


def make_table(args: argparse.Namespace, stream: TextIO | None = None) -> SoloTable:
    setup = resolve_setup(args.supply, squire=args.squire, anointed=args.anointed)
    if args.seat not in SEATS:
        raise CommandError("--seat is blue (you move first) or gold")
    return SoloTable(
        standard_rules(),
        setup,
        seat=SEATS[args.seat],
        bot=args.bot,
        seed=args.seed,
        unicode=can_unicode(stream or sys.stdout),
    )


def solo_command(args: argparse.Namespace) -> int:
    table = make_table(args)
    if sys.stdin.isatty() and sys.stdout.isatty():
        return run_terminal(table)
    return run_lines(table, sys.stdin, sys.stdout)


def _show(reply: Reply, table: SoloTable, out: TextIO) -> None:
    for line in reply.lines:
        print(line, file=out)
    if reply.redraw:
        print(file=out)
        print(table.screen(), file=out)
    out.flush()


def run_lines(table: SoloTable, src: TextIO, out: TextIO) -> int:
    """The table over plain lines: for pipes, scripts and tests."""
    print(table.screen(), file=out)
    while True:
        print("> ", end="", file=out, flush=True)
        line = src.readline()
        if not line:
            print("\nLeaving the game.", file=out)
            return 0
        reply = table.handle(line)
        _show(reply, table, out)
        if reply.quit:
            return 0


def run_terminal(table: SoloTable, *, input=None, output=None) -> int:  # noqa: A002
    """The table in a prompt_toolkit session (``input``/``output`` for tests)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory

    from .completer import DecisionCompleter
    from .style import prompt_style

    commands = [*COMMANDS, *(f"help {c.name}" for c in table.rules.cards)]
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(),
        completer=DecisionCompleter(table.legal, commands),
        complete_while_typing=False,
        bottom_toolbar=lambda: table.toolbar(),
        style=prompt_style(),
        color_depth=None if use_colour() else _mono(),
        input=input,
        output=output,
    )
    out = sys.stdout
    print(table.screen(), file=out)
    while True:
        try:
            line = session.prompt("> ")
        except (KeyboardInterrupt, EOFError):
            if _confirm_leave(session):
                print("Leaving the game.", file=out)
                return 0
            continue
        reply = table.handle(line)
        _show(reply, table, out)
        if reply.quit:
            return 0


def _confirm_leave(session) -> bool:
    try:
        answer = session.prompt("Leave the game? [y/N] ", completer=None)
    except (KeyboardInterrupt, EOFError):
        return True
    return answer.strip().lower() in ("y", "yes")


def _mono():
    from prompt_toolkit.output import ColorDepth

    return ColorDepth.DEPTH_1_BIT
