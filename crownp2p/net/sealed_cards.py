"""One peer's part in the cards of a sealed game: sans-I/O, like the Lockstep.

It follows this peer's engine (which knows only what its seat may: docs/sealed-decks.md, "The
engine") and does the cryptography's side of each thing the game does with hidden cards:

* a **shuffle** (chance `shuffle`): a :class:`SealedShuffle` round between every seat. The
  chance decision is ``sealed`` once the last pass is in; position ``j`` of the sealed deck is
  then the ``j``-th fresh card the shuffle made in the engine (they are consecutive ids);
* a **draw**: after each step, our keys for the cards now in a hand go to every other seat
  that sees that hand, and we ask for the cards in the hands we see;
* a **card turned face up** by an effect (chance `open`): our keys for those cards go to every
  seat, and the chance decision names the cards once every key is in;
* **a seat's decision that opens cards** (``Game.openings``): the seat sends an ``open`` of the
  cards it opens to all, with its keys, before the decision. Every other seat adds its keys,
  and the decision is applied once the cards are learnt. A hand a decision opens to one seat
  (Astrology's look): the seat waits for the others' keys before it applies its decision;
  each other peer gives its keys once its engine has applied the decision, from the cards
  the look noted (``game.looks``);
* **signed releases**: every ``keys`` and ``open`` we send is signed with our per-game key
  (:class:`~.sealed_deck.Signer`), every one we receive is checked and kept, so that keys
  opening to no card can be shown to every seat (:meth:`SealedCards.proof`), and a seat's
  proof checked and put into our audit;
* the **audit** at the end: every seat reveals its game secret, from which each of its
  shuffle seeds came; every seed is checked against its commitment, every pass re-run and
  every key released checked; then the whole game is replayed by an engine that knows every
  card, which refuses what the seats' engines took on trust.

Feed it the messages of the types in :data:`MESSAGES` and call it at the points its methods
name; take what it wants sent from :meth:`SealedCards.take_outbox`. Anything a seat sends
that does not check out raises :class:`~.sealed_deck.DeckCheat` naming the seat
(:class:`UnsignedRelease` for keys that came to us alone unsigned); keys that open to no card
raise :class:`~.sealed_round.BadOpening`, after which only the audit can say whose key was
wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.decisions import Decision, IllegalDecision
from ..core.game import Game
from ..core.record import Opened, Record, Step
from ..core.rules import Rules
from .messages import MAX_CARD_KEYS
from .sealed_deck import (
    SEED_BYTES,
    TO_ALL,
    DeckCheat,
    Signer,
    audit,
    card_point,
    deck_order,
    shuffle_seed,
    signed_by,
)
from .sealed_round import BadOpening, SealedShuffle

MESSAGES = ("seal", "pass", "keys", "open", "proof", "audit")


class UnsignedRelease(DeckCheat):
    """Keys that came to us alone, not signed by their sender: we name it, but no other seat
    can check that, since we cannot show what we were sent."""


Release = tuple[int, int, int, list[Any], bytes]  # sender, receiver, step, keys, signature
Outbox = list[tuple[int, dict[str, Any]]]  # (seat, message)
MAX_EARLY = 4096  # keys kept for cards our engine has not made yet (a seat ahead of us)
MAX_AHEAD = 256  # how many steps ahead of our engine a seat's openings may be kept


@dataclass
class _Slot:
    shuffle: int
    position: int
    instance: int | None = None  # once opened to us


@dataclass
class _Opening:
    """Cards a seat opens to all with its decision for one step: their keys as sent, checked
    once our engine reaches that step."""

    seat: int
    keys: list[tuple[int, bytes]]
    checked: bool = False


class SealedCards:
    def __init__(
        self, game: Game, game_id: bytes, me: int, secret: bytes, signing_seed: bytes
    ) -> None:
        self.game = game
        self.game_id = game_id
        self.me = me
        self.seats = list(game.rules.seating.seats)
        self.secret = secret  # this seat's game secret: every shuffle seed comes from it
        self.signing_seed = signing_seed  # never revealed: our key releases' signatures
        self.signer = Signer(game_id, me, signing_seed)
        # seat -> the key its releases are signed by (ours too: a proof may show our own)
        self.verify_keys: dict[int, bytes] = {me: self.signer.verify_key}
        self.releases: dict[int, dict[int, Release]] = {}  # card -> seat -> its signed release
        self.proven_by: int | None = None  # the seat whose proof of a bad opening we took
        self.shuffles: dict[int, SealedShuffle] = {}
        self.unsettled: dict[int, SealedShuffle] = {}  # the rounds we may still wait on
        self.tables: dict[int, dict[bytes, int]] = {}  # shuffle -> point -> instance going in
        self.points: dict[int, bytes] = {}  # card instance -> its point
        self.slots: dict[int, _Slot] = {}  # card id -> where it lies in its sealed deck
        self.outbox: Outbox = []
        self.keys_out: dict[int, list[list[Any]]] = {}  # seat -> [card, our key] to send it
        self.given: set[tuple[int, int]] = set()  # (card, seat) that has our key
        self.dealt: set[int] = set()  # sealed cards drawn into a hand: keys given, asked for
        self.early: dict[int, list[tuple[int, str, Any]]] = {}  # shuffle -> early messages
        self.early_keys: list[tuple[int, int, bytes]] = []  # (seat, card, key) for cards to come
        self.openings: dict[int, _Opening] = {}  # step number -> what its decision opens
        self._made: tuple[int, int, int] | None = None  # the shuffle answered: number, first, n
        self.sealed = 0  # sealed shuffles our engine has applied
        self.steps = 0
        self.looked = len(game.looks)  # the looks at a hand we have given our keys for
        # Every card our engine learnt since the last step, and whether to all: for the record.
        self.learnt: list[tuple[int, str, bool]] = []

    # ================================================================ out

    def take_outbox(self) -> Outbox:
        """What to send, in order; our keys last, one message to each seat (each message
        costs every peer more than its keys do)."""
        out, self.outbox = self.outbox, []
        for seat, keys in sorted(self.keys_out.items()):
            for i in range(0, len(keys), MAX_CARD_KEYS):
                chunk = keys[i : i + MAX_CARD_KEYS]
                sig = self.signer.sign(seat, 0, chunk)
                out.append((seat, {"t": "keys", "keys": chunk, "sig": sig}))
        self.keys_out = {}
        return out

    def _send(self, to: Iterable[int], kind: str, **fields: Any) -> None:
        for seat in to:
            if seat != self.me:
                self.outbox.append((seat, {"t": kind, **fields}))

    # ================================================================ cards and names

    def instance(self, card: int) -> int:
        """The card instance an engine card holds, for a card every seat has seen: itself for a
        card that never went through a sealed shuffle (a starting card, a gain)."""
        slot = self.slots.get(card)
        if slot is None:
            return card
        if slot.instance is None:
            raise RuntimeError(f"card {card} has not been opened to us")
        return slot.instance

    def _point(self, instance: int) -> bytes:
        """A card instance's point (a hash to the group, costly enough to keep: the same
        instances go into shuffle after shuffle)."""
        point = self.points.get(instance)
        if point is None:
            point = self.points[instance] = card_point(self.game_id, instance)
        return point

    # ================================================================ shuffles

    def shuffle(self) -> Decision | None:
        """Our part in the shuffle chance is to decide: ``sealed`` once the deck is."""
        chance = self.game.chance
        assert chance is not None and chance["kind"] == "shuffle"
        if self._made is not None:  # answered already: the step is yet to be applied
            return ("sealed",)
        number = self.sealed + 1
        if number not in self.shuffles:
            self._start(number, chance["seat"])
        round_ = self.shuffles[number]
        if round_.my_turn:
            stage, cards = round_.my_pass()
            self._send(self.seats, "pass", shuffle=number, stage=stage, cards=cards)
        if round_.final is None:
            return None
        player = self.game.players[chance["seat"]]
        self._made = (number, len(self.game.cards), len(player.deck) + len(player.discard))
        return ("sealed",)

    def _start(self, number: int, seat: int) -> None:
        player = self.game.players[seat]
        went_in = [self.instance(c) for c in player.deck + player.discard]
        start = [self._point(i) for i in went_in]
        seed = shuffle_seed(self.secret, self.game_id, number)
        seats = pass_seats(self.seats, seat)
        round_ = SealedShuffle(self.game_id, number, seats, self.me, start, seed)
        self.shuffles[number] = self.unsettled[number] = round_
        self.tables[number] = dict(zip(start, went_in, strict=True))
        self._send(
            self.seats,
            "seal",
            shuffle=number,
            commit=round_.commitment(),
            signer=self.signer.verify_key,
        )
        for sender, kind, msg in self.early.pop(number, []):
            self._shuffle_message(sender, kind, msg)

    def _shuffle_message(self, seat: int, kind: str, msg: dict[str, Any]) -> None:
        number = msg["shuffle"]
        round_ = self.shuffles.get(number)
        if round_ is None:
            # (a seat one shuffle ahead of us: kept until our engine comes to it)
            if number != max(self.shuffles, default=0) + 1 or len(self.early.get(number, [])) > 16:
                raise DeckCheat(seat, f"it sent a {kind} for shuffle {number}, not the next")
            self.early.setdefault(number, []).append((seat, kind, msg))
            return
        if kind == "seal":
            round_.on_commitment(seat, msg["commit"])
        else:
            round_.on_pass(seat, msg["stage"], msg["cards"])

    # ================================================================ after each step

    def after_step(self, seat: int, decision: Decision) -> None:
        """The engine has applied a step (``seat``'s ``decision``): number the cards a shuffle
        made, give our keys for the cards drawn into hands, and learn those drawn into ours."""
        self.steps += 1
        if self._made is not None and decision == ("sealed",):
            number, first, count = self._made
            self._made = None
            self.sealed = number
            for position in range(count):
                self.slots[first + position] = _Slot(number, position)
            early, self.early_keys = self.early_keys, []
            for sender, card, key in early:
                self._key(sender, card, key)
        rules, game = self.game.rules, self.game
        for owner, player in enumerate(game.players):
            for card in player.hand:
                if card in self.dealt or card not in self.slots or card in game.shown:
                    continue
                self.dealt.add(card)  # (a card put back and drawn again is given already)
                viewers = [t for t in self.seats if rules.sees_hand(t, owner)]
                self._give(card, viewers)
                if self.me in viewers:
                    self._expect(card)
        for viewer, _, cards in game.looks[self.looked :]:
            if viewer != self.me:  # (our own look waited for the keys: see ours)
                self._private([(c, viewer) for c in cards if c not in game.shown])
        self.looked = len(game.looks)

    def _give(self, card: int, seats: Iterable[int]) -> None:
        """Send our key for ``card`` to each of ``seats`` that has not had it."""
        slot = self.slots[card]
        key = self.shuffles[slot.shuffle].position_key(slot.position)
        for seat in seats:
            if seat != self.me and (card, seat) not in self.given:
                self.given.add((card, seat))
                self.keys_out.setdefault(seat, []).append([card, key])

    def _opened(self, card: int) -> int | None:
        """The game opens ``card`` to us: the instance it holds, once every other seat's key
        is in."""
        slot = self.slots[card]
        if slot.instance is None:
            round_ = self.unsettled[slot.shuffle] = self.shuffles[slot.shuffle]
            slot.instance = round_.expect(slot.position, self.tables[slot.shuffle])
        return slot.instance

    def _expect(self, card: int) -> None:
        """The game opens ``card`` to us: learn it once every other seat's key is in."""
        instance = self._opened(card)
        if instance is not None and card in self.game.unknown:
            self._learn(card, self.game.cards[instance])

    def _key(self, seat: int, card: int, key: bytes) -> None:
        slot = self.slots.get(card)
        if slot is None:
            if card < len(self.game.cards) or len(self.early_keys) >= MAX_EARLY:
                raise DeckCheat(seat, f"it sent a key for card {card}, which no shuffle sealed")
            self.early_keys.append((seat, card, key))
            return
        round_ = self.shuffles[slot.shuffle]
        found = round_.on_key(seat, slot.position, key, self.tables[slot.shuffle])
        if found is not None and slot.instance is None:
            slot.instance = found
        if slot.instance is not None and card in self.game.unknown:
            self._learn(card, self.game.cards[slot.instance])

    def owed(self) -> list[int]:
        """The seats our game waits for, in seat order: a commitment, a pass, or a key."""
        seats: set[int] = set()
        for number, round_ in list(self.unsettled.items()):
            owed = round_.owed()
            if not owed and round_.final is not None:
                del self.unsettled[number]  # (until our game opens another of its cards to us)
            seats |= owed
        return sorted(seats)

    def missing(self) -> list[int]:
        """Cards of the hands we see whose keys are not all in: our seat decides only once
        they are."""
        game, rules = self.game, self.game.rules
        return [
            c
            for owner, p in enumerate(game.players)
            if rules.sees_hand(self.me, owner)
            for c in p.hand
            if c in game.unknown
        ]

    # ================================================================ cards turned face up

    def face_up(self) -> Decision | None:
        """Our part when chance turns cards face up: our keys to every seat; the names once
        every key is in."""
        chance = self.game.chance
        assert chance is not None and chance["kind"] == "open"
        cards = chance["cards"]
        names = []
        for card in cards:
            if card not in self.slots:
                raise IllegalDecision(f"card {card} is hidden but no shuffle sealed it")
            self._give(card, self.seats)
        for card in cards:
            instance = self._opened(card)
            if instance is None:
                return None
            names.append(self.game.cards[instance])
        return ("open", *names)

    # ================================================================ decisions

    def ours(self, decision: Decision) -> bool:
        """Our seat's decision: open to all what it opens, and say whether we may apply it
        (a card opened to us alone, Astrology's look, waits for the other seats' keys)."""
        opened = self.game.openings(decision)
        public = [c for c, to in opened if to is None]
        if public:
            keys = [[c, self._my_key(c)] for c in public]
            sig = self.signer.sign(TO_ALL, self.steps + 1, keys)
            self._send(self.seats, "open", step=self.steps + 1, keys=keys, sig=sig)
            for card in public:
                self._learn_to_all(card, self.game.cards[card])
        return self._private(opened)

    def theirs(self, seat: int, decision: Decision) -> bool:
        """``seat``'s decision is next: may we apply it? Its openings to all must be learnt.
        (What it opens to one seat, Astrology's look, needs nothing of us before we apply it:
        :meth:`after_step` gives that seat our keys.)"""
        opening = self.openings.get(self.steps + 1)
        if opening is not None:
            if opening.seat != seat:
                raise DeckCheat(opening.seat, "it opened cards with a decision not its own")
            if not opening.checked:
                self._check_opening(opening)
            instances = [self._opened(card) for card, _ in opening.keys]
            pairs = zip(opening.keys, instances, strict=True)
            found = [(card, i) for (card, _), i in pairs if i is not None]
            if len(found) < len(instances):
                return False
            for card, instance in found:
                self._learn_to_all(card, self.game.cards[instance])
            del self.openings[self.steps + 1]
        return True

    def ours_ready(self, decision: Decision) -> bool:
        """May our own decision be applied now: are the cards it opens to us learnt?"""
        return self._private(self.game.openings(decision))

    def _private(self, opened: list[tuple[int, int | None]]) -> bool:
        """Give our keys for the cards opened to one seat; True once those opened to us are
        learnt."""
        ready = True
        for card, to in opened:
            if to is None or card not in self.slots:
                continue
            if to == self.me:
                self._expect(card)
                ready = ready and card not in self.game.unknown
            else:
                self._give(card, [to])
        return ready

    def _learn(self, card: int, name: str) -> None:
        self.game.learn(card, name)
        self.learnt.append((card, name, False))

    def _learn_to_all(self, card: int, name: str) -> None:
        self.game.learn(card, name, to_all=True)
        self.learnt.append((card, name, True))

    def take_learnt(self) -> tuple[Opened, Opened]:
        """What our engine learnt since this was last asked: the cards opened to every seat,
        and those opened to us alone, for the record's next step."""
        learnt, self.learnt = self.learnt, []
        opened = tuple((c, n) for c, n, to_all in learnt if to_all)
        return opened, tuple((c, n) for c, n, to_all in learnt if not to_all)

    def _my_key(self, card: int) -> bytes:
        slot = self.slots[card]
        return self.shuffles[slot.shuffle].position_key(slot.position)

    # ================================================================ messages

    def on_message(self, seat: int, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "seal":
            self._on_signer(seat, msg["signer"])
        if kind in ("seal", "pass"):
            self._shuffle_message(seat, kind, msg)
        elif kind == "keys":
            self._keep_release(seat, (seat, self.me, 0, msg["keys"], msg["sig"]))
            for card, key in msg["keys"]:
                self._key(seat, card, key)
        elif kind == "open":
            self._keep_release(seat, (seat, TO_ALL, msg["step"], msg["keys"], msg["sig"]))
            self._on_open(seat, msg["step"], msg["keys"])
        elif kind == "proof":
            self._on_proof(seat, msg["card"], msg["releases"])

    # ---------------------------------------------------------------- signed releases

    def _on_signer(self, seat: int, verify_key: bytes) -> None:
        """A seat's key for signing its releases, with each of its commitments: one a game."""
        known = self.verify_keys.setdefault(seat, verify_key)
        if known != verify_key:
            raise DeckCheat(seat, "it sent a second, other signing key")

    def _signed(self, release: Release) -> bool:
        sender, receiver, step, keys, sig = release
        key = self.verify_keys.get(sender)
        return key is not None and signed_by(key, sig, self.game_id, sender, receiver, step, keys)

    def _keep_release(self, seat: int, release: Release) -> None:
        """Check a release's signature as it arrives, and keep it for each card it holds: the
        proof we show every seat if those keys open to no card."""
        if not self._signed(release):
            kind = UnsignedRelease if release[1] == self.me else DeckCheat
            raise kind(seat, "it sent keys that its signing key did not sign")
        for card, _ in release[3]:
            self.releases.setdefault(card, {})[seat] = release

    def proof(self, err: BadOpening) -> dict[str, Any] | None:
        """What we show every seat when keys open to no card: the signed releases that
        brought us every other seat's key for that position."""
        where = (err.number, err.position)
        card = next((c for c, s in self.slots.items() if (s.shuffle, s.position) == where), None)
        kept = self.releases.get(card, {}) if card is not None else {}
        if card is None or not kept:
            return None
        releases = [
            [sender, receiver, step, [list(pair) for pair in keys], sig]
            for sender, receiver, step, keys, sig in (kept[s] for s in sorted(kept))
        ]
        return {"card": card, "releases": releases}

    def _on_proof(self, seat: int, card: int, releases: Sequence[Release]) -> None:
        """``seat`` shows the releases that brought it keys opening ``card`` to no card. Each
        must be signed by the seat it names and sent to ``seat`` (or to all), and together
        they must hold every other seat's key for the card. Their keys go into our audit,
        which names whoever sent a wrong one, or else ``seat`` (see Lockstep)."""
        slot = self.slots.get(card)
        if slot is None:
            raise DeckCheat(seat, f"it showed keys for card {card}, which no shuffle sealed")
        round_ = self.shuffles[slot.shuffle]
        shown: dict[int, bytes] = {}
        for release in releases:
            sender, receiver, _, keys, _ = release
            if sender == seat or receiver not in (seat, TO_ALL) or not self._signed(release):
                raise DeckCheat(seat, f"it showed a release of seat {sender} not signed to it")
            key = next((k for c, k in keys if c == card), None)
            if key is None:
                raise DeckCheat(seat, f"it showed a release of seat {sender} with no key for it")
            shown[sender] = key
        missing = [s for s in round_.log.seats if s != seat and s not in shown]
        if missing:
            raise DeckCheat(seat, f"its proof lacks the key of seat {missing[0]}")
        for sender, key in sorted(shown.items()):
            round_.log.released.append((sender, slot.position, key))
        self.proven_by = seat

    def _on_open(self, seat: int, step: int, keys: list[tuple[int, bytes]]) -> None:
        """``seat`` opens cards to all with its decision for ``step``: kept until our engine
        comes to that step (the seat may be ahead of us). The same again, sent after its link
        came back, changes nothing."""
        kept = self.openings.get(step)
        if step <= self.steps or (kept and (kept.seat, kept.keys) == (seat, list(keys))):
            return
        if not step <= self.steps + MAX_AHEAD or kept is not None:
            raise DeckCheat(seat, f"it opened cards for step {step}, which it cannot decide now")
        self.openings[step] = _Opening(seat, list(keys))

    def _check_opening(self, opening: _Opening) -> None:
        """The cards must be sealed cards of the seat's own hand: we take its keys and give
        ours to every other seat."""
        seat = opening.seat
        for card, key in opening.keys:
            if card not in self.slots or card not in self.game.players[seat].hand:
                raise DeckCheat(seat, f"it opened card {card}, which is not sealed in its hand")
            self._key(seat, card, key)
            self._give(card, [s for s in self.seats if s != seat])
        opening.checked = True

    # ================================================================ the audit

    def audit(self, secrets: dict[int, bytes]) -> dict[int, bytes]:
        """Check every shuffle against the game secrets the other seats revealed at the end
        (``secrets``: seat -> its secret), raising DeckCheat for the first seat that does not
        check out (one that revealed none refused the audit); then every seat's secret, ours
        included, for :meth:`replay`."""
        secrets = {**secrets, self.me: self.secret}
        by_key: dict[tuple[int, int], bytes] = {}
        for number in self.shuffles:
            for seat in self.seats:
                secret = secrets.get(seat)
                if secret is not None and len(secret) == SEED_BYTES:
                    by_key[(number, seat)] = shuffle_seed(secret, self.game_id, number)
        # (a shuffle the game ended before every seat committed to has no pass to check)
        logs = [r.log for _, r in sorted(self.shuffles.items()) if r.committed]
        audit(logs, by_key)
        return secrets

    def replay(self, steps: Iterable[Step], secrets: dict[int, bytes]) -> Game:
        """The whole game again, by an engine that knows every card (:func:`replay_known`,
        from every seat's game secret): it refuses what the seats' engines took on trust (a
        `done` claiming that no training card fits), naming the seat and the step. The
        replayed game, at the end."""
        game = Game(self.game.rules, self.game.setup)
        for _ in replay_known(game, steps, self.game_id, secrets):
            pass  # (one game, advanced in place)
        return game


def pass_seats(seats: Sequence[int], owner: int) -> list[int]:
    """The seats of a shuffle of ``owner``'s deck, in the order of their passes: every other
    seat in seat order, then the owner. At two seats the other seat's re-key pass is then the
    last, and its keys for the cards the owner draws go out with it, saving a trip."""
    return [s for s in seats if s != owner] + [owner]


def replay_known(
    game: Game, steps: Iterable[Step], game_id: bytes, secrets: Mapping[int, bytes]
) -> Iterator[tuple[Game, Step, list[tuple[int, str]]]]:
    """Play ``steps`` (a sealed game's, each with what a seat opened to all before it) on
    ``game``, naming every card of every sealed shuffle from the seats' game secrets (their
    orders composed: :func:`~.sealed_deck.deck_order`): the game after each step, with it and
    the cards it named after it. A step that does not hold with every card known raises
    DeckCheat naming its seat."""
    seats = list(game.rules.seating.seats)
    number = 0
    for step in steps:
        decision = step.decision
        chance = game.chance
        named: list[tuple[int, str]] = []
        try:
            step.open_in(game)
            game.apply(decision)
            if decision == ("sealed",) and chance is not None:
                number += 1
                fresh = sorted(game.unknown)  # (the shuffle's positions, top first)
                names = [game.cards[c] for c in fresh]  # (stand-ins: the names as they went in)
                order_seats = pass_seats(seats, chance["seat"])
                seeds = {s: shuffle_seed(secrets[s], game_id, number) for s in order_seats}
                order = deck_order(game_id, number, order_seats, seeds, len(fresh))
                named = [(card, names[i]) for card, i in zip(fresh, order, strict=True)]
                for card, name in named:
                    game.learn(card, name)
        except IllegalDecision as err:
            what = f"step {step.seq} does not hold with every card known: {err}"
            raise DeckCheat(step.seat, what) from None
        yield game, step, named


class AuditFault(ValueError):
    """What a sealed game's record does not bear out of its audit line: one sentence."""


def audit_fault(rules: Rules, record: Record) -> str | None:
    """What a sealed game's record does not bear out of its audit line (``record.audit``,
    every seat's game secret), as :func:`named_by_the_audit` finds it: one sentence, or None."""
    try:
        named_by_the_audit(rules, record)
    except AuditFault as fault:
        return str(fault)
    return None


def named_by_the_audit(rules: Rules, record: Record) -> dict[int, list[tuple[int, str]]]:
    """The whole game again with every sealed card named from the secrets of the record's
    audit line, each step's openings and decision holding and its public hash as recorded:
    the cards each sealed shuffle's step named, by the step's number (for ``crownp2p replay``
    after the audit), or AuditFault. (The passes and keys were checked at the table; the
    record keeps the secrets, not the commitments, so this shows that the game and the
    secrets agree.)"""
    secrets, game_id = record.audit or {}, record.game_id
    if game_id is None:
        raise AuditFault("the audit: the record has no game id")
    missing = [s for s in rules.seating.seats if s not in secrets]
    if missing:
        raise AuditFault(f"the audit: seat {missing[0]}'s game secret is missing")
    named_at: dict[int, list[tuple[int, str]]] = {}
    try:
        start = record.new_game(rules)
        for game, step, named in replay_known(start, record.steps, game_id, secrets):
            if game.table_hash() != step.hash:
                raise AuditFault(f"the audit: step {step.seq}'s hash differs with every card known")
            if named:
                named_at[step.seq] = named
    except DeckCheat as err:
        raise AuditFault(f"the audit: {err.what} (seat {err.seat})") from None
    except AuditFault:
        raise
    except (ValueError, KeyError) as err:  # (a record that cannot be set up, a bad secret)
        raise AuditFault(f"the audit does not replay: {err}") from None
    return named_at
