"""Our own seeded shuffle, so every peer and every Python orders a deck the same way.

Version 1: a SHA-256 counter stream (``SHA-256(seed || counter)`` as 64-bit big-endian words)
drives a Fisher-Yates shuffle; each index is drawn by rejection sampling, so it is unbiased.
Never change this algorithm in place: add a version, because records depend on it.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Iterator, MutableSequence
from typing import TypeVar

SHUFFLE_VERSION = 1
SEED_BYTES = 32
_WORDS = 1 << 64  # how many 64-bit words there are

T = TypeVar("T")


_BLOCK = struct.Struct(">4Q")  # a SHA-256 digest as four 64-bit big-endian words


def _words(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from _BLOCK.unpack(hashlib.sha256(seed + counter.to_bytes(8, "big")).digest())
        counter += 1


def shuffle(items: MutableSequence[T], seed: bytes) -> None:
    """Shuffle ``items`` in place, determined by ``seed`` alone."""
    words = _words(seed)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _WORDS - _WORDS % n  # rejection sampling: a uniform integer in [0, n)
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        items[i], items[j] = items[j], items[i]


def choose_indices(n: int, k: int, seed: bytes) -> list[int]:
    """``k`` distinct indices of ``range(n)``, in a seeded random order."""
    order = list(range(n))
    shuffle(order, seed)
    return order[:k]


def parse_seed(text: str) -> bytes:
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise ValueError("a seed is 64 hexadecimal digits") from None
    if len(seed) != SEED_BYTES:
        raise ValueError("a seed is 64 hexadecimal digits")
    return seed


class SeedSource:
    """Seeds for chance decisions in a solo game: a SHA-256 chain from one starting number, or
    the operating system's randomness when no number is given. (Peers use commit-reveal.)"""

    def __init__(self, start: int | None = None) -> None:
        base = os.urandom(32) if start is None else str(start).encode()
        self._state = hashlib.sha256(b"crownp2p-seeds" + base).digest()

    def next_seed(self) -> str:
        self._state = hashlib.sha256(self._state).digest()
        return hashlib.sha256(b"seed" + self._state).hexdigest()
