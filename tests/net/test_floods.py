"""Floods from a seated peer cost the flooder, not us: each leaves our memory bounded (measured
with tracemalloc around the flood), no answer is larger than what asked for it, and the honest
game carries on or the flooder is dropped with a named reason."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import tracemalloc
from collections.abc import Callable

import pytest
import trio
import trio.testing
from harness import MemoryTable
from proxy import Proxy
from tables import FAST, Table, seated_stranger, wait_until

from crownp2p.core.setup import Setup
from crownp2p.net.errors import ConnectionLost
from crownp2p.net.events import Chat, PeerError
from crownp2p.net.frames import FrameDecoder, decode_body, encode_frame
from crownp2p.net.link import REFUSALS_PER_LINK, FramedStream, Link, LinkDown, Refused, Timeouts
from crownp2p.net.messages import make, validate
from crownp2p.net.session import BACKLOG_PER_LINK, Hub

FLOOD = 50_000
BOUND = 2 << 20  # bytes a flood may leave behind


class Sink:
    """Keeps every report a link makes."""

    def __init__(self) -> None:
        self.reports: list = []

    def deliver(self, report) -> None:
        self.reports.append(report)


def kept_after(flood: Callable[[], object]) -> int:
    """The bytes still allocated after ``flood`` ran (what it left behind)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        flood()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def wire(msg: dict) -> dict:
    """``msg`` as it arrives from a socket: a fresh map, decoded and checked."""
    (body,) = FrameDecoder().feed(encode_frame(msg))
    return validate(decode_body(body))


def playing(rules) -> MemoryTable:
    """A two-seat table played a little way in, seat 1 a person (no bot) to move."""
    table = MemoryTable(rules, Setup(), ["random", "random"], seed=5, test_seed=5)
    table.bot_seats = {0}
    table.connect()
    peer = table.peers[1]
    while not (peer.my_turn and peer.applied >= 12):
        assert peer.outcome is None
        if peer.my_turn:
            peer.decide(table.bots[1].decide(peer.game, 1), table.now)
        table.pump()
    return table


def carries_on(table: MemoryTable) -> None:
    """Both peers play the game to its end, agreeing on it."""
    table.bot_seats = {0, 1}
    table.pump()
    a, b = (p.outcome for p in table.peers)
    assert a is not None and b is not None and a.result in ("win", "loss", "draw")
    assert a.final_hash == b.final_hash


def test_an_ack_flood_leaves_memory_bounded_and_the_game_goes_on(rules2) -> None:
    table = playing(rules2)
    host = table.peers[0]
    n = host.applied

    def flood() -> None:
        for i in range(FLOOD):  # the coming step's hash, again and again, then far ahead
            seq = n + 1 if i % 2 else n + 1 + i % 4000
            host.on_message(1, wire(make("ack", seq=seq, hash=f"{i:064x}")), table.now)

    assert kept_after(flood) < BOUND
    assert host.outcome is None and host.applied == n
    assert sum(len(claims) for claims in host.pending_hashes.values()) <= 2000


def test_a_sync_flood_gets_no_answer_larger_than_itself(rules2) -> None:
    table = playing(rules2)
    host = table.peers[0]
    host.take_outbox()
    received = sent = 0
    for _ in range(3000):
        msg = make("sync", seq=0, hash=host.hash_at(0))
        received += len(encode_frame(msg))
        host.on_message(1, wire(msg), table.now)
        sent += sum(len(encode_frame(m)) for dest, m in host.take_outbox() if dest == 1)
    assert sent <= received
    assert host.outcome is None
    table.pump()
    carries_on(table)


