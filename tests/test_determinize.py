"""Games sampled from one seat's view: legal, consistent with the view, blind to the rest."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from scenario import hidden_twin

from crownp2p.bots import make_bot
from crownp2p.core.determinize import KnownTops, determinize
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

RULES = standard_rules()


def positions(seed: int, turns: int = 40) -> list[Game]:
    """Copies of a greedy game at each of its phase prompts (between card effects)."""
    game = Game(RULES, Setup(piles=tuple(RULES.variable_cards)))
    seeds, bot = SeedSource(seed), make_bot("greedy", seed)
    out: list[Game] = []
    while not game.over and game.turn <= turns:
        prompt = game.prompt()
        if prompt.seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
            continue
        if not game.stack:
            out.append(Game.from_json(RULES, game.to_json()))
        game.apply(bot.decide(game, prompt.seat))
    return out


def same_view(a: dict[str, Any], b: dict[str, Any]) -> bool:
    # The Barracks' order is not kept by a copy (the engine branch fixes it): compare the
    # legal decisions as a set.
    a, b = dict(a), dict(b)
    a["legal"], b["legal"] = sorted(a.get("legal", [])), sorted(b.get("legal", []))
    return a == b


@pytest.mark.parametrize("seed", [1, 2])
def test_a_sample_is_a_legal_game_the_seat_cannot_tell_from_the_true_one(seed: int) -> None:
    for n, game in enumerate(positions(seed)[::5]):
        seat = game.prompt().seat
        view = game.view(seat)
        sample = determinize(RULES, view, n)
        assert same_view(sample.view(seat), view)
        assert Game.from_json(RULES, sample.to_json()).state_hash() == sample.state_hash()
        rng = random.Random(n)
        for _ in range(30):  # it plays on like any game
            if sample.over:
                break
            if sample.prompt().seat == CHANCE:
                sample.apply(("seed", f"{rng.getrandbits(256):064x}"))
            else:
                sample.apply(rng.choice(sample.legal()))


def test_a_sample_holds_exactly_the_cards_the_view_leaves_unseen() -> None:
    game = positions(3)[60]
    view = game.view(0)
    for n in range(10):
        sample = determinize(RULES, view, n)
        for seat, (player, seen) in enumerate(zip(sample.players, view["players"], strict=True)):
            names = [sample.cards[c] for c in player.deck + player.hand]
            shown = seen.get("hand", [])
            assert Counter(names) == Counter(seen["unseen"] + shown)
            assert len(player.deck) == seen["deck"] and len(player.hand) == seen["hand_size"]
            assert [sample.cards[c] for c in player.discard] == seen["discard"]
            if seat == 0:
                assert [sample.cards[c] for c in player.hand] == shown
    # the unseen cards are the true ones, counted
    for player, seen in zip(game.players, view["players"], strict=True):
        hidden = player.deck + ([] if "hand" in seen else player.hand)
        assert sorted(game.cards[c] for c in hidden) == seen["unseen"]


def test_the_samples_depend_on_the_view_and_the_seed_only() -> None:
    game = positions(4)[50]
    seat = game.prompt().seat
    twin = hidden_twin(game)
    true = Game.from_json(RULES, game.to_json())
    assert twin.state_hash() != true.state_hash()
    assert twin.view(seat) == true.view(seat)
    for n in range(5):
        a, b = determinize(RULES, true.view(seat), n), determinize(RULES, twin.view(seat), n)
        assert a.state_hash() == b.state_hash()
    assert (
        determinize(RULES, true.view(seat), 0).state_hash()
        != determinize(RULES, true.view(seat), 1).state_hash()
    )


def test_a_glimpsed_hand_is_dealt_back_into_that_hand() -> None:
    game = positions(5)[40]
    seat = game.prompt().seat
    hand = sorted(game.cards[c] for c in game.players[1 - seat].hand)
    game.this_turn.glimpses = {seat: {1 - seat: hand}}
    view = game.view(seat)
    for n in range(5):
        sample = determinize(RULES, view, n)
        assert sorted(sample.cards[c] for c in sample.players[1 - seat].hand) == hand


def test_cards_the_seat_put_on_a_deck_stay_on_top() -> None:
    game = positions(6)[40]
    seat = game.prompt().seat
    tops = KnownTops()
    tops.update(game.view(seat), shuffled=False)
    player = game.players[seat]
    top = game.cards[player.hand[0]]
    player.deck.insert(0, player.hand.pop(0))  # as a Topdeck step does
    tops.update(game.view(seat), shuffled=False)
    tops.put(seat, top)
    view = game.view(seat)
    for n in range(5):
        sample = determinize(RULES, view, n, tops)
        assert sample.cards[sample.players[seat].deck[0]] == top
    player.hand.append(player.deck.pop(0))  # drawn again: forgotten
    tops.update(game.view(seat), shuffled=False)
    assert tops.tops[seat] == []


def test_a_view_mid_card_is_refused() -> None:
    game = positions(7)[10]
    view = game.view(0)
    view["stack"] = [{"card": "Guard", "seat": 0, "kind": "order"}]
    with pytest.raises(ValueError, match="between card effects"):
        determinize(RULES, view, 0)
