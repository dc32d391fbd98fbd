"""Links and handshakes over in-memory streams, on trio's autojump clock: keepalives, the idle
timeout, garbage on a live link, and the handshakes (SPAKE2 over the join code, Noise KK
between seats)."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import threading
import time

import pytest
import trio
import trio.testing

from crownp2p.core.game import Game
from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.net import crypto
from crownp2p.net.errors import HandshakeError
from crownp2p.net.frames import FrameDecoder, decode_body, encode_frame
from crownp2p.net.handshake import join_accept, join_dial, peer_accept, peer_dial
from crownp2p.net.journal import Journal, JournalError, load, session_path
from crownp2p.net.link import (
    FramedStream,
    Link,
    LinkDown,
    LinkReport,
    Received,
    Refused,
    Timeouts,
)
from crownp2p.net.messages import make

PACKS = [("crownp2p", "test")]


class Sink:
    def __init__(self) -> None:
        self.reports: list[LinkReport] = []

    def deliver(self, report: LinkReport) -> None:
        self.reports.append(report)

    def kinds(self) -> list[type]:
        return [type(r) for r in self.reports]

    def messages(self) -> list[dict]:
        return [r.msg for r in self.reports if isinstance(r, Received)]


async def read_frames(stream, into: list, limit: float) -> None:
    decoder = FrameDecoder()
    with trio.move_on_after(limit):
        while data := await stream.receive_some(4096):
            into.extend(map(decode_body, decoder.feed(data)))


async def test_a_quiet_link_sends_keepalives(autojump_clock) -> None:
    with trio.fail_after(60):
        left, right = trio.testing.memory_stream_pair()
        link = Link(FramedStream(left), 1, Sink(), Timeouts(keepalive=1, idle=100))
        got: list = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            await read_frames(right, got, 3.5)
            nursery.cancel_scope.cancel()
        assert [m["t"] for m in got] == ["ping", "ping", "ping"]


async def test_a_silent_peer_is_declared_dead(autojump_clock) -> None:
    with trio.fail_after(60):
        left, right = trio.testing.memory_stream_pair()
        sink = Sink()
        link = Link(FramedStream(left), 1, sink, Timeouts(keepalive=1, idle=3))
        start = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(read_frames, right, [], 100)  # we drain, but never speak
            await link.run()
            nursery.cancel_scope.cancel()
        assert 3 <= trio.current_time() - start < 5
        last = sink.reports[-1]
        assert isinstance(last, LinkDown) and "nothing heard" in last.reason


async def test_pings_keep_a_link_alive(autojump_clock) -> None:
    with trio.fail_after(60):
        a, b = trio.testing.memory_stream_pair()
        t = Timeouts(keepalive=1, idle=3)
        sinks = Sink(), Sink()
        links = Link(FramedStream(a), 1, sinks[0], t), Link(FramedStream(b), 0, sinks[1], t)
        async with trio.open_nursery() as nursery:
            for link in links:
                nursery.start_soon(link.run)
            await trio.sleep(30)
            assert LinkDown not in sinks[0].kinds() + sinks[1].kinds()
            links[0].send(make("chat", text="still here"))
            await trio.sleep(1)
            nursery.cancel_scope.cancel()
        assert {"t": "chat", "text": "still here"} in sinks[1].messages()


async def test_garbage_on_a_live_link_gets_an_error_frame_then_a_hang_up() -> None:
    with trio.fail_after(10):
        left, right = trio.testing.memory_stream_pair()
        sink = Sink()
        link = Link(FramedStream(left), 1, sink, Timeouts())
        got: list = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            await right.send_all(b"\x00\x00\x00\x04\xc1\xc1\xc1\xc1")
            await read_frames(right, got, 5)
        assert [m["t"] for m in got] == ["error"] and got[0]["code"] == "bad-frame"
        assert sink.kinds()[-1] is LinkDown


async def test_an_unreadable_message_is_refused_but_the_link_stays() -> None:
    with trio.fail_after(10):
        left, right = trio.testing.memory_stream_pair()
        sink = Sink()
        link = Link(FramedStream(left), 1, sink, Timeouts())
        got: list = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            await right.send_all(encode_frame({"t": "ack", "seq": "three", "hash": "x"}))
            await right.send_all(encode_frame({"t": "chat", "text": "after"}))
            await read_frames(right, got, 0.5)
            nursery.cancel_scope.cancel()
        assert got[0]["t"] == "error" and got[0]["code"] == "bad-message"
        assert Refused in sink.kinds() and {"t": "chat", "text": "after"} in sink.messages()


async def test_held_messages_leave_together_in_order_and_before_a_close() -> None:
    """What a link holds is written at its release (in one write), in order; a close while
    holding sends it first."""
    with trio.fail_after(10):
        listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
        ours = await trio.open_tcp_stream("127.0.0.1", listener.socket.getsockname()[1])
        peer = await listener.accept()
        link = Link(FramedStream(ours), 1, Sink(), Timeouts())
        got: list = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            link.hold()
            for i in range(3):
                link.send(make("chat", text=f"line {i}"))
            await read_frames(peer, got, 0.2)
            assert got == []  # nothing left while held
            link.release()
            await read_frames(peer, got, 0.2)
            assert [m["text"] for m in got] == ["line 0", "line 1", "line 2"]
            link.hold()
            link.send(make("chat", text="last words"))
            link.close("done")
            await read_frames(peer, got, 2)
        assert got[-1] == {"t": "chat", "text": "last words"}
        await peer.aclose()
        await listener.aclose()


# ---------------------------------------------------------------------- handshakes


async def join_pair(host_code: str, joiner_code: str, tamper: bool = False):
    a, b = trio.testing.memory_stream_pair()
    host, joiner = FramedStream(a), FramedStream(b)
    results: dict = {}

    async def host_side() -> None:
        hello = await host.receive()
        if tamper:  # someone between the two swaps in a SPAKE2 message of its own
            hello["pake"] = crypto.pake(host_code, host=False).start()
        try:
            results["host"] = await join_accept(host, hello, code=host_code, packs=PACKS, timeout=5)
            await host.send(make("welcome", players=2))
        except HandshakeError as err:
            results["host"] = err

    async def joiner_side() -> None:
        try:
            results["joiner"] = await join_dial(
                joiner,
                code=joiner_code,
                name="ann",
                packs=PACKS,
                listen_port=0,
                commit=b"c" * 32,
                timeout=5,
            )
        except HandshakeError as err:
            results["joiner"] = err

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host_side)
        nursery.start_soon(joiner_side)
    return results


async def test_the_same_code_seals_the_join_link_and_the_host_learns_the_joiners_key() -> None:
    with trio.fail_after(10):
        results = await join_pair("Abcd-Efgh", "abcdefgh")  # case and dashes do not matter
        assert results["joiner"].players == 2
        # the joiner's name, port and commitment came through the sealed link, its key proven
        # by the handshake
        player = results["host"]
        assert player.name == "ann" and player.commit == b"c" * 32
        assert player.static == crypto.static_public(results["joiner"].static)


async def test_a_relay_that_changes_a_spake2_message_breaks_the_join() -> None:
    with trio.fail_after(10):
        results = await join_pair("abcd-efgh", "abcd-efgh", tamper=True)
        assert isinstance(results["host"], HandshakeError) and results["host"].code == "bad-code"
        assert isinstance(results["joiner"], HandshakeError)


@pytest.mark.parametrize("public", [bytes(32), (1).to_bytes(32, "little")])
def test_a_public_key_that_would_force_a_known_secret_is_refused(public: bytes) -> None:
    assert not crypto.static_public_ok(public)
    assert crypto.static_public_ok(crypto.static_public(crypto.new_static()))


async def test_a_wrong_join_code_fails_on_both_sides() -> None:
    with trio.fail_after(10):
        results = await join_pair("right-code", "wrong-code")
        assert isinstance(results["joiner"], HandshakeError)
        assert "the join code is wrong" in str(results["joiner"])
        assert isinstance(results["host"], HandshakeError)


STATICS = [crypto.new_static() for _ in range(4)]  # seats 0..3's private keys
PUBLICS = [crypto.static_public(k) for k in STATICS]


async def peer_pair(dialler_static: bytes, claimed_seat: int = 2, publics=PUBLICS):
    """Seat ``claimed_seat`` dials seat 1, which knows the table's ``PUBLICS``."""
    a, b = trio.testing.memory_stream_pair()
    dialler, listener = FramedStream(a), FramedStream(b)
    game_id = b"g" * 16
    results: dict = {}

    async def listen() -> None:
        hello = await listener.receive()
        try:
            results["listener"] = await peer_accept(
                listener,
                hello,
                game_id=game_id,
                seat=1,
                callers=[2, 3],  # of two joiners the higher seat dials the lower
                static=STATICS[1],
                statics=PUBLICS,
                digest=crypto.table_digest(game_id, PUBLICS),
                packs=PACKS,
                timeout=5,
            )
        except HandshakeError as err:
            results["listener"] = err

    async def dial() -> None:
        try:
            await peer_dial(
                dialler,
                game_id=game_id,
                seat=claimed_seat,
                to_seat=1,
                static=dialler_static,
                remote=publics[1],
                digest=crypto.table_digest(game_id, publics),
                packs=PACKS,
                timeout=5,
            )
            results["dialler"] = "ok"
        except HandshakeError as err:
            results["dialler"] = err

    async with trio.open_nursery() as nursery:
        nursery.start_soon(listen)
        nursery.start_soon(dial)
    return results, (dialler, listener)


