"""Steps as objects: what they share is declared, a pack's own rule plugs in without touching
core, and a card's playability comes from the same code that lists its options."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from scenario import game, legal_texts, play

from crownp2p.core.cards import ACTION, ORDER, CardType, Effect
from crownp2p.core.game import Game
from crownp2p.core.keys import Key
from crownp2p.core.standard import standard_rules
from crownp2p.core.standard.cards import CYCLED, SACRIFICED, STANDARD_CARDS
from crownp2p.core.steps import DiscardCards, Draw, GainCard
from crownp2p.core.unit_rules import next_to
from crownp2p.core.units import UnitClass, UnitType

ROOT = Path(__file__).parent.parent

# -------------------------------------------------------------------- declared keys


def test_a_step_that_reads_a_key_no_earlier_step_writes_is_refused() -> None:
    # Sacrifice with the wrong key: the gain would silently never happen.
    with pytest.raises(ValueError, match="GainCard .* reads 'cycled', which no earlier step"):
        Effect(
            ACTION,
            "Discard, then gain.",
            (DiscardCards(1, var=SACRIFICED), GainCard(6, needs=CYCLED)),
        )
    with pytest.raises(ValueError, match="Draw .* reads 'sacrificed'"):
        Effect(ACTION, "Draw as many.", (Draw(count_var=SACRIFICED),))


def test_every_card_declares_what_its_steps_share() -> None:
    """The check above runs on every card of the base game (they are built at import)."""
    for card in STANDARD_CARDS:
        for effect in card.effects:
            for step in effect.steps:
                assert all(isinstance(k, Key) for k in (*step.reads(), *step.writes()))


def test_steps_share_values_only_through_keys() -> None:
    """Nothing but the frame itself indexes its vars by a string typed at the call."""
    frame_by_string = re.compile(r"(?<!self)\.vars(\[|\.get\(|\.pop\(|\.setdefault\()")
    for path in [*(ROOT / "crownp2p").rglob("*.py"), *(ROOT / "plugins").rglob("*.py")]:
        assert not frame_by_string.search(path.read_text()), path


# -------------------------------------------------------------------- a pack's own rule


@dataclass(frozen=True)
class OnACorner:
    """A placement rule written outside core: any empty corner square."""

    text = " on an empty corner"

    def squares(self, g: Game, seat: int, kind: UnitType) -> list[int]:
        return [sq for sq in (0, 7, 56, 63) if g.position.board[sq] is None]


def test_a_placement_rule_from_a_pack_deploys_and_prompts() -> None:
    from crownp2p.core.steps import Deploy

    beacon = CardType(
        "Beacon", 3, (Effect(ORDER, "Deploy a unit on an empty corner.", (Deploy(OnACorner()),)),)
    )
    rules = standard_rules()
    rules.cards.register(beacon)
    data = game("4k3/8/8/8/8/8/8/4K2R 0 P -").to_json()
    data["players"][0]["hand"] = ["Beacon"]
    g = Game.from_json(rules, data)
    play(g, "play Beacon 1")
    assert g.prompt().text == "Beacon: deploy a unit on an empty corner"
    assert legal_texts(g) == ["deploy Pawn a1", "deploy Pawn a8", "deploy Pawn h8"]
    assert g.why_illegal(("deploy", "Pawn", "e2")) == (
        "Beacon deploys on an empty corner: on a1, a8, h8"
    )


def test_a_placement_rule_says_its_own_words() -> None:
    assert next_to(UnitClass.SOVEREIGN).text == " next to one of your Sovereigns"
    assert next_to(UnitClass.PIOUS).text == " next to one of your Pious units"


# -------------------------------------------------------------------- one legality source


def test_a_choice_is_possible_exactly_when_it_has_choices() -> None:
    from crownp2p.core import steps

    overriding = [
        name
        for name, cls in vars(steps).items()
        if isinstance(cls, type)
        and issubclass(cls, steps.Choice)
        and cls is not steps.Choice
        and "possible" in vars(cls)
    ]
    # Only the reveal decides after its own automatic part (the reveal, perhaps a reshuffle);
    # and a choice from a hand that this engine cannot see (a sealed game, another seat's)
    # takes the step as possible while that hand holds a card (test_blind_engines.py).
    assert overriding == ["FromHand", "RevealTopCard"]


def test_a_card_is_offered_when_its_first_step_has_options() -> None:
    g = game("4k3/8/8/8/8/8/8/4KN2", hand=["Stables"], piles=["Stables"])
    assert "play Stables 1" in legal_texts(g)  # a Mounted unit to march
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Stables"], piles=["Stables"])
    assert "play Stables 1" not in legal_texts(g)
