"""Every message type is checked against its schema after decoding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crownp2p.net.errors import ProtocolError
from crownp2p.net.frames import FrameDecoder, decode_body, encode_frame
from crownp2p.net.messages import SCHEMAS, make, validate

H = "0f" * 32
VALID = {
    "join": dict(proto=1, engine="e", packs=[["crownp2p", "0.1.0"]], pake=b"A" + b"p" * 32),
    "peer": dict(proto=1, engine="e", packs=[], game_id=b"g" * 16, seat=2),
    "watch": dict(proto=1, engine="e", packs=[["crownp2p", "0.1.0"]], pake=b"A" + b"p" * 32),
    "spectator": dict(name="eve"),
    "scene": dict(seq=3, view={"turn": 1}, names=["ann", "bob"]),
    "news": dict(lines=["blue: ends the turn"]),
    "heard": dict(name="eve", text="nice move"),
    "pake": dict(pake=b"B" + b"p" * 32),
    "noise": dict(msg=b"n" * 48),
    "player": dict(name="ann", listen=4000, commit=b"c" * 32),
    "welcome": dict(players=2),
    "lobby": dict(names=["ann", "bob", "cy"], teams=[]),
    "draw": dict(commits=[[b"d" * 32, b"c" * 32], [b"e" * 32, b"f" * 32]]),
    "opening": dict(nonce=b"n" * 32),
    "table": dict(
        game_id=b"g" * 16,
        seat=1,
        host=0,
        players=2,
        names=["a", "b"],
        addrs=[["10.0.0.1", 4000], ["10.0.0.2", 4001]],
        setup={"piles": []},
        start_hash=H,
        max_turns=0,
        reveal_timeout=5.0,
        clock=300.0,
        statics=[b"d" * 32, b"e" * 32],
        commits=[[b"d" * 32, b"c" * 32], [b"e" * 32, b"f" * 32]],
        nonces=[b"n" * 32, b"m" * 32],
        teams=[],
    ),
    "confirm": dict(game_id=b"g" * 16, start_hash=H),
    "start": {},
    "error": dict(code="bad-seq", text="why"),
    "sync": dict(seq=0, hash=H),
    "decision": dict(seq=1, seat=0, decision=["end"], prev=H),
    "commit": dict(round=1, commit=b"c" * 32),
    "reveal": dict(round=1, nonce=b"n" * 32),
    "ack": dict(seq=3, hash=H),
    "seal": dict(shuffle=1, commit=b"c" * 32, signer=b"v" * 32),
    "pass": dict(shuffle=1, stage="keyed shuffle", cards=[b"p" * 32, b"q" * 32]),
    "keys": dict(keys=[[7, b"k" * 32]], sig=b"s" * 64),
    "open": dict(step=12, keys=[[7, b"k" * 32], [9, b"l" * 32]], sig=b"s" * 64),
    "proof": dict(card=7, releases=[[1, 0, 0, [[7, b"k" * 32]], b"s" * 64]]),
    "audit": dict(secret=b"s" * 32),
    "end": dict(seat=1, code="resign", text="gg"),
    "desync": dict(seq=4, hashes=[[4, H]]),
    "chat": dict(text="hi"),
    "ping": {},
    "leave": dict(text=""),
    "again": dict(commit=b"c" * 32),
    "next": dict(
        game_id=b"h" * 16,
        statics=[b"e" * 32, b"d" * 32],
        nonces=[b"n" * 32, b"m" * 32],
        setup={"piles": []},
        start_hash=H,
    ),
}


def through_the_wire(msg: dict) -> dict:
    (body,) = FrameDecoder().feed(encode_frame(msg))
    return decode_body(body)


def test_every_message_type_has_a_valid_sample() -> None:
    assert set(VALID) == set(SCHEMAS)


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_a_valid_message_survives_the_wire_and_the_schema(kind: str) -> None:
    msg = validate(through_the_wire(make(kind, **VALID[kind])))
    assert msg["t"] == kind


@pytest.mark.parametrize("kind", sorted(k for k in SCHEMAS if SCHEMAS[k]))
def test_a_missing_field_is_refused(kind: str) -> None:
    for field in SCHEMAS[kind]:
        fields = dict(VALID[kind])
        del fields[field]
        with pytest.raises(ProtocolError, match=f"no `{field}`") as err:
            validate({"t": kind, **fields})
        assert err.value.code == "bad-message"


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_an_extra_field_is_refused(kind: str) -> None:
    with pytest.raises(ProtocolError, match="should not") as err:
        validate({"t": kind, **VALID[kind], "sneaky": 1})
    assert err.value.code == "bad-message"


def test_an_unknown_message_is_refused_by_name() -> None:
    with pytest.raises(ProtocolError) as err:
        validate({"t": "teleport"})
    assert err.value.code == "unknown-message" and "teleport" in str(err.value)
    with pytest.raises(ProtocolError) as err:
        validate({"seq": 1})
    assert err.value.code == "bad-message"


@pytest.mark.parametrize(
    "kind, field, value, words",
    [
        ("decision", "seq", True, "not an integer"),
        ("decision", "seq", -1, "outside"),
        ("decision", "seat", 9, "outside"),
        ("decision", "prev", "AB" * 32, "hexadecimal"),
        ("decision", "decision", [], "items"),
        ("decision", "decision", ["x" * 65], "characters"),
        ("decision", "decision", [3], "not a string"),
        ("commit", "commit", b"short", "bytes"),
        ("commit", "commit", "c" * 32, "not bytes"),
        ("chat", "text", "x" * 501, "characters"),
        ("chat", "text", "bell\x07", "control"),
        ("chat", "text", "\x00", "control"),
        ("chat", "text", "two\nlines", "control"),
        ("chat", "text", "unit\x1fseparator", "control"),
        ("decision", "decision", ["play", "Exec\x1bAction"], "control"),
        ("table", "addrs", [["h", 1]], "items"),
        ("table", "addrs", [["h", 1], ["h"]], "pair"),
        ("table", "setup", [], "not a map"),
        ("table", "reveal_timeout", 0, "outside"),
        ("table", "statics", [b"d" * 32], "items"),
        ("table", "statics", [b"d" * 32, b"e" * 31], "bytes"),
        ("join", "pake", b"A" * 32, "bytes"),
        ("noise", "msg", b"n" * 49, "bytes"),
        ("noise", "msg", b"n" * 65, "not 48 or 64"),
    ],
)
def test_bad_fields_are_refused_with_the_field_named(kind, field, value, words) -> None:
    with pytest.raises(ProtocolError, match=f"`{field}` .*{words}") as err:
        validate({"t": kind, **{**VALID[kind], field: value}})
    assert err.value.code == "bad-message"


def test_we_never_make_a_message_we_would_refuse() -> None:
    with pytest.raises(ProtocolError):
        make("ack", seq=-5, hash=H)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(SCHEMAS)),
    st.dictionaries(
        st.sampled_from(["seq", "seat", "hash", "prev", "round", "text", "decision", "nonce", "x"]),
        st.none()
        | st.integers(-(2**63), 2**64 - 1)
        | st.text(max_size=70)
        | st.binary(max_size=40)
        | st.lists(st.text(max_size=5), max_size=3),
        max_size=5,
    ),
)
def test_fuzzed_messages_validate_or_are_refused_never_crash(kind: str, fields: dict) -> None:
    try:
        validate(through_the_wire({"t": kind, **fields}))
    except ProtocolError as err:
        assert err.code in ("bad-message", "unknown-message")


def test_every_message_type_has_a_handler_and_a_line_in_the_protocol_document() -> None:
    """A new message type is a schema entry, a handler and a doc line (docs/protocol.md)."""
    from pathlib import Path

    from crownp2p.net.gallery import Gallery
    from crownp2p.net.lockstep import Lockstep
    from crownp2p.net.messages import BETWEEN_GAMES
    from crownp2p.net.rematch import Rematch
    from crownp2p.net.watching import Spectator

    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    before_the_game = {
        "join",
        "peer",
        "pake",
        "noise",
        "player",
        "welcome",
        "lobby",
        "draw",
        "opening",
        "table",
        "confirm",
        "start",
        "watch",
        "spectator",
    }
    to_spectators = {"scene", "news", "heard"}  # the host's, to its gallery
    for kind in SCHEMAS:
        assert f"`{kind}" in doc, kind
        if kind in to_spectators:
            assert callable(getattr(Spectator, f"_on_{kind}", None)), kind
        elif kind in BETWEEN_GAMES:
            assert callable(getattr(Rematch, f"_on_{kind}", None)), kind
        elif kind not in before_the_game and kind != "ping":  # ping: the link answers it
            assert callable(getattr(Lockstep, f"_on_{kind}", None)), kind
    for kind in ("chat", "decision", "leave", "error"):  # what a spectator may send, or tries
        assert callable(getattr(Gallery, f"_on_{kind}", None)), kind


@pytest.mark.parametrize("line", ["a\ttab", "space and ~", "del \x7f", "Élan, ♛"])
def test_text_keeps_the_tab_and_everything_from_the_space_up(line) -> None:
    assert validate({"t": "chat", "text": line})["text"] == line
