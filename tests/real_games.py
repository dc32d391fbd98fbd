"""Positions from whole seeded games, standard and the team game pack's, for the tests of what
a search leans on (copies, legal order, the attack map)."""

from __future__ import annotations

from functools import cache
from typing import Any

from crownp2p.bots import make_bot
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Record
from crownp2p.core.rules import Rules
from crownp2p.core.setup import NAMED_SUPPLIES, Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.packs import load

CATALOG = load()
STANDARD = CATALOG.rules("standard")
TEAM = CATALOG.rules("team")
MAX_TURNS = 40


def games() -> list[tuple[Rules, Setup]]:
    named = [Setup(piles=piles) for piles in list(NAMED_SUPPLIES.values())[:3]]
    team = [CATALOG.setup("tournament-3", variant="team", options=("conscript", "advisor"))]
    return [(STANDARD, s) for s in [Setup(), *named]] + [(TEAM, s) for s in team]


def play(rules: Rules, setup: Setup, seed: int) -> Record:
    """A whole seeded game between random bots, to the turn cap."""
    game = Game(rules, setup)
    seeds = SeedSource(seed)
    bots = [make_bot("random", f"{seed}:{s}") for s in rules.seating.seats]
    record = Record.begin(game)
    while not game.over and game.turn <= MAX_TURNS:
        seat = game.prompt().seat
        decision = ("seed", seeds.next_seed()) if seat == CHANCE else bots[seat].decide(game, seat)
        assert decision is not None
        record.apply(game, decision)
    return record


@cache
def positions() -> list[tuple[Rules, dict[str, Any]]]:
    """Every 7th decision point of one game per setup, as explicit states (so the positions
    come from real games without going through ``clone``)."""
    out = []
    for seed, (rules, setup) in enumerate(games()):
        for step, (game, _) in enumerate(play(rules, setup, seed).replay(rules)):
            if step % 7 == 0:
                out.append((rules, game.to_json()))
    return out
