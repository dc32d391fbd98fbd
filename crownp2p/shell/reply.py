"""What one line of input did (:class:`Reply`), and the shape of a shell command that answers
one (:class:`ShellCommand`), shared by the tables, the replay and the terminal loops."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """What one line of input did: lines to print, whether the board changed, whether to
    leave."""

    lines: list[str] = field(default_factory=list)
    redraw: bool = False
    quit: bool = False
    news: Any = None  # styled lines of what happened in the game (render.news), if any
    bell: bool = False  # ring the terminal's bell: a networked turn has become ours


@dataclass(frozen=True)
class ShellCommand:
    name: str
    usage: str
    help: str
    run: Callable[[Any, list[str]], Reply]  # (the table or replay, the words after the name)
    aliases: tuple[str, ...] = ()


def registry(*commands: ShellCommand) -> dict[str, ShellCommand]:
    """Commands by name and by alias."""
    out: dict[str, ShellCommand] = {}
    for c in commands:
        for name in (c.name, *c.aliases):
            out[name] = c
    return out


def distinct_commands(commands: dict[str, ShellCommand]) -> list[ShellCommand]:
    return [c for name, c in commands.items() if name == c.name]
