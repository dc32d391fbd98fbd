"""Every message type of the wire protocol and its schema (docs/protocol.md).

A message is a msgpack map with ``"t"`` naming its type. :func:`validate` checks a decoded map
against its type's schema: every field present, of its type and within its bounds, and no
field the schema does not name. What the fields *mean* (is this seq next, is this decision
legal) is checked later, by the code that knows the game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .crypto import KEY_BYTES, NOISE_MESSAGE_BYTES, NOISE_STATIC_MESSAGE_BYTES, PAKE_BYTES
from .errors import ProtocolError

PROTOCOL_VERSION = 4  # 3: SPAKE2, every link sealed with Noise; 4: sealed decks' keys signed

MAX_SEQ = 1 << 40
MAX_SEATS = 8
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_CODE = re.compile(r"[a-z0-9-]{1,40}\Z")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f]")  # control characters but the tab
TEXT_MAX = 500  # characters of a chat line, an error's text or a goodbye
NEWS_LINES = 64  # log lines in one ``news`` message
NEWS_LINE_MAX = 200  # characters of one log line

Check = Callable[[Any], Any]


class _Bad(Exception):
    pass


def integer(low: int, high: int) -> Check:
    def check(v: Any) -> int:
        if type(v) is not int:
            raise _Bad(f"is a {type(v).__name__}, not an integer")
        if not low <= v <= high:
            raise _Bad(f"is {v}, outside {low}..{high}")
        return v

    return check


def number(low: float, high: float) -> Check:
    def check(v: Any) -> float:
        if type(v) not in (int, float):
            raise _Bad(f"is a {type(v).__name__}, not a number")
        if not low <= v <= high:
            raise _Bad(f"is {v}, outside {low}..{high}")
        return float(v)

    return check


def text(max_len: int, *, min_len: int = 0) -> Check:
    def check(v: Any) -> str:
        if type(v) is not str:
            raise _Bad(f"is a {type(v).__name__}, not a string")
        if not min_len <= len(v) <= max_len:
            raise _Bad(f"has {len(v)} characters, not {min_len}..{max_len}")
        if _CONTROL.search(v):
            raise _Bad("holds control characters")
        return v

    return check


def pattern(regex: re.Pattern[str], what: str) -> Check:
    def check(v: Any) -> str:
        if type(v) is not str or not regex.match(v):
            raise _Bad(f"is not {what}")
        return v

    return check


def binary(*sizes: int) -> Check:
    """Bytes of one of ``sizes`` lengths."""
    expected = " or ".join(map(str, sizes))

    def check(v: Any) -> bytes:
        if type(v) is not bytes:
            raise _Bad(f"is a {type(v).__name__}, not bytes")
        if len(v) not in sizes:
            raise _Bad(f"has {len(v)} bytes, not {expected}")
        return v

    return check


def array(item: Check, max_len: int, *, min_len: int = 0) -> Check:
    def check(v: Any) -> list[Any]:
        if type(v) is not list:
            raise _Bad(f"is a {type(v).__name__}, not an array")
        if not min_len <= len(v) <= max_len:
            raise _Bad(f"has {len(v)} items, not {min_len}..{max_len}")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except _Bad as err:
                raise _Bad(f"item {i} {err}") from None
        return out

    return check


def pair(first: Check, second: Check) -> Check:
    def check(v: Any) -> tuple[Any, Any]:
        if type(v) is not list or len(v) != 2:
            raise _Bad("is not a pair")
        try:
            a = first(v[0])
            b = second(v[1])
        except _Bad as err:
            raise _Bad(f"has an element that {err}") from None
        return a, b

    return check


def row(*items: Check) -> Check:
    """A list of exactly these items, each checked by its own."""

    def check(v: Any) -> tuple[Any, ...]:
        if type(v) is not list or len(v) != len(items):
            raise _Bad(f"is not a list of {len(items)}")
        try:
            return tuple(item(x) for item, x in zip(items, v, strict=True))
        except _Bad as err:
            raise _Bad(f"has an element that {err}") from None

    return check


def mapping(v: Any) -> dict[str, Any]:
    if type(v) is not dict:
        raise _Bad(f"is a {type(v).__name__}, not a map")
    return v


SEQ = integer(0, MAX_SEQ)
SEAT = integer(0, MAX_SEATS - 1)
HASH = pattern(_HEX64, "64 lowercase hexadecimal digits")
NONCE = binary(32)
KEY = binary(KEY_BYTES)
PACKS = array(pair(text(64, min_len=1), text(64)), 64)
DIGEST = binary(32)
COMMITS = array(pair(KEY, DIGEST), MAX_SEATS, min_len=2)  # (static key, commitment) by key
# Sealed decks (docs/sealed-decks.md): a deck of at most MAX_DECK cards, 32-byte points and
# 32-byte position keys, each key for one card of the engine's (by its id, below MAX_CARD).
MAX_DECK = 1024
MAX_CARD = 1 << 24
POINT = binary(32)
MAX_CARD_KEYS = 64
CARD_KEYS = array(pair(integer(0, MAX_CARD), binary(32)), MAX_CARD_KEYS, min_len=1)
SIGNATURE = binary(64)  # Ed25519, over a release's fields (sealed_deck.release_bytes)
# A signed release as another seat sent it: sender, receiver (255: all), step, keys, signature.
RELEASE = row(integer(0, MAX_SEATS - 1), integer(0, 255), SEQ, CARD_KEYS, SIGNATURE)

SCHEMAS: dict[str, dict[str, Check]] = {
    # ---- handshake
    "join": {
        "proto": integer(0, 1 << 16),
        "engine": text(64),
        "packs": PACKS,
        "pake": binary(PAKE_BYTES),
    },
    "peer": {
        "proto": integer(0, 1 << 16),
        "engine": text(64),
        "packs": PACKS,
        "game_id": binary(16),
        "seat": SEAT,
    },
    "watch": {  # a spectator's join: as ``join``, but it asks for a place in the gallery
        "proto": integer(0, 1 << 16),
        "engine": text(64),
        "packs": PACKS,
        "pake": binary(PAKE_BYTES),
    },
    "pake": {"pake": binary(PAKE_BYTES)},
    "noise": {"msg": binary(NOISE_MESSAGE_BYTES, NOISE_STATIC_MESSAGE_BYTES)},
    "player": {"name": text(32, min_len=1), "listen": integer(0, 65535), "commit": DIGEST},
    "welcome": {"players": integer(2, MAX_SEATS)},
    # ---- the lobby (until the seating draw)
    "lobby": {
        "names": array(text(32, min_len=1), MAX_SEATS, min_len=1),
        "teams": array(array(SEAT, MAX_SEATS, min_len=1), 2),  # places in names; empty: drawn
    },
    "spectator": {"name": text(32, min_len=1)},  # a spectator, first thing on its sealed link
    # ---- the seating draw (every seat is taken; before the table)
    "draw": {"commits": COMMITS},
    "opening": {"nonce": NONCE},
    "table": {
        "game_id": binary(16),
        "seat": SEAT,
        "host": SEAT,
        "players": integer(2, MAX_SEATS),
        "names": array(text(32, min_len=1), MAX_SEATS, min_len=2),
        "addrs": array(pair(text(255), integer(0, 65535)), MAX_SEATS, min_len=2),
        "setup": mapping,
        "start_hash": HASH,
        "max_turns": integer(0, 1 << 20),
        "reveal_timeout": number(0.001, 86400.0),
        "clock": number(0.0, 86400.0),  # a decision's time limit; 0: none
        "statics": array(KEY, MAX_SEATS, min_len=2),
        "commits": COMMITS,
        "nonces": array(NONCE, MAX_SEATS, min_len=2),
        "teams": array(array(KEY, MAX_SEATS, min_len=1), MAX_SEATS),  # empty: drawn
    },
    "confirm": {"game_id": binary(16), "start_hash": HASH},
    "start": {},
    "error": {"code": pattern(_CODE, "an error code"), "text": text(TEXT_MAX)},
    # ---- the game
    "sync": {"seq": SEQ, "hash": HASH},
    "decision": {
        "seq": integer(1, MAX_SEQ),
        "seat": SEAT,
        "decision": array(text(64, min_len=1), 16, min_len=1),
        "prev": HASH,  # the state hash before it: the state it was decided in
    },
    "commit": {"round": integer(1, MAX_SEQ), "commit": DIGEST},
    "reveal": {"round": integer(1, MAX_SEQ), "nonce": NONCE},
    "ack": {"seq": SEQ, "hash": HASH},
    # ---- sealed decks (a table whose setup says ``sealed``)
    "seal": {"shuffle": integer(1, MAX_SEQ), "commit": DIGEST, "signer": binary(32)},
    "pass": {
        "shuffle": integer(1, MAX_SEQ),
        "stage": pattern(re.compile(r"(shuffle|keyed shuffle|re-key)\Z"), "a stage of a shuffle"),
        "cards": array(POINT, MAX_DECK, min_len=1),
    },
    "keys": {"keys": CARD_KEYS, "sig": SIGNATURE},
    "open": {"step": integer(1, MAX_SEQ), "keys": CARD_KEYS, "sig": SIGNATURE},
    "proof": {"card": integer(0, MAX_CARD), "releases": array(RELEASE, MAX_SEATS, min_len=1)},
    "audit": {"secret": binary(32)},
    "end": {"seat": SEAT, "code": pattern(_CODE, "an error code"), "text": text(TEXT_MAX)},
    "desync": {"seq": SEQ, "hashes": array(pair(SEQ, HASH), 64)},
    "chat": {"text": text(TEXT_MAX, min_len=1)},
    "ping": {},
    "leave": {"text": text(TEXT_MAX)},
    # ---- the host to its spectators: the public projection of the game (docs/protocol.md)
    "scene": {  # the public view of the state after step seq, and who sits where
        "seq": SEQ,
        "view": mapping,
        "names": array(text(32, min_len=1), MAX_SEATS, min_len=2),
    },
    "news": {"lines": array(text(NEWS_LINE_MAX, min_len=1), NEWS_LINES, min_len=1)},
    "heard": {"name": text(32, min_len=1), "text": text(TEXT_MAX, min_len=1)},  # chat, relayed
    # ---- between two games of an evening (net/rematch.py)
    "again": {"commit": DIGEST},  # yes to another game, committing to a fresh seating nonce
    "next": {
        "game_id": binary(16),
        "statics": array(KEY, MAX_SEATS, min_len=2),
        "nonces": array(NONCE, MAX_SEATS, min_len=2),
        "setup": mapping,
        "start_hash": HASH,
    },
}

# What a peer may send once its game has ended, for the next one: a session that has ended
# keeps these for the rematch that takes its links over.
BETWEEN_GAMES = frozenset({"again", "next"})


def validate(
    message: dict[str, Any], schemas: dict[str, dict[str, Check]] = SCHEMAS
) -> dict[str, Any]:
    """The message with its fields checked (and pairs as tuples), or ProtocolError.
    ``schemas``: another table of types, for the LAN beacon (net/discovery.py)."""
    kind = message.get("t")
    if type(kind) is not str:
        raise ProtocolError("bad-message", "a message has no string `t` naming its type")
    schema = schemas.get(kind)
    if schema is None:
        raise ProtocolError("unknown-message", f"there is no message type {kind[:40]!r}")
    out: dict[str, Any] = {"t": kind}
    for name, check in schema.items():
        if name not in message:
            raise ProtocolError("bad-message", f"a {kind} message has no `{name}`")
        try:
            out[name] = check(message[name])
        except _Bad as err:
            raise ProtocolError("bad-message", f"a {kind} message's `{name}` {err}") from None
    if len(message) > len(out):  # (every field of the schema is in both, and "t")
        extra = sorted(str(k) for k in message if k != "t" and k not in schema)
        raise ProtocolError(
            "bad-message", f"a {kind} message has a field it should not: `{extra[0][:40]}`"
        )
    return out


def make(
    kind: str, schemas: dict[str, dict[str, Check]] = SCHEMAS, **fields: Any
) -> dict[str, Any]:
    """A message to send; checked against its schema so we never send what we would refuse."""
    message = {"t": kind, **fields}
    validate(message, schemas)
    return message
