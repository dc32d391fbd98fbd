"""Admitting a peer: versions, packs, a key exchange, and from then on a sealed link.

Two kinds of connection (docs/protocol.md, "Joining a table"):

* **join** — a new player dials the host. SPAKE2 over the join code gives both a key only if
  both hold the same code; a Noise XNpsk0 handshake keyed by it seals the link and proves the
  joiner holds the static key it brings. A stranger with a wrong code gets one refusal per try
  and nothing it could test a guess against. A spectator joins the same way, opening with
  ``watch`` rather than ``join`` and naming itself with ``spectator`` rather than ``player``.
* **peer** — a seated player dials another (the mesh, and every reconnect): a Noise KK
  handshake with both seats' static keys from the table, so a link is bound to one seat for good
  and nobody else, the host included, can pose as either end.

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
from .messages import PROTOCOL_VERSION, make, validate

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


async def check_protocol(framed: FramedStream, opening: dict[str, Any]) -> None:
    """Refuse an opening message of another protocol by name, before its schema: a peer of an
    older protocol sends other fields and must hear that it needs an update, not which field
    it lacks."""
    theirs = opening.get("proto")
    if type(theirs) is not int or theirs == PROTOCOL_VERSION:
        return  # ours, or not a number at all: the schema says what is wrong
    fix = "update crownp2p" if theirs < PROTOCOL_VERSION else "this host must update crownp2p"
    raise await _refuse(
        framed,
        "version",
        f"this table speaks protocol {PROTOCOL_VERSION}; you have protocol {theirs}: {fix}",
    )


async def check_versions(framed: FramedStream, hello: dict[str, Any], packs: Packs) -> None:
    """Refuse a peer whose protocol, engine or packs differ from ours."""
    await check_protocol(framed, hello)
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


OPENINGS = ("join", "watch", "peer")  # what an incoming connection may open with


async def first_message(framed: FramedStream, timeout: float) -> dict[str, Any]:
    """The opening message of an incoming connection (one of OPENINGS), of our protocol."""
    try:
        with trio.fail_after(timeout):
            raw = await framed.receive_raw()
        if raw.get("t") in OPENINGS:
            await check_protocol(framed, raw)
        msg = validate(raw)
    except trio.TooSlowError:
        raise PeerTimeout(f"{framed.peer} said nothing within {timeout:g} s") from None
    except ProtocolError as err:
        raise await _refuse(framed, err.code, str(err)) from None
    if msg["t"] not in OPENINGS:
        raise await _refuse(
            framed, "unexpected", f"a connection must open with join, watch or peer, not {msg['t']}"
        )
    return msg


# ====================================================================== join


@dataclass
class Admitted:
    """What a joiner learns from a successful join handshake (its seat comes with the table,
    from the seating draw)."""

    players: int
    static: bytes  # our private key for this table; the table brings every seat's public key


@dataclass
class Player:
    """What the host learns of a joiner that knew the code."""

    name: str
    listen: int  # the port it listens on for the seats that dial it
    static: bytes  # its public key for this table, proven by the join handshake
    commit: bytes  # its commitment to its nonce of the seating draw


async def join_dial(
    framed: FramedStream,
    *,
    code: str,
    name: str,
    packs: Packs,
    listen_port: int,
    commit: bytes,
    timeout: float,
    static: bytes | None = None,
) -> Admitted:
    """The joiner's side of a join handshake: SPAKE2 over the code, then a Noise handshake keyed
    by its key, whose last message proves our static key; our name, port and commitment to the
    seating draw go only through the sealed link. A joiner cut off before its table dials again
    with its ``static`` key (and the same commitment), by which the host knows its place."""
    static = static or crypto.new_static()
    player = make("player", name=name, listen=listen_port, commit=commit)
    welcome = await _dial_sealed(framed, "join", player, code, packs, timeout, static)
    return Admitted(welcome["players"], static)


async def watch_dial(
    framed: FramedStream, *, code: str, name: str, packs: Packs, timeout: float
) -> int:
    """A spectator's side of the join handshake (``watch`` for ``join``, ``spectator`` for
    ``player``): the table's number of players, once the host has taken it in."""
    spectator = make("spectator", name=name)
    welcome = await _dial_sealed(framed, "watch", spectator, code, packs, timeout)
    players: int = welcome["players"]
    return players


async def _dial_sealed(
    framed: FramedStream,
    opening: str,
    first: dict[str, Any],
    code: str,
    packs: Packs,
    timeout: float,
    static: bytes | None = None,
) -> dict[str, Any]:
    """Open with ``opening`` (join or watch), key the link by the code, send ``first`` sealed
    and return the host's ``welcome``."""
    pake = crypto.pake(code, host=False)
    static = static or crypto.new_static()
    try:
        hello = make(
            opening,
            proto=PROTOCOL_VERSION,
            engine=ENGINE,
            packs=packs_list(packs),
            pake=pake.start(),
        )
        await _send(framed, hello, timeout)
        hello_body = framed.last_body
        reply = await _receive(framed, timeout, "pake")
        try:
            psk = crypto.pake_key(pake, reply["pake"])
        except crypto.SealError:
            raise await _refuse(
                framed, "bad-message", "the host's SPAKE2 message is not valid"
            ) from None
        noise = crypto.join_noise(
            initiator=True, psk=psk, prologue=hello_body + framed.last_body, private=static
        )
        await _send(framed, make("noise", msg=bytes(noise.write_message())), timeout)
        answer = await _receive(framed, timeout, "noise")
        try:
            crypto.read_handshake(noise, answer["msg"])
        except crypto.SealError:
            raise await _refuse(
                framed, "bad-code", "the host did not key the link with our code"
            ) from None
        await _send(framed, make("noise", msg=bytes(noise.write_message())), timeout)
        framed.seal_with(noise)
        await _send(framed, first, timeout)
        welcome = await _receive(framed, timeout, "welcome")
    except HandshakeError as err:
        if err.code == "bad-code":
            raise HandshakeError(
                "bad-code", "the join code is wrong: check the code and the address"
            ) from None
        raise
    except ConnectionLost as err:
        raise HandshakeError(
            "closed", f"the host closed the connection while joining ({err})"
        ) from None
    return welcome