async def test_a_seat_proves_itself_with_its_static_key_and_the_link_is_sealed() -> None:
    with trio.fail_after(10):
        results, (dialler, listener) = await peer_pair(STATICS[2])
        assert results == {"listener": 2, "dialler": "ok"}
        await dialler.send(make("chat", text="sealed"))
        assert await listener.receive() == {"t": "chat", "text": "sealed"}


async def test_a_seat_without_the_static_key_cannot_pose_as_another() -> None:
    with trio.fail_after(10):
        # seat 3 knows its own key, not seat 2's
        results, _ = await peer_pair(STATICS[3])
        assert isinstance(results["listener"], HandshakeError)
        assert results["listener"].code == "impersonation"
        assert isinstance(results["dialler"], HandshakeError)


async def test_two_seats_told_different_tables_cannot_link() -> None:
    with trio.fail_after(10):
        other = [*PUBLICS[:3], crypto.static_public(crypto.new_static())]  # seat 3 swapped
        results, _ = await peer_pair(STATICS[2], publics=other)
        assert isinstance(results["listener"], HandshakeError)


async def test_a_lower_seat_may_not_dial_a_higher_one() -> None:
    with trio.fail_after(10):
        results, _ = await peer_pair(STATICS[0], claimed_seat=0)
        assert isinstance(results["listener"], HandshakeError)
        assert results["listener"].code == "bad-seat"


