"""One sealed shuffle at a table, as one seat takes part in it: sans-I/O, like the Lockstep.
Feed it what the seats send; send what it hands back. The cryptography is sealed_deck's; this
module holds the order of things.

1. Every seat sends its commitment (:meth:`SealedShuffle.commitment`); no pass is taken
   before all are in, so every pass is bound to a seed fixed beforehand.
2. The passes go round the seats in the agreed order (``pass_order``): a shuffle pass from
   each seat, the last one keyed, then a re-key pass from each seat but the last.
   Each pass goes to every seat, which checks it as it arrives (``check_pass``) and keeps it
   for the audit. A pass that comes before its turn is held until then (at more than two
   seats, another seat's link may be faster than ours); a stage a seat has no pass in, or a
   second, other pass for one, is refused.
3. Once the last pass is in, :attr:`final` is the sealed deck, the same at every seat,
   and :meth:`position_key` gives our key for a position, to release when it is opened.
4. A position opened to us: :meth:`expect` it, and feed the other seats' keys to
   :meth:`on_key`, in any order (a seat ahead of us may send its key first); once both are
   done, the position names its card instance. A second key from one seat that differs from
   its first, a key for no position or before the deck is sealed, or one that is not 32
   bytes, is refused.

Any refusal is a :class:`~crownp2p.net.sealed_deck.DeckCheat` naming the seat. Keys that open
to no card of the deck raise :class:`BadOpening`: one of them is wrong, and only the audit can
say whose, so the table goes to the audit at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nacl.exceptions import RuntimeError as SodiumError

from .sealed_deck import (
    KEYED,
    REKEY,
    SCALAR_BYTES,
    SHUFFLE,
    DeckCheat,
    ShuffleLog,
    ShuffleSecrets,
    check_pass,
    commitment,
    is_point,
    open_card,
    pass_order,
    run_pass,
)


class BadOpening(ValueError):
    """The keys for a position open to no card of the deck: one of them is wrong."""

    def __init__(self, number: int, position: int) -> None:
        super().__init__(
            f"the keys for position {position} of shuffle {number} open to no card of the "
            "deck: one of them is wrong, and the audit will say whose"
        )
        self.number, self.position = number, position


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
        self._keys: dict[int, dict[int, bytes]] = {}  # position -> seat -> its key, to us
        self._expected: set[int] = set()  # positions our game has opened to us
        self._unkeyed: set[int] = set()  # those of them still waiting for a seat's key
        self._held: dict[tuple[str, int], list[bytes]] = {}  # passes come before their turn
        self._pass_count = len(self._order)

    # ------------------------------------------------------------------ commitments

    def commitment(self) -> bytes:
        """Ours, to send to every seat."""
        return self.log.commitments[self.me]

    def on_commitment(self, seat: int, value: bytes) -> None:
        if seat not in self.log.seats or seat == self.me:
            raise DeckCheat(seat, f"it is not another seat of shuffle {self.log.number}")
        if seat in self.log.commitments:
            if self.log.commitments[seat] == value:
                return  # (sent again after its link came back)
            raise DeckCheat(seat, f"it sent a second commitment for shuffle {self.log.number}")
        if not isinstance(value, bytes) or len(value) != 32:
            raise DeckCheat(seat, "its commitment is not 32 bytes")
        self.log.commitments[seat] = value
        self._take_held()

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

    def owed(self) -> set[int]:
        """The other seats we wait for: a commitment, the next pass, or a key for a position
        our game has opened to us."""
        if not self._unkeyed and len(self.log.passes) == self._pass_count:
            return set()  # (sealed, and every key asked for is in: most rounds, most of a game)
        seats = set(self.log.seats) - set(self.log.commitments)
        nxt = self.waiting_for
        if nxt is not None:
            seats.add(nxt[1])
        for position in self._unkeyed:
            got = self._keys.get(position, {})
            seats.update(s for s in self.log.seats if s not in got)
        seats.discard(self.me)
        return seats

    def my_pass(self) -> tuple[str, list[bytes]]:
        """Our pass for the stage it is our turn in: send it to every seat."""
        if not self.my_turn:
            raise RuntimeError("it is not our turn to pass")
        done = len(self.log.passes)
        stage, _ = self._order[done]
        try:
            deck = run_pass(stage, self._deck, self.mine)
        except SodiumError:  # (a point of the last pass that libsodium will not multiply)
            raise self._bad_point(done - 1) from None
        self.log.passes.append(deck)
        self._take_held()
        return stage, deck

    def _bad_point(self, index: int) -> DeckCheat:
        stage, seat = self._order[index]
        return DeckCheat(
            seat, f"its {stage} pass of shuffle {self.log.number} holds a point outside the group"
        )

    def on_pass(self, seat: int, stage: str, cards: Sequence[bytes]) -> None:
        """Another seat's pass. One that comes before its turn (before every commitment is in,
        or before the pass it follows: that seat's link to the one before it was faster than
        ours) is held until its turn; each is checked on arrival when its turn comes. Refused:
        a seat not of this shuffle or our own, a stage it has no pass in, and a second, other
        pass for the same stage."""
        n = self.log.number
        if seat == self.me or seat not in self.log.seats:
            raise DeckCheat(seat, f"it is not another seat of shuffle {n}")
        if stage not in (SHUFFLE, KEYED, REKEY):
            raise DeckCheat(seat, f"it sent a pass of shuffle {n} of no stage we know")
        if (stage, seat) not in self._order:
            raise DeckCheat(seat, f"it has no {stage} pass in shuffle {n}")
        done = self._order[: len(self.log.passes)]
        if (stage, seat) in done:
            kept = self.log.passes[done.index((stage, seat))]
        else:
            kept = self._held.setdefault((stage, seat), list(cards))
        if list(cards) != kept:
            raise DeckCheat(seat, f"it sent a second, other {stage} pass of shuffle {n}")
        self._take_held()

    def _take_held(self) -> None:
        """Take each held pass whose turn has come, checking it as it would have been on
        arrival."""
        while (nxt := self.waiting_for) is not None and nxt in self._held:
            cards = self._held.pop(nxt)
            self.log.passes.append(check_pass(nxt[1], self._deck, cards))

    @property
    def _deck(self) -> list[bytes]:
        """The deck as the last pass left it."""
        return self.log.passes[-1] if self.log.passes else self.log.start

    @property
    def final(self) -> list[bytes] | None:
        """The sealed deck, top first, once the last pass is in."""
        return self.log.passes[-1] if len(self.log.passes) == self._pass_count else None

    def position_key(self, position: int) -> bytes:
        """Our key for one position of the sealed deck, to release to whoever may see it."""
        if self.final is None:
            raise RuntimeError("the deck is not sealed yet")
        return self.mine.position_keys[position]

    # ------------------------------------------------------------------ openings

    def expect(self, position: int, table: Mapping[bytes, int]) -> int | None:
        """The game opens ``position`` to us: the instance it holds (looked up in ``table``,
        the deck's card points) if every other seat's key for it is in already, else None
        until :meth:`on_key` completes it."""
        if self.final is None or not 0 <= position < len(self._deck):
            raise ValueError(f"shuffle {self.log.number} has no sealed position {position}")
        if position not in self._expected:
            self._expected.add(position)
            self._unkeyed.add(position)
        return self._open(position, table)

    def on_key(
        self, seat: int, position: int, key: bytes, table: Mapping[bytes, int]
    ) -> int | None:
        """Another seat's key for one position, kept for the audit. A key may come before our
        own game asks for the position (the seat that sent it may be ahead of us); once the
        position is asked for and every other seat's key is in, the instance it holds."""
        n = self.log.number
        if seat == self.me or seat not in self.log.seats:
            raise DeckCheat(seat, f"it is not another seat of shuffle {n}")
        if self.final is None or not 0 <= position < len(self._deck):
            raise DeckCheat(seat, f"it sent a key for no sealed position of shuffle {n}")
        got = self._keys.setdefault(position, {})
        if seat in got:  # (the same key again: a card seen by one seat, then opened to all)
            if got[seat] != key:
                raise DeckCheat(seat, f"it sent another key for position {position} of shuffle {n}")
            return self._open(position, table)
        if not isinstance(key, bytes) or len(key) != SCALAR_BYTES:
            raise DeckCheat(seat, f"its key for position {position} of shuffle {n} is no key")
        got[seat] = key
        self.log.released.append((seat, position, key))
        return self._open(position, table)

    def _open(self, position: int, table: Mapping[bytes, int]) -> int | None:
        got = self._keys.get(position, {})
        if position not in self._expected or len(got) < len(self.log.seats) - 1:
            return None
        self._unkeyed.discard(position)
        keys = [*got.values(), self.position_key(position)]
        instance = open_card(self._deck[position], keys, table)
        if instance is None:
            if not is_point(self._deck[position]):
                raise self._bad_point(len(self.log.passes) - 1)
            raise BadOpening(self.log.number, position)
        return instance
