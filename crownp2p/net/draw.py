"""The seating draw: who sits where at a networked table (docs/protocol.md, "The seating draw").

Every peer commits to a 32-byte nonce before anyone reveals one; the seed is the hash of all the
nonces, and the seats follow from the seed by the engine's own seeded shuffle. So no one peer,
the host included, chooses who moves first or (without ``--teams``) who partners whom. Each
peer is known by its per-table static public key; the draw lists them in byte order, and the
shuffle takes them in the order of their nonces (so a test seed, which fixes the nonces, fixes
the seats).

This module only computes and checks: the host runs the round (seating.py), every joiner checks
the table's transcript, and ``crownp2p verify`` checks a record's (proof.py).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.shuffle import shuffle

DOMAIN = b"crownp2p seating"


def new_nonce(test_seed: int | str | None, name: str) -> bytes:
    """Our nonce for the draw: random, or with a test seed (``--test-seed``, tests and
    benchmarks only) predictable from the seed and our name."""
    if test_seed is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(f"crownp2p insecure seating nonce:{test_seed}:{name}".encode()).digest()


def commitment(static: bytes, nonce: bytes) -> bytes:
    """SHA-256("crownp2p seating" ‖ static public key ‖ nonce)."""
    return hashlib.sha256(DOMAIN + static + nonce).digest()


@dataclass(frozen=True)
class Draw:
    """One seating draw's transcript. ``commits`` pairs each peer's static public key with its
    commitment, in byte order of the keys; ``nonces`` are their reveals in the same order
    (empty until revealed); ``teams`` are the host's fixed partners (each a side's keys; empty:
    the draw decides the partners too)."""

    commits: tuple[tuple[bytes, bytes], ...]
    nonces: tuple[bytes, ...] = ()
    teams: tuple[tuple[bytes, ...], ...] = ()

    @property
    def statics(self) -> list[bytes]:
        return [static for static, _ in self.commits]

    @property
    def seed(self) -> bytes:
        """SHA-256("crownp2p seating seed" ‖ every nonce, in byte order)."""
        return hashlib.sha256(DOMAIN + b" seed" + b"".join(sorted(self.nonces))).digest()

    def _in_nonce_order(self, statics: Sequence[bytes]) -> list[bytes]:
        nonce = dict(zip(self.statics, self.nonces, strict=True))
        return sorted(statics, key=lambda static: (nonce[static], static))

    def seats(self, sides: Sequence[int]) -> list[bytes]:
        """Every peer's key in seat order, from the seed. Without teams one shuffle orders all
        the peers; with teams one shuffle gives each team a side (the team on seat 0's side
        moves first) and one per team orders its members over its side's seats. Peers go into a
        shuffle in the order of their nonces (then keys), teams in the order of their first."""
        seed = self.seed
        if not self.teams:
            order = self._in_nonce_order(self.statics)
            shuffle(order, seed)
            return order
        teams = [self._in_nonce_order(team) for team in self.teams]
        firsts = self._in_nonce_order([team[0] for team in teams])
        teams.sort(key=lambda team: firsts.index(team[0]))
        shuffle(teams, seed)
        seats: list[bytes] = [b""] * len(sides)
        for number, (side, team) in enumerate(zip(sorted(set(sides)), teams, strict=True)):
            shuffle(team, seed + b"team" + bytes([number]))
            places = [seat for seat, s in enumerate(sides) if s == side]
            for seat, static in zip(places, team, strict=True):
                seats[seat] = static
        return seats

    def fault(self, names: dict[bytes, str], sides: Sequence[int]) -> str | None:
        """What is wrong with a revealed draw, as a sentence naming the peer (``names`` by
        key), or None when it holds."""
        statics = self.statics
        if len(statics) != len(sides) or len(self.nonces) != len(statics):
            return "the seating draw does not hold one commitment and one nonce per seat"
        if statics != sorted(set(statics)):
            return "the seating draw does not list each key once, in order"
        for (static, commit), nonce in zip(self.commits, self.nonces, strict=True):
            if commitment(static, nonce) != commit:
                who = names.get(static, "a peer")
                return f"the seating draw: {who}'s nonce does not open its commitment"
        if self.teams:
            by_side = sorted(sides.count(side) for side in set(sides))
            members = sorted(static for team in self.teams for static in team)
            if members != statics or sorted(map(len, self.teams)) != by_side:
                return "the seating draw's teams do not fill the sides with the table's players"
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "commits": [[static.hex(), commit.hex()] for static, commit in self.commits],
            "nonces": [nonce.hex() for nonce in self.nonces],
            "teams": [[static.hex() for static in team] for team in self.teams],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Draw:
        return cls(
            tuple((bytes.fromhex(s), bytes.fromhex(c)) for s, c in d["commits"]),
            tuple(bytes.fromhex(n) for n in d["nonces"]),
            tuple(tuple(bytes.fromhex(s) for s in team) for team in d["teams"]),
        )


def seats_fault(
    draw: Draw, statics: Sequence[bytes], names: Sequence[str], sides: Sequence[int]
) -> str | None:
    """What is wrong with a table whose seats hold ``statics`` (and ``names``) by this draw, or
    None: the draw must hold and the seats follow from it."""
    fault = draw.fault(dict(zip(statics, names, strict=False)), sides)
    if fault is None and draw.seats(sides) != list(statics):
        return "the seats do not follow from the seating draw"
    return fault