def test_a_chat_flood_is_cut_to_the_rate_with_one_sentence(rules2) -> None:
    table = playing(rules2)
    host = table.peers[0]
    host.take_events()

    def flood() -> None:
        for i in range(FLOOD):
            host.on_message(1, wire(make("chat", text=f"spam {i}")), table.now)

    assert kept_after(flood) < BOUND
    events = host.take_events()
    chats = [e for e in events if isinstance(e, Chat)]
    told = [e for e in events if isinstance(e, PeerError)]
    assert 0 < len(chats) <= 20
    assert len(told) == 1 and "chats faster than" in told[0].text and "slow-down" in told[0].text
    table.now += 30  # once it has slowed down, its chat passes again
    host.on_message(1, wire(make("chat", text="sorry")), table.now)
    assert [e.text for e in host.take_events() if isinstance(e, Chat)] == ["sorry"]
    table.pump()
    carries_on(table)


async def test_a_chat_flood_before_the_start_drops_the_flooder() -> None:
    with trio.fail_after(20):  # a guard against a hang, generous for a loaded machine
        ours, theirs = trio.testing.memory_stream_pair()
        frames = encode_frame(make("chat", text="x" * 100)) * 20_000
        async with trio.open_nursery() as nursery:
            hub = Hub(nursery, Timeouts(), [("crownp2p", "test")])
            link = hub.adopt(FramedStream(ours), 1)

            async def flood() -> None:
                await theirs.send_all(frames)

            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                nursery.start_soon(flood)
                await link.run()
                kept = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            nursery.cancel_scope.cancel()
        assert (
            link.reason
            == f"seat 1 sent more than {BACKLOG_PER_LINK} messages before the game started"
        )
        backlog = hub.report_to(None)
        assert len(backlog) <= BACKLOG_PER_LINK + 2  # its messages, its up and its down
        assert kept < BOUND + len(frames)


async def test_a_peer_that_does_not_read_is_dropped_not_buffered() -> None:
    with trio.fail_after(20):  # a guard against a hang, generous for a loaded machine
        ours, _theirs = trio.testing.lockstep_stream_pair()  # nobody reads the other end
        link = Link(FramedStream(ours), 1, Sink(), Timeouts())
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            await trio.sleep(0)
            for _ in range(FLOOD):
                link.send(make("chat", text="y" * 400))
                if link.closed:
                    break
            await link.done.wait()
        assert link.reason.startswith("seat 1 stopped reading")


async def test_a_flood_of_malformed_messages_is_answered_a_few_times_then_dropped(
    caplog,
) -> None:
    with trio.fail_after(20):  # a guard against a hang, generous for a loaded machine
        ours, theirs = trio.testing.memory_stream_pair()
        flood = encode_frame({"t": "ack"}) * 10_000  # each refused: an ack has no `seq`
        sink = Sink()
        link = Link(FramedStream(ours), 1, sink, Timeouts())
        back = bytearray()

        async def answers() -> None:
            while data := await theirs.receive_some(65536):
                back.extend(data)

        with caplog.at_level(logging.WARNING, logger="crownp2p.net"):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(link.run)
                nursery.start_soon(answers)
                await theirs.send_all(flood)
        assert len(back) <= len(flood)
        errors = list(map(decode_body, FrameDecoder().feed(bytes(back))))
        assert [m["code"] for m in errors] == ["bad-message"] * REFUSALS_PER_LINK
        refused = [r for r in sink.reports if isinstance(r, Refused)]
        assert len(refused) == REFUSALS_PER_LINK
        reason = (
            f"seat 1 sent more than {REFUSALS_PER_LINK} messages we refuse (the last: bad-message)"
        )
        assert link.reason == reason
        assert sink.reports[-1] == LinkDown(link, reason)
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == REFUSALS_PER_LINK + 1 and lines[-1] == reason


# ---------------------------------------------------------------------- over real sockets

SOCKET_FLOOD = 10_000
PATIENT = dataclasses.replace(FAST, reveal=30)  # tracemalloc slows the flood, not a forfeit


