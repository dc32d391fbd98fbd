"""A rogue host's table: each setup or timeout out of bounds is refused by name, before the
joiner builds anything from it, and the joiner ends with one sentence (no traceback)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio
from tables import CODE, PACKS, Table

from crownp2p.core.game import Game
from crownp2p.core.setup import Setup
from crownp2p.net import crypto
from crownp2p.net.errors import NetError
from crownp2p.net.handshake import join_accept
from crownp2p.net.link import FramedStream
from crownp2p.net.messages import make

HONEST = Setup()


async def offer_table(rules, *, setup: Setup = HONEST, seat: int = 1, **fields) -> tuple:
    """A fake host seats one joiner and hands it a table with ``fields`` changed; returns the
    joiner's NetError and what it answered."""
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    replies: list[dict] = []

    async def fake_host() -> None:
        framed = FramedStream(await listeners[0].accept())
        hello = await framed.receive()
        joiner = await join_accept(framed, hello, code=CODE, packs=PACKS, timeout=5)
        await framed.send(make("welcome", seat=seat, players=2))  # sealed from here on
        ours = crypto.static_public(crypto.new_static())
        table = dict(
            game_id=b"g" * 16,
            seat=seat,
            players=2,
            names=["host", "joiner"],
            addrs=[["127.0.0.1", port], ["127.0.0.1", 0]],
            setup=setup.to_json(),
            start_hash=Game(rules, HONEST).state_hash(),  # never built from a rogue setup
            max_turns=0,
            reveal_timeout=5.0,
            clock=300.0,
            statics=[ours, joiner.static],
        )
        await framed.send(make("table", **(table | fields)))
        replies.append(await framed.receive())

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fake_host)
            with pytest.raises(NetError) as refused:
                await Table(rules).join(1, port)
    return str(refused.value), replies[0]


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
    ],
)
async def test_a_setup_out_of_bounds_is_refused_by_name(rules2, setup, why) -> None:
    said, reply = await offer_table(rules2, setup=setup)
    assert why in said and "the table cannot be played here" in said
    assert reply["t"] == "error" and reply["code"] == "bounds" and why in reply["text"]


async def test_a_table_for_seat_7_is_refused_not_an_index_error(rules2) -> None:
    said, reply = await offer_table(rules2, seat=7)
    assert "the table gives us seat 7, but a joiner's seat is 1 to 1" in said
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
