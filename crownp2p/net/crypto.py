"""The protocol's cryptography: join codes, SPAKE2 over the code (``spake2``), the Noise
handshakes that seal every link (``noiseprotocol``), and commit-reveal for chance seeds
(SHA-256 commitments).

Nothing here is home-made: the key exchange, the key schedule and the AEAD framing are the
libraries'. Byte layouts are fixed here and in docs/protocol.md; every peer must compute them alike.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable
from typing import Protocol

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from noise.connection import Keypair, NoiseConnection  # type: ignore[import-untyped]
from noise.exceptions import (  # type: ignore[import-untyped]
    NoiseHandshakeError,
    NoiseInvalidMessage,
    NoiseValueError,
)
from spake2 import SPAKE2_A, SPAKE2_B, SPAKEError  # type: ignore[import-untyped]
from spake2.ed25519_basic import NotOnCurve  # type: ignore[import-untyped]


class Pake(Protocol):
    """One side of a SPAKE2 exchange, as the ``spake2`` package has it."""

    def start(self) -> bytes: ...
    def finish(self, inbound: bytes) -> bytes: ...


CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud or typed easily
CODE_GROUPS = 2
CODE_GROUP_LEN = 5


def new_join_code() -> str:
    """A fresh join code like ``k7m2q-xv9te`` (about 50 bits: far beyond online guessing)."""
    groups = [
        "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP_LEN))
        for _ in range(CODE_GROUPS)
    ]
    return "-".join(groups)


def normalize_code(code: str) -> str:
    """Case, spaces and dashes do not matter when typing a code."""
    return "".join(c for c in code.lower() if c.isalnum())


def check_code(code: str) -> str:
    """A user-given code, normalized, or ValueError with a sentence."""
    norm = normalize_code(code)
    if len(norm) < 4:
        raise ValueError("a join code needs at least 4 letters or digits")
    if len(norm) > 64:
        raise ValueError("a join code has at most 64 letters or digits")
    return norm


# What the libraries raise for bytes that do not open: a failed tag, a bad point, a bad length.
_UNOPENED = (InvalidTag, ValueError, NoiseInvalidMessage, NoiseValueError, NoiseHandshakeError)


class SealError(Exception):
    """A handshake message or a sealed frame did not open: wrong key, tampered, injected,
    replayed or reordered."""


# ------------------------------------------------------------------ joining: SPAKE2

PAKE_JOINER = b"crownp2p/3 joiner"  # SPAKE2 identity A: the side that dials
PAKE_HOST = b"crownp2p/3 host"  # SPAKE2 identity B: the host
PAKE_BYTES = 33  # a SPAKE2 message on the wire: a side byte, then a curve point


def pake(code: str, *, host: bool, entropy: Callable[[int], bytes] = os.urandom) -> Pake:
    """One side's SPAKE2 over the normalized join code. ``start()`` gives our message,
    :func:`pake_key` the 32-byte key from theirs. A wrong code on either side yields a
    different key, and nothing on the wire lets anyone test a guess without another exchange
    with us. ``entropy`` is for test vectors only."""
    side = SPAKE2_B if host else SPAKE2_A
    return side(  # type: ignore[no-any-return]
        normalize_code(code).encode(), PAKE_JOINER, PAKE_HOST, entropy_f=entropy
    )


def pake_key(pake: Pake, theirs: bytes) -> bytes:
    """Our SPAKE2 key from the other side's message, or SealError for a message that is not a
    point of the other side (a key from a wrong code is not an error: it just opens nothing)."""
    try:
        return pake.finish(theirs)
    except (SPAKEError, NotOnCurve, ValueError):
        raise SealError("a SPAKE2 message is not valid") from None


# ------------------------------------------------------------------ links: Noise

# The join link: keyed by the SPAKE2 key (as the psk); its third message carries the joiner's
# static key, proven by the joiner's DH with the host's ephemeral (-> psk, e; <- e, ee; -> s, se).
NOISE_JOIN = "Noise_XNpsk0_25519_ChaChaPoly_SHA256"
# Every link between two seated players, reconnects included: both static keys from the table.
NOISE_PEER = "Noise_KK_25519_ChaChaPoly_SHA256"
KEY_BYTES = 32  # an X25519 key, private or public
NOISE_MESSAGE_BYTES = 48  # a handshake message with a key in the clear: the key, an empty AEAD
NOISE_STATIC_MESSAGE_BYTES = 64  # the join's message 3: the sealed static key, an empty AEAD


_PROBE = X25519PrivateKey.from_private_bytes(bytes(range(1, 33)))  # any fixed key will do


def new_static() -> bytes:
    """A fresh per-table X25519 private key (this seat's identity at one table)."""
    return X25519PrivateKey.generate().private_bytes_raw()


def static_public(private: bytes) -> bytes:
    return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()


def static_public_ok(public: bytes) -> bool:
    """Whether a public key is usable: a low-order point would give a known shared secret."""
    try:
        _PROBE.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        return False
    return True


def table_digest(game_id: bytes, statics: list[bytes]) -> bytes:
    """What binds every seat-to-seat link to the whole table: the game and every seat's static
    public key, in seat order (the prologue of the peer handshake). A host that told two seats
    different keys leaves them unable to link."""
    h = hashlib.sha256(b"crownp2p table\x00" + game_id)
    for public in statics:
        h.update(public)
    return h.digest()


def join_noise(
    *,
    initiator: bool,
    psk: bytes,
    prologue: bytes,
    private: bytes | None = None,
    ephemeral: bytes | None = None,
) -> NoiseConnection:
    """The join link's handshake state: XNpsk0, the SPAKE2 key as the psk; the joiner (the
    initiator) gives its static ``private`` key. ``ephemeral`` is for test vectors only."""
    return _noise(NOISE_JOIN, initiator, prologue, ephemeral, psk=psk, private=private)


def peer_noise(
    *,
    initiator: bool,
    private: bytes,
    remote: bytes,
    prologue: bytes,
    ephemeral: bytes | None = None,
) -> NoiseConnection:
    """A seat-to-seat link's handshake state: KK, our static key and theirs from the table."""
    return _noise(NOISE_PEER, initiator, prologue, ephemeral, private=private, remote=remote)


def _noise(
    name: str,
    initiator: bool,
    prologue: bytes,
    ephemeral: bytes | None,
    *,
    psk: bytes | None = None,
    private: bytes | None = None,
    remote: bytes | None = None,
) -> NoiseConnection:
    noise = NoiseConnection.from_name(name.encode())
    if initiator:
        noise.set_as_initiator()
    else:
        noise.set_as_responder()
    noise.set_prologue(prologue)
    if psk is not None:
        noise.set_psks(psk)
    if private is not None:
        noise.set_keypair_from_private_bytes(Keypair.STATIC, private)
    if remote is not None:
        noise.set_keypair_from_public_bytes(Keypair.REMOTE_STATIC, remote)
    if ephemeral is not None:
        noise.set_keypair_from_private_bytes(Keypair.EPHEMERAL, ephemeral)
    noise.start_handshake()
    return noise


def read_handshake(noise: NoiseConnection, message: bytes) -> None:
    """Take the other side's handshake message, or SealError."""
    try:
        noise.read_message(message)
    except _UNOPENED:
        raise SealError("a handshake message did not open") from None


def read_static_handshake(noise: NoiseConnection, message: bytes) -> bytes:
    """Take the other side's last handshake message, which carries its static key, and return
    that key, proven; or SealError. noiseprotocol 0.3 has no getter for the remote static and
    drops its handshake state once the handshake ends, so we keep hold of that state first."""
    state = noise.noise_protocol.handshake_state
    read_handshake(noise, message)
    return bytes(state.rs.public_bytes)


def seal(noise: NoiseConnection, plaintext: bytes) -> bytes:
    """One transport message: ChaCha20-Poly1305 under the handshake's key, nonce = a counter."""
    return bytes(noise.encrypt(plaintext))


def unseal(noise: NoiseConnection, ciphertext: bytes) -> bytes:
    """The plaintext of the next transport message, or SealError: the counter moves on only
    with each frame that opens, so a replayed, dropped or reordered frame never does."""
    try:
        return bytes(noise.decrypt(ciphertext))
    except _UNOPENED:
        raise SealError("a frame did not open") from None


# ------------------------------------------------------------------ commit-reveal


def _round_bytes(round_: int) -> bytes:
    return round_.to_bytes(8, "big")


def commitment(game_id: bytes, round_: int, seat: int, nonce: bytes) -> bytes:
    """SHA-256(game_id ‖ round ‖ seat ‖ nonce): round as 8 bytes, seat as 1, big endian."""
    return hashlib.sha256(game_id + _round_bytes(round_) + bytes([seat]) + nonce).digest()


def chance_seed(game_id: bytes, round_: int, nonces: list[bytes]) -> str:
    """The seed of a chance step: SHA-256(game_id ‖ round ‖ nonces in seat order), as hex."""
    h = hashlib.sha256(game_id + _round_bytes(round_))
    for nonce in nonces:
        h.update(nonce)
    return h.hexdigest()


def new_nonce() -> bytes:
    return secrets.token_bytes(32)


def insecure_nonce(test_seed: int | str, seat: int, round_: int) -> bytes:
    """A predictable nonce, for tests and benchmarks only (``--test-seed``)."""
    return hashlib.sha256(f"crownp2p insecure nonce:{test_seed}:{seat}:{round_}".encode()).digest()


def new_game_id(test_seed: int | str | None = None) -> bytes:
    if test_seed is None:
        return secrets.token_bytes(16)
    return hashlib.sha256(f"crownp2p insecure game id:{test_seed}".encode()).digest()[:16]