@pytest.mark.parametrize("kind", ["ack", "chat", "sync"])
async def test_a_flood_over_a_socket_costs_the_flooder_and_the_game_finishes(rules2, kind):
    """A seated joiner's link, sealed over loopback through a proxy that counts the bytes,
    floods the host mid-game (its own game held while it floods): the host keeps < 2 MB of it,
    sends back no more than it got, and the honest game finishes alike on both sides."""
    table = Table(rules2, bot="random", seed=1, timeouts=PATIENT)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            proxy = Proxy(table.ready.port)
            await nursery.start(proxy.run)
            nursery.start_soon(table.join, 1, proxy.port)
            await wait_until(lambda: len(table.seats) == 2)  # seated by the draw
            host_seat, joiner_seat = table.seats[0], table.seats[1]
            await wait_until(lambda: table.sessions[host_seat].ls.applied > 40)
            host, joiner = table.sessions[host_seat].ls, table.sessions[joiner_seat]
            flooder = joiner.hub.links[host_seat]
            held = joiner.ls.applied  # nothing else runs while we flood: the game is held
            msg = {
                "ack": make("ack", seq=held, hash=joiner.ls.hash_at(held)),
                "chat": make("chat", text="spam " * 8),
                "sync": make("sync", seq=held, hash=joiner.ls.hash_at(held)),
            }[kind]
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                received, sent = proxy.to_target, proxy.to_client
                for _ in range(SOCKET_FLOOD):
                    flooder.send(msg)

                def read_it_all() -> bool:  # a decision of the joiner's from after the flood
                    later = host.record.steps[held:]
                    return any(s.seat == joiner_seat for s in later) or host.outcome is not None

                await wait_until(read_it_all)
                kept = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            received, sent = proxy.to_target - received, proxy.to_client - sent
            await wait_until(lambda: len(table.outcomes) == 2)
            nursery.cancel_scope.cancel()
    assert kept < BOUND
    assert sent <= received
    if kind == "sync":  # a second sync is refused: past the budget the link is dropped, redialled
        assert proxy.connections >= 2
    else:  # read to the end, every frame
        assert received > SOCKET_FLOOD * len(encode_frame(msg))
    a, b = table.outcomes.values()
    assert a.result in ("win", "loss", "draw") and a.final_hash == b.final_hash


@pytest.mark.parametrize("kind", ["chat", "ack", "start"])
async def test_a_flood_before_the_start_over_a_socket_costs_the_flooder(rules2, kind, caplog):
    """A stranger that completed the handshake floods the host before the game starts: the
    host keeps < 2 MB of it and answers less than it got; chat is cut to its rate with one
    sentence, and a message refused at that moment (a joiner's `start`) drops the link past the
    budget of refusals."""
    table = Table(rules2)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            framed, info = await seated_stranger(table.ready.port)
            msg = {
                "chat": make("chat", text="x" * 100),
                "ack": make("ack", seq=0, hash=info["start_hash"]),
                "start": make("start"),
            }[kind]
            gone = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, ConnectionLost)
            sent = back = 0
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                with contextlib.suppress(*gone):
                    for _ in range(SOCKET_FLOOD // 100):
                        burst = b"".join(framed.encode(msg) for _ in range(100))
                        await framed.send_raw(burst)
                        sent += len(burst)
                    # the host takes our sync once it has read the flood (or it dropped us)
                    await framed.send(make("sync", seq=0, hash=info["start_hash"]))
                    host, ours = table.sessions[info["host"]], info["seat"]
                    await wait_until(lambda: host.ls.synced[ours] or ours not in host.hub.links)
                with contextlib.suppress(*gone), trio.move_on_after(0.3):
                    while data := await framed.stream.receive_some(65536):
                        back += len(data)
                kept = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            await framed.aclose()
            nursery.cancel_scope.cancel()
    assert kept < BOUND
    assert back <= sent
    if kind == "start":
        why = (
            f"seat {info['seat']} sent more than {REFUSALS_PER_LINK} messages we refuse"
            " (the last: unexpected)"
        )
        assert why in caplog.text
    else:
        assert sent > SOCKET_FLOOD * len(encode_frame(msg))
        assert caplog.text.count("[slow-down]") == (kind == "chat")
