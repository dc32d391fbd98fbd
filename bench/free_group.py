"""``crownp2p`` with the sealed decks' group arithmetic made nearly free, to measure what that
arithmetic costs a sealed game and what the rest of the sealed-deck work costs
(``bench/sealed_game.py --free-arithmetic``). Runs as the ``crownp2p`` command does:

    python bench/free_group.py host|join ...

It swaps the libsodium calls of ``crownp2p.net.sealed_deck`` for a stand-in: "points" and
scalars are integers modulo the ed25519 group order, a point times a scalar is their product.
That keeps every property the protocol relies on but secrecy (locks commute, a key's inverse
lifts it, a wrong key opens to no card), so both peers play and audit the game as usual, while
a multiplication costs about a microsecond instead of a hundred. NO SECURITY WHATSOEVER: any
seat can read every card. Only for measuring, and only ever between two such processes.
"""

from __future__ import annotations

import hashlib
import sys
from types import SimpleNamespace

from crownp2p.net import sealed_deck
from crownp2p.shell.cli import main

ORDER = 2**252 + 27742317777372353535851937790883648493  # the ed25519 prime-order group's


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _bytes(value: int) -> bytes:
    return value.to_bytes(32, "little")


def _from_uniform(data: bytes) -> bytes:
    return _bytes(_int(hashlib.sha256(data).digest()) % ORDER or 1)


def _scalarmult(scalar: bytes, point: bytes) -> bytes:
    return _bytes(_int(scalar) * _int(point) % ORDER)


STAND_IN = SimpleNamespace(
    crypto_core_ed25519_from_uniform=_from_uniform,
    crypto_core_ed25519_scalar_reduce=lambda wide: _bytes(_int(wide) % ORDER),
    crypto_scalarmult_ed25519_noclamp=_scalarmult,
    crypto_core_ed25519_scalar_invert=lambda s: _bytes(pow(_int(s), -1, ORDER)),
    crypto_core_ed25519_scalar_mul=lambda a, b: _bytes(_int(a) * _int(b) % ORDER),
    crypto_core_ed25519_is_valid_point=lambda point: True,
)

if __name__ == "__main__":
    vars(sealed_deck)["sodium"] = STAND_IN  # (every call goes through sealed_deck.sodium)
    # Threads only pay for libsodium, which lets go of Python's lock: the stand-in does not.
    vars(sealed_deck)["_SPLIT_FROM"] = 1 << 30
    sys.exit(main())
