"""The protocol's cryptography, all from the standard library: join codes and the HMAC proofs
of them, the per-pair link keys (Diffie-Hellman, so the host never knows the keys other seats
share), and commit-reveal for chance seeds.

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


# ------------------------------------------------------------------ pair keys

# RFC 3526 group 14: the 2048-bit MODP safe prime, generator 2.
DH_PRIME = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E34"
    "04DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6"
    "F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A6916"
    "3FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C"
    "32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA95"
    "6AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
    16,
)
DH_GENERATOR = 2
DH_BYTES = 256  # a public value on the wire: big endian, this long


def new_dh_secret() -> int:
    """A fresh 256-bit private exponent (twice the group's 112-bit strength)."""
    return secrets.randbits(256) | 1 << 255


def dh_public(secret: int) -> bytes:
    return pow(DH_GENERATOR, secret, DH_PRIME).to_bytes(DH_BYTES, "big")


def dh_public_ok(public: bytes) -> bool:
    """Whether a public value lies in the group's large subgroup: 0, 1 and p - 1 (or anything
    not below p) would let a cheat force a known shared secret."""
    return len(public) == DH_BYTES and 1 < int.from_bytes(public, "big") < DH_PRIME - 1


def dh_shared(secret: int, public: bytes) -> bytes:
    """The secret two seats share, or ValueError for a public value that is not ok."""
    if not dh_public_ok(public):
        raise ValueError("a Diffie-Hellman public value is out of range")
    return pow(int.from_bytes(public, "big"), secret, DH_PRIME).to_bytes(DH_BYTES, "big")


def table_digest(game_id: bytes, publics: list[bytes]) -> bytes:
    """What binds a pair key to the whole table: every seat's public value, in seat order."""
    h = hashlib.sha256(b"crownp2p table\x00" + game_id)
    for public in publics:
        h.update(public)
    return h.digest()


def pair_key(shared: bytes, digest: bytes, a: int, b: int) -> bytes:
    """The key two seats use to prove themselves to each other (dialled links, reconnects).

    Only those two seats can compute ``shared``; and because the key also covers the table's
    digest, a host that told two seats different public values leaves them unable to link."""
    low, high = sorted((a, b))
    return proof(hashlib.sha256(shared).digest(), b"pair", digest, bytes([low, high]))


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