# ---------------------------------------------------------------------- the journal


def test_the_journal_refuses_to_overwrite_and_hides_its_keys(tmp_path, rules2) -> None:
    path = tmp_path / "game.jsonl"
    game = Game(rules2, Setup())
    journal = Journal(path)
    journal.create(Record.begin(game), {"secret": "k"})
    journal.close()
    assert stat.S_IMODE(os.stat(session_path(path)).st_mode) == 0o600
    with pytest.raises(JournalError, match="already exists"):
        Journal(path).create(Record.begin(game), {})


def test_a_torn_last_line_is_cut_when_loading(tmp_path, rules2) -> None:
    path = tmp_path / "game.jsonl"
    game = Game(rules2, Setup())
    record = Record.begin(game, game_id=b"\x01" * 16)
    journal = Journal(path)
    journal.create(record, {"seat": 0})
    journal.nonce(1, b"\x05" * 32)
    step = record.apply(game, ("seed", "ab" * 32))
    journal.step(step)
    journal.close()
    with open(path, "a") as f:
        f.write('{"seq": 2, "seat": 0, "deci')  # the crash came mid-line
    loaded, session = load(path)
    assert len(loaded.steps) == 1 and session.nonces == {1: b"\x05" * 32}
    assert path.read_text().endswith("\n")


# ---------------------------------------------------------------------- over a real socket


async def test_a_link_reading_a_socket_that_is_never_empty_lets_other_tasks_run() -> None:
    """The reader reads its socket itself (not through trio's receive_some): a peer that keeps
    the socket full must still not keep this process's other tasks from running. (A reader
    that never yielded would read on until the flood stops, two seconds in, and the other
    task would not run before then.)"""
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    frames = encode_frame(make("chat", text="spam")) * 200

    def flood() -> None:  # a thread, so the flood does not wait for our tasks to run
        until = time.monotonic() + 2
        # (suppressed: the link hangs up at the end)
        with socket.create_connection(("127.0.0.1", port)) as theirs, contextlib.suppress(OSError):
            while time.monotonic() < until:
                theirs.sendall(frames)

    flooding = threading.Thread(target=flood, daemon=True)
    flooding.start()
    sink = Sink()
    link = Link(FramedStream(await listener.accept()), 1, sink, Timeouts())
    await listener.aclose()
    ticks_while_flooded = 0

    async def tick() -> None:
        nonlocal ticks_while_flooded
        while True:
            ticks_while_flooded += flooding.is_alive()
            await trio.sleep(0)

    with trio.move_on_after(0.5):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(link.run)
            nursery.start_soon(tick)
    flooding.join(timeout=5)
    assert len(sink.messages()) > 1000  # it did read the flood
    assert ticks_while_flooded >= 5  # and the other task ran meanwhile
