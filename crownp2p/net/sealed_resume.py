"""A sealed game taken up again after its peer stopped: the engine and its sealed decks rebuilt
from the record and the session file (docs/sealed-decks.md, "Resuming").

Our own part (every commitment, pass and key) follows from our game secret, which the session
file keeps; the other seats' part does not, so the session file keeps every sealed message they
sent us with the number of steps our game had applied when it came. The record's steps are
played again through a fresh :class:`~.sealed_cards.SealedCards`, each message fed again where
it came, in the order the Lockstep met them: after each step (and at the start) our part in a
pending chance (a shuffle, cards turned face up), then each message of that moment, our part
again after each; then the step, which must find every key it needs among what came before it
(a step that does not is cut: see :func:`rebuild`). Every hash must be the record's. What our
side sent comes out again, to be sent once the links are back (the same message again changes
nothing at the other end); what the others sent after we stopped they send again too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.decisions import Decision, IllegalDecision
from ..core.game import CHANCE, Game
from ..core.record import Record
from ..core.rules import Rules
from .errors import NetError
from .sealed_cards import SealedCards
from .sealed_deck import DeckCheat
from .sealed_round import BadOpening


class _Decider(Protocol):
    def decide(self, game: Game, seat: int) -> Decision | None: ...


Inbound = Sequence[tuple[int, int, dict[str, Any]]]  # (seat, steps applied then, message)


class _Short(Exception):
    """The rebuild cannot play step ``seq``: a message it waits for is not in the file."""

    def __init__(self, seq: int) -> None:
        self.seq = seq


def rebuild(
    rules: Rules,
    record: Record,
    *,
    seat: int,
    game_id: bytes,
    secret: bytes,
    signing_seed: bytes,
    inbound: Inbound,
    decider: _Decider | None = None,
) -> tuple[Game, SealedCards, dict[int, list[dict[str, Any]]], int]:
    """The game as our seat knew it after the record's steps, our sealed decks' state, every
    sealed message we had sent, by seat, in order, and how many of the record's steps that is;
    or NetError with one sentence. The decider is asked again at each of our past positions
    (its answer unused), so a bot's random source resumes where it was.

    A process killed outright may leave on disk the line of a step whose messages had not
    reached the session file yet (the two files are written apart and synced together). Such
    a step had not left the machine: our decisions leave only once all they depend on is
    synced. So the rebuild stops before it, and the record is cut there: the other seats send
    their steps and messages again after the sync, and our bot or player decides again."""
    kept = _Kept(rules, record, seat, game_id, secret, signing_seed, inbound)
    try:
        done = _play(kept, None, None)
    except _Short as short:
        return _play(kept, decider, short.seq - 1)
    # (the bot is asked at each of our past positions once, so a second run when there is one)
    return done if decider is None else _play(kept, decider, None)


@dataclass(frozen=True)
class _Kept:
    """What a rebuild reads: the rules, the record, and the session file's part."""

    rules: Rules
    record: Record
    seat: int
    game_id: bytes
    secret: bytes
    signing_seed: bytes
    inbound: Inbound


def _play(
    kept: _Kept, decider: _Decider | None, until: int | None
) -> tuple[Game, SealedCards, dict[int, list[dict[str, Any]]], int]:
    """The rebuild, up to step ``until`` (None: every step); _Short when a step waits for a
    message the file does not hold."""
    rules, record, seat = kept.rules, kept.record, kept.seat
    game_id, secret, inbound = kept.game_id, kept.secret, kept.inbound
    game = record.new_game(rules)
    cards = SealedCards(game, game_id, seat, secret, kept.signing_seed)
    sent: dict[int, list[dict[str, Any]]] = {}
    by_step: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for sender, applied, message in inbound:
        by_step.setdefault(applied, []).append((sender, message))

    def collect() -> None:
        for dest, message in cards.take_outbox():
            sent.setdefault(dest, []).append(message)

    def sealed_chance() -> bool:
        """Is chance to seal a shuffle or turn cards face up? (Its other events, such as the
        supply's piles, take a commit-reveal seed, which the record holds.)"""
        chance = game.chance
        return chance is not None and not game.over and chance["kind"] in ("shuffle", "open")

    def chance_part() -> Decision | None:
        if not sealed_chance():
            return None
        assert game.chance is not None
        decision = cards.shuffle() if game.chance["kind"] == "shuffle" else cards.face_up()
        collect()
        return decision

    def moment(applied: int) -> Decision | None:
        """Our part after ``applied`` steps, and each message that came then."""
        answer = chance_part()
        for sender, message in by_step.get(applied, []):
            cards.on_message(sender, message)
            collect()
            answer = answer or chance_part()
        return answer

    steps = record.steps[:until]
    try:
        for applied, step in enumerate(steps):
            answer = moment(applied)
            decision = step.decision
            try:
                if step.seat == CHANCE:
                    ready = answer == decision or not sealed_chance()
                elif step.seat == seat:
                    if decider is not None:
                        decider.decide(game, seat)
                    cards.ours(decision)
                    ready = cards.ours_ready(decision)
                else:
                    ready = cards.theirs(step.seat, decision)
                if not ready:
                    raise _Short(step.seq)
                game.apply(decision)
            except IllegalDecision:  # (a card whose key is not in the file is not known)
                raise _Short(step.seq) from None
            collect()
            cards.take_learnt()
            cards.after_step(step.seat, decision)
            collect()
            if game.table_hash() != step.hash:
                what = f"step {step.seq}'s hash differs"
                raise NetError(f"the sealed decks cannot be rebuilt: {what}")
        moment(len(steps))
    except _Short as short:
        if until is not None:  # (the second try, up to the step before: it must hold)
            raise NetError(
                f"the sealed decks cannot be rebuilt: step {short.seq} waits for a message "
                "the session file does not hold"
            ) from None
        raise
    except (DeckCheat, BadOpening, IllegalDecision) as err:
        raise NetError(f"the sealed decks cannot be rebuilt from the session file: {err}") from None
    return game, cards, sent, len(steps)
