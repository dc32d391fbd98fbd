"""The explicit state's shape: the turn in one value, written generically, loaded with defaults."""

from __future__ import annotations

import json
from dataclasses import fields

from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.core.turn import TurnState

RULES = standard_rules()
SEED = "42" * 32


def settled(game: Game) -> Game:
    while game.prompt().seat == CHANCE:
        game.apply(("seed", SEED))
    return game


def test_a_new_turn_starts_from_a_fresh_turn_value() -> None:
    game = settled(Game(RULES, Setup()))
    ended = game.this_turn
    ended.discount, ended.glimpses = 2, {0: {1: ["Peon"]}}
    while game.active == 0:
        settled(game).apply(("end",))
    assert game.this_turn is not ended
    assert game.this_turn == TurnState()  # nothing of the last turn is left over


def test_the_turn_is_written_field_by_field_in_declaration_order() -> None:
    game = settled(Game(RULES, Setup()))
    game.this_turn.glimpses = {1: {0: ["Guard"]}, 0: {1: ["Peon", "Peon"]}}
    written = game.to_json()["this_turn"]
    assert list(written) == [f.name for f in fields(TurnState)]
    assert written["glimpses"] == [[0, [[1, ["Peon", "Peon"]]]], [1, [[0, ["Guard"]]]]]
    restored = Game.from_json(RULES, json.loads(json.dumps(game.to_json())))
    assert restored.this_turn == game.this_turn
    assert restored.state_hash() == game.state_hash()


def test_a_missing_turn_field_takes_its_start_of_turn_value() -> None:
    game = Game.from_json(RULES, {"fen": "4k3/8/8/8/8/8/8/4K3", "this_turn": {"gold": 3}})
    assert game.this_turn == TurnState(gold=3)
