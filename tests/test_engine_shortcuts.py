"""The engine's quick answers, made for a search that asks them every decision, agree with the
slow ones they stand for: who may order which unit, asked of every unit at once (``orderable``)
and unit by unit (``can_order``, what a refusal is explained from); who decides
(``to_decide``) and the prompt."""

from __future__ import annotations

from real_games import positions

from crownp2p.core.game import Game


def test_orderable_says_what_can_order_says_unit_by_unit() -> None:
    for rules, state in positions():
        game = Game.from_json(rules, state)
        for seat in rules.seating.seats:
            for as_order in (True, False):
                for own in (True, False):
                    one_by_one = [
                        sq
                        for sq, unit in game.position.units()
                        if game.can_order(seat, unit, as_order, own=own)
                    ]
                    assert game.orderable(seat, as_order, own=own) == one_by_one


def test_to_decide_is_the_prompts_seat() -> None:
    for rules, state in positions():
        game = Game.from_json(rules, state)
        assert game.to_decide == game.prompt().seat
