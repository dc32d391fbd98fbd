"""Random playouts over many seeds and every named Supply, checking invariants at every step
(OpenSpiel's random_sim_test, for this game)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from crownp2p.bots import make_bot
from crownp2p.core.decisions import decision_text, parse_decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Record, verify
from crownp2p.core.setup import NAMED_SUPPLIES, RANDOM_PILES, Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.snapshot import ZONES
from crownp2p.core.standard import standard_rules

RULES = standard_rules()
SUPPLIES = [Setup(piles=p) for p in NAMED_SUPPLIES.values()] + [
    Setup(piles=(), fill_piles=RANDOM_PILES),
    Setup(piles=tuple(RULES.variable_cards)),  # every variable card at once
    Setup(starting_deck=(("Peon", 6), ("Guard", 3), ("Squire", 1)), sovereign="Anointed"),
]
SEEDS = range(240)
MAX_TURNS = 60


def check_invariants(g: Game, start_supply: dict[str, int]) -> None:
    # Every card instance is in exactly one zone.
    places = [c for p in g.players for zone in ZONES for c in getattr(p, zone)] + g.trash
    assert sorted(places) == list(range(len(g.cards)))
    # Cards are conserved: what left a pile is exactly what was gained.
    gained = Counter(g.cards) - Counter(g.setup.deck_list() * len(g.players))
    for name, count in g.supply.items():
        assert count >= 0
        assert start_supply.get(name, 0) - count == gained.get(name, 0), name
    # One unit per square, each unit once, every uid unique.
    units = [u for _, u in g.position.units()]
    assert len({id(u) for u in units}) == len(units)
    assert len({u.uid for u in units}) == len(units)
    assert (
        g.this_turn.orders >= 0
        and g.this_turn.actions >= 0
        and g.this_turn.buys >= 0
        and g.this_turn.gold >= 0
    )
    # A view never shows another seat's hand.
    for seat in range(len(g.players)):
        view = g.view(seat)
        for other, p in enumerate(view["players"]):
            assert ("hand" in p) == (other == seat)
            assert isinstance(p["deck"], int)


def playout(seed: int) -> None:
    setup = SUPPLIES[seed % len(SUPPLIES)]
    game = Game(RULES, setup)
    seeds = SeedSource(seed)
    rng = random.Random(seed)
    bots = [make_bot("random", f"{seed}:{s}") for s in range(2)]
    record = Record.begin(game)
    start_supply: dict[str, int] | None = None
    step = 0
    while not game.over and game.turn <= MAX_TURNS:
        prompt = game.prompt()
        if prompt.seat == CHANCE:
            record.apply(game, ("seed", seeds.next_seed()))
            continue
        if start_supply is None:
            start_supply = dict(game.supply)
        legal = game.legal()
        assert legal, f"seed {seed}: a prompt with no answer: {prompt}"
        assert len(set(legal)) == len(legal)
        assert all(parse_decision(decision_text(d)) == d for d in legal)
        step += 1
        if rng.random() < 0.03:  # every listed decision applies
            for decision in legal:
                game.clone().apply(decision)
        check_invariants(game, start_supply)
        record.apply(game, bots[prompt.seat].decide(game, prompt.seat))
    verdict = verify(RULES, record)
    assert verdict.ok, f"seed {seed}: replay differs at step {verdict.seq}: {verdict.reason}"


@pytest.mark.parametrize("chunk", range(8))
def test_random_playouts_keep_invariants(chunk: int) -> None:
    for seed in SEEDS[chunk::8]:
        playout(seed)


def test_a_random_game_finishes() -> None:
    finished = 0
    for seed in range(10):
        game = Game(RULES, Setup())
        seeds = SeedSource(seed)
        bot = make_bot("random", seed)
        while not game.over and game.turn < 1000:
            if game.prompt().seat == CHANCE:
                game.apply(("seed", seeds.next_seed()))
            else:
                game.apply(bot.decide(game, game.prompt().seat))
        finished += game.over
    assert finished == 10
