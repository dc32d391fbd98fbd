"""What a networked game's record proves about its chance: that the seats came from the seating
draw, and each seed from a commit-reveal round between all seats (docs/protocol.md, "The
seating draw" and "Chance"; docs/records.md)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.game import CHANCE
from ..core.record import Record
from . import crypto
from .draw import Draw, seats_fault


def unproven_seating(record: Record, sides: Sequence[int]) -> str | None:
    """What is wrong with the record's seating draw, as a sentence that names it (``the
    seating draw: ann's nonce does not open its commitment``, ``the seats do not follow from
    the seating draw``), or None when the seats follow from it. A record whose seeds were drawn
    in one process has no draw (None)."""
    if record.game_id is None:
        return None
    meta = record.meta
    try:
        drawn = Draw.from_json(meta["draw"])
        statics = [bytes.fromhex(k) for k in meta["statics"]]
        names = [str(n) for n in meta["players"]]
    except (KeyError, TypeError, ValueError):
        return "the record does not hold the seating draw"
    return seats_fault(drawn, statics, names, sides)


def unproven_round(record: Record, seats: list[int]) -> str | None:
    """The first chance round the record does not prove, as a sentence that names it
    (``round 7: the seed is not the hash of the reveals``), or None when every round holds: each
    reveal opens its seat's commitment and each seed is the hash of the reveals in seat order.
    A record whose seeds were drawn in one process has nothing to prove (None)."""
    game_id = record.game_id
    if game_id is None:
        return None
    round_ = 0
    for step in record.steps:
        if step.seat != CHANCE:
            continue
        round_ += 1
        if step.decision[0] != "seed":
            continue  # a sealed deck's shuffle or opening: its audit proves it, not a round
        proof = step.proof
        if proof is None or len(proof.commits) != len(seats) or len(proof.reveals) != len(seats):
            return f"round {round_}: the record does not hold every seat's commitment and reveal"
        for seat, commit, nonce in zip(seats, proof.commits, proof.reveals, strict=True):
            if crypto.commitment(game_id, round_, seat, nonce) != commit:
                return f"round {round_}: seat {seat}'s reveal does not open its commitment"
        if step.decision != ("seed", crypto.chance_seed(game_id, round_, list(proof.reveals))):
            return f"round {round_}: the seed is not the hash of the reveals"
    return None
