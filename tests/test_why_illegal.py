"""Game.why_illegal: every refused decision gets one sentence from the engine, worked out from
the rules of the phase or the card step that waits; ``apply`` refuses with the same sentence."""

from __future__ import annotations

import random

import pytest
from scenario import RULES, game, play, settle

from crownp2p.core.decisions import IllegalDecision
from crownp2p.core.game import Game
from crownp2p.core.setup import Setup

OPENING = "4k3/8/8/8/8/8/4P3/4K3"  # a blue Pawn on e2 in front of the King


def why(g: Game, text: str, seat: int | None = None) -> str:
    return g.why_illegal(tuple(text.split()), seat)


def refused(g: Game, text: str) -> str:
    """``apply``'s reason, checked to be the one ``why_illegal`` gives."""
    reason = why(g, text)
    before = g.state_hash()
    with pytest.raises(IllegalDecision) as err:
        g.apply(tuple(text.split()))
    assert str(err.value) == reason and g.state_hash() == before
    return reason


# -------------------------------------------------------------------- orders


def test_a_unit_that_already_had_its_order() -> None:
    g = play(game(OPENING, counters={"orders": 2}), "march e2 e3")
    assert refused(g, "march e3 e4") == "The Pawn on e3 has already had an order this turn"


def test_a_unit_that_cannot_take_orders_this_turn() -> None:
    g = game(OPENING, statuses=[{"square": "e2", "frozen": 2}])
    assert refused(g, "march e2 e3") == "The Pawn on e2 cannot take orders this turn"


def test_another_seats_unit_and_an_empty_square() -> None:
    g = game(OPENING)
    assert refused(g, "march e8 e7") == "The King on e8 is gold's"
    assert refused(g, "march a3 a4") == "There is no unit on a3"
    assert refused(g, "march e2 e5") == "The Pawn on e2 cannot go to e5 now; it can go to e3, e4"


def test_units_take_orders_in_the_order_phase() -> None:
    g = game(OPENING, hand=["Peon"], phase="buy")
    assert refused(g, "march e2 e3") == (
        "Units take orders in the order phase, and it is the buy phase"
    )


def test_no_buys_left() -> None:
    # (No orders or actions left ends the phase: nothing is asked of it.)
    g = game(OPENING, hand=["Peon", "Clergy"], phase="buy", counters={"gold": 9, "buys": 0})
    assert refused(g, "buy Clergy") == "You have no buys left"


def test_no_order_cards_after_wish() -> None:
    g = game("4k3/8/8/8/8/8/8/4KN2", hand=["Stables"], piles=["Stables"], order_lock=[2, 0])
    assert refused(g, "play Stables 1") == (
        "Wish: you cannot play cards for their Order effects this turn"
    )


# -------------------------------------------------------------------- cards and buys


def test_treasures_after_a_buy_and_cards_not_in_the_hand() -> None:
    g = game(OPENING, hand=["Peon", "Clergy"], phase="buy", counters={"gold": 3, "buys": 2})
    play(g, "treasure Peon", "buy Champion")
    assert refused(g, "treasure Clergy") == "Treasures cannot be played once you have bought a card"
    assert why(g, "treasure Tower") == "There is no Tower in your hand"
    assert why(g, "treasure Wombat") == "There is no card called 'Wombat'"


def test_what_a_card_costs_sold_out_and_not_in_the_supply() -> None:
    g = game(OPENING, hand=["Peon"], phase="buy", counters={"gold": 3})
    assert refused(g, "buy Tower") == (
        "Tower costs 6 and you have 3 gold: play your Treasures first"
    )
    assert refused(g, "buy Wish") == "Wish is not in this game's Supply"
    supply = [["Champion", 4], ["Clergy", 0], ["Tower", 8], ["Consort", 4]]
    g = game(OPENING, hand=["Peon"], phase="buy", counters={"gold": 3}, supply=supply)
    assert refused(g, "buy Clergy") == "The Clergy pile is empty"


def test_a_card_that_would_do_nothing_and_the_wrong_phase() -> None:
    g = game(OPENING, hand=["Stables", "Peon"], piles=["Stables"])  # no Mounted unit to march
    assert refused(g, "play Stables 1") == "Stables would do nothing now, so it stays in your hand"
    assert refused(g, "play Stables 2") == "The Order effect of Stables is `play Stables 1`"
    assert refused(g, "train Peon") == "Training is an action: `end` ends the order phase first"
    assert refused(g, "buy Tower") == (
        "Treasures and buys come in the buy phase: `end` ends the order phase"
    )


def test_not_your_decision() -> None:
    assert why(game(OPENING), "end", seat=1) == "It is blue's decision now"


# -------------------------------------------------------------------- card steps


def test_a_card_step_says_what_it_allows() -> None:
    g = game("4k3/8/8/8/8/8/8/4KN2", hand=["Stables"], piles=["Stables"], counters={"orders": 2})
    play(g, "play Stables 1")
    assert refused(g, "attack f1 e3") == "Stables only marches: it cannot attack"
    assert refused(g, "march e1 e2") == (
        "Stables orders only Mounted units: the King on e1 is not one"
    )
    play(g, "march f1 g3")
    assert refused(g, "march e1 e2") == "Stables moves the same unit again, not the King on e1"


def test_a_deploy_step_names_its_squares() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3 0 PN -", hand=["Guard"])
    play(g, "play Guard 2")
    assert refused(g, "deploy Pawn a1") == (
        "Guard deploys next to one of your Sovereigns: on d1, f1, d2, e2, f2"
    )
    assert refused(g, "deploy Rook d1") == "Your Barracks has no Rook"


def test_a_step_on_cards_in_the_hand() -> None:
    g = game(OPENING, hand=["Scribes", "Peon"], deck=["Guard", "Peon", "Peon"], phase="action")
    play(g, "play Scribes 2")
    assert refused(g, "topdeck Tower") == "There is no Tower in your hand"


# -------------------------------------------------------------------- anything at all


def test_any_words_get_a_sentence_and_change_nothing() -> None:
    """A peer may send any words: the reason never fails and never touches the game."""
    rng = random.Random(7)
    words = ["march", "attack", "swap", "move", "deploy", "play", "train", "treasure", "buy"]
    words += ["end", "done", "discard", "gain", "morph", "Pawn", "Peon", "Stables", "e2", "e4"]
    words += ["z9", "1", "2", "barracks", "", "Executive Action"]
    g = settle(Game(RULES, Setup(piles=("Stables", "Sanctuary", "Guard"))))
    for _ in range(60):
        before = g.state_hash()
        for _ in range(20):
            decision = tuple(rng.choice(words) for _ in range(rng.randint(0, 4)))
            if not g.is_legal(decision):
                reason = g.why_illegal(decision)
                assert reason and "\n" not in reason and not reason.endswith(".")
        assert g.state_hash() == before
        g.apply(rng.choice(g.legal()))
        settle(g)
        if g.over:
            break
