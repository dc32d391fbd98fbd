"""The tables announced on the LAN: ``crownp2p tables``, and ``join`` without an address.

What a table announces only saves typing its address (net/discovery.py): the join code, asked
for afterwards, still decides who sits.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from .cli import CommandError

if TYPE_CHECKING:
    from ..net.discovery import Announcement


def heard(args: argparse.Namespace) -> list[Announcement]:
    """The tables heard within ``--wait`` seconds on ``--beacon-port``."""
    import trio

    from ..net.discovery import listen
    from ..net.errors import NetError

    if not 1 <= args.beacon_port <= 65535:
        raise CommandError("--beacon-port must be between 1 and 65535")
    if not 0 < args.wait <= 60:
        raise CommandError("--wait must be more than 0 and at most 60 seconds")
    try:
        return trio.run(lambda: listen(args.wait, port=args.beacon_port))
    except NetError as err:
        raise CommandError(str(err)) from None


def describe(table: Announcement) -> str:
    """``ann's table: ann at 192.168.1.20:41000, standard, 1 of 2 seats taken``."""
    return (
        f"{table.name}: {table.host} at {table.where}, {table.variant}, "
        f"{table.taken} of {table.seats} seats taken"
    )


def _none_heard(args: argparse.Namespace) -> str:
    return (
        f"no table announced itself within {args.wait:g} s (a host started with --no-announce, "
        "or on another network, is joined by its address: crownp2p join HOST:PORT)"
    )


def tables_command(args: argparse.Namespace) -> int:
    tables = heard(args)
    if args.json:
        print(json.dumps([t.to_json() for t in tables]))
    elif not tables:
        print(_none_heard(args))
    for table in [] if args.json else tables:
        print(describe(table))
    return 0 if tables else 1


def choose_table(args: argparse.Namespace) -> Announcement:
    """The table ``join`` without an address goes to: the one named by ``--table``, the only
    one heard, or the one a person picks at the terminal."""
    tables = heard(args)
    if args.table is not None:
        tables = [t for t in tables if t.name == args.table]
        if not tables:
            raise CommandError(f"no table called {args.table!r} announced itself")
    if not tables:
        raise CommandError(_none_heard(args))
    if len(tables) == 1:
        return tables[0]
    if args.json or not (sys.stdin.isatty() and sys.stdout.isatty()):
        names = ", ".join(repr(t.name) for t in tables)
        raise CommandError(
            f"{len(tables)} tables are open ({names}): choose one with --table NAME "
            "or give its HOST:PORT"
        )
    return _pick(tables)


def _pick(tables: list[Announcement]) -> Announcement:
    for number, table in enumerate(tables, 1):
        print(f"{number}. {describe(table)}")
    while True:
        answer = _read(f"which table (1-{len(tables)})? ")
        if answer.isdigit() and 1 <= int(answer) <= len(tables):
            return tables[int(answer) - 1]
        print(f"type a number from 1 to {len(tables)}")


def ask_code(args: argparse.Namespace, where: str) -> str:
    """``--code``, or the code asked for at a terminal."""
    if args.code is not None:
        return str(args.code)
    if args.json or not sys.stdin.isatty():
        raise CommandError("give the table's join code with --code CODE")
    return _read(f"join code for {where}: ")


def _read(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        raise CommandError("nothing was typed: no table joined") from None
