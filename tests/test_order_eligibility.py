"""Who may order which unit, asked of every unit at once (``orderable``, what a listing uses)
and unit by unit (``can_order``, what a refusal is explained from), agree."""

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
