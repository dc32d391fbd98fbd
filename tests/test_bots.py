"""Bots pick only legal decisions, repeat themselves from a seed, and greedy beats random."""

from __future__ import annotations

import pytest
from scenario import fen
from scenario import game as scenario_game

from crownp2p.bots import BOT_NAMES, make_bot
from crownp2p.bots.greedy import GreedyBot
from crownp2p.bots.selfplay import play_game
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

RULES = standard_rules()
TINY = 0.012  # a search bot's think budget here: three iterations a decision, for speed


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_choose_only_legal_decisions(name: str) -> None:
    game = Game(RULES, Setup(piles=tuple(RULES.variable_cards)))
    seeds = SeedSource(4)
    bot = make_bot(name, 4, think=TINY)
    for _ in range(600):
        if game.over:
            break
        if game.prompt().seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
            continue
        decision = bot.decide(game, game.prompt().seat)
        assert decision in game.legal()
        game.apply(decision)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bot_game_repeats_from_its_seed(name: str) -> None:
    first = play_game(RULES, Setup(), [name, name], 21, max_turns=40, think=TINY)
    again = play_game(RULES, Setup(), [name, name], 21, max_turns=40, think=TINY)
    assert first.final_hash == again.final_hash and first.decisions == again.decisions


def test_greedy_beats_random_most_of_the_time() -> None:
    games, wins = 30, 0
    for seed in range(games):
        seat = seed % 2
        bots = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
        wins += play_game(RULES, Setup(), bots, seed, max_turns=200).winner == seat
    assert wins >= 0.8 * games


def test_an_unknown_bot_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="no bot called 'clever'"):
        make_bot("clever")


def test_greedy_takes_the_unit_that_attacks_its_king_rather_than_flee() -> None:
    # Blue's King is in reach of a Queen no one protects: fleeing saves it, and so does taking
    # the Queen, which wins her too. The greedy scoring fled (as did the search's playouts, made
    # of it: a search then saw a Queen of its own left next to the enemy King as safe).
    game = scenario_game(fen("Kg6 qg5 ke8"), hand=["Peon"] * 5, deck=["Peon"] * 5)
    assert GreedyBot(0).decide(game, 0) == ("attack", "g6", "g5")
