"""The game: one decider at a time, every legal decision listed, deterministic.

``Game`` holds the whole state. At every point it has a :class:`Prompt` naming who decides (a
seat, or ``CHANCE`` for a shuffle) and :meth:`legal` lists every decision that seat may take;
:meth:`apply` takes one. Chance decisions are ``("seed", HEX64)``: the seed comes from outside (a
local source in solo play, a commit-reveal round between peers).

Card effects run as *frames* on a stack: a frame names the card and effect being resolved and
the index of its current step (see steps.py), so the whole state, mid-card included, is plain
data that can be hashed, saved and restored.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, cast

import msgpack  # type: ignore[import-untyped]

from .board import parse_square, square_name
from .cards import ACTION, ORDER, TRAINING, TREASURE, CardType
from .decisions import Decision, IllegalDecision, decision_text, not_possible
from .keys import PROMOTING, TREASURES_BEFORE, Key
from .movement import UnitMove, move_decision
from .position import (
    FROZEN_NONE,
    FROZEN_NOW,
    Position,
    Unit,
    status_at_turn_end,
    status_at_turn_start,
)
from .rules import Rules
from .setup import Setup
from .shuffle import SHUFFLE_VERSION, choose_indices, parse_seed, shuffle
from .turn import TurnState
from .units import UnitType

T = TypeVar("T")

if TYPE_CHECKING:
    from .steps import EffectStep

CHANCE = -1
STATE_VERSION = 2


@dataclass
class Player:
    deck: list[int] = field(default_factory=list)  # card ids, top of the deck first
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)


@dataclass
class Frame:
    """A card effect (or a piece of the turn's machinery) being resolved."""

    card: str  # a card name, or "#setup", "#housekeeping", "#promote"
    effect: int  # index into the card's effects
    seat: int  # who plays it
    kind: str  # order, action, treasure, or system
    pc: int = 0  # the current step
    vars: dict[str, Any] = field(default_factory=dict)

    @property
    def as_order(self) -> bool:
        return self.kind == ORDER

    # What the steps share, only through declared keys (keys.py).

    def has(self, key: Key[Any]) -> bool:
        return key.name in self.vars

    def get(self, key: Key[T], default: T) -> T:
        return cast(T, self.vars.get(key.name, default))

    def value(self, key: Key[T]) -> T:
        """The value a step must have been given (a KeyError is a bug in the card)."""
        return cast(T, self.vars[key.name])

    def put(self, key: Key[T], value: T) -> None:
        self.vars[key.name] = value

    def drop(self, key: Key[Any]) -> None:
        self.vars.pop(key.name, None)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "effect": self.effect,
            "seat": self.seat,
            "kind": self.kind,
            "pc": self.pc,
            "vars": dict(sorted(self.vars.items())),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Frame:
        return cls(d["card"], d["effect"], d["seat"], d["kind"], d["pc"], dict(d["vars"]))


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


class Refusal(Enum):
    """What keeps a unit from an order (see :meth:`Game.why_not_command` for the sentences)."""

    NOT_COMMANDED = "not commanded"
    ORDERED = "ordered"
    FROZEN = "frozen"
    HELD_BACK = "held back"


class Game:
    def __init__(self, rules: Rules, setup: Setup | None = None, *, _empty: bool = False) -> None:
        self.rules = rules
        self.setup = setup or Setup()
        seats = rules.seating.seats
        self.position = Position(rules.units, rules.seating)
        self.players = [Player() for _ in seats]
        self.cards: list[str] = []  # card id -> card name
        # The variable piles of each Supply, once chosen, and what is left in each Supply.
        more = [list(p) for p in self.setup.more_piles]
        self.pile_lists: list[list[str]] = [list(self.setup.piles), *more]
        while len(self.pile_lists) < self.setup.supply_count:
            self.pile_lists.append([])
        self.supplies: list[dict[str, int]] = [{} for _ in self.pile_lists]
        self.trash: list[int] = []
        self.turn = 0
        self.active = rules.first_seat()
        self.this_turn = TurnState(phase="setup", orders=0, actions=0, buys=0)
        self.order_lock = [FROZEN_NONE for _ in seats]  # Wish: no Order cards on that turn
        self.stack: list[Frame] = []
        self.chance: dict[str, Any] | None = None
        self.next_uid = 1
        self.over = False
        self.winner: int | None = None  # winning side; None with over=True is a draw
        self.log: list[str] = []
        # What a variant's rules keep besides (docs/plugins.md), by namespace: hashed and saved.
        self.packs: dict[str, Any] = {name: kind() for name, kind in rules.states.items()}
        self._legal: dict[Decision, Any] | None = None
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
        return self.prompt().seat

    def legal(self) -> list[Decision]:
        """Every decision the prompted seat may take now, in a fixed order."""
        return list(self._legal_map())

    def offer(self, options: dict[Decision, Any]) -> None:
        """A step that has just listed its options: they are the legal decisions until the
        next apply (saves listing them twice)."""
        self._legal = options

    def is_legal(self, decision: Decision) -> bool:
        return tuple(decision) in self._legal_map()

    def apply(self, decision: Decision) -> None:
        decision = tuple(decision)
        if self.over:
            raise IllegalDecision("the game is over")
        if self.chance is not None:
            self._apply_chance(decision)
        else:
            legal = self._legal_map()
            if decision not in legal:
                raise IllegalDecision(self.why_illegal(decision))
            payload = legal[decision]
            if self.stack:
                frame = self.stack[-1]
                if self._step(frame).choose(self, frame, decision, payload):
                    frame.pc += 1
            else:
                self._apply_phase(decision, payload)
        self._legal = None
        self._run()

    def state_hash(self) -> str:
        """SHA-256 of the canonical encoding of the full state: equal on every machine."""
        return hashlib.sha256(canonical(self.to_json())).hexdigest()

    def to_json(self) -> dict[str, Any]:
        from .snapshot import to_json

        return to_json(self)

    @classmethod
    def from_json(cls, rules: Rules, data: dict[str, Any]) -> Game:
        from .snapshot import from_json

        return from_json(rules, data)

    def view(self, seat: int) -> dict[str, Any]:
        from .snapshot import view

        return view(self, seat)

    def clone(self) -> Game:
        return Game.from_json(self.rules, self.to_json())

    def pack_state(self, kind: type[T]) -> T:
        """The state of type ``kind`` that the variant's rules keep (``Rules.states``)."""
        for state in self.packs.values():
            if isinstance(state, kind):
                return state
        raise KeyError(f"this game's rules keep no {kind.__name__}")

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

    def begin_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.position.to_move = seat
        self.this_turn = TurnState()
        for _, unit in self.position.units():
            if unit.uncapturable and self.rules.protection_ends(self, seat, unit):
                unit.uncapturable = False
            if unit.owner == seat:
                unit.frozen = status_at_turn_start(unit.frozen)
        self.order_lock[seat] = status_at_turn_start(self.order_lock[seat])
        self.note(f"turn {self.turn}: {self.seat_name(seat)}")
        self.rules.turn_started(self, seat)

    def end_turn(self) -> None:
        """After housekeeping: the statuses that lasted for this turn end; the next seat plays."""
        seat = self.active
        for _, unit in self.position.units():
            if unit.owner == seat:
                unit.frozen = status_at_turn_end(unit.frozen)
        self.order_lock[seat] = status_at_turn_end(self.order_lock[seat])
        self.rules.turn_ended(self, seat)
        self.begin_turn(self.rules.next_seat(self, seat))

    def check_outcome(self) -> bool:
        over, winner = self.rules.outcome(self)
        if over:
            self.over, self.winner = True, winner
            self.stack = []
            self.this_turn.phase = "over"
            self.note("the game is drawn" if winner is None else f"{self.side_name(winner)} wins")
        return over

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
        turn = self.this_turn
        if turn.phase == ORDER and (turn.orders == 0 or self._only_end()):
            self._end_orders()
            return True
        if turn.phase == ACTION and (turn.actions == 0 or self._only_end()):
            turn.phase = "buy"
            return True
        if turn.phase == "buy" and self._only_end():
            turn.phase = "housekeeping"
            self.stack.append(Frame("#housekeeping", 0, self.active, "system"))
            return True
        return False

    def _end_orders(self) -> None:
        self.this_turn.phase = ACTION
        self.rules.orders_ended(self, self.active)

    def _only_end(self) -> bool:
        self._legal = None
        return list(self._legal_map()) == [("end",)]

    # ================================================================ legal decisions

    def _legal_map(self) -> dict[Decision, Any]:
        if self._legal is None:
            if self.over or self.chance is not None:
                self._legal = {}
            elif self.stack:
                frame = self.stack[-1]
                self._legal = self._step(frame).options(self, frame)
            else:
                self._legal = self._phase_options()
        return self._legal

    def _phase_options(self) -> dict[Decision, Any]:
        seat, turn = self.active, self.this_turn
        out: dict[Decision, Any] = {}
        if turn.phase == ORDER and turn.orders > 0:
            for move in self.unit_orders(seat):
                out[move_decision(move)] = ("move", move)
            for kind in self.distinct_barracks(seat, as_order=True):
                for sq in self.position.deploy_squares(seat, kind):
                    out[("deploy", kind.name, square_name(sq))] = ("deploy", kind.name, sq)
            if not self.order_lock[seat] & FROZEN_NOW:
                self._card_options(seat, ORDER, out)
        elif turn.phase == ACTION and turn.actions > 0:
            self._card_options(seat, TRAINING, out)
            self._card_options(seat, ACTION, out)
        elif turn.phase == "buy":
            if not turn.bought:
                self._card_options(seat, TREASURE, out)
            if turn.buys > 0:
                for name, count in self.supply.items():
                    if count > 0 and self.cost(name) <= turn.gold:
                        out[("buy", name)] = ("buy", name)
        out[("end",)] = ("end",)
        return out

    def _card_options(self, seat: int, kind: str, out: dict[Decision, Any]) -> None:
        hand = self.players[seat].hand
        for name in self.hand_names(seat):
            card = self.card_type(name)
            for number in card.effect_numbers(kind):
                if kind == TRAINING:
                    out[("train", name)] = ("train", name, number - 1)
                    continue
                if self._could_do_something(seat, card, number - 1, kind, hand):
                    word = "treasure" if kind == TREASURE else "play"
                    key = (word, name) if word == "treasure" else ("play", name, str(number))
                    out[key] = ("play", name, number - 1)

    def _could_do_something(
        self, seat: int, card: CardType, index: int, kind: str, hand: list[int]
    ) -> bool:
        """Judged as if the card had left the hand, as it will when played."""
        position = next(i for i, c in enumerate(hand) if self.cards[c] == card.name)
        held = hand.pop(position)
        try:
            probe = Frame(card.name, index, seat, kind)
            steps = card.effects[index].steps
            return any(step.counts and step.possible(self, probe) for step in steps)
        finally:
            hand.insert(position, held)

    def unit_orders(
        self, seat: int, *, as_order: bool = True, units: Iterable[int] | None = None
    ) -> list[UnitMove]:
        """Marches and attacks by normal rules of the units ``seat`` may command."""
        out: list[UnitMove] = []
        squares = units if units is not None else range(64)
        occ_cache: dict[int, list[int]] = {}
        for sq in squares:
            unit = self.position.board[sq]
            if unit is None or not self.can_order(seat, unit, as_order):
                continue
            occ = occ_cache.get(unit.owner)
            if occ is None:
                occ = occ_cache[unit.owner] = self.position.occupancy(unit.owner)
            out.extend(unit.kind.moves(occ, sq, self.rules.seating.forward(unit.owner)))
        return out

    def can_order(self, seat: int, unit: Unit, as_order: bool, *, own: bool = True) -> bool:
        return self._order_refusal(seat, unit, as_order, own) is None

    def _order_refusal(self, seat: int, unit: Unit, as_order: bool, own: bool) -> Refusal | None:
        """What keeps ``unit`` from ``seat``'s order (``as_order``) or card, if anything: the
        one rule behind :meth:`can_order` and :meth:`why_not_command`. ``own``: the unit must be
        one ``seat`` commands (not for False Orders)."""
        if own and not self.rules.may_command(self, seat, unit, as_order):
            return Refusal.NOT_COMMANDED
        if not as_order:
            return None
        if unit.uid in self.this_turn.ordered:
            return Refusal.ORDERED
        if unit.frozen_now:
            return Refusal.FROZEN
        if self.rules.held_back(self, unit) is not None:
            return Refusal.HELD_BACK
        return None

    def distinct_barracks(self, seat: int, *, as_order: bool = False) -> list[UnitType]:
        """The unit types in the Barracks; for an order, less those an order put back there
        this turn (a unit takes one order a turn)."""
        kinds = self.position.barracks[seat]
        recalled = self.this_turn.recalled
        if not as_order or not recalled:
            return distinct(kinds)
        return [k for k in distinct(kinds) if kinds.count(k) > recalled.count(k.name)]

    def hand_names(self, seat: int) -> list[str]:
        """The different card names in a hand, in hand order."""
        return distinct(self.cards[c] for c in self.players[seat].hand)

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
            turn.actions -= 1
            self.train(seat, payload[1])
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

    # ================================================================ supplies

    @property
    def piles(self) -> list[str]:
        """The first Supply's variable piles (the only Supply of the base game)."""
        return self.pile_lists[0]

    @property
    def supply(self) -> dict[str, int]:
        """The Supply the seat whose turn it is buys from."""
        return self.supply_for(self.active)

    def supply_for(self, seat: int) -> dict[str, int]:
        return self.supplies[self.rules.supply_index(self, seat)]

    def game_cards(self) -> list[str]:
        """Every card of this game: the starting cards, then each Supply's piles."""
        return distinct([*self.starter_names(), *self.supply_names()])

    def supply_names(self) -> list[str]:
        """Every pile of every Supply, as chosen at setup (sold out or not)."""
        return distinct(n for supply in self.supplies for n in supply)

    # ================================================================ primitives used by steps

    def new_card(self, name: str) -> int:
        self.cards.append(name)
        return len(self.cards) - 1

    def card_type(self, name: str) -> CardType:
        return self.rules.cards.get(name)

    def cost(self, name: str) -> int:
        return max(0, self.card_type(name).cost - self.this_turn.discount)

    def take_from_hand(self, seat: int, name: str) -> int:
        hand = self.players[seat].hand
        for i, cid in enumerate(hand):
            if self.cards[cid] == name:
                return hand.pop(i)
        raise IllegalDecision(f"there is no {name} in the hand")

    def gain(self, seat: int, name: str) -> None:
        self.supply_for(seat)[name] -= 1
        self.players[seat].discard.append(self.new_card(name))

    def deck_ready(self, seat: int) -> bool | None:
        """Is there a top card to draw or reveal? True; False when deck and discard pile are
        both empty; None when the discard pile must be shuffled into a deck first (a chance
        prompt is now pending)."""
        player = self.players[seat]
        if player.deck:
            return True
        if not player.discard:
            return False
        self.chance = {"kind": "shuffle", "seat": seat}
        return None

    def draw_one(self, seat: int) -> bool | None:
        """Draw a card: as :meth:`deck_ready`, and the card is in the hand when True."""
        ready = self.deck_ready(seat)
        if ready:
            player = self.players[seat]
            player.hand.append(player.deck.pop(0))
        return ready

    def place(self, unit: Unit, sq: int) -> Unit:
        if not unit.uid:
            unit.uid = self.next_uid
            self.next_uid += 1
        self.position.board[sq] = unit
        return unit

    def unit_at(self, sq: int) -> Unit:
        unit = self.position.board[sq]
        assert unit is not None
        return unit

    def mark_ordered(self, unit: Unit) -> None:
        if unit.uid not in self.this_turn.ordered:
            self.this_turn.ordered.append(unit.uid)

    def capture(self, sq: int) -> None:
        unit = self.unit_at(sq)
        self.position.board[sq] = None
        if unit.kind.returns_to_barracks:
            self.position.barracks[unit.owner].append(unit.kind)
            self.note(f"{self.seat_name(unit.owner)}: {unit.kind.name} returns to its Barracks")

    def perform(self, move: UnitMove, seat: int, *, as_order: bool, promote: bool = True) -> Unit:
        """Carry out a march, swap or attack found by move generation."""
        board = self.position.board
        unit = self.unit_at(move.frm)
        if as_order:
            self.mark_ordered(unit)
        # The news names who moved it, and whose it is when that is someone else (False
        # Orders; a partner ordering a shared Sovereign).
        whose = "" if unit.owner == seat else f"{self.seat_name(unit.owner)}'s "
        words = f"{self.seat_name(seat)}: {whose}{unit.kind.name} {square_name(move.frm)}"
        if move.kind == "swap":
            other = self.unit_at(move.to)
            board[move.frm], board[move.to] = other, unit
            if as_order:  # both units moved (the team game shields each)
                self.this_turn.order_moved += [unit.uid, other.uid]
            self.note(f"{words} swaps with {other.kind.name} {square_name(move.to)}")
            return unit
        names = [self.unit_at(c).kind.name for c in move.captures]
        for sq in move.captures:
            self.capture(sq)
        if move.to != move.frm:  # an Oracle attacks without moving
            board[move.frm], board[move.to] = None, unit
            if as_order:
                self.this_turn.order_moved.append(unit.uid)
        action = f" captures {', '.join(names)}" if names else ""
        self.note(f"{words}-{square_name(move.to)}{action}")
        if (
            promote
            and unit.kind.is_foot
            and self.position.is_last_rank(move.to, unit.owner)
            and self.promotion_choices(unit)
        ):
            promote_frame = Frame("#promote", 0, unit.owner, "system")
            promote_frame.put(PROMOTING, move.to)
            self.stack.append(promote_frame)
        return unit

    def promotion_choices(self, unit: Unit) -> list[str]:
        """Types a promoting unit may become (besides staying as it is): what the Supply's
        cards train, every pile chosen at setup (sold out or not), not the starting cards."""
        names = []
        for card_name in self.supply_names():
            trains = self.card_type(card_name).trains
            if trains and trains not in names and trains != unit.kind.name:
                names.append(trains)
        return names

    def starter_names(self) -> list[str]:
        return distinct(self.setup.deck_list())

    def deploy(self, seat: int, kind_name: str, sq: int, *, as_order: bool) -> Unit:
        kind = self.rules.units.get(kind_name)
        self.position.barracks[seat].remove(kind)
        unit = self.place(Unit(kind, seat), sq)
        if as_order:
            self.mark_ordered(unit)
        self.note(f"{self.seat_name(seat)}: deploys {kind.name} on {square_name(sq)}")
        return unit

    def note(self, text: str) -> None:
        self.log.append(text)

    def seat_name(self, seat: int) -> str:
        return self.rules.seat_name(seat)

    def side_name(self, side: int) -> str:
        from .seats import COLOURS

        return COLOURS[side]

    # ================================================================ chance

    def _apply_chance(self, decision: Decision) -> None:
        if len(decision) != 2 or decision[0] != "seed":
            raise IllegalDecision("Chance is to decide: the only decision is `seed HEX64`")
        try:
            seed = parse_seed(decision[1])
        except ValueError as err:
            raise IllegalDecision(str(err)) from None
        chance, self.chance = self.chance, None
        assert chance is not None
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
        else:
            player = self.players[chance["seat"]]
            player.deck.extend(player.discard)
            player.discard = []
            shuffle(player.deck, seed)
            self.note(f"{self.seat_name(chance['seat'])}: shuffles")

    # ================================================================ why a decision is refused

    def why_illegal(self, decision: Decision, seat: int | None = None) -> str:
        """Why ``decision`` is not legal now: one sentence a player can act on, without a full
        stop, from the rules of the phase or the card step that waits for a decision. ``seat``
        is who asks: a decision that is another seat's to take says whose it is."""
        decision = tuple(decision)
        if self.over:
            return "The game is over"
        if self.chance is not None:
            return "Chance is to decide: the only decision is `seed HEX64`"
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

    def why_not_command(
        self, seat: int, sq: int, as_order: bool, *, own: bool = True
    ) -> str | None:
        """Why the unit on ``sq`` cannot take ``seat``'s order (``as_order``) or card, or None
        when it can. ``own``: the unit must be one ``seat`` commands (not for False Orders)."""
        unit = self.position.board[sq]
        if unit is None:
            return f"There is no unit on {square_name(sq)}"
        refusal = self._order_refusal(seat, unit, as_order, own)
        name = f"The {unit.kind.name} on {square_name(sq)}"
        if refusal is Refusal.NOT_COMMANDED:
            return f"{name} {self.rules.why_not_command(self, seat, unit, as_order)}"
        if refusal is Refusal.ORDERED:
            return f"{name} has already had an order this turn"
        if refusal is Refusal.FROZEN:
            return f"{name} cannot take orders this turn"
        if refusal is Refusal.HELD_BACK:
            return f"{name} {self.rules.held_back(self, unit)}"
        return None

    def why_not_deploy(self, seat: int, decision: Decision, *, as_order: bool) -> str | None:
        """Why ``seat`` cannot deploy the unit ``deploy KIND [SQUARE]`` names, or None when the
        Barracks holds one that may be deployed (the squares are the caller's to check)."""
        if len(decision) not in (2, 3):
            return "A deploy names a unit and a square, like `deploy Pawn e2`"
        if decision[1] not in self.rules.units:
            return f"There is no unit called {decision[1]!r}"
        kind = self.rules.units.get(decision[1])
        if kind not in self.position.barracks[seat]:
            return f"Your Barracks has no {kind.name}"
        if kind not in self.distinct_barracks(seat, as_order=as_order):
            return f"The {kind.name} put back in your Barracks this turn has had its order"
        return None

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
        from .steps import SYSTEM_STEPS

        if frame.card.startswith("#"):
            return SYSTEM_STEPS[frame.card]
        return self.card_type(frame.card).effects[frame.effect].steps

    def _step(self, frame: Frame) -> EffectStep:
        return self._steps(frame)[frame.pc]


def _square_or_none(name: str) -> int | None:
    try:
        return parse_square(name)
    except ValueError:
        return None


def distinct(items: Iterable[T]) -> list[T]:
    """The items without repeats, in first-seen order (never set order: determinism)."""
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def canonical(data: Any) -> bytes:
    """The bytes a state hash is taken over: MessagePack of the explicit state, whose maps the
    engine always writes with their keys in one fixed order (never from set or input order)."""
    packed: bytes = msgpack.packb(data, use_bin_type=True)
    return packed


__all__ = [
    "CHANCE",
    "Frame",
    "Game",
    "Moment",
    "Player",
    "Prompt",
    "SHUFFLE_VERSION",
    "STATE_VERSION",
]
