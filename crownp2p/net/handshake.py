"""Admitting a peer: versions, packs, and a proof of a shared secret, both ways.

Two kinds of connection (docs/protocol.md, "Handshakes"):

* **join** — a new player dials the host. Both prove they know the join code with an HMAC
  over fresh nonces from each side; the code itself never crosses the wire. The joiner's proof
  also covers its Diffie-Hellman public value, from which its pair keys will come.
* **peer** — a seated player dials a lower seat (the mesh, and every reconnect). Both prove they
  hold the pair key only those two seats can derive, so a link is bound to one seat for good.

Each function runs one side, one message at a time, with a timeout per message; it raises
:class:`HandshakeError` (with a sentence for the user) and has sent the other side an error
frame when it is the one refusing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import trio

from .. import __version__
from ..core.shuffle import SHUFFLE_VERSION
from ..core.snapshot import STATE_VERSION
from . import crypto
from .errors import ConnectionLost, HandshakeError, PeerTimeout, ProtocolError
from .link import FramedStream
from .messages import PROTOCOL_VERSION, make

ENGINE = f"{__version__}/state{STATE_VERSION}/shuffle{SHUFFLE_VERSION}"

Packs = Sequence[tuple[str, str]]


def pack_difference(ours: Packs, theirs: Packs) -> str | None:
    """How two peers' packs differ, in words, or None when they are the same."""
    a, b = dict(ours), dict(theirs)
    if a == b:
        return None
    parts = []
    for name in sorted(set(a) | set(b)):
        if name not in b:
            parts.append(f"{name} {a[name]} is installed here but not there")
        elif name not in a:
            parts.append(f"{name} {b[name]} is installed there but not here")
        elif a[name] != b[name]:
            parts.append(f"{name} is {a[name]} here but {b[name]} there")
    return "; ".join(parts)


def packs_list(packs: Packs) -> list[list[str]]:
    return [[name, version] for name, version in sorted(packs)]


async def _receive(framed: FramedStream, timeout: float, expect: str) -> dict[str, Any]:
    """The next message, which must be ``expect`` (an error frame becomes HandshakeError)."""
    try:
        with trio.fail_after(timeout):
            msg = await framed.receive()
    except trio.TooSlowError:
        raise PeerTimeout(f"{framed.peer} did not answer within {timeout:g} s") from None
    except ProtocolError as err:
        await framed.refuse(err.code, str(err))
        raise HandshakeError(err.code, f"{framed.peer} sent an unreadable message: {err}") from None
    if msg["t"] == "error":
        raise HandshakeError(msg["code"], msg["text"])
    if msg["t"] != expect:
        await framed.refuse("unexpected", f"expected a {expect} message, not {msg['t']}")
        raise HandshakeError("unexpected", f"{framed.peer} sent {msg['t']}, not {expect}")
    return msg


async def _send(framed: FramedStream, msg: dict[str, Any], timeout: float) -> None:
    try:
        with trio.fail_after(timeout):
            await framed.send(msg)
    except trio.TooSlowError:
        raise PeerTimeout(f"{framed.peer} stopped reading") from None


async def _refuse(framed: FramedStream, code: str, text: str) -> HandshakeError:
    await framed.refuse(code, text)
    return HandshakeError(code, text)


async def check_versions(framed: FramedStream, hello: dict[str, Any], packs: Packs) -> None:
    """Refuse a peer whose protocol, engine or packs differ from ours."""
    if hello["proto"] != PROTOCOL_VERSION:
        raise await _refuse(
            framed,
            "version",
            f"this table speaks protocol {PROTOCOL_VERSION}; you speak {hello['proto']}",
        )
    if hello["engine"] != ENGINE:
        raise await _refuse(
            framed,
            "version",
            f"this table runs engine {ENGINE}; you run {hello['engine']}: install the same "
            "crownp2p version",
        )
    diff = pack_difference(packs, hello["packs"])
    if diff is not None:
        raise await _refuse(framed, "packs", f"the variant packs differ ({diff})")


async def first_message(framed: FramedStream, timeout: float) -> dict[str, Any]:
    """The opening message of an incoming connection: ``join`` or ``peer``."""
    try:
        with trio.fail_after(timeout):
            msg = await framed.receive()
    except trio.TooSlowError:
        raise PeerTimeout(f"{framed.peer} said nothing within {timeout:g} s") from None
    except ProtocolError as err:
        raise await _refuse(framed, err.code, str(err)) from None
    if msg["t"] not in ("join", "peer"):
        raise await _refuse(
            framed, "unexpected", f"a connection must open with join or peer, not {msg['t']}"
        )
    return msg


# ====================================================================== join


@dataclass
class Joined:
    """What a joiner learns from a successful join handshake."""

    seat: int
    players: int
    dh_secret: int  # ours; the table brings every seat's public value


