"""Lockstep: one peer's view of a networked game, as a state machine without I/O.

The driver (session.py) feeds it what happens — a validated message from a seat, a link going up
or down, our own decision, the passing of time — and after each call takes the messages it
wants sent (:meth:`Lockstep.take_outbox`) once the newest step is hashed
(:meth:`Lockstep.settle`) and the journal has been synced, and the events that say what
happened (:meth:`Lockstep.take_events`, see events.py). All checks of what a peer sends live
here, so they can be tested without sockets:

* only the seat the game prompts may send the decision numbered ``seq``; the state hash it
  carries (of the state it was decided in) must equal ours, and it must be in our own legal
  list;
* every chance step is a commit-reveal round between all seats, numbered 1, 2, 3 … in the
  order they happen; each peer commits to its nonce for the next round as it reveals this one
  (and to the first at the start), so when a chance step comes only the reveals travel;
* cumulative acknowledgements carry each peer's hash, so every step is compared by everyone;
* after a reconnect both sides say what they have (``sync``) and each re-sends only what it
  decided itself, so no peer ever relays — and could forge — another's moves.

A bad input never touches the game: it is refused before :meth:`Game.apply` is called.

The game itself moves on core's :class:`~crownp2p.core.play.Play`, like every other game: each
remote seat's decider answers with the decision that arrived for the next seq (once it passed
the checks above), the chance decider with the seed of a commit-reveal round once every reveal
is in, and our own seat's with the decision handed to :meth:`Lockstep.decide`. Until one of
them has its answer, play waits; every step goes through :meth:`Play.apply` into the record.

The state hash after a step is left for later (:meth:`Lockstep.settle`): the driver tells the
step first, so the step's news does not wait for a fifth of a step's work. It is computed before
anything depends on it — the next step, a hash read or compared, the journal, a message leaving
(but a reveal, :meth:`Lockstep.take_reveals`).
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..core.decisions import Decision, IllegalDecision, decision_text
from ..core.game import CHANCE, Game
from ..core.play import Decider, Play
from ..core.record import CommitReveal, Record, Step
from . import crypto
from .events import (
    Asked,
    Audited,
    Chat,
    Ended,
    Event,
    LinkChanged,
    Outcome,
    PeerError,
    Started,
    StepApplied,
)
from .journal import Journal
from .messages import make
from .sealed_cards import SealedCards, UnsignedRelease
from .sealed_deck import DeckCheat, new_seed
from .sealed_round import BadOpening
from .throttle import Rate

log = logging.getLogger("crownp2p.net")
T = TypeVar("T")

MAX_AHEAD = 4096  # how far beyond our own seq a numbered message may reach (bounds memory)
HASH_WINDOW = 64  # hashes carried by a desync report
CLOCK_GRACE = 5.0  # seconds a peer's decision clock is given on ours, for its link's delay
CHAT_RATE = 2.0  # chat lines a second a seat may keep sending, after a burst of CHAT_BURST
CHAT_BURST = 20

NonceSource = Callable[[int], bytes]  # round -> this seat's nonce


@dataclass
class Round:
    """One chance step's commit-reveal round (numbered by chance steps: 1 is the first)."""

    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)
    deadline: float | None = None


