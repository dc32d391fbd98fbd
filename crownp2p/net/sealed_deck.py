"""Sealed decks' cryptography: a deck that no one can read, its owner included, shuffled by
every seat in turn, whose cards are opened one position at a time, and audited at the end.

This is mental poker in a prime-order group (Shamir-Rivest-Adleman's commutative encryption,
done in the ed25519 subgroup as Barnett and Smart describe): each card instance has its own
point ``P``; a seat "locks" a point by multiplying it by a secret scalar ``k``; locks commute,
so any seat may lift its own lock in any order, and a point under every seat's lock says
nothing about its card to anyone holding fewer than all the keys. The group arithmetic is
libsodium's, through PyNaCl (``crypto_scalarmult_ed25519_noclamp`` refuses any point outside
the prime-order subgroup, and small-order points), and every scalar and permutation comes from
a seed the seat committed to before its pass, through HKDF-SHA-512. Nothing here is
hand-made cryptography: the only choices are which standard pieces to use, and the order of
the passes.

A shuffle of an ``n``-card deck, for seats in an agreed order (:func:`pass_order`):

1. **Shuffle passes**, one seat after another: the seat locks every card with its *pass key*
   and permutes the list (its *order*). The last seat's pass is *keyed*: it permutes and locks
   each position with its own *position key* at once. After it no one knows the order.
2. **Re-key passes**, by every seat but the last: the seat swaps its pass key for its
   position key of each position (multiplying position ``j`` by ``position_key[j] /
   pass_key``), so that one position can be opened without the others. (The last seat needs
   none: no one permutes after it, so it could key the positions in its shuffle pass.)
3. **Opening** position ``j`` to a seat: every other seat gives it its position key for ``j``
   (over the encrypted link); the seat lifts every lock at once and looks the point up among
   the deck's card points. A wrong key opens to no card of the deck, so it is caught at once;
   the audit names who sent it.
4. **Audit**, at the game's end: every seat reveals its seeds; each peer checks them against
   their commitments, derives every seat's keys and orders, re-runs every pass from the deck's
   card points and compares every list and every key released with what was sent. The first
   difference names the seat and the step.

What each secret is for (see docs/sealed-decks.md):

* the *shuffle seed*, 32 random bytes a seat draws for one shuffle and commits to first:
  everything below is derived from it, so the audit can re-run the seat's passes;
* the *pass key*: locks the whole deck from the seat's shuffle pass to its re-key pass (one
  key, so a pass costs one scalar multiplication a card; the last seat's goes unused);
* the *order*: the seat's secret permutation;
* the *position keys*: one per final position, each released only for the position it locks.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets as _secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand
from nacl import bindings as sodium
from nacl.exceptions import BadSignatureError
from nacl.exceptions import RuntimeError as SodiumError
from nacl.signing import SigningKey, VerifyKey

from crownp2p.core.shuffle import shuffle as seeded_shuffle

POINT_BYTES = 32
SCALAR_BYTES = 32
SEED_BYTES = 32

# Version 1 of the derivations: records will depend on them, so a change gets new strings.
_CARD = b"crownp2p sealed card point v1"
_COMMIT = b"crownp2p sealed shuffle commitment v1"
_SECRETS = b"crownp2p sealed shuffle secrets v1"
_SEED = b"crownp2p sealed shuffle seed v1"
_RELEASE = b"crownp2p sealed key release v1"
TO_ALL = 255  # the receiver a signed release names when it goes to every seat (an `open`)


class DeckCheat(ValueError):
    """A pass, a key or a seed that does not check out: ``seat`` did it, ``what`` says how."""

    def __init__(self, seat: int, what: str) -> None:
        super().__init__(f"seat {seat}: {what}")
        self.seat = seat
        self.what = what


# ====================================================================== signed releases


def release_bytes(
    game_id: bytes, sender: int, receiver: int, step: int, keys: Sequence[Sequence[Any]]
) -> bytes:
    """What a seat signs when it releases keys: a domain string, the game, the sender, the
    receiver (``TO_ALL`` for an `open`), the step (an `open`'s; 0 for `keys`), then each
    card id (4 bytes) and its 32-byte key, as sent. Keys travel to one seat on a link no
    other seat can read: the signature lets that seat show every seat what it was sent."""
    pairs = b"".join(int(card).to_bytes(4, "big") + bytes(key) for card, key in keys)
    head = _RELEASE + game_id + bytes([sender, receiver]) + step.to_bytes(8, "big")
    return head + pairs


class Signer:
    """A seat's signing key for one game's key releases (Ed25519, through PyNaCl), from a seed
    it draws and keeps in its session file. Unlike the game secret it is never revealed, so
    no signature can be made in its name after the audit."""

    def __init__(self, game_id: bytes, seat: int, seed: bytes) -> None:
        self.game_id, self.seat = game_id, seat
        self._key = SigningKey(seed)
        self.verify_key: bytes = bytes(self._key.verify_key)

    def sign(self, receiver: int, step: int, keys: Sequence[Sequence[Any]]) -> bytes:
        data = release_bytes(self.game_id, self.seat, receiver, step, keys)
        signature: bytes = self._key.sign(data).signature
        return signature


def signed_by(
    verify_key: bytes,
    signature: bytes,
    game_id: bytes,
    sender: int,
    receiver: int,
    step: int,
    keys: Sequence[Sequence[Any]],
) -> bool:
    """Did the seat whose verify key this is sign this release?"""
    try:
        VerifyKey(verify_key).verify(
            release_bytes(game_id, sender, receiver, step, keys), signature
        )
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


# ====================================================================== card points


def card_point(game_id: bytes, instance: int) -> bytes:
    """The point of one card instance (hash to the group: libsodium's ``from_uniform`` of
    SHA-256 of the game and the instance, always in the prime-order subgroup), so two Peons
    never look alike and no point is reused from one game to the next."""
    digest = hashlib.sha256(_CARD + game_id + instance.to_bytes(4, "big")).digest()
    point: bytes = sodium.crypto_core_ed25519_from_uniform(digest)
    return point


def card_table(game_id: bytes, instances: Iterable[int]) -> dict[bytes, int]:
    """Point -> instance, to name what an opening gives."""
    return {card_point(game_id, i): i for i in instances}


# ====================================================================== a seat's secrets


def new_seed() -> bytes:
    return _secrets.token_bytes(SEED_BYTES)


def shuffle_seed(secret: bytes, game_id: bytes, shuffle: int) -> bytes:
    """A seat's seed for one shuffle: HMAC-SHA-256 keyed by the seat's game secret (32 random
    bytes drawn when the game begins), over a domain string, the game and the shuffle's number.
    Each seed is bound by its own commitment; revealing the one secret at the audit reveals
    them all."""
    return hmac.new(secret, _SEED + game_id + shuffle.to_bytes(8, "big"), "sha256").digest()


def _context(game_id: bytes, shuffle: int, seat: int) -> bytes:
    return game_id + shuffle.to_bytes(8, "big") + bytes([seat])


def commitment(game_id: bytes, shuffle: int, seat: int, seed: bytes) -> bytes:
    """SHA-256 of a domain string, the game, the shuffle's number, the seat and its seed: sent
    before the seat's first pass, opened at the audit."""
    return hashlib.sha256(_COMMIT + _context(game_id, shuffle, seat) + seed).digest()


def _scalar(prk: bytes, label: bytes) -> bytes:
    """A uniform non-zero scalar: 64 bytes of HKDF-Expand reduced modulo the group order (as
    Ed25519 makes its scalars from SHA-512). Zero has probability 2^-252; it is refused."""
    wide = HKDFExpand(hashes.SHA512(), 64, label).derive(prk)
    scalar: bytes = sodium.crypto_core_ed25519_scalar_reduce(wide)
    if scalar == bytes(SCALAR_BYTES):
        raise ValueError("a derived scalar is zero")  # never seen; would need a new seed
    return scalar


@dataclass(frozen=True)
class ShuffleSecrets:
    """One seat's secrets for one shuffle of ``size`` cards, all derived from its seed."""

    seat: int
    size: int
    pass_key: bytes
    order: tuple[int, ...]  # output position i takes the card at input position order[i]
    position_keys: tuple[bytes, ...]

    @classmethod
    def derive(
        cls, game_id: bytes, shuffle: int, seat: int, seed: bytes, size: int
    ) -> ShuffleSecrets:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a shuffle seed is {SEED_BYTES} bytes")
        context = _context(game_id, shuffle, seat) + size.to_bytes(4, "big")
        prk = HKDF(hashes.SHA512(), 64, salt=None, info=_SECRETS + context).derive(seed)
        order = list(range(size))
        seeded_shuffle(order, HKDFExpand(hashes.SHA512(), 32, b"order").derive(prk))
        return cls(
            seat=seat,
            size=size,
            pass_key=_scalar(prk, b"pass key"),
            order=tuple(order),
            position_keys=tuple(
                _scalar(prk, b"position key" + j.to_bytes(4, "big")) for j in range(size)
            ),
        )


# ====================================================================== passes


def _mul(scalar: bytes, point: bytes) -> bytes:
    result: bytes = sodium.crypto_scalarmult_ed25519_noclamp(scalar, point)
    return result


_CORES = min(os.cpu_count() or 1, 4)
_SPLIT_FROM = 8  # (fewer multiplications than this are not worth handing to threads)
_pool: ThreadPoolExecutor | None = None


def _mul_all(pairs: Sequence[tuple[bytes, bytes]]) -> list[bytes]:
    """``[k·P for k, P in pairs]``, in order. libsodium lets go of Python's lock while it
    multiplies, so a long list is split between threads, one per core (up to four): a pass is
    the one thing a shuffle's seats wait for, and the others wait idle meanwhile."""
    global _pool
    if _CORES == 1 or len(pairs) < _SPLIT_FROM:
        return [_mul(k, p) for k, p in pairs]
    if _pool is None:
        _pool = ThreadPoolExecutor(_CORES, thread_name_prefix="sealed-deck")
    step = -(-len(pairs) // _CORES)
    chunks = [pairs[i : i + step] for i in range(0, len(pairs), step)]
    done = _pool.map(lambda chunk: [_mul(k, p) for k, p in chunk], chunks)
    return [point for chunk in done for point in chunk]


def _check_size(deck: Sequence[object], mine: ShuffleSecrets) -> None:
    if len(deck) != mine.size:
        raise ValueError(f"the deck has {len(deck)} cards, the secrets are for {mine.size}")


def _inverse(scalar: bytes) -> bytes:
    result: bytes = sodium.crypto_core_ed25519_scalar_invert(scalar)
    return result


def _times(a: bytes, b: bytes) -> bytes:
    result: bytes = sodium.crypto_core_ed25519_scalar_mul(a, b)
    return result


SHUFFLE, KEYED, REKEY = "shuffle", "keyed shuffle", "re-key"


def pass_order(seats: Sequence[int]) -> list[tuple[str, int]]:
    """The passes of a shuffle, in order: (stage, seat)."""
    *first, last = seats
    return [(SHUFFLE, s) for s in first] + [(KEYED, last)] + [(REKEY, s) for s in first]


def run_pass(stage: str, deck: Sequence[bytes], mine: ShuffleSecrets) -> list[bytes]:
    """One seat's pass at ``stage``: one scalar multiplication a card.

    * shuffle: lock every card with the pass key, then put them in the seat's order;
    * keyed shuffle: put the cards in the seat's order, locking position ``j`` with its key;
    * re-key: swap the pass key for the key of each position."""
    _check_size(deck, mine)
    if stage == SHUFFLE:
        return _mul_all([(mine.pass_key, deck[i]) for i in mine.order])
    keys = mine.position_keys
    if stage == KEYED:
        return _mul_all([(keys[j], deck[i]) for j, i in enumerate(mine.order)])
    if stage == REKEY:
        lift = _inverse(mine.pass_key)
        return _mul_all([(_times(key, lift), point) for key, point in zip(keys, deck, strict=True)])
    raise ValueError(f"no stage {stage!r}")


def honest_passes(
    start: Sequence[bytes], seats: Sequence[int], mine: Mapping[int, ShuffleSecrets]
) -> Iterator[tuple[str, int, list[bytes]]]:
    """Every pass of a shuffle as the seats' secrets make it, in :func:`pass_order`: (stage,
    seat, the deck after it). What the audit re-runs."""
    deck = list(start)
    for stage, seat in pass_order(seats):
        deck = run_pass(stage, deck, mine[seat])
        yield stage, seat, deck


def check_pass(seat: int, before: Sequence[bytes], after: Sequence[bytes]) -> list[bytes]:
    """What a peer checks of another seat's pass as it arrives (the rest waits for the
    audit): as many cards as went in, each 32 bytes, no two alike (a pass that duplicates a
    card, or drops one for a copy of another, shows at once). Returns ``after`` as a list.

    Whether each is a point of the prime-order group is checked by the first multiplication
    that uses it (:func:`is_point`): libsodium refuses any other point, so no seat's secret ever
    touches one. Checking every point here as well would cost half a multiplication a card,
    on the path every seat waits on."""
    if len(after) != len(before):
        raise DeckCheat(seat, f"its pass returned {len(after)} cards for {len(before)}")
    out = []
    for point in after:
        if not isinstance(point, bytes) or len(point) != POINT_BYTES:
            raise DeckCheat(seat, "its pass holds something that is not a 32-byte point")
        out.append(point)
    if len(set(out)) != len(out):
        raise DeckCheat(seat, "its pass holds the same card twice")
    return out


def is_point(point: bytes) -> bool:
    """Is ``point`` in the prime-order group (not of small or mixed order)? Asked when a
    multiplication refused it, to tell a bad point from a bad key."""
    return bool(sodium.crypto_core_ed25519_is_valid_point(point))


# ====================================================================== opening


def open_card(sealed: bytes, keys: Iterable[bytes], table: Mapping[bytes, int]) -> int | None:
    """The instance under ``sealed`` once every seat's key for its position is lifted (the
    keys multiplied into one scalar, inverted once, since the group's order is prime: one
    inversion and one group multiplication, however many seats), or None when the keys open it
    to no card of ``table``: a key was wrong."""
    product = None
    for key in keys:
        if len(key) != SCALAR_BYTES:
            return None
        product = key if product is None else _times(product, key)
    if product is None:
        return table.get(sealed)
    try:
        point = _mul(_inverse(product), sealed)
    except SodiumError:
        return None  # a zero key: zero has no inverse
    return table.get(point)


# ====================================================================== the audit


@dataclass
class ShuffleLog:
    """What every peer saw of one shuffle, kept for the audit: the card points going in (every
    card that goes into a shuffle is open to all: docs/sealed-decks.md), each seat's commitment,
    the passes as they were sent, in :func:`pass_order`, and every position key a seat gave out
    for this shuffle's positions."""

    game_id: bytes
    number: int
    seats: list[int]  # the seats' agreed order
    commitments: dict[int, bytes]
    start: list[bytes]
    passes: list[list[bytes]] = field(default_factory=list)
    released: list[tuple[int, int, bytes]] = field(default_factory=list)  # (seat, position, key)

    @property
    def final(self) -> list[bytes] | None:
        """The sealed deck, once every pass is in."""
        return self.passes[-1] if len(self.passes) == len(pass_order(self.seats)) else None


def audit(logs: Iterable[ShuffleLog], seeds: Mapping[tuple[int, int], bytes]) -> None:
    """Re-run a game's shuffles from the revealed seeds (by shuffle number and seat); raise
    DeckCheat for the first seat whose seed, pass or released key does not match what it sent.
    A seat whose seed is missing refused the audit."""
    for log in logs:
        mine = _secrets_of(log, seeds)
        n, size = log.number, len(log.start)
        for i, (stage, seat, deck) in enumerate(honest_passes(log.start, log.seats, mine)):
            if i == len(log.passes):
                break  # the game ended during the shuffle: what was sent is checked
            if log.passes[i] != deck:
                raise DeckCheat(
                    seat, f"its {stage} pass of shuffle {n} does not follow from its seed"
                )
        for seat, position, key in log.released:
            secrets_ = mine.get(seat)
            if secrets_ is None or not 0 <= position < size:
                raise DeckCheat(seat, f"it released a key for no position of shuffle {n}")
            if key != secrets_.position_keys[position]:
                raise DeckCheat(
                    seat, f"it released a wrong key for position {position} of shuffle {n}"
                )


def deck_order(
    game_id: bytes, number: int, seats: Sequence[int], seeds: Mapping[int, bytes], size: int
) -> list[int]:
    """The order an honest shuffle ``number`` of ``size`` cards leaves, from the seats'
    seeds (``seats`` in the order of their passes): position ``j`` of the sealed deck holds the
    card that went in at position ``result[j]``. Only the shuffle passes permute, so this is
    their orders composed, with no group arithmetic: how a record's audit names every sealed
    card once the seeds are out (the passes themselves were checked at the table)."""
    result = list(range(size))
    for seat in reversed(seats):  # the deck after pass k is the one before it, in order_k
        order = ShuffleSecrets.derive(game_id, number, seat, seeds[seat], size).order
        result = [order[i] for i in result]
    return result


def _secrets_of(
    log: ShuffleLog, seeds: Mapping[tuple[int, int], bytes]
) -> dict[int, ShuffleSecrets]:
    mine = {}
    for seat in log.seats:
        seed = seeds.get((log.number, seat))
        if seed is None or len(seed) != SEED_BYTES:
            raise DeckCheat(seat, f"it did not reveal its seed for shuffle {log.number}")
        if commitment(log.game_id, log.number, seat, seed) != log.commitments.get(seat):
            raise DeckCheat(seat, f"its seed for shuffle {log.number} does not open its commitment")
        mine[seat] = ShuffleSecrets.derive(log.game_id, log.number, seat, seed, len(log.start))
    return mine