async def join_dial(
    framed: FramedStream,
    *,
    code: str,
    name: str,
    packs: Packs,
    listen_port: int,
    timeout: float,
) -> Joined:
    """The joiner's side of a join handshake."""
    key = crypto.code_key(code)
    mine = crypto.new_nonce()
    dh_secret = crypto.new_dh_secret()
    public = crypto.dh_public(dh_secret)
    try:
        await _send(
            framed,
            make(
                "join",
                proto=PROTOCOL_VERSION,
                engine=ENGINE,
                packs=packs_list(packs),
                name=name,
                nonce=mine,
                listen=listen_port,
                dh=public,
            ),
            timeout,
        )
        challenge = await _receive(framed, timeout, "challenge")
        theirs = challenge["nonce"]
        if not crypto.proofs_equal(challenge["proof"], crypto.proof(key, b"host", mine, theirs)):
            raise await _refuse(
                framed,
                "bad-code",
                "the host could not prove it knows the join code: check the code and the address",
            )
        # The proof covers our public value: whoever holds the code cannot swap in its own.
        auth = crypto.proof(key, b"join", theirs, mine, public)
        await _send(framed, make("auth", proof=auth), timeout)
        welcome = await _receive(framed, timeout, "welcome")
    except ConnectionLost as err:
        raise HandshakeError(
            "closed", f"the host closed the connection while joining ({err})"
        ) from None
    return Joined(welcome["seat"], welcome["players"], dh_secret)


async def join_accept(
    framed: FramedStream, hello: dict[str, Any], *, code: str, packs: Packs, timeout: float
) -> bytes:
    """The host's side, after the ``join`` message: verify the joiner knows the code.
    Returns the joiner's Diffie-Hellman public value, which its proof covers; the caller then
    seats the joiner and sends ``welcome``."""
    await check_versions(framed, hello, packs)
    if not crypto.dh_public_ok(hello["dh"]):
        raise await _refuse(framed, "bad-key", "the joiner's Diffie-Hellman value is out of range")
    key = crypto.code_key(code)
    theirs, mine = hello["nonce"], crypto.new_nonce()
    try:
        await _send(
            framed,
            make("challenge", nonce=mine, proof=crypto.proof(key, b"host", theirs, mine)),
            timeout,
        )
        auth = await _receive(framed, timeout, "auth")
    except ConnectionLost as err:
        raise HandshakeError("closed", str(err)) from None
    public: bytes = hello["dh"]
    if not crypto.proofs_equal(auth["proof"], crypto.proof(key, b"join", mine, theirs, public)):
        raise await _refuse(framed, "bad-code", "wrong join code")
    return public


# ====================================================================== peer


async def peer_dial(
    framed: FramedStream,
    *,
    game_id: bytes,
    seat: int,
    to_seat: int,
    key: bytes,
    packs: Packs,
    timeout: float,
) -> None:
    """Seat ``seat`` dials seat ``to_seat`` (always a lower one) and proves its seat."""
    mine = crypto.new_nonce()
    try:
        await _send(
            framed,
            make(
                "peer",
                proto=PROTOCOL_VERSION,
                engine=ENGINE,
                packs=packs_list(packs),
                game_id=game_id,
                seat=seat,
                nonce=mine,
            ),
            timeout,
        )
        challenge = await _receive(framed, timeout, "challenge")
        theirs = challenge["nonce"]
        if not crypto.proofs_equal(challenge["proof"], crypto.proof(key, b"accept", mine, theirs)):
            raise await _refuse(
                framed, "bad-key", f"the peer at {framed.peer} could not prove it is seat {to_seat}"
            )
        await _send(framed, make("auth", proof=crypto.proof(key, b"dial", theirs, mine)), timeout)
        welcome = await _receive(framed, timeout, "welcome")
    except ConnectionLost as err:
        raise HandshakeError("closed", f"seat {to_seat} closed the connection ({err})") from None
    if welcome["seat"] != to_seat:
        raise await _refuse(
            framed, "bad-seat", f"expected seat {to_seat}, found seat {welcome['seat']}"
        )


async def peer_accept(
    framed: FramedStream,
    hello: dict[str, Any],
    *,
    game_id: bytes,
    seat: int,
    players: int,
    keys: dict[int, bytes],
    packs: Packs,
    timeout: float,
) -> int:
    """Our side when a higher seat dials us: returns its proven seat."""
    await check_versions(framed, hello, packs)
    if hello["game_id"] != game_id:
        raise await _refuse(framed, "wrong-table", "this peer is at a different table")
    theirs_seat: int = hello["seat"]
    if theirs_seat <= seat or theirs_seat >= players or theirs_seat not in keys:
        raise await _refuse(
            framed, "bad-seat", f"seat {theirs_seat} does not dial seat {seat} at this table"
        )
    key = keys[theirs_seat]
    theirs, mine = hello["nonce"], crypto.new_nonce()
    try:
        await _send(
            framed,
            make("challenge", nonce=mine, proof=crypto.proof(key, b"accept", theirs, mine)),
            timeout,
        )
        auth = await _receive(framed, timeout, "auth")
        if not crypto.proofs_equal(auth["proof"], crypto.proof(key, b"dial", mine, theirs)):
            raise await _refuse(
                framed, "impersonation", f"the dialler could not prove it is seat {theirs_seat}"
            )
        await _send(framed, make("welcome", seat=seat, players=players), timeout)
    except ConnectionLost as err:
        raise HandshakeError("closed", str(err)) from None
    return theirs_seat
