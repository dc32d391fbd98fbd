"""The engine's quick answers, made for a search that asks them every decision, agree with the
slow ones they stand for: who may order which unit, asked of every unit at once (``orderable``)
and unit by unit (``can_order``, what a refusal is explained from); who decides
(``to_decide``) and the prompt."""

from __future__ import annotations

from real_games import STANDARD, positions

from crownp2p.core.game import Game
from crownp2p.core.state import Frame
from crownp2p.core.steps import EffectStep


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


def test_a_step_always_possible_is_possible_in_every_real_position() -> None:
    """A card whose effect always does something is offered without a probe: each step that
    says so must be possible wherever a probe would have asked."""
    for rules, state in positions():
        game = Game.from_json(rules, state)
        for card in rules.cards:
            for index, effect in enumerate(card.effects):
                for step in effect.steps:
                    if isinstance(step, EffectStep) and step.always_possible():
                        probe = Frame(card.name, index, game.active, effect.kind)
                        assert step.possible(game, probe), (card.name, step)
    # and the cards that need no probe are the ones made of such steps
    always = sorted(
        c.name for c in STANDARD.cards if any(e.always_does_something for e in c.effects)
    )
    assert "Peon" in always and "Legend" in always
