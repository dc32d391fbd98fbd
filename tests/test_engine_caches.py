"""The engine's caches never show: at every step of many seeded games — random and greedy, the
base game, the All the King's Men pack's extended and team games — the live game lists the same
decisions in the same order, and hashes the same, as a game loaded afresh from its explicit
state (which starts with no cache at all). A missed invalidation fails here."""

from __future__ import annotations

import pytest
from real_games import CATALOG

from crownp2p.bots import make_bot
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Decider
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource

SETUPS = [
    ("standard", Setup()),
    ("standard", CATALOG.setup("tournament-2")),
    ("extended-13", CATALOG.setup("tournament-4", variant="extended-13")),
    ("team", CATALOG.setup("tournament-3", variant="team", options=("conscript", "advisor"))),
]
TURNS = {"random": 80, "greedy": 24}


def decide(bot: Decider, game: Game, seat: int) -> Decision:
    decision = bot.decide(game, seat)
    assert decision is not None
    return decision


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize(("variant", "setup"), SETUPS, ids=[v for v, _ in SETUPS])
def test_a_game_lists_and_hashes_as_one_loaded_afresh(variant: str, setup: Setup, bot: str) -> None:
    rules = CATALOG.rules(variant)
    for seed in range(2):
        game = Game(rules, setup)
        seeds = SeedSource(seed)
        bots = [make_bot(bot, f"{seed}:{s}") for s in rules.seating.seats]
        step = 0
        while not game.over and game.turn <= TURNS[bot]:
            fresh = Game.from_json(rules, game.to_json())
            seat = game.to_decide
            if seat == CHANCE:
                decision = ("seed", seeds.next_seed())
            elif step % 2:
                # Decided on the fresh game: the live one applies it without having listed
                # its decisions (the engine's partial listing), and is compared next step.
                decision = decide(bots[seat], fresh, seat)
            else:
                assert game.legal() == fresh.legal(), (seed, step)
                decision = decide(bots[seat], game, seat)
            assert game.state_hash() == fresh.state_hash(), (seed, step)
            game.apply(decision)
            step += 1
