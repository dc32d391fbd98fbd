"""Arguments shared by several commands; argparse only, so building the command line stays
quick."""

from __future__ import annotations

import argparse


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