async def join_accept(
    framed: FramedStream, hello: dict[str, Any], *, code: str, packs: Packs, timeout: float
) -> Player:
    """The host's side, after the ``join`` message. We answer with our SPAKE2 message only
    (which proves nothing), and the joiner's first Noise message shows whether it knew the code:
    if not, it learns nothing from us but the refusal. Its third carries its static key, which
    opens only if it holds the private half. The caller then seats the joiner and sends
    ``welcome``, sealed."""
    static, player = await _accept_sealed(framed, hello, code, packs, timeout, "player")
    return Player(player["name"], player["listen"], static, player["commit"])


async def watch_accept(
    framed: FramedStream, hello: dict[str, Any], *, code: str, packs: Packs, timeout: float
) -> str:
    """The host's side of a spectator's join (after its ``watch``): its name. The caller then
    takes it into the gallery and sends ``welcome``, sealed."""
    _static, spectator = await _accept_sealed(framed, hello, code, packs, timeout, "spectator")
    name: str = spectator["name"]
    return name


async def _accept_sealed(
    framed: FramedStream,
    hello: dict[str, Any],
    code: str,
    packs: Packs,
    timeout: float,
    sealed: str,
) -> tuple[bytes, dict[str, Any]]:
    """The joiner's static key, proven, and its first sealed message (of type ``sealed``)."""
    await check_versions(framed, hello, packs)
    hello_body = framed.last_body
    pake = crypto.pake(code, host=True)
    try:
        reply = make("pake", pake=pake.start())
        try:
            psk = crypto.pake_key(pake, hello["pake"])
        except crypto.SealError:
            raise await _refuse(framed, "bad-message", "the SPAKE2 message is not valid") from None
        await _send(framed, reply, timeout)
        noise = crypto.join_noise(initiator=False, psk=psk, prologue=hello_body + framed.last_body)
        first = await _receive(framed, timeout, "noise")
        try:
            crypto.read_handshake(noise, first["msg"])
        except crypto.SealError:
            raise await _refuse(framed, "bad-code", "wrong join code") from None
        await _send(framed, make("noise", msg=bytes(noise.write_message())), timeout)
        third = await _receive(framed, timeout, "noise")
        try:
            static = crypto.read_static_handshake(noise, third["msg"])
        except crypto.SealError:
            raise await _refuse(
                framed, "bad-key", "the joiner could not prove it holds its key"
            ) from None
        framed.seal_with(noise)
        message = await _receive(framed, timeout, sealed)
    except ConnectionLost as err:
        raise HandshakeError("closed", str(err)) from None
    return static, message


# ====================================================================== peer


async def peer_dial(
    framed: FramedStream,
    *,
    game_id: bytes,
    seat: int,
    to_seat: int,
    static: bytes,
    remote: bytes,
    digest: bytes,
    packs: Packs,
    timeout: float,
) -> None:
    """Seat ``seat`` dials seat ``to_seat`` (``TableInfo.dials`` says who dials whom): a Noise
    KK handshake with our static key and theirs from the table, so each proves its seat to the
    other."""
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
            ),
            timeout,
        )
        noise = crypto.peer_noise(
            initiator=True, private=static, remote=remote, prologue=framed.last_body + digest
        )
        await _send(framed, make("noise", msg=bytes(noise.write_message())), timeout)
        answer = await _receive(framed, timeout, "noise")
        try:
            crypto.read_handshake(noise, answer["msg"])
        except crypto.SealError:
            raise await _refuse(
                framed, "bad-key", f"the peer at {framed.peer} could not prove it is seat {to_seat}"
            ) from None
    except ConnectionLost as err:
        raise HandshakeError("closed", f"seat {to_seat} closed the connection ({err})") from None
    framed.seal_with(noise)


async def peer_accept(
    framed: FramedStream,
    hello: dict[str, Any],
    *,
    game_id: bytes,
    seat: int,
    callers: Sequence[int],
    static: bytes,
    statics: Sequence[bytes],
    digest: bytes,
    packs: Packs,
    timeout: float,
) -> int:
    """Our side when one of the seats that dial us (``callers``) does: returns its proven
    seat."""
    await check_versions(framed, hello, packs)
    if hello["game_id"] != game_id:
        raise await _refuse(framed, "wrong-table", "this peer is at a different table")
    theirs: int = hello["seat"]
    if theirs not in callers:
        raise await _refuse(
            framed, "bad-seat", f"seat {theirs} does not dial seat {seat} at this table"
        )
    noise = crypto.peer_noise(
        initiator=False, private=static, remote=statics[theirs], prologue=framed.last_body + digest
    )
    try:
        first = await _receive(framed, timeout, "noise")
        try:
            crypto.read_handshake(noise, first["msg"])
        except crypto.SealError:
            raise await _refuse(
                framed, "impersonation", f"the dialler could not prove it is seat {theirs}"
            ) from None
        await _send(framed, make("noise", msg=bytes(noise.write_message())), timeout)
    except ConnectionLost as err:
        raise HandshakeError("closed", str(err)) from None
    framed.seal_with(noise)
    return theirs
