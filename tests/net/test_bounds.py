"""A rogue host's table: each setup or timeout out of bounds is refused by name, before the
joiner builds anything from it, and the joiner ends with one sentence (no traceback)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tables import offer_table

from crownp2p.core.setup import Setup

HONEST = Setup()


@pytest.mark.parametrize(
    "setup, why",
    [
        (replace(HONEST, starting_deck=(("Peon", 2_000_000),)), "the starting deck is 2,000,000"),
        (replace(HONEST, hand_size=10**9), "the hand size is 1,000,000,000 cards"),
        (replace(HONEST, pile_size=5_000_000), "each variable pile is 5,000,000 cards"),
        (replace(HONEST, core_piles=(("Tower", 5_000_000),)), "the Tower pile is 5,000,000"),
        (
            replace(HONEST, piles=(*HONEST.piles[:-1], "No Such Card")),
            "a card this engine does not know: 'No Such Card'",
        ),
        (
            replace(HONEST, sealed=True, pile_size=100, fill_piles=12),
            "every card of a sealed game is",
        ),
    ],
)
async def test_a_setup_out_of_bounds_is_refused_by_name(rules2, setup, why) -> None:
    said, reply = await offer_table(rules2, setup=setup)
    assert why in said and "the table cannot be played here" in said
    assert reply["t"] == "error" and reply["code"] == "bounds" and why in reply["text"]


async def test_a_table_for_seat_7_is_refused_not_an_index_error(rules2) -> None:
    said, reply = await offer_table(rules2, seat=7)
    assert "the table gives us seat 7, but its seats are 0 to 1" in said
    assert reply["code"] == "bounds"


@pytest.mark.parametrize(
    "field, seconds, why",
    [
        ("reveal_timeout", 0.001, "the reveal timeout is 0.001 s"),
        ("reveal_timeout", 86_400.0, "the reveal timeout is 86400 s"),
        ("clock", 0.01, "the decision clock is 0.01 s"),
    ],
)
async def test_a_timeout_out_of_bounds_is_refused_by_name(rules2, field, seconds, why) -> None:
    said, reply = await offer_table(rules2, **{field: seconds})
    assert why in said and "this peer accepts" in said
    assert reply["code"] == "bounds"
