"""Valid messages refused at the wrong moment share a link's budget of refusals with malformed
ones, over real sockets: the first few are answered and logged, the next drops the link with
one line that names why, so a peer cannot make us answer forever."""

from __future__ import annotations

import logging

import pytest
import trio
from tables import Table, seated_stranger, wait_until

from crownp2p.net.errors import ConnectionLost
from crownp2p.net.link import REFUSALS_PER_LINK
from crownp2p.net.messages import make

OVER = REFUSALS_PER_LINK + 1  # one refusal past the budget


def flood(kind: str, table: dict) -> list[dict]:
    """``OVER`` messages of one kind the host refuses, after whatever sets them up."""
    sync = make("sync", seq=0, hash=table["start_hash"])
    ours, host = table["seat"], table["host"]  # as the seating draw placed us
    decision = make("decision", seq=900, seat=ours, decision=["pass"], prev=table["start_hash"])
    match kind:
        case "replayed":
            return [decision] * (OVER + 1)  # the first is taken, the rest are replays
        case "not-yours":
            return [make("end", seat=host, code="resign", text="you lose")] * OVER
        case "second sync":
            return [sync] * OVER  # on top of the one the link opened with
        case "unexpected":
            return [make("welcome", players=2)] * OVER
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind, code",
    [
        ("replayed", "replayed"),
        ("not-yours", "not-yours"),
        ("second sync", "unexpected"),
        ("unexpected", "unexpected"),
    ],
)
async def test_untimely_messages_past_the_budget_drop_the_link(rules2, kind, code, caplog):
    host = Table(rules2)
    with trio.fail_after(10), caplog.at_level(logging.WARNING, logger="crownp2p.net"):
        async with trio.open_nursery() as nursery:
            host.ready = await nursery.start(host.host)
            framed, table = await seated_stranger(host.ready.port)
            await framed.send(make("sync", seq=0, hash=table["start_hash"]))
            seat, at = table["seat"], table["host"]
            await wait_until(lambda: at in host.sessions and host.sessions[at].ls.synced[seat])
            caplog.clear()
            for msg in flood(kind, table):
                await framed.send(msg)
            heard: list[dict] = []
            try:
                while True:
                    heard.append(await framed.receive())
            except ConnectionLost:
                pass  # the host hung up on us
            nursery.cancel_scope.cancel()
    assert [m["code"] for m in heard if m["t"] == "error"] == [code] * REFUSALS_PER_LINK
    lines = [r.getMessage() for r in caplog.records if code in r.getMessage()]
    why = f"seat {seat} sent more than {REFUSALS_PER_LINK} messages we refuse (the last: {code})"
    assert len(lines) == REFUSALS_PER_LINK + 1 and lines[-1] == why