class Lockstep:
    def __init__(
        self,
        game: Game,
        record: Record,
        *,
        seat: int,
        game_id: bytes,
        names: list[str],
        journal: Journal | None = None,
        nonces: NonceSource = lambda round_: crypto.new_nonce(),
        max_turns: int = 0,
        reveal_timeout: float = 60.0,
        reconnect_timeout: float = 120.0,
        clock: float | None = None,
        known_nonces: dict[int, bytes] | None = None,
        secret: bytes | None = None,
        signing_seed: bytes | None = None,
    ) -> None:
        self.game = game
        self.rules = game.rules
        self.record = record
        self.me = seat
        self.game_id = game_id
        self.names = names
        self.seats = list(self.rules.seating.seats)
        self.peers = [s for s in self.seats if s != seat]
        self.journal = journal or Journal(None)
        self.nonce_source = nonces
        self.max_turns = max_turns
        self.reveal_timeout = reveal_timeout
        self.reconnect_timeout = reconnect_timeout
        self.clock = clock  # each decision's time limit (None: no limit)

        self.started = False
        self.outcome: Outcome | None = None
        self.finish_pending: set[int] = set()
        self.left: set[int] = set()  # seats that said goodbye
        self.leave_text: dict[int, str] = {}
        self.my_turn = False

        self.up: dict[int, bool] = {s: False for s in self.peers}
        self.synced: dict[int, bool] = {s: False for s in self.peers}
        self.down_since: dict[int, float | None] = {s: None for s in self.peers}
        self.last_seq_from: dict[int, int] = {s: 0 for s in self.peers}
        self.decisions: dict[int, tuple[int, Decision, str]] = {}  # seq -> seat, decision, prev
        self.newest_from: dict[int, int] = {s: 0 for s in self.peers}
        # seq -> seat -> the hash it claims there: one per seat and seq, so a flood of
        # acknowledgements costs at most MAX_AHEAD entries per seat
        self.pending_hashes: dict[int, dict[int, str]] = {}
        self.acked: dict[int, int] = {s: 0 for s in self.peers}
        self.ack_sent_to: dict[int, int] = {s: 0 for s in self.peers}
        self.ack_turn = -1
        self.ours: Decision | None = None  # our decision, checked, until play applies it
        self.ours_ready = True  # (sealed decks) every card it opens to us is learnt
        self.rounds: dict[int, Round] = {}
        self.settled: CommitReveal | None = None  # the round behind the seed play applies next
        self.my_nonces: dict[int, bytes] = dict(known_nonces or {})
        self.chance_seqs = [step.seq for step in record.steps if step.seat == CHANCE]
        self.desync_from: set[int] = set()
        self.chat_rate = {s: Rate(CHAT_RATE, CHAT_BURST) for s in self.peers}
        self.waiting: int | None = None  # the seat play waits for (CHANCE: a round)
        self.clock_for: tuple[int, int] | None = None  # the seat and seq whose clock runs
        self.clock_started = 0.0

        self.outbox: list[tuple[int | None, dict[str, Any]]] = []
        self.events: list[Event] = []
        self._now = 0.0  # the time of the call that plays on (for the rounds' deadlines)
        self._logged = len(game.log)  # log lines already told with a step
        self._where = game.moment()
        self._unhashed: Step | None = None  # the newest step, until settle() hashes it
        # A peer's seat answers with its decision for the next seq once it has arrived and
        # passed every check; ours with what decide() was handed; chance with the
        # commit-reveal round's seed once every reveal is in. None until then.
        deciders: dict[int, Decider] = {s: _Answers(self._received) for s in self.peers}
        deciders[seat] = _Answers(lambda _: self._our_own())
        deciders[CHANCE] = _Answers(lambda _: self._chance_seed())
        # Without a record, Play does not hash: observe() records each step, settle() hashes it.
        self.play = Play(game, deciders, max_turns=max_turns, observers=[self])
        # Sealed decks (docs/sealed-decks.md): our part in the cards' cryptography, and the
        # audit at the end: the other seats' game secrets, the verdict once all are in.
        self.sealed: SealedCards | None = None
        # Every sealed message we sent each seat, for the re-send after its link comes back:
        # only we can send our passes and keys, and a lost one would stop the game.
        self.sealed_sent: dict[int, list[dict[str, Any]]] = {}
        self.secrets: dict[int, bytes] = {}
        self.audit_by: float | None = None  # when a seat that has not revealed has refused
        # Since when our game has waited for the same seats' sealed messages (None: it does
        # not): past reveal_timeout, the first of them forfeits.
        self.owed: tuple[list[int], float] | None = None
        self.audited = False
        self.early_secrets: dict[int, float] = {}  # seat -> when its secret came, game on
        self.bad_opening: str | None = None  # why keys that opened to no card stopped our game
        self.bad_opening_proof: dict[str, Any] | None = None  # the signed keys that did
        if game.setup.sealed:
            signing = signing_seed or new_seed()
            self.sealed = SealedCards(game, game_id, seat, secret or new_seed(), signing)

    # ================================================================ reading the state

    @property
    def applied(self) -> int:
        return len(self.record.steps)

    def hash_at(self, seq: int) -> str:
        if seq == 0:
            return self.record.start_hash
        if seq == self.applied:
            self.settle()
        return self.record.steps[seq - 1].hash

    def seat_name(self, seat: int) -> str:
        name = self.names[seat] if seat < len(self.names) else ""
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    def next_deadline(self) -> float | None:
        """When :meth:`on_tick` next has something to check."""
        times: list[float] = []
        if self._auditing():
            # Once every secret is in, at once: the audit runs at a tick, so that the end of
            # the game is told before the audit's CPU, not after.
            everyone = all(s in self.secrets for s in self.peers)
            assert self.audit_by is not None
            times.append(self._now if everyone else self.audit_by)
        if self.owed is not None and self.outcome is None:
            times.append(self.owed[1] + self.reveal_timeout)
        if self.outcome is None:
            times += [t + self.reconnect_timeout for t in self.down_since.values() if t is not None]
            times += [t + self.reveal_timeout for t in self.early_secrets.values()]
            r = self.rounds.get(self.round)
            if r is not None and r.deadline is not None:
                times.append(r.deadline)
            due = self._decision_due()
            if due is not None:
                times.append(due)
        return min(times) if times else None

    def clock_left(self, now: float) -> tuple[int, float] | None:
        """The seat whose decision clock runs, and the seconds left on it (None: no clock
        runs)."""
        if self.clock is None or self.clock_for is None or self.outcome is not None:
            return None
        return self.clock_for[0], self.clock_started + self.clock - now

    def take_outbox(self) -> list[tuple[int | None, dict[str, Any]]]:
        """The messages to send now; call only after :meth:`settle` and ``journal.sync()``."""
        out, self.outbox = self.outbox, []
        return out

    def take_reveals(self) -> list[tuple[int | None, dict[str, Any]]]:
        """The reveals at the head of the outbox: they may leave before the newest step is
        hashed and journalled (a reveal depends only on its nonce, on disk since its commitment
        left; one queued behind that commitment waits for it), and the peers wait for them."""
        n = 0
        while n < len(self.outbox) and self.outbox[n][1]["t"] == "reveal":
            n += 1
        if n == 0:
            return []  # (asked after every message read: no copy of the outbox then)
        out, self.outbox = self.outbox[:n], self.outbox[n:]
        return out

    def take_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    # ================================================================ sending

    def _send(self, to: int | None, kind: str, /, *, force: bool = False, **fields: Any) -> None:
        """Queue a message for seat ``to`` (None: every peer). Game messages wait for a link
        that has finished its ``sync``: the re-send after the sync covers them."""
        msg = make(kind, **fields)
        for dest in self.peers if to is None else [to]:
            if force or self.synced.get(dest):
                self.outbox.append((dest, msg))

    def _error(self, seat: int, code: str, text: str) -> None:
        # The link answers (and logs) it, within its budget of refusals (link.refuse).
        self.events.append(PeerError(seat, f"{text} [{code}]"))
        self.outbox.append((seat, make("error", code=code, text=text[:500])))

    # ================================================================ links

    def on_link_up(self, seat: int, now: float) -> None:
        self.up[seat] = True
        self.synced[seat] = False
        self.down_since[seat] = None
        # The peer re-sends everything it decided after our seq: forget what its old link left.
        self.last_seq_from[seat] = self.newest_from[seat] = self.applied
        for seq in [q for q, (who, _, _) in self.decisions.items() if who == seat]:
            del self.decisions[seq]
        # The windows (a reveal's, a decision's) keep running: a seat back inside them is in
        # time, and dropping the link never buys time.
        self._send(seat, "sync", force=True, seq=self.applied, hash=self.hash_at(self.applied))
        self.events.append(LinkChanged(seat, True))

    def on_link_down(self, seat: int, now: float) -> None:
        if not self.up.get(seat):
            return
        self.up[seat] = False
        self.synced[seat] = False
        self.down_since[seat] = now
        self.events.append(LinkChanged(seat, False))

    # ================================================================ the game flow

    def begin(self, now: float) -> None:
        if self.sealed is not None:  # (on disk before any commitment made with it leaves)
            self.journal.secret(self.sealed.secret, self.sealed.signing_seed)
        self.started = True
        self.events.append(Started())
        self.advance(now)

    def decide(self, decision: Decision, now: float, *, send_first: bool = False) -> None:
        """Our own decision for the position we are asked in: checked, queued for every peer,
        and applied. With ``send_first`` it is applied only by the next :meth:`advance`, so the
        caller can send it first and the peers check it while we apply it — unless the journal
        is durable: nothing leaves before it is on disk."""
        if not self.my_turn or self.outcome is not None:
            raise IllegalDecision("it is not this seat's turn to decide")
        decision = tuple(decision)
        if not self.game.is_legal(decision):
            raise IllegalDecision(self.game.why_illegal(decision))
        self.my_turn = False
        seq = self.applied + 1
        if self.sealed is not None:  # what the decision opens leaves before it
            self.settle()
            self.ours_ready = self.sealed.ours(decision)
            self._flush_sealed()
        # Our decision tells every peer what an acknowledgement of the step before it would
        # (its prev is our hash there): one still waiting to leave is not sent.
        self.outbox = [(d, m) for d, m in self.outbox if m["t"] != "ack" or m["seq"] != seq - 1]
        self._send(
            None,
            "decision",
            seq=seq,
            seat=self.me,
            decision=list(decision),
            prev=self.hash_at(seq - 1),
        )
        for dest in self.peers:
            self.ack_sent_to[dest] = seq  # our decision says we have it
        self.ours = decision
        if not send_first or self.journal.durable:
            self.advance(now)

    def advance(self, now: float) -> None:
        """Play on as far as the decisions in hand allow; end the game once it is over."""
        if not self.started or self.outcome is not None:
            return
        self._now = now
        waiting = self.waiting = self.play.run()
        if self.outcome is not None:
            return
        self._start_clock(waiting, now)
        self._watch_sealed(now)
        if self._judge_absent(now):
            return
        if self.play.finished and self._over():
            return  # the last step's hash differs from a peer's
        if self.game.over:
            self._natural_end()
        elif self.play.finished:
            each, odd = divmod(self.max_turns, len(self.game.rules.seating.seats))
            limit = f"{self.max_turns} turns in all" if odd else f"{each} turns each"
            self._natural_end(f"the turn limit of {limit} was reached")
        elif waiting == self.me and not self.my_turn and self.ours is None and not self._learning():
            self.my_turn = True
            self.events.append(Asked(self.applied + 1))

    def observe(self, game: Game, played: Step) -> None:
        """Play applied a step: record it and tell it; :meth:`settle` hashes it."""
        step = Step(self.applied + 1, played.seat, played.decision, "")
        self.record.steps.append(step)
        self._unhashed = step
        if step.seat == CHANCE:
            self.chance_seqs.append(step.seq)
            step.proof, self.settled = self.settled, None  # the record proves the seed
        elif step.seat != self.me:
            self.acked[step.seat] = max(self.acked[step.seat], step.seq)  # it is on its disk
        news = tuple(game.log[self._logged :])
        self._logged = len(game.log)
        self.events.append(StepApplied(step, news, self._where))
        if self.sealed is not None:
            # The record keeps what our engine learnt before the step, then we play our part
            # in what the step did (the keys for what it drew, the cards it made).
            step.opened, step.seen = self.sealed.take_learnt()
            self.sealed.after_step(step.seat, step.decision)
            self._flush_sealed()
        if step.seat == CHANCE:
            self._send_ack()  # at once: a chance step's hash is compared before anything after it

    def settle(self) -> None:
        """Hash the state after the newest step, journal the step and compare the hashes that
        waited for it (see the module: observe leaves this for later)."""
        step, self._unhashed = self._unhashed, None
        if step is None:
            return
        step.hash = self.game.table_hash()
        self.journal.step(step)
        for seat, h in self.pending_hashes.pop(step.seq, {}).items():
            if h != step.hash:
                self._desync(step.seq, seat)

    # ---------------------------------------------------------------- the seats' deciders

    def _answer(self, decision: Decision) -> Decision:
        """``decision`` is about to be applied: hash the state it leaves, and note where it was
        decided, for its event."""
        self.settle()
        self._where = self.game.moment()
        return decision

    def _unasked(self, prompted: int) -> bool:
        """Whether a peer decided the next seq though ``prompted`` is to decide (or the game has
        ended meanwhile): that peer forfeits, and play stops."""
        if self.outcome is not None:
            return True
        n = self.applied + 1
        entry = self.decisions.get(n)
        if entry is None or entry[0] == prompted:
            return False
        seat = entry[0]
        what = (
            "a chance step"
            if prompted == CHANCE
            else f"but {self.seat_name(prompted)} is to decide"
        )
        self._forfeit(seat, "out-of-turn", f"{self.seat_name(seat)} decided seq {n}, {what}")
        return True

    def _received(self, seat: int) -> Decision | None:
        """``seat``'s decision for the next seq, once it has arrived and passes every check."""
        if self._unasked(seat):
            return None
        n = self.applied + 1
        if n not in self.decisions:
            if self.newest_from[seat] > n:
                self._forfeit(
                    seat,
                    "bad-seq",
                    f"{self.seat_name(seat)} skipped seq {n}: its next decision is "
                    f"seq {self.newest_from[seat]}",
                )
            return None
        _, decision, prev = self.decisions[n]
        if self.sealed is not None and not self._sealed_ready(seat, decision):
            return None
        del self.decisions[n]
        if prev != self.hash_at(n - 1):
            self._desync(n - 1, seat)
            return None
        game = self.game
        if not game.is_legal(decision):
            self._forfeit(
                seat,
                "illegal-decision",
                f"{self.seat_name(seat)} sent `{decision_text(decision)}` as seq {n}, "
                f"which is not legal: {game.why_illegal(decision)}",
            )
            return None
        return self._answer(decision)

    def _our_own(self) -> Decision | None:
        if self._unasked(self.me) or self.ours is None:
            return None
        if self.sealed is not None and not self.ours_ready:
            # A card it opens to us alone (Astrology's look): applied once it is learnt.
            self.ours_ready = self._sealed_ready(self.me, self.ours)
            if not self.ours_ready:
                return None
        decision, self.ours = self.ours, None
        return self._answer(decision)

    def _chance_seed(self) -> Decision | None:
        """Play our part in the next chance step's commit-reveal round; its seed once every
        reveal is in."""
        if self._unasked(CHANCE):
            return None
        chance = self.game.chance
        if self.sealed is not None and chance is not None and chance["kind"] != "supply":
            return self._sealed_chance()
        k, now = self.round, self._now
        self._commit(k)
        r = self.rounds[k]
        if r.deadline is None:
            r.deadline = now + self.reveal_timeout
        if len(r.commits) == len(self.seats) and self.me not in r.reveals:
            # Every commitment is in: only now may anyone reveal (and only at the chance step
            # itself, or a player could steer its decisions knowing the coming shuffle).
            r.reveals[self.me] = self.my_nonces[k]
            self._send(None, "reveal", round=k, nonce=self.my_nonces[k])
            self._commit(k + 1)
            r.deadline = now + self.reveal_timeout
        if len(r.reveals) < len(self.seats):
            return None
        reveals = tuple(r.reveals[s] for s in self.seats)
        self.settled = CommitReveal(tuple(r.commits[s] for s in self.seats), reveals)
        seed = crypto.chance_seed(self.game_id, k, list(reveals))
        del self.rounds[k]
        return self._answer(("seed", seed))

    @property
    def round(self) -> int:
        """The number of the next chance step's commit-reveal round."""
        return len(self.chance_seqs) + 1

    def rounds_done_at(self, seq: int) -> int:
        """How many chance steps there are up to ``seq``."""
        return bisect.bisect_right(self.chance_seqs, seq)

    def _commit(self, k: int) -> None:
        """Fix our nonce for round ``k`` (on disk first) and send its commitment."""
        r = self.rounds.setdefault(k, Round())
        if k not in self.my_nonces:
            self.my_nonces[k] = self.nonce_source(k)
            self.journal.nonce(k, self.my_nonces[k])
        if self.me not in r.commits:
            r.commits[self.me] = crypto.commitment(self.game_id, k, self.me, self.my_nonces[k])
            self._send(None, "commit", round=k, commit=r.commits[self.me])

    def idle(self) -> None:
        """Nothing more is waiting to be read: acknowledge what we have, to each seat that
        decided something since our last word to it, and once a turn to everyone."""
        if not self.started:
            return
        self.settle()
        everyone = self.game.turn != self.ack_turn
        top = self.applied
        for dest in self.peers:
            since = self.ack_sent_to[dest]
            if top > since and (
                everyone or any(step.seat == dest for step in self.record.steps[since:top])
            ):
                self._ack(dest)
        if everyone:
            self.ack_turn = self.game.turn

    def _send_ack(self) -> None:
        for dest in self.peers:
            self._ack(dest)
        self.ack_turn = self.game.turn

    def _ack(self, dest: int) -> None:
        self.ack_sent_to[dest] = self.applied
        self._send(dest, "ack", seq=self.applied, hash=self.hash_at(self.applied))

    # ================================================================ sealed decks

    def _flush_sealed(self) -> None:
        assert self.sealed is not None
        for dest, msg in self.sealed.take_outbox():
            self.sealed_sent.setdefault(dest, []).append(msg)
            self._send_sealed(dest, msg)

    def _send_sealed(self, dest: int, msg: dict[str, Any]) -> None:
        fields = {k: v for k, v in msg.items() if k != "t"}
        self._send(dest, msg["t"], **fields)

    def _learning(self) -> bool:
        """Is a card opened to our seat still waiting for a key? Our seat decides after."""
        return self.sealed is not None and bool(self.sealed.missing())

    def _sealed(self, call: Callable[[], T]) -> T | None:
        """What ``call`` into our SealedCards returns, its messages queued; None once what
        a seat sent has ended the game: a cheat, or keys that open to no card."""
        self.settle()  # (a card opened to all changes the hash: the step before is hashed first)
        try:
            result = call()
        except DeckCheat as cheat:
            self._cheat(cheat)
            return None
        except BadOpening as err:
            self._bad_opening(err)
            return None
        self._flush_sealed()
        return result

    def _sealed_ready(self, seat: int, decision: Decision) -> bool:
        """May ``seat``'s decision be applied: is every card it opens to us learnt?"""
        cards = self.sealed
        assert cards is not None
        if seat == self.me:
            return bool(self._sealed(lambda: cards.ours_ready(decision)))
        return bool(self._sealed(lambda: cards.theirs(seat, decision)))

    def _sealed_chance(self) -> Decision | None:
        """Chance seals a shuffle or turns cards face up: our part, then its decision."""
        cards = self.sealed
        assert cards is not None and self.game.chance is not None
        call = cards.shuffle if self.game.chance["kind"] == "shuffle" else cards.face_up
        decision = self._sealed(call)
        return None if decision is None else self._answer(decision)

    def _on_sealed(self, seat: int, msg: dict[str, Any], now: float) -> None:
        """A shuffle's commitment or pass, keys, or a seat's openings (docs/protocol.md)."""
        cards = self.sealed
        if cards is None:
            self._error(seat, "unexpected", f"a `{msg['t']}` belongs to a sealed table")
            return
        if self._playing():
            # (kept with the steps our game had applied, for a resume to feed it again there)
            self.journal.sealed_in(seat, self.applied, msg)
            self._sealed(lambda: cards.on_message(seat, msg))
            self.advance(now)

    _on_seal = _on_pass = _on_keys = _on_open = _on_proof = _on_sealed

    def _watch_sealed(self, now: float) -> None:
        """Start or stop the window for the sealed messages our game waits for."""
        if self.sealed is None or self.outcome is not None:
            self.owed = None
            return
        owed = self.sealed.owed()
        if not owed:
            self.owed = None
        elif self.owed is None or self.owed[0] != owed:
            self.owed = (owed, now)

    def _judge_sealed(self, now: float) -> None:
        if self.owed is not None and now >= self.owed[1] + self.reveal_timeout:
            seat = self.owed[0][0]
            self._forfeit(
                seat,
                "late-seal",
                f"{self.seat_name(seat)} did not send its part of a sealed shuffle or a card's "
                f"key within {self.reveal_timeout:g} s",
            )

    def _judge_early_secrets(self, now: float) -> None:
        """A seat whose secret came while our game was on, and whose game's end has not
        reached us within reveal_timeout, stopped the game: its forfeit."""
        for seat, since in sorted(self.early_secrets.items()):
            if not self._over() and now >= since + self.reveal_timeout:
                reason = f"{self.seat_name(seat)} stopped the game for an audit"
                self._conclude_forfeit(seat, reason)

    def _cheat(self, cheat: DeckCheat) -> None:
        what = f"{self.seat_name(cheat.seat)} cheated: {cheat.what}"
        if isinstance(cheat, UnsignedRelease) and not self._over():
            # (what came to us alone we cannot show: the other seats stop with no proof)
            self._send(None, "end", seat=self.me, code="bad-opening", text=what[:500])
        self._forfeit(cheat.seat, "cheat", what)

    def _bad_opening(self, err: BadOpening) -> None:
        """Keys opened to no card: one of them is wrong, and only the audit says whose. Every
        peer is told first (as a resignation is: our secret follows the end), so that no seat
        waits a window for the message that ends its game."""
        if not self._over():
            assert self.sealed is not None
            self.bad_opening = str(err)[:500]
            self.bad_opening_proof = self.sealed.proof(err)
            self._tell_bad_opening(None)
            self._conclude("aborted", None, str(err))

    def _tell_bad_opening(self, seat: int | None) -> None:
        """The signed releases that brought us the keys, for every seat to check in its audit,
        then the end."""
        if self.bad_opening_proof is not None:
            self._send(seat, "proof", **self.bad_opening_proof)
        self._send(seat, "end", seat=self.me, code="bad-opening", text=self.bad_opening)

    def _begin_audit(self) -> None:
        """The game is over: reveal our game secret, and judge once every seat's is in."""
        assert self.sealed is not None
        self._send(None, "audit", force=True, secret=self.sealed.secret)
        # (twice the window: a seat whose game our secret alone ends waits one window for
        # the message that ended ours, and only then reveals its own)
        self.audit_by = self._now + 2 * self.reveal_timeout

    def _on_audit(self, seat: int, msg: dict[str, Any], now: float) -> None:
        if self.sealed is None:
            self._error(seat, "unexpected", "an `audit` belongs to a sealed table")
            return
        if seat in self.secrets:
            return  # (re-sent after a reconnect; the first one counts)
        self.secrets[seat] = msg["secret"]
        if self.outcome is None and self.started:
            # A seat reveals its secret only once its game is over. Ours may end an instant
            # later: at four seats the message that ended it may come by a slower link than
            # its secret. If ours has not ended within reveal_timeout, the seat stopped the
            # game, which is its forfeit (on_tick), unless the audit finds that someone cheated.
            self.early_secrets.setdefault(seat, now)

    def _auditing(self) -> bool:
        """Has the game ended, our secret gone out, and the verdict still to come?"""
        return (
            self.sealed is not None
            and not self.audited
            and self.outcome is not None
            and self.audit_by is not None
        )

    def _audit_check(self, now: float) -> None:
        """At a tick: the audit, once every seat's secret is in or its time is up."""
        if not self._auditing():
            return
        assert self.audit_by is not None and self.sealed is not None
        missing = [s for s in self.peers if s not in self.secrets]
        if missing and now < self.audit_by:
            return
        self.audited = True
        if missing:
            what = "it did not reveal its game secret for the audit"
            self._verdict(DeckCheat(missing[0], what))
            return
        try:
            secrets = self.sealed.audit(self.secrets)
            self.sealed.replay(self.record.steps, secrets)
        except DeckCheat as cheat:
            self._verdict(cheat)
            return
        shower = self.sealed.proven_by
        if shower is not None:  # (it showed keys that opened to no card, and every one is right)
            what = "it stopped the game for keys that opened to no card, but every key is right"
            self._verdict(DeckCheat(shower, what))
            return
        self.record.audit = secrets
        self.journal.audit(secrets)
        self.journal.sync()
        self.events.append(Audited(None, "the audit is clean: every shuffle and card checks out"))

    def _verdict(self, cheat: DeckCheat) -> None:
        """The audit names a seat: the game's result is its cheat, whatever it was before."""
        sides = self.rules.seating.sides
        others = sorted({sides[s] for s in self.seats} - {sides[cheat.seat]})
        reason = f"{self.seat_name(cheat.seat)} cheated: {cheat.what}"
        self.outcome = Outcome(
            "cheat",
            others[0] if len(others) == 1 else None,
            self.game.turn,
            self.hash_at(self.applied),
            self.applied,
            reason,
            self.me,
            cheat.seat,
        )
        self.journal.end(self.outcome.to_json())
        self.events.append(Audited(cheat.seat, reason))
        self.events.append(Ended(self.outcome))

    def finishing(self) -> bool:
        """Whether the ended game still waits on a peer: its last acknowledgement, or its
        game secret for the audit."""
        return bool(self.finish_pending) or (self.sealed is not None and not self.audited)

    # ================================================================ messages

    def on_message(self, seat: int, msg: dict[str, Any], now: float) -> None:
        """A schema-valid message from ``seat`` (whose link proved it is that seat)."""
        kind = msg["t"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            self._error(seat, "unexpected", f"a message `{kind}` is not expected during a game")
            return
        handler(seat, msg, now)

    def _playing(self) -> bool:
        return self.outcome is None

    def _over(self) -> bool:
        """Whether the game has ended, once the newest step's hash is compared: a difference
        there ends it first, as it would have had the step been hashed when applied."""
        self.settle()
        return self.outcome is not None

    def _on_error(self, seat: int, msg: dict[str, Any], now: float) -> None:
        log.warning("%s reports: %s [%s]", self.seat_name(seat), msg["text"], msg["code"])
        self.events.append(PeerError(seat, f"they report: {msg['text']}"))

    def _on_chat(self, seat: int, msg: dict[str, Any], now: float) -> None:
        rate = self.chat_rate[seat]
        if rate.allow(now):
            self.events.append(Chat(seat, msg["text"]))
        elif not rate.limited:
            rate.limited = True  # one sentence per outburst, not one per line dropped
            self._error(
                seat,
                "slow-down",
                f"{self.seat_name(seat)} chats faster than {CHAT_RATE:g} lines a second: "
                "its chat is dropped until it slows down",
            )

    def _on_sync(self, seat: int, msg: dict[str, Any], now: float) -> None:
        if self.synced[seat]:
            # One sync a link: its re-send is ours to pay once, not once per frame a flooder
            # sends (the refusal is shorter than the sync that asked).
            self._error(seat, "unexpected", "a second sync on one link")
            return
        have = msg["seq"]
        self.synced[seat] = True
        self.acked[seat] = max(self.acked[seat], have)
        self._check_hash(seat, have, msg["hash"])
        # Re-send what only we can send: our sealed decks' messages (each openings before the
        # decision it goes with), our own decisions, our commitments and reveals.
        for sent in self.sealed_sent.get(seat, []):
            self._send_sealed(seat, sent)
        if self.sealed is not None and self.audit_by is not None:
            self._send(seat, "audit", secret=self.sealed.secret)
        for step in self.record.steps[have:]:
            if step.seat == self.me:
                self._send(
                    seat,
                    "decision",
                    seq=step.seq,
                    seat=self.me,
                    decision=list(step.decision),
                    prev=self.hash_at(step.seq - 1),
                )
        their_rounds = self.rounds_done_at(have)
        for round_ in sorted(self.my_nonces):
            if round_ <= their_rounds:
                continue
            nonce = self.my_nonces[round_]
            done = round_ < self.round
            r = self.rounds.get(round_)
            if done or (r is not None and self.me in r.commits):
                self._send(
                    seat,
                    "commit",
                    round=round_,
                    commit=crypto.commitment(self.game_id, round_, self.me, nonce),
                )
            if done or (r is not None and self.me in r.reveals):
                self._send(seat, "reveal", round=round_, nonce=nonce)
        if self.started:
            self._send(seat, "ack", seq=self.applied, hash=self.hash_at(self.applied))
        if self.outcome is not None and self.outcome.culprit == self.me:
            self._send(seat, "end", seat=self.me, code="resign", text=self.outcome.reason[:500])
        elif self.bad_opening is not None:
            self._tell_bad_opening(seat)
        elif self.outcome is not None and self.outcome.result == "desync":
            self._send(seat, "desync", seq=self.outcome.seq, hashes=self._hash_window())
        self._finish_check()

    def _on_decision(self, seat: int, msg: dict[str, Any], now: float) -> None:
        if not self._playing():
            return
        seq, claimed = msg["seq"], msg["seat"]
        decision = tuple(msg["decision"])
        if claimed != seat:
            self._forfeit(
                seat,
                "impersonation",
                f"{self.seat_name(seat)} sent a decision signed as {self.seat_name(claimed)}",
            )
            return
        if seq <= self.applied:
            step = self.record.steps[seq - 1]
            if (step.seat, step.decision, self.hash_at(seq - 1)) == (seat, decision, msg["prev"]):
                self._error(seat, "replayed", f"seq {seq} was already applied; ignored")
            else:
                self._forfeit(
                    seat, "bad-seq", f"{self.seat_name(seat)} sent seq {seq}, which is decided"
                )
            return
        if seq <= self.last_seq_from[seat] or seq in self.decisions:
            old = self.decisions.get(seq)
            if old == (seat, decision, msg["prev"]):
                self._error(seat, "replayed", f"seq {seq} was already received; ignored")
            else:
                self._forfeit(
                    seat,
                    "bad-seq",
                    f"{self.seat_name(seat)} sent seq {seq} after seq {self.last_seq_from[seat]}",
                )
            return
        if seq > self.applied + MAX_AHEAD:
            self._forfeit(seat, "bad-seq", f"{self.seat_name(seat)} sent seq {seq}, far ahead")
            return
        self.last_seq_from[seat] = seq
        self.newest_from[seat] = max(self.newest_from[seat], seq)
        self.decisions[seq] = (seat, decision, msg["prev"])
        self.advance(now)

    def _on_commit(self, seat: int, msg: dict[str, Any], now: float) -> None:
        round_ = msg["round"]
        if not self._playing() or round_ < self.round:
            return  # a re-sent commitment of a round already done
        if round_ > self.round + MAX_AHEAD:
            self._forfeit(seat, "bad-seq", f"{self.seat_name(seat)} committed for round {round_}")
            return
        r = self.rounds.setdefault(round_, Round())
        old = r.commits.get(seat)
        if old is not None and old != msg["commit"]:
            self._forfeit(
                seat,
                "bad-commit",
                f"{self.seat_name(seat)} changed its commitment for round {round_}",
            )
            return
        r.commits[seat] = msg["commit"]
        self.advance(now)

    def _on_reveal(self, seat: int, msg: dict[str, Any], now: float) -> None:
        round_ = msg["round"]
        if not self._playing() or round_ < self.round:
            return
        r = self.rounds.get(round_)
        commit = r.commits.get(seat) if r is not None else None
        if r is None or commit is None:
            self._forfeit(
                seat,
                "bad-reveal",
                f"{self.seat_name(seat)} revealed for round {round_} before committing",
            )
            return
        if crypto.commitment(self.game_id, round_, seat, msg["nonce"]) != commit:
            self._forfeit(
                seat,
                "bad-reveal",
                f"{self.seat_name(seat)}'s reveal for round {round_} does not open its commitment",
            )
            return
        r.reveals[seat] = msg["nonce"]
        self.advance(now)

    def _on_ack(self, seat: int, msg: dict[str, Any], now: float) -> None:
        seq = msg["seq"]
        if seq > self.applied + MAX_AHEAD:
            self._error(seat, "bad-seq", f"an acknowledgement of seq {seq} is far ahead")
            return
        self.acked[seat] = max(self.acked[seat], seq)
        self._check_hash(seat, seq, msg["hash"])
        self._finish_check()

    def _check_hash(self, seat: int, seq: int, claimed: str) -> None:
        if seq <= self.applied:
            if self.hash_at(seq) != claimed:
                self._desync(seq, seat)
        else:
            self.pending_hashes.setdefault(seq, {}).setdefault(seat, claimed)

    def _on_end(self, seat: int, msg: dict[str, Any], now: float) -> None:
        # An end is only a seat's own resignation: no peer's word makes another seat lose, so
        # an end about anyone else (a seat that does not exist, too) is refused, not obeyed.
        named = msg["seat"]
        if named != seat:
            self._error(
                seat,
                "not-yours",
                f"{self.seat_name(seat)} sent an end about {self.seat_name(named)}: "
                "an end is only a seat's own resignation",
            )
            return
        if self._over():
            return
        if msg["code"] == "bad-opening" and self.sealed is not None:
            self._stopped_for_bad_keys(seat, msg["text"] or "keys sent to it opened to no card")
            return
        self._conclude_forfeit(seat, msg["text"] or f"{self.seat_name(seat)} resigned")

    def _stopped_for_bad_keys(self, seat: int, said: str) -> None:
        """``seat`` found keys sent to it that open to no card, or that their sender did not
        sign. With the signed releases that brought them (its ``proof``, taken already:
        SealedCards) the game ends for the audit, which names whoever signed a wrong key, or
        else ``seat`` (_audit_check). Without a proof nothing can be checked: at two seats the
        keys were ours, and ours are signed and right, so the claim is false, its forfeit; at
        more, the game ends with no result (a seat's forfeit would let whoever sent it what it
        cannot show win the game in the other records)."""
        assert self.sealed is not None
        reason = f"{self.seat_name(seat)} stopped the game, saying: {said}"
        if self.sealed.proven_by == seat:
            self._conclude("aborted", None, f"{reason}; the audit checks the keys it showed")
        elif len(self.seats) == 2:
            self._conclude_forfeit(seat, f"{reason}, and showed no signed keys")
        else:
            self._conclude("aborted", None, f"{reason}; no other seat can check what it was sent")

    def _on_leave(self, seat: int, msg: dict[str, Any], now: float) -> None:
        # A goodbye is not a verdict (a peer whose game ended for a reason we have yet to hear
        # says it too): the seat is gone for good, so whatever it owes, now or later, is its
        # forfeit at once (see _judge_absent).
        self.left.add(seat)
        self.leave_text[seat] = msg["text"]
        self.finish_pending.discard(seat)
        self.advance(now)

    def _on_desync(self, seat: int, msg: dict[str, Any], now: float) -> None:
        # A claim is checked against the hashes we hold: it ends the game only if a step it
        # names differs from ours (a peer whose state differs from ours finds such a step).
        self.settle()
        differs = [
            q for q, h in sorted(msg["hashes"]) if q <= self.applied and self.hash_at(q) != h
        ]
        if self.outcome is None and not differs:
            self._error(
                seat,
                "no-desync",
                f"{self.seat_name(seat)} reports a desync, but the hashes it names are ours",
            )
            return
        self.desync_from.add(seat)
        if self.outcome is None:
            self._conclude_desync(differs[0], f"{self.seat_name(seat)} reports a desync")
            self._send(None, "desync", seq=differs[0], hashes=self._hash_window(differs[0]))
        elif self.outcome.result == "desync" and differs and differs[0] < self.outcome.seq:
            self.outcome.seq = differs[0]
            self.outcome.reason = f"the states first differ after seq {differs[0]}"
        self._finish_check()

    # ================================================================ time

    def on_tick(self, now: float) -> None:
        self._audit_check(now)
        if self._over() or self._judge_absent(now):
            return
        self._judge_sealed(now)
        self._judge_early_secrets(now)
        if self._over():
            return
        due = self._decision_due()
        if due is not None and now >= due and self.clock_for is not None:
            seat, seq = self.clock_for
            text = f"{self.seat_name(seat)} did not decide seq {seq} within {self.clock:g} s"
            if seat == self.me:
                self._resign("late-decision", text)
            else:
                self._forfeit(seat, "late-decision", text)
            return
        for seat, since in self.down_since.items():
            if since is not None and now >= since + self.reconnect_timeout:
                self._conclude(
                    "aborted",
                    None,
                    f"lost contact with {self.seat_name(seat)} for {self.reconnect_timeout:g} s",
                )
                return
        n = self.round
        r = self.rounds.get(n)
        if r is None or r.deadline is None or now < r.deadline:
            return
        late = self._late(r)
        if late is not None:
            what = "commit" if late not in r.commits else "reveal"
            self._forfeit(
                late,
                f"late-{what}",
                f"{self.seat_name(late)} did not {what} for round {n} within "
                f"{self.reveal_timeout:g} s",
            )

    def _late(self, r: Round) -> int | None:
        """The first seat that owes round ``r`` its commitment or, once all are in, its
        reveal."""
        owing = [s for s in self.seats if s not in r.commits]
        if not owing:
            owing = [s for s in self.seats if s not in r.reveals]
        return owing[0] if owing else None

    def _owed(self, seat: int) -> str | None:
        """What ``seat`` owes the game now (None: nothing, as far as we can tell)."""
        if self.waiting == seat:
            return f"the decision for seq {self.applied + 1}"
        r = self.rounds.get(self.round) if self.waiting == CHANCE else None
        if r is None:
            return None
        if seat not in r.commits:
            return f"its commitment for round {self.round}"
        if len(r.commits) == len(self.seats) and seat not in r.reveals:
            return f"its reveal for round {self.round}"
        return None

    def _judge_absent(self, now: float) -> bool:
        """A seat that is gone (it said goodbye, or its link is down past the reconnect
        window) and owes something forfeits. Whether the game ended so."""
        for seat in self.peers:
            since = self.down_since[seat]
            gone = seat in self.left or (
                since is not None and now >= since + self.reconnect_timeout
            )
            owed = self._owed(seat) if gone else None
            if owed is None:
                continue
            if seat in self.left:
                text = f"{self.seat_name(seat)} left the table owing {owed}"
                if self.leave_text.get(seat):
                    text += f": {self.leave_text[seat]}"
                self._forfeit(seat, "left", text)
            else:
                self._forfeit(
                    seat,
                    "gone",
                    f"{self.seat_name(seat)} owed {owed} and was out of contact for "
                    f"{self.reconnect_timeout:g} s",
                )
            return True
        return False

    def _start_clock(self, waiting: int | None, now: float) -> None:
        """Start the decision clock of the seat play now waits for, unless it already runs."""
        if waiting is None or waiting == CHANCE:
            self.clock_for = None
        elif self.clock_for != (waiting, self.applied + 1):
            self.clock_for = (waiting, self.applied + 1)
            self.clock_started = now

    def _decision_due(self) -> float | None:
        """When the running decision clock is judged: a peer's a little after its own end, so
        the seat's own verdict on itself (an end) arrives first and everyone gives the same
        reason."""
        if self.clock is None or self.clock_for is None:
            return None
        grace = 0.0 if self.clock_for[0] == self.me else CLOCK_GRACE
        return self.clock_started + self.clock + grace

    # ================================================================ local actions

    def resign(self, text: str = "") -> None:
        self._resign(
            "resign", f"{self.seat_name(self.me)} resigned" + (f": {text}" if text else "")
        )

    def _resign(self, code: str, reason: str) -> None:
        """Our own seat loses (we resign, or our clock ran out): we tell every peer."""
        if self._over():
            return
        # (first: with sealed decks our game secret then follows the end on every link, and no
        # peer holds it waiting for the end, see _on_audit)
        self._send(None, "end", seat=self.me, code=code, text=reason[:500])
        self._conclude_forfeit(self.me, reason)

    def chat(self, text: str) -> None:
        self._send(None, "chat", text=text[:500])

    def leave_messages(self, text: str = "") -> None:
        """Say goodbye to every peer (the session then closes its links)."""
        for seat in self.peers:
            if self.up.get(seat):
                self.outbox.append((seat, make("leave", text=text[:500])))

    def abort(self, reason: str) -> Outcome:
        """End the game without a result (the table did not start, the user left early)."""
        if not self._over():
            self._conclude("aborted", None, reason)
        assert self.outcome is not None
        return self.outcome

    def refuse(self, seat: int, code: str, text: str) -> None:
        """Tell ``seat`` (and the log) that we refuse what it sent."""
        self._error(seat, code, text)

    # ================================================================ endings

    def _hash_window(self, upto: int | None = None) -> list[list[Any]]:
        top = self.applied if upto is None else min(upto, self.applied)
        low = max(0, top - HASH_WINDOW + 1)
        return [[q, self.hash_at(q)] for q in range(low, top + 1)]

    def _desync(self, seq: int, seat: int) -> None:
        # A difference found after the game ended by itself (in the final acknowledgements)
        # still makes it a desync; after a forfeit or a desync there is nothing left to judge.
        if self.outcome is not None and self.outcome.result in ("forfeit", "desync"):
            return
        self._error(
            seat,
            "hash-mismatch",
            f"the state hash after seq {seq} differs from {self.seat_name(seat)}'s",
        )
        self._conclude_desync(
            seq, f"the state hash after seq {seq} differs from {self.seat_name(seat)}'s"
        )
        self._send(None, "desync", seq=seq, hashes=self._hash_window(seq))

    def _conclude_desync(self, seq: int, reason: str) -> None:
        self._conclude("desync", None, reason, seq=seq)
        self.finish_pending = {s for s in self.peers if s not in self.desync_from}

    def _forfeit(self, seat: int, code: str, text: str) -> None:
        """``seat`` broke the rules of the protocol or let a window pass: the game ends as its
        forfeit, for us. Only ``seat`` is told (an error): every other peer judges from what
        it received itself."""
        if self._over():
            return
        self._error(seat, code, text)
        self._conclude_forfeit(seat, text)

    def _conclude_forfeit(self, loser: int, reason: str) -> None:
        sides = self.rules.seating.sides
        others = sorted({sides[s] for s in self.seats} - {sides[loser]})
        winner = others[0] if len(others) == 1 else None
        self._conclude("forfeit", winner, reason, culprit=loser)

    def _natural_end(self, reason: str = "") -> None:
        game = self.game
        if game.over:
            mine = self.rules.seating.sides[self.me]
            if game.winner is None:
                result, reason = "draw", "the game is drawn"
            else:
                result = "win" if game.winner == mine else "loss"
                reason = f"{game.side_name(game.winner)} wins"
            self._conclude(result, game.winner, reason)
        else:
            self._conclude("aborted", None, reason)
        self.finish_pending = {s for s in self.peers if self.acked[s] < self.applied}
        self._send_ack()

    def _conclude(
        self,
        result: str,
        winner: int | None,
        reason: str,
        *,
        seq: int | None = None,
        culprit: int | None = None,
    ) -> None:
        self.my_turn = False
        self.outcome = Outcome(
            result,
            winner,
            self.game.turn,
            self.hash_at(self.applied),
            self.applied if seq is None else seq,
            reason,
            self.me,
            culprit,
        )
        self.finish_pending = set()
        self.journal.end(self.outcome.to_json())
        self.events.append(Ended(self.outcome))
        if self.sealed is not None and self.started and not self.audited:
            self._begin_audit()

    def _finish_check(self) -> None:
        if self.outcome is not None and self.outcome.result not in ("forfeit", "desync"):
            self.finish_pending = {
                s
                for s in self.finish_pending
                if self.acked[s] < self.applied and s not in self.left
            }


# ---------------------------------------------------------------------- the Play's deciders


class _Answers:
    """A seat's decider inside the lockstep: ``answer(seat)`` says what is in hand for it."""

    def __init__(self, answer: Callable[[int], Decision | None]) -> None:
        self.answer = answer

    def decide(self, game: Game, seat: int) -> Decision | None:
        return self.answer(seat)

    def observe(self, game: Game, step: Step) -> None:
        pass
