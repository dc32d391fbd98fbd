"""The game: one decider at a time, every legal decision listed, deterministic.

``Game`` is the top of the engine: the game's data (state.py) with its rules and primitives
(mechanics.py), and here the loop that runs them. At every point it has a :class:`Prompt`
naming who decides (a seat, or ``CHANCE`` for a shuffle) and :meth:`legal` lists every
decision that seat may take; :meth:`apply` takes one. Chance decisions are ``("seed", HEX64)``:
the seed comes from outside (a local source in solo play, a commit-reveal round between peers).

Card effects run as *frames* on a stack: a frame names the card and effect being resolved and
the index of its current step (see steps.py), so the whole state, mid-card included, is plain
data that can be hashed, saved and restored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple, cast

import msgpack  # type: ignore[import-untyped]

from . import snapshot
from .board import SQUARE_NAMES, SQUARES, parse_square
from .cards import ACTION, ORDER, TRAINING, TREASURE, CardType
from .decisions import Decision, IllegalDecision, decision_text, not_possible
from .keys import TREASURES_BEFORE
from .mechanics import Mechanics, distinct
from .memo import Memo
from .movement import MOVE_DECISIONS, UnitMove
from .position import FROZEN_NOW, AttackMap, Unit
from .rules import Rules
from .setup import Setup
from .shuffle import choose_indices, parse_seed, shuffle
from .state import Frame, GameState
from .steps import SYSTEM_STEPS, EffectStep
from .units import UnitType

CHANCE = -1
END: Decision = ("end",)


@dataclass(frozen=True)
class Prompt:
    seat: int  # CHANCE for a chance decision
    kind: str  # order, action, buy, shuffle, supply, or a card step's kind
    text: str


@dataclass(frozen=True)
class Moment:
    """Where in the game a decision is taken: the turn, the phase, and the card whose effect
    it belongs to (None: a decision of the phase itself, a march or a buy)."""

    turn: int
    phase: str
    card: str | None


class Passed(NamedTuple):
    """A phase the engine ended by itself, as nothing more could be done in it: its orders,
    actions or buys were used up (``used_up``), or none of them could be used. ``at`` is where
    in the log it ended. Kept for the shell to say so; it is not part of the state. (A named
    tuple: made for most phases of every turn, and a frozen dataclass is slower to make.)"""

    turn: int
    seat: int
    phase: str
    used_up: bool
    at: int


class Game(Mechanics):
    """The engine loop on top of the game's mechanics: who decides, what is legal, applying a
    decision and running everything that follows up to the next prompt."""

    def __init__(self, rules: Rules, setup: Setup | None = None, *, _empty: bool = False) -> None:
        super().__init__(rules, setup)
        self.passed: list[Passed] = []  # every phase ended by itself, in order
        self._attacks: AttackMap | None = None  # attack_map() until the next decision
        # The groups of the phase's decisions not listed yet (see _only_end).
        self._unlisted: Iterator[dict[Decision, Any]] | None = None
        # The steps of each effect of a frame's card, looked up several times a decision (the
        # rules' cards are fixed, so a copy of the game shares the table). By the card's name
        # alone: a look-up by name and effect would make and hash a tuple every time.
        self._frame_steps: Memo[str, tuple[tuple[EffectStep, ...], ...]] = Memo(
            partial(_effect_steps, rules)
        )
        if not _empty:
            self._start()

    # ================================================================ the public interface

    def prompt(self) -> Prompt:
        if self.over:
            return Prompt(CHANCE, "over", "the game is over")
        if self.chance is not None:
            kind = self.chance["kind"]
            if kind == "supply":
                return Prompt(CHANCE, "supply", "chance: choose the random Supply piles")
            if kind == "open":
                count = len(self.chance["cards"])
                return Prompt(CHANCE, "open", f"chance: turn {count} card(s) face up")
            seat = self.chance["seat"]
            return Prompt(CHANCE, "shuffle", f"chance: shuffle {self.seat_name(seat)}'s deck")
        if self.stack:
            frame = self.stack[-1]
            step = self._step(frame)
            return Prompt(step.decider(self, frame), step.kind, step.describe(self, frame))
        return Prompt(self.active, self.this_turn.phase, self._phase_text())

    def moment(self) -> Moment:
        """Where a decision taken now belongs (see :class:`Moment`)."""
        return Moment(self.turn, self.this_turn.phase, self.stack[-1].card if self.stack else None)

    @property
    def to_decide(self) -> int:
        """``prompt().seat`` without the prompt's words (a play loop asks it every decision)."""
        if self.over or self.chance is not None:
            return CHANCE
        if self.stack:
            frame = self.stack[-1]
            return self._step(frame).decider(self, frame)
        return self.active

    def legal(self) -> list[Decision]:
        """Every decision the prompted seat may take now, in a fixed order."""
        return list(self._legal_map())

    def is_legal(self, decision: Decision) -> bool:
        return self._lookup(tuple(decision))[0]

    def apply(self, decision: Decision) -> None:
        decision = tuple(decision)
        if self.over:
            raise IllegalDecision("the game is over")
        if self.chance is not None:
            self._apply_chance(decision)
        else:
            legal, payload = self._lookup(decision)
            if not legal:
                raise IllegalDecision(self.why_illegal(decision))
            if self.stack:
                frame = self.stack[-1]
                if self._step(frame).choose(self, frame, decision, payload):
                    frame.pc += 1
            else:
                self._apply_phase(decision, payload)
        self._forget_legal()
        self._attacks = None
        self._run()

    def learn(self, card: int, name: str, *, to_all: bool = False) -> None:
        """This engine learns a card of a sealed game: opened to its seat (a draw), or to every
        seat (``to_all``: before a decision takes it from the hand). See
        :meth:`GameState.learn`; an opening that contradicts the game is refused."""
        super().learn(card, name, to_all=to_all)
        self._forget_legal()

    def openings(self, decision: Decision) -> list[tuple[int, int | None]]:
        """What the deciding seat opens before it sends ``decision``, in a sealed game, so that
        every engine can check it and follow: each card of a hand or deck that the decision
        moves where all see it (to every seat: None), and each card of a hand it lets a seat
        look at (Astrology: to that seat). Asked of the deciding seat's own engine; each
        opening is then learnt (:meth:`learn`) before the decision is applied."""
        if not self.setup.sealed or self.chance is not None:
            return []
        ahead = self.clone()
        ahead.looks = []
        before = [c for p in ahead.players for c in p.deck + p.hand if c not in ahead.shown]
        ahead.apply(decision)
        still = {c for p in ahead.players for c in p.deck + p.hand}
        opened: list[tuple[int, int | None]] = [(c, None) for c in before if c not in still]
        for viewer, _, cards in ahead.looks:
            opened += [(c, viewer) for c in cards if c not in self.shown]
        return opened

    def attack_map(self) -> AttackMap:
        """Which squares each side attacks and from where (:class:`~.position.AttackMap`), made
        once per decision: "is this unit threatened", "is my Sovereign attacked" are then
        look-ups. (For a search's evaluation and the screen's "under attack".)"""
        if self._attacks is None:
            self._attacks = self.position.attack_map()
        return self._attacks

    def state_hash(self) -> str:
        """SHA-256 of the canonical encoding of the full state: equal on every machine."""
        return hashlib.sha256(canonical(self.to_json())).hexdigest()

    def public_hash(self) -> str:
        """SHA-256 of what every seat knows (:func:`snapshot.public`), the hash sealed decks
        compare: no hidden card changes it, so it tells nothing to anyone who tries guesses."""
        return hashlib.sha256(canonical(snapshot.public(self, self.rules))).hexdigest()

    def table_hash(self) -> str:
        """The hash peers compare and records keep: the full state's with open decks; with
        sealed decks what every seat knows, the only one every seat's engine can compute."""
        return self.public_hash() if self.setup.sealed else self.state_hash()

    def to_json(self) -> dict[str, Any]:
        return snapshot.to_json(self)

    @classmethod
    def from_json(cls, rules: Rules, data: dict[str, Any]) -> Game:
        """The game in an explicit state (docs/state.md), run on to its next prompt."""
        game = cls(rules, snapshot.setup_of(data), _empty=True)
        snapshot.load(game, rules, data)
        game._run()
        return game

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (:func:`snapshot.view`), with the prompt, and the legal
        decisions when they are its own."""
        seen = snapshot.view(self, self.rules, seat)
        prompt = self.prompt()
        seen["prompt"] = {"seat": prompt.seat, "kind": prompt.kind, "text": prompt.text}
        if prompt.seat == seat:
            seen["legal"] = [decision_text(d) for d in self.legal()]
        return seen

    def clone(self) -> Game:
        """An independent copy that plays on alone: equal state hash, the same legal decisions
        in the same order, and nothing shared that either one changes."""
        copy = self.copy()
        copy._forget_legal()  # (the phase's unlisted decisions would come from the original)
        copy.passed = list(self.passed)  # the engine's own note, not the state's: copied here
        return copy

    # ================================================================ turn flow

    def _start(self) -> None:
        for seat in self.rules.seating.seats:
            for name in self.setup.deck_list():
                self.players[seat].deck.append(self.new_card(name))
            sovereign = self.rules.units.get(self.setup.sovereign)
            for sq in self.rules.home_squares(seat):
                self.place(Unit(sovereign, seat), parse_square(sq))
        frames = [Frame("#supply", 0, self.active, "system")]
        frames += [Frame("#deal", 0, seat, "system") for seat in self.rules.seating.seats]
        frames.append(Frame("#begin", 0, self.active, "system"))
        self.stack = list(reversed(frames))
        self._run()

    def _run(self) -> None:
        """Carry out everything that needs no decision, up to the next prompt."""
        while not self.over and self.chance is None:
            if self.stack:
                frame = self.stack[-1]
                steps = self._steps(frame)
                if frame.pc >= len(steps):
                    self.stack.pop()
                    continue
                if steps[frame.pc].enter(self, frame):
                    frame.pc += 1
                    continue
                return
            if not self._advance_phase():
                return

    def _advance_phase(self) -> bool:
        """Move past a phase in which nothing at all can be done; False when a prompt waits."""
        if self._skip_empty_phase():
            self._forget_legal()  # listed for the phase just left
            return True
        return False

    def _skip_empty_phase(self) -> bool:
        turn = self.this_turn
        if turn.phase == ORDER and (turn.orders == 0 or self._only_end_known()):
            self._passed(turn.orders == 0)
            self._end_orders()
            return True
        if turn.phase == ACTION and (turn.actions == 0 or self._only_end_known()):
            self._passed(turn.actions == 0)
            turn.phase = "buy"
            return True
        if turn.phase == "buy" and self._only_end_known():
            self._passed(turn.buys == 0)
            turn.phase = "housekeeping"
            self.stack.append(Frame("#housekeeping", 0, self.active, "system"))
            return True
        return False

    def _passed(self, used_up: bool) -> None:
        phase = self.this_turn.phase
        self.passed.append(Passed(self.turn, self.active, phase, used_up, len(self.log)))

    def _end_orders(self) -> None:
        self.this_turn.phase = ACTION
        self.rules.orders_ended(self, self.active)

    def _only_end_known(self) -> bool:
        """Is `end` all the phase offers, as every seat can tell? In a sealed game a card of
        the hand that only its seat has seen may be playable, so while the hand holds one the
        phase waits for its seat's `end` (but for the buy phase once a card is bought: no more
        Treasures then, and the rest is public)."""
        turn = self.this_turn
        if self.hides_hand(self.active) and not (turn.phase == "buy" and turn.bought):
            return False
        return self._only_end()

    def _only_end(self) -> bool:
        """Is `end` all the phase offers? Its decisions are listed only as far as the first
        group that has any (`end` comes last, alone); the rest wait until someone asks for them
        (see :meth:`_lookup`), which a search that never looks at a position's decisions does
        not."""
        groups = self._phase_options()
        first = next(groups)
        while not first:
            first = next(groups)
        if END in first:
            next(groups, None)  # (finished, not closed: closing a suspended generator costs)
            self._legal, self._unlisted = first, None
            return True
        self._legal, self._unlisted = first, groups
        return False

    # ================================================================ legal decisions

    def _forget_legal(self) -> None:
        self._legal, self._unlisted = None, None

    def _legal_map(self) -> dict[Decision, Any]:
        if self._legal is None:
            if self.over or self.chance is not None:
                self._legal = {}
            elif self.stack:
                frame = self.stack[-1]
                self._legal = self._step(frame).options(self, frame)
            else:
                self._legal = {}
                for group in self._phase_options():
                    self._legal.update(group)
        elif self._unlisted is not None:
            for group in self._unlisted:
                self._legal.update(group)
            self._unlisted = None
        return self._legal

    def _lookup(self, decision: Decision) -> tuple[bool, Any]:
        """Is ``decision`` legal, and its payload: lists the phase's decisions only as far as
        ``decision``."""
        legal = self._legal_map() if self._legal is None or self._unlisted is None else self._legal
        if decision in legal:
            return True, legal[decision]
        if self._unlisted is not None:
            for group in self._unlisted:
                legal.update(group)
                if decision in group:
                    return True, group[decision]
            self._unlisted = None
        return False, None

    def _phase_options(self) -> Iterator[dict[Decision, Any]]:
        """The phase's decisions in their fixed order, each once, `end` last and alone: in
        groups (the unit orders, the deploys, each card, the buys), each made whole at once,
        so that a card is probed only when the listing gets that far."""
        seat, turn = self.active, self.this_turn
        if turn.phase == ORDER and turn.orders > 0:
            yield dict(map(MOVE_OFFERS.__getitem__, self.unit_orders(seat)))
            deploys: dict[Decision, Any] = {}
            for kind in self.distinct_barracks(seat, as_order=True):
                offers = DEPLOY_OFFERS[kind]
                deploys.update(map(offers.__getitem__, self.position.deploy_squares(seat, kind)))
            yield deploys
            if not self.order_lock[seat] & FROZEN_NOW:
                yield from self._card_options(seat, ORDER)
        elif turn.phase == ACTION and turn.actions > 0:
            yield from self._card_options(seat, TRAINING)
            yield from self._card_options(seat, ACTION)
        elif turn.phase == "buy":
            if not turn.bought:
                yield from self._card_options(seat, TREASURE)
            if turn.buys > 0:
                prices, gold = self.prices(), turn.gold
                yield {
                    (buy := BUY_DECISIONS[name]): buy
                    for name, count in self.supply.items()
                    if count > 0 and prices[name] <= gold
                }
        yield {END: END}

    def _card_options(self, seat: int, kind: str) -> Iterator[dict[Decision, Any]]:
        """One group for each card of the hand that may be played for ``kind``."""
        hand = self.players[seat].hand
        numbers_of = self.rules.cards.numbers(kind)
        for name in self.hand_names(seat):
            numbers = numbers_of.get(name)
            if numbers is None:  # a name not as the registry spells it
                numbers = self.card_type(name).effect_numbers(kind)
            if not numbers:
                continue
            if kind == TRAINING:  # one decision, whichever effect (the last, as always)
                yield {("train", name): ("train", name, numbers[-1] - 1)}
                continue
            card = self.card_type(name)
            if kind == TREASURE:  # one decision too: the last effect that would do something
                for number in reversed(numbers):
                    if self._could_do_something(seat, card, number - 1, kind, hand):
                        yield {("treasure", name): ("play", name, number - 1)}
                        break
                continue
            for number in numbers:
                if self._could_do_something(seat, card, number - 1, kind, hand):
                    yield {("play", name, str(number)): ("play", name, number - 1)}

    def _could_do_something(
        self, seat: int, card: CardType, index: int, kind: str, hand: list[int]
    ) -> bool:
        """Judged as if the card had left the hand, as it will when played."""
        effect = card.effects[index]
        if effect.always_does_something:
            return True
        cards, name = self.cards, card.name
        position = 0
        while cards[hand[position]] != name:
            position += 1
        held = hand.pop(position)
        try:
            probe = Frame(name, index, seat, kind)
            for step in cast("tuple[EffectStep, ...]", effect.steps):  # (as _steps says)
                if step.counts and step.possible(self, probe):
                    return True
            return False
        finally:
            hand.insert(position, held)

    # ================================================================ applying phase decisions

    def _apply_phase(self, decision: Decision, payload: Any) -> None:
        seat, turn = self.active, self.this_turn
        what = payload[0]
        if what == "end":
            self.note(f"{self.seat_name(seat)}: ends the {turn.phase} phase")
            if turn.phase == ORDER:
                self._end_orders()
            elif turn.phase == ACTION:
                turn.phase = "buy"
            else:
                turn.phase = "housekeeping"
                self.stack.append(Frame("#housekeeping", 0, seat, "system"))
        elif what == "move":
            turn.orders -= 1
            turn.order_moved = []
            self.perform(payload[1], seat, as_order=True)
        elif what == "deploy":
            turn.orders -= 1
            turn.order_moved = []
            self.deploy(seat, payload[1], payload[2], as_order=True)
        elif what == "train":
            self.train(seat, payload[1])
            turn.actions -= 1
        elif what == "play":
            self.play(seat, payload[1], payload[2])
        elif what == "buy":
            name = payload[1]
            turn.gold -= self.cost(name)
            turn.buys -= 1
            turn.bought = True
            self.gain(seat, name)
            self.note(f"{self.seat_name(seat)}: buys {name}")

    def play(self, seat: int, name: str, index: int) -> None:
        card = self.card_type(name)
        effect = card.effects[index]
        card_id = self.take_from_hand(seat, name)
        self.players[seat].in_play.append(card_id)
        frame = Frame(name, index, seat, effect.kind)
        turn = self.this_turn
        if effect.kind == ORDER:
            turn.orders -= 1
            turn.order_moved = []
        elif effect.kind == ACTION:
            turn.actions -= 1
        elif effect.kind == TREASURE:
            frame.put(TREASURES_BEFORE, turn.treasures)
            turn.treasures += 1
        self.note(f"{self.seat_name(seat)}: plays {name} ({effect.kind})")
        self.stack.append(frame)

    def train(self, seat: int, name: str) -> None:
        card = self.card_type(name)
        card_id = self.take_from_hand(seat, name)
        self.trash.append(card_id)
        kind = self.rules.units.get(card.trains or "")
        self.position.barracks[seat].extend([kind] * card.train_count)
        many = f"{card.train_count} {kind.name}s" if card.train_count > 1 else f"a {kind.name}"
        self.note(f"{self.seat_name(seat)}: trains {many} with {name}")

    # ================================================================ chance

    def _chance_words(self) -> str:
        assert self.chance is not None
        kind = self.chance["kind"]
        if kind == "open":
            return "Chance is to decide: the only decision is `open` and each card's name"
        if kind == "shuffle" and self.setup.sealed:
            return "Chance is to decide: `sealed`, or `seed HEX64` for a shuffle all may know"
        return "Chance is to decide: the only decision is `seed HEX64`"

    def _apply_chance(self, decision: Decision) -> None:
        chance = self.chance
        assert chance is not None
        if chance["kind"] == "open":
            self._open(chance["cards"], decision)
            return
        if chance["kind"] == "shuffle" and self.setup.sealed and decision == ("sealed",):
            self.chance = None
            self._seal_shuffle(chance["seat"], None)
            return
        if len(decision) != 2 or decision[0] != "seed":
            raise IllegalDecision(self._chance_words())
        try:
            seed = parse_seed(decision[1])
        except ValueError as err:
            raise IllegalDecision(str(err)) from None
        self.chance = None
        if chance["kind"] == "supply":
            taken = [n for piles in self.pile_lists for n in piles]
            pool = [c for c in self.rules.variable_cards if c not in taken]
            wanted = [max(0, self.setup.fill_piles - len(p)) for p in self.pile_lists]
            picks = choose_indices(len(pool), min(sum(wanted), len(pool)), seed)
            start = 0
            for i, piles in enumerate(self.pile_lists):
                chosen = picks[start : start + wanted[i]]
                start += wanted[i]
                piles.extend(pool[j] for j in sorted(chosen))
                self.note(f"Supply {i + 1}: {', '.join(piles)}")
        elif self.setup.sealed:
            self._seal_shuffle(chance["seat"], seed)
        else:
            player = self.players[chance["seat"]]
            player.deck.extend(player.discard)
            player.discard = []
            shuffle(player.deck, seed)
            self.shown.difference_update(player.deck)  # no one knows where they went
            self.note(f"{self.seat_name(chance['seat'])}: shuffles")

    def _seal_shuffle(self, seat: int, seed: bytes | None) -> None:
        """A sealed game's shuffle: each position of the new deck is a fresh card, so that no
        card can be followed through it. Its name is unknown to every engine (``seed`` None:
        the seats sealed it, docs/sealed-decks.md) and meanwhile a stand-in, the names in the
        order they went in; or, for an engine that knows every card (a replay after the
        audit, a search's sampled game), the card the seeded shuffle put there."""
        player = self.players[seat]
        went_in = player.deck + player.discard
        assert not any(c in self.unknown for c in went_in), "a shuffle takes only public cards"
        names = [self.cards[c] for c in went_in]
        if seed is not None:
            shuffle(names, seed)
        player.deck = [self.new_card(name) for name in names]
        player.discard = []
        self.shown.difference_update(went_in)
        if seed is None:
            self.unknown.update(player.deck)
        self.note(f"{self.seat_name(seat)}: shuffles")

    def _open(self, cards: list[int], decision: Decision) -> None:
        """Cards an effect turns face up (:meth:`GameState.face_up`), named by ``decision``
        in their order: each engine learns them, or refuses names that contradict the game."""
        if len(decision) != len(cards) + 1 or decision[0] != "open":
            raise IllegalDecision(self._chance_words())
        names = decision[1:]
        if not all(isinstance(n, str) and n in self.rules.cards for n in names):
            raise IllegalDecision("An opening names the cards of this game")
        trial = self.copy()  # all or nothing: a contradiction leaves the game as it was
        for card, name in zip(cards, names, strict=True):
            GameState.learn(trial, card, self.card_type(name).name, to_all=True)
        self.chance = None
        for card, name in zip(cards, names, strict=True):
            GameState.learn(self, card, self.card_type(name).name, to_all=True)

    # ================================================================ why a decision is refused

    def why_illegal(self, decision: Decision, seat: int | None = None) -> str:
        """Why ``decision`` is not legal now: one sentence a player can act on, without a full
        stop, from the rules of the phase or the card step that waits for a decision. ``seat``
        is who asks: a decision that is another seat's to take says whose it is."""
        decision = tuple(decision)
        if self.over:
            return "The game is over"
        if self.chance is not None:
            return self._chance_words()
        prompt = self.prompt()
        if seat is not None and prompt.seat != seat:
            return f"It is {self.seat_name(prompt.seat)}'s decision now"
        legal = self._legal_map()
        if not decision or not all(isinstance(word, str) for word in decision):
            return "A decision is a few words, like `march e2 e4`"
        if decision in legal:
            return f"`{decision_text(decision)}` is legal now"
        if self.stack:
            frame = self.stack[-1]
            reason = self._step(frame).why_not(self, frame, decision)
        else:
            reason = self._why_not_in_phase(decision)
        return reason or self._why_not_listed(decision, legal)

    def _why_not_in_phase(self, decision: Decision) -> str | None:
        verb, seat, phase = decision[0], self.active, self.this_turn.phase
        if verb in ("treasure", "buy") and phase in (ORDER, ACTION):
            return f"Treasures and buys come in the buy phase: `end` ends the {phase} phase"
        if verb in ("march", "attack", "swap", "deploy") and phase != ORDER:
            what = "are deployed" if verb == "deploy" else "take orders"
            return f"Units {what} in the order phase, and it is the {phase} phase"
        if verb in ("march", "attack", "swap") and len(decision) == 3:
            sq = _square_or_none(decision[1])
            return None if sq is None else self.why_not_command(seat, sq, as_order=True)
        if verb == "deploy":
            return self.why_not_deploy(seat, decision, as_order=True) or self._deploy_squares(
                decision
            )
        if verb in ("play", "train", "treasure"):
            return self._why_not_card(decision)
        if verb == "buy":
            return self._why_not_buy(decision)
        return None

    def _deploy_squares(self, decision: Decision) -> str:
        kind = self.rules.units.get(decision[1])
        squares = [d[2] for d in self._legal_map() if d[0] == "deploy" and d[1] == kind.name]
        if squares:
            return f"A {kind.name} can be deployed on {', '.join(sorted(squares))}"
        return f"There is no square to deploy a {kind.name} on"

    def _why_not_card(self, decision: Decision) -> str | None:
        verb, seat, phase = decision[0], self.active, self.this_turn.phase
        if verb in ("train", "play") and phase == "buy":
            return (
                "It is the buy phase: cards are played for Orders and Actions earlier in the turn"
            )
        if verb == "train" and phase == ORDER:
            return "Training is an action: `end` ends the order phase first"
        if len(decision) < 2:
            return f"`{verb}` names a card in your hand, like `{verb} Peon`"
        if decision[1] not in self.rules.cards:
            return f"There is no card called {decision[1]!r}"
        card = self.card_type(decision[1])
        if card.name not in self.hand_names(seat):
            return f"There is no {card.name} in your hand"
        if verb == "treasure":
            if self.this_turn.bought:
                return "Treasures cannot be played once you have bought a card"
            if not card.effect_numbers(TREASURE):
                return f"{card.name} has no Treasure effect"
        elif verb == "train":
            if not card.trains:
                return f"{card.name} has no Training effect"
        else:
            numbers = card.effect_numbers(phase)  # (no orders or actions left ends the phase)
            if not numbers:
                what = f"{phase.capitalize()} effect to play in the {phase} phase"
                return f"{card.name} has no {what}"
            if phase == ORDER and self.order_lock[seat] & FROZEN_NOW:
                return "Wish: you cannot play cards for their Order effects this turn"
            playable = [d for d in self._legal_map() if d[:2] == ("play", card.name)]
            if len(decision) == 2 and playable:
                which = " or ".join(f"`{decision_text(d)}`" for d in playable)
                return f"Say which effect of {card.name} to play: {which}"
            if len(decision) == 3 and decision[2] not in [str(n) for n in numbers]:
                which = " or ".join(f"`play {card.name} {n}`" for n in numbers)
                return f"The {phase.capitalize()} effect of {card.name} is {which}"
        return f"{card.name} would do nothing now, so it stays in your hand"

    def _why_not_buy(self, decision: Decision) -> str | None:
        if len(decision) != 2:
            return "A buy names a card of the Supply, like `buy Tower`"
        if decision[1] not in self.rules.cards:
            return f"There is no card called {decision[1]!r}"
        name = self.card_type(decision[1]).name
        if name not in self.supply:
            whose = "this game's" if len(self.supplies) == 1 else "your"
            return f"{name} is not in {whose} Supply"
        if self.supply[name] == 0:
            return f"The {name} pile is empty"
        if self.this_turn.buys == 0:
            return "You have no buys left"
        cost = self.cost(name)
        if cost > self.this_turn.gold:
            first = any(d[0] == "treasure" for d in self._legal_map())
            more = ": play your Treasures first" if first else ""
            return f"{name} costs {cost} and you have {self.this_turn.gold} gold{more}"
        return None

    def _why_not_listed(self, decision: Decision, legal: dict[Decision, Any]) -> str:
        """The general reason: where a named unit could go instead, or just "not possible"."""
        sq = _square_or_none(decision[1]) if len(decision) == 3 else None
        unit = None if sq is None else self.position.board[sq]
        if unit is not None:
            name = f"The {unit.kind.name} on {decision[1]}"
            here = distinct(d[2] for d in legal if len(d) == 3 and d[1] == decision[1])
            if here:
                return f"{name} cannot go to {decision[2]} now; it can go to {', '.join(here)}"
            if decision[0] in ("march", "attack", "swap", "move"):
                return f"{name} has nowhere to go"
        return not_possible(decision)

    # ================================================================ text

    def _phase_text(self) -> str:
        turn = self.this_turn
        if turn.phase == ORDER:
            return f"order {turn.orders} left: march, attack, deploy, play an Order card, or end"
        if turn.phase == ACTION:
            return f"{turn.actions} action(s) left: play an Action or train, or end"
        return f"buy phase, {turn.gold} gold, {turn.buys} buy(s): play treasures, buy, or end"

    # ================================================================ steps

    def _steps(self, frame: Frame) -> tuple[EffectStep, ...]:
        return self._frame_steps[frame.card][frame.effect]

    def _step(self, frame: Frame) -> EffectStep:
        return self._steps(frame)[frame.pc]


def _effect_steps(rules: Rules, card: str) -> tuple[tuple[EffectStep, ...], ...]:
    """The steps a frame of this card (a system frame's "#" name, effect 0) runs, by effect."""
    if card.startswith("#"):
        return (SYSTEM_STEPS[card],)
    effects = rules.cards.get(card).effects
    # cards.py, below the steps, knows a card's steps only by the keys they share
    # (cards.CardStep); every step a card is made of is an EffectStep.
    return tuple(cast("tuple[EffectStep, ...]", effect.steps) for effect in effects)


def _move_offer(move: UnitMove) -> tuple[Decision, tuple[str, UnitMove]]:
    return (MOVE_DECISIONS[move], ("move", move))


def _deploy_offers(kind: UnitType) -> tuple[tuple[Decision, tuple[str, str, int]], ...]:
    return tuple(
        (("deploy", kind.name, SQUARE_NAMES[sq]), ("deploy", kind.name, sq)) for sq in SQUARES
    )


# What a listing offers, made once (as movement.MOVE_DECISIONS): each move's decision with the
# payload the phase applies, an order phase offering a few dozen; each unit type's deploy
# decision and payload for every square; each card's buy decision.
MOVE_OFFERS: Memo[UnitMove, tuple[Decision, tuple[str, UnitMove]]] = Memo(_move_offer)
DEPLOY_OFFERS: Memo[UnitType, tuple[tuple[Decision, tuple[str, str, int]], ...]] = Memo(
    _deploy_offers
)
BUY_DECISIONS: Memo[str, Decision] = Memo(lambda name: ("buy", name))


def _square_or_none(name: str) -> int | None:
    try:
        return parse_square(name)
    except ValueError:
        return None


def canonical(data: Any) -> bytes:
    """The bytes a state hash is taken over: MessagePack of the explicit state, whose maps the
    engine always writes with their keys in one fixed order (never from set or input order)."""
    packed: bytes = msgpack.packb(data, use_bin_type=True)
    return packed


__all__ = ["CHANCE", "Game", "Moment", "Passed", "Prompt"]
