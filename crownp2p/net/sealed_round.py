"""One sealed shuffle at a table, as one seat takes part in it: sans-I/O, like the Lockstep.
Feed it what the seats send; send what it hands back. The cryptography is sealed_deck's; this
module holds the order of things.

1. Every seat sends its commitment (:meth:`SealedShuffle.commitment`); no pass is taken
   before all are in, so every pass is bound to a seed fixed beforehand.
2. The passes go round the seats in the agreed order (``pass_order``): a shuffle pass from
   each seat, the last one keyed, then a re-key pass from each seat but the last.
   Each pass goes to every seat, which checks it as it arrives (``check_pass``) and keeps it
   for the audit. A pass from a seat whose turn it is not, or for another stage, is refused.
3. Once the last pass is in, :attr:`final` is the sealed deck, the same at every seat,
   and :meth:`position_key` gives our key for a position, to release when it is opened.

Any refusal is a :class:`~crownp2p.net.sealed_deck.DeckCheat` naming the seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from .sealed_deck import (
    KEYED,
    REKEY,
    SHUFFLE,
    DeckCheat,
    ShuffleLog,
    ShuffleSecrets,
    check_pass,
    commitment,
    pass_order,
    run_pass,
)


class SealedShuffle:
    """Shuffle ``number`` of a deck whose cards going in have the points ``start`` (every card
    going into a shuffle is open to all), for ``seats`` in the order of their passes, seen from
    seat ``me``, whose shuffle seed is ``seed``."""

    def __init__(
        self,
        game_id: bytes,
        number: int,
        seats: Sequence[int],
        me: int,
        start: Sequence[bytes],
        seed: bytes,
    ) -> None:
        if me not in seats or len(set(seats)) != len(seats):
            raise ValueError("the seats of a shuffle are distinct and include ours")
        self.me = me
        self.log = ShuffleLog(game_id, number, seats=list(seats), commitments={}, start=list(start))
        self.mine = ShuffleSecrets.derive(game_id, number, me, seed, len(start))
        self.log.commitments[me] = commitment(game_id, number, me, seed)
        self._order = pass_order(seats)
        self._deck = list(start)

    # ------------------------------------------------------------------ commitments

    def commitment(self) -> bytes:
        """Ours, to send to every seat."""
        return self.log.commitments[self.me]

    def on_commitment(self, seat: int, value: bytes) -> None:
        if seat not in self.log.seats or seat == self.me:
            raise DeckCheat(seat, f"it is not another seat of shuffle {self.log.number}")
        if seat in self.log.commitments:
            raise DeckCheat(seat, f"it sent a second commitment for shuffle {self.log.number}")
        if not isinstance(value, bytes) or len(value) != 32:
            raise DeckCheat(seat, "its commitment is not 32 bytes")
        self.log.commitments[seat] = value

    @property
    def committed(self) -> bool:
        return len(self.log.commitments) == len(self.log.seats)

    # ------------------------------------------------------------------ passes

    @property
    def waiting_for(self) -> tuple[str, int] | None:
        """The stage and the seat whose pass comes next (None once the deck is sealed, or
        before every commitment is in)."""
        if self.final is not None or not self.committed:
            return None
        return self._order[len(self.log.passes)]

    @property
    def my_turn(self) -> bool:
        nxt = self.waiting_for
        return nxt is not None and nxt[1] == self.me

    def my_pass(self) -> tuple[str, list[bytes]]:
        """Our pass for the stage it is our turn in: send it to every seat."""
        if not self.my_turn:
            raise RuntimeError("it is not our turn to pass")
        stage, _ = self._order[len(self.log.passes)]
        deck = run_pass(stage, self._deck, self.mine)
        self._take(deck)
        return stage, deck

    def on_pass(self, seat: int, stage: str, cards: Sequence[bytes]) -> None:
        """Another seat's pass: refused unless it is that seat's turn at that stage, and unless
        it passes the checks on arrival."""
        n = self.log.number
        if seat == self.me or seat not in self.log.seats:
            raise DeckCheat(seat, f"it is not another seat of shuffle {n}")
        if stage not in (SHUFFLE, KEYED, REKEY):
            raise DeckCheat(seat, f"it sent a pass of shuffle {n} of no stage we know")
        expected = self.waiting_for
        if expected is None or expected != (stage, seat):
            when = "before every commitment was in" if not self.committed else "out of turn"
            raise DeckCheat(seat, f"it sent a {stage} pass of shuffle {n} {when}")
        self._take(check_pass(seat, self._deck, cards))

    def _take(self, deck: list[bytes]) -> None:
        self.log.passes.append(deck)
        self._deck = deck

    @property
    def final(self) -> list[bytes] | None:
        """The sealed deck, top first, once the last pass is in."""
        return self.log.final

    def position_key(self, position: int) -> bytes:
        """Our key for one position of the sealed deck, to release to whoever may see it."""
        if self.final is None:
            raise RuntimeError("the deck is not sealed yet")
        return self.mine.position_keys[position]
