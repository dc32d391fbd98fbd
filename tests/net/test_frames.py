"""Framing: a 4-byte length and one msgpack map; trickled, fuzzed, oversized and garbled."""

from __future__ import annotations

import struct

import msgpack
import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from crownp2p.net.errors import ConnectionLost, ProtocolError
from crownp2p.net.frames import MAX_FRAME, FrameDecoder, decode_body, encode_frame
from crownp2p.net.link import FramedStream
from crownp2p.net.messages import make

SAMPLES = [
    make("decision", seq=7, seat=1, decision=["play", "Executive Action", "1"], prev="ab" * 32),
    make("commit", round=3, commit=b"\x01" * 32),
    make("chat", text="good luck — have fun ♞"),
    make("ping"),
    make("desync", seq=9, hashes=[[8, "cd" * 32], [9, "ef" * 32]]),
]


def test_a_frame_is_a_big_endian_length_then_msgpack() -> None:
    frame = encode_frame({"t": "ping"})
    (length,) = struct.unpack(">I", frame[:4])
    assert length == len(frame) - 4
    assert msgpack.unpackb(frame[4:]) == {"t": "ping"}


async def test_frames_trickled_one_byte_at_a_time_arrive_whole() -> None:
    with trio.fail_after(5):
        left, right = trio.testing.memory_stream_pair()
        reader = FramedStream(right)
        data = b"".join(encode_frame(m) for m in SAMPLES)

        async def trickle() -> None:
            for i in range(len(data)):
                await left.send_all(data[i : i + 1])
                await trio.lowlevel.checkpoint()
            await left.aclose()

        got = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trickle)
            for _ in SAMPLES:
                got.append(await reader.receive())
            with pytest.raises(ConnectionLost):
                await reader.receive()
        assert [g["t"] for g in got] == [m["t"] for m in SAMPLES]
        assert got[0]["decision"] == ["play", "Executive Action", "1"]
        assert got[1]["commit"] == b"\x01" * 32


async def test_a_close_in_the_middle_of_a_frame_is_truncation() -> None:
    with trio.fail_after(5):
        left, right = trio.testing.memory_stream_pair()
        reader = FramedStream(right)
        await left.send_all(encode_frame({"t": "ping"})[:-1])
        await left.aclose()
        with pytest.raises(ProtocolError) as err:
            await reader.receive()
        assert err.value.code == "truncated"


def test_an_oversized_frame_is_refused_from_its_header_alone() -> None:
    decoder = FrameDecoder()
    with pytest.raises(ProtocolError) as err:
        decoder.feed(struct.pack(">I", MAX_FRAME + 1))  # no body needed to refuse it
    assert err.value.code == "oversized" and err.value.fatal


def test_we_never_send_an_oversized_frame() -> None:
    with pytest.raises(ValueError, match="byte limit"):
        encode_frame({"t": "chat", "text": "x" * (MAX_FRAME + 1)})


@pytest.mark.parametrize(
    "body, why",
    [
        (b"\xc1", "bad-frame"),  # a reserved msgpack byte
        (msgpack.packb([1, 2, 3]), "bad-frame"),  # an array, not a map
        (msgpack.packb({1: "x"}), "bad-frame"),  # a non-string key
        (msgpack.packb({"t": "ping"}) + b"\x00", "bad-frame"),  # bytes after the map
        (b"\xa3ab", "bad-frame"),  # a string cut short
        (b"\xa2\xff\xfe", "bad-frame"),  # not UTF-8
    ],
)
def test_garbage_is_refused_with_a_reason(body: bytes, why: str) -> None:
    with pytest.raises(ProtocolError) as err:
        (whole,) = FrameDecoder().feed(struct.pack(">I", len(body)) + body)
        decode_body(whole)
    assert err.value.code == why and err.value.fatal


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_fuzzed_bytes_either_decode_to_maps_or_are_refused(data: bytes) -> None:
    decoder = FrameDecoder(limit=4096)
    try:
        messages = [decode_body(body) for body in decoder.feed(data)]
    except ProtocolError as err:
        assert err.code in ("bad-frame", "oversized")
        return
    assert all(isinstance(m, dict) for m in messages)


json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_like, max_size=6), st.integers(1, 7))
def test_fuzzed_maps_round_trip_through_any_split(message: dict, step: int) -> None:
    frame = encode_frame(message)
    decoder = FrameDecoder()
    out = []
    for i in range(0, len(frame), step):
        out.extend(map(decode_body, decoder.feed(frame[i : i + step])))
    assert out == [message] and not decoder.mid_frame
