"""The alternative starting cards: Conscript, Watchman and Advisor.

Every card has two effects, the first a Training effect; the pack gives each of these its
other one. Watchman and Advisor train a Pawn, as the Guard they replace does; Conscript has only
its one effect, because the pack says it is no Training card (Destiny cannot trash it) and that
effect already brings a Pawn. They cost what the cards they replace cost (our calls,
docs/all-kings-men.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crownp2p.core.board import square_name
from crownp2p.core.cards import ACTION, ORDER, CardType, Effect
from crownp2p.core.decisions import Decision
from crownp2p.core.mechanics import Mechanics
from crownp2p.core.standard.cards import trainer
from crownp2p.core.state import Frame
from crownp2p.core.steps import Choice, EffectStep, Options, Plus


@dataclass(frozen=True)
class RecruitPawn(EffectStep):
    """Put a Pawn from the Stock into the Barracks. Not a Training effect: nothing is trashed."""

    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.position.barracks[f.seat].append(g.rules.units.get("Pawn"))
        g.note(f"{g.seat_name(f.seat)}: a Pawn joins the Barracks")
        return True


@dataclass(frozen=True)
class Recall(Choice):
    """Put one of your units from the board into your Barracks. That is an order for the unit,
    so no order may deploy it again this turn."""

    kind = "recall"
    text = "put one of your units into your Barracks"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return {
            ("recall", square_name(sq)): sq
            for sq, unit in g.position.units()
            if g.can_order(f.seat, unit, f.as_order)
        }

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        unit = g.unit_at(payload)
        g.position.board[payload] = None
        g.position.barracks[f.seat].append(unit.kind)
        if f.as_order:
            g.mark_ordered(unit)
            g.this_turn.recalled.append(unit.kind.name)
        g.note(
            f"{g.seat_name(f.seat)}: {unit.kind.name} {square_name(payload)} goes back to the "
            "Barracks"
        )
        return True


@dataclass(frozen=True)
class DeckToDiscard(EffectStep):
    """Move every card of your deck (not your hand) to your discard pile."""

    def enter(self, g: Mechanics, f: Frame) -> bool:
        player = g.players[f.seat]
        if not g.face_up(player.deck):  # the discard pile is face up: wait for the opening
            return False
        player.discard.extend(player.deck)
        player.deck = []
        g.note(f"{g.seat_name(f.seat)}: puts their deck in the discard pile")
        return True


CONSCRIPT = CardType(
    "Conscript",
    0,
    (
        Effect(
            ACTION,
            "Add 1 gold, and a Pawn joins your Barracks; this card is not trashed.",
            (Plus(gold=1), RecruitPawn()),
        ),
    ),
)

WATCHMAN = trainer(
    "Watchman",
    1,
    "Pawn",
    Effect(
        ORDER,
        "One more order this turn. Put one of your units from the board back in your "
        "Barracks; that is its order for the turn.",
        (Plus(orders=1), Recall()),
    ),
)

ADVISOR = trainer(
    "Advisor",
    1,
    "Pawn",
    Effect(
        ACTION,
        "One more action this turn. Move every card of your deck to your discard pile.",
        (Plus(actions=1), DeckToDiscard()),
    ),
)

ALTERNATIVE_STARTERS = (CONSCRIPT, WATCHMAN, ADVISOR)
