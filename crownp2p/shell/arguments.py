"""Arguments shared by several commands; argparse only, so building the command line stays
quick."""

from __future__ import annotations

import argparse
from collections.abc import Callable

# The bots by name (crownp2p.bots.BOT_NAMES; a test keeps the two the same).
BOT_CHOICES = ("easy", "normal", "hard", "greedy", "random")
BOTS_HELP = "easy (the greedy bot), normal, hard (search bots), greedy, random"


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    """How long a search bot thinks and on how many processes (solo, selfplay, host, join)."""
    p.add_argument(
        "--think",
        type=_positive(float),
        metavar="SECONDS",
        help="a search bot's think time a decision (default: its level's, normal 0.2, hard 1)",
    )
    p.add_argument(
        "--workers",
        type=_positive(int),
        default=1,
        metavar="N",
        help="processes a search bot thinks on (default 1)",
    )


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    """An argument type: a number above 0, else argparse's one-line usage error."""

    def read(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not above 0")
        return value

    return read


def add_setup_arguments(p: argparse.ArgumentParser) -> None:
    """How the game is set up: Supply, variant and options (solo, selfplay, host)."""
    p.add_argument(
        "--supply",
        default="first-game",
        help="first-game (default), tournament-1 … tournament-4, random, or CARD,CARD,…",
    )
    p.add_argument("--squire", action="store_true", help="a Squire replaces one Guard")
    p.add_argument("--anointed", action="store_true", help="both sides start with an Anointed")
    p.add_argument("--variant", help="a variant from `crownp2p plugins` (default: standard)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="a setup option from `crownp2p plugins` (repeatable)",
    )


def add_screen_arguments(p: argparse.ArgumentParser) -> None:
    """How a person's game shows in a terminal (solo, replay, host, join, resume)."""
    p.add_argument(
        "--plain",
        action="store_true",
        help="lines that scroll, for screen readers, instead of the full-screen layout",
    )
