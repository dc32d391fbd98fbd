"""The protocol's cryptography, all from the standard library: join codes and the HMAC proofs
of them, the per-pair link keys, and commit-reveal for chance seeds.

Byte layouts are fixed here and in docs/protocol.md; every peer must compute them alike.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud or typed easily
CODE_GROUPS = 2
CODE_GROUP_LEN = 5


def new_join_code() -> str:
    """A fresh join code like ``k7m2q-xv9te`` (about 50 bits)."""
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


def code_key(code: str) -> bytes:
    return hashlib.sha256(b"crownp2p join code\x00" + normalize_code(code).encode()).digest()


def proof(key: bytes, label: bytes, *parts: bytes) -> bytes:
    """HMAC-SHA-256 over a role label and the handshake's nonces."""
    mac = hmac.new(key, label + b"\x00", hashlib.sha256)
    for part in parts:
        mac.update(len(part).to_bytes(2, "big") + part)
    return mac.digest()


def proofs_equal(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)


def pair_key(table_secret: bytes, game_id: bytes, a: int, b: int) -> bytes:
    """The key two seats use to prove themselves to each other (dialled links, reconnects)."""
    low, high = sorted((a, b))
    return proof(table_secret, b"pair", game_id, bytes([low, high]))


def wrap_key(link_key: bytes, other: int, key: bytes) -> bytes:
    """Hide a pair key on the wire under the join link's key (XOR with an HMAC pad)."""
    pad = proof(link_key, b"wrap", bytes([other]))
    return bytes(x ^ y for x, y in zip(key, pad, strict=True))


unwrap_key = wrap_key


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
