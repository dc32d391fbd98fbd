"""The game's mechanics: its state with the rules it runs under and the primitives card steps
are made of.

:class:`Mechanics` is what a step (steps.py) or a unit rule (unit_rules.py) is handed: it can
move, deploy, capture, draw, gain and pay, ask the rules who may command a unit, and begin or
end a turn — but it runs no decisions. The engine loop that does (prompt, legal, apply) is
:class:`~.game.Game`, built on this; so steps name this class and never the engine that runs
them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from itertools import compress
from operator import attrgetter
from typing import Any, TypeVar

from .board import SQUARE_NAMES, SQUARES, square_name
from .cards import CardType
from .decisions import Decision, IllegalDecision
from .keys import PROMOTING
from .movement import UnitMove
from .position import FROZEN_NOW, Position, Unit, status_at_turn_end, status_at_turn_start
from .rules import Rules
from .seats import COLOURS
from .setup import Setup
from .state import Frame, GameState
from .turn import TurnState
from .units import UnitType

T = TypeVar("T")


class Refusal(Enum):
    """What keeps a unit from an order (see :meth:`Mechanics.why_not_command` for the
    sentences)."""

    NOT_COMMANDED = "not commanded"
    ORDERED = "ordered"
    FROZEN = "frozen"
    HELD_BACK = "held back"


class Mechanics(GameState):
    def __init__(self, rules: Rules, setup: Setup | None = None) -> None:
        packs = {name: kind() for name, kind in rules.states.items()}
        position = Position(rules.units, rules.seating)
        super().__init__(setup or Setup(), position, rules.first_seat(), packs)
        self.rules = rules
        # The seats' names, asked for every line of the log: the rules name a seat by its
        # number alone, so each name is made once.
        self._seat_names = tuple(rules.seat_name(seat) for seat in rules.seating.seats)
        # orderable() asks the rules' may_command and held_back of every unit for every
        # listing: where they are the base game's (a unit takes orders from its owner alone;
        # nothing else holds one back), it gives their answer itself, without a call a unit.
        self._owner_commands = _is_base(rules.may_command, Rules.may_command)
        self._never_held_back = _is_base(rules.held_back, Rules.held_back)
        # The legal decisions once listed (the engine's cache; a step that lists its options
        # offers them here).
        self._legal: dict[Decision, Any] | None = None

    def offer(self, options: dict[Decision, Any]) -> None:
        """A step that has just listed its options: they are the legal decisions until the
        next apply (saves listing them twice)."""
        self._legal = options

    # ================================================================ the turn

    def begin_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.position.to_move = seat
        self.this_turn = TurnState()
        for unit in filter(None, self.position.board):  # (not units(): this runs every turn)
            if unit.uncapturable and self.rules.protection_ends(self, seat, unit):
                unit.uncapturable = False
            if unit.frozen and unit.owner == seat:  # (most units are not: no call for them)
                unit.frozen = status_at_turn_start(unit.frozen)
        self.order_lock[seat] = status_at_turn_start(self.order_lock[seat])
        self.note(f"turn {self.turn}: {self.seat_name(seat)}")
        self.rules.turn_started(self, seat)

    def end_turn(self) -> None:
        """After housekeeping: the statuses that lasted for this turn end; the next seat plays."""
        seat = self.active
        for unit in filter(None, self.position.board):
            if unit.frozen and unit.owner == seat:  # (most units are not)
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

    # ================================================================ who may order what

    def unit_orders(
        self, seat: int, *, as_order: bool = True, units: Iterable[int] | None = None
    ) -> list[UnitMove]:
        """Marches and attacks by normal rules of the units ``seat`` may command (of those on
        ``units``, when given)."""
        out: list[UnitMove] = []
        board = self.position.board
        squares = self.orderable(seat, as_order)
        if units is not None:
            wanted = list(units)
            squares = [sq for sq in squares if sq in wanted]
        seen_by: dict[int, tuple[list[int], int]] = {}  # owner -> occupancy, forward
        for sq in squares:
            unit = board[sq]
            assert unit is not None
            seen = seen_by.get(unit.owner)
            if seen is None:
                owner = unit.owner
                seen = seen_by[owner] = (
                    self.position.occupancy(owner),
                    self.rules.seating.forward(owner),
                )
            occ, forward = seen
            for mover in unit.kind.movers:
                mover.generate(occ, sq, forward, out)
        return out

    def orderable(self, seat: int, as_order: bool, *, own: bool = True) -> list[int]:
        """The squares of the units ``seat`` may order (``as_order``) or move by a card, in
        board order: :meth:`can_order` for every unit at once. A listing asks this once rather
        than unit by unit, as a search lists orders for every decision it looks at."""
        owner_only = own and self._owner_commands
        may_command = self.rules.may_command if own and not owner_only else None
        held_back = None if self._never_held_back else self.rules.held_back
        ordered = self.this_turn.ordered
        board = self.position.board
        out = []
        for sq in compress(SQUARES, board):  # the occupied squares (a unit is true)
            unit = board[sq]
            assert unit is not None
            if owner_only and unit.owner != seat:
                continue
            if may_command is not None and not may_command(self, seat, unit, as_order):
                continue
            if as_order and (
                unit.uid in ordered
                or unit.frozen & FROZEN_NOW
                or (held_back is not None and held_back(self, unit) is not None)
            ):
                continue
            out.append(sq)
        return out

    def can_order(self, seat: int, unit: Unit, as_order: bool, *, own: bool = True) -> bool:
        return self._order_refusal(seat, unit, as_order, own) is None

    def _order_refusal(self, seat: int, unit: Unit, as_order: bool, own: bool) -> Refusal | None:
        """What keeps ``unit`` from ``seat``'s order (``as_order``) or card, if anything: the
        one rule behind :meth:`can_order` and :meth:`why_not_command` (:meth:`orderable` asks it
        of every unit at once). ``own``: the unit must be
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
        """The unit types in the Barracks, by name; for an order, less those an order put back
        there this turn (a unit takes one order a turn). By name, not in the order they came:
        the Barracks is saved (and hashed) by name, so a restored game lists the same."""
        kinds = self.position.barracks[seat]
        by_name = sorted(distinct(kinds), key=_NAME)
        recalled = self.this_turn.recalled
        if not as_order or not recalled:
            return by_name
        return [k for k in by_name if kinds.count(k) > recalled.count(k.name)]

    def hand_names(self, seat: int) -> list[str]:
        """The different card names in a hand, in hand order: of the cards this engine knows
        (in a sealed game another seat's hand may hold cards it does not)."""
        cards, unknown = self.cards, self.unknown
        names: list[str] = []
        for card_id in self.players[seat].hand:  # (a hand holds a few names: a list is quickest)
            name = cards[card_id]
            if name not in names and not (unknown and card_id in unknown):
                names.append(name)
        return names

    def hand_card_name(self, seat: int, word: str) -> str:
        """The card of ``seat``'s hand that a decision's word names: the name itself, or, for
        a card put face down in a sealed game (``topdeck 2``), its place in the hand."""
        if word.isdigit():
            return self.cards[self.players[seat].hand[int(word) - 1]]
        return word

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

    def card_type(self, name: str) -> CardType:
        return self.rules.cards.get(name)

    def cost(self, name: str) -> int:
        return self.prices()[self.card_type(name).name]

    def prices(self) -> Mapping[str, int]:
        """What every card costs now (the turn's discount taken off), by name."""
        return self.rules.cards.prices(self.this_turn.discount)

    def take_from_hand(self, seat: int, name: str) -> int:
        """The first card of the hand called ``name``. In a sealed game, the first one every
        seat has seen, if any, else the first this engine knows: the seat opens one to all
        before a decision that takes it (``Game.openings``), so every engine takes the same."""
        hand, cards = self.players[seat].hand, self.cards
        if self.setup.sealed:
            named = [i for i, c in enumerate(hand) if cards[c] == name and c not in self.unknown]
            shown = [i for i in named if hand[i] in self.shown]
            if named:
                return hand.pop((shown or named)[0])
        else:
            for i, cid in enumerate(hand):
                if cards[cid] == name:
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
        return True if self.ask_to_shuffle(seat) else None

    def ask_to_shuffle(self, seat: int) -> bool:
        """Shuffle ``seat``'s discard pile into its deck: chance is asked (a chance prompt is
        now pending: False). In a sealed game, cards going in that all have one name (a single
        card, most often) are put in the deck at once (True): no order of them differs from
        another, so there is nothing to seal, and every seat knows each card (ruling 35)."""
        player = self.players[seat]
        went_in = player.deck + player.discard
        if self.setup.sealed and len({self.cards[c] for c in went_in}) == 1:
            # Fresh cards, as from any sealed shuffle: a card that went in is never seen again,
            # so Game.openings can tell a card played from one that stayed in the hand.
            player.deck, player.discard = [self.new_card(self.cards[c]) for c in went_in], []
            self.shown.difference_update(went_in)
            self.shown.update(player.deck)
            self.note(f"{self.seat_name(seat)}: shuffles")
            return True
        self.chance = {"kind": "shuffle", "seat": seat}
        return False

    def draw_one(self, seat: int) -> bool | None:
        """Draw a card: as :meth:`deck_ready`, and the card is in the hand when True."""
        ready = self.deck_ready(seat)
        if ready:
            player = self.players[seat]
            player.hand.append(player.deck.pop(0))
        return ready

    def draw(self, seat: int, count: int) -> int:
        """Draw ``count`` cards, one :meth:`draw_one` at a time (those the deck holds at
        once: the usual draw). The number still to draw when the discard pile must be
        shuffled first (a chance prompt is now pending); 0 when done, or when no card is left
        to draw."""
        player = self.players[seat]
        if 0 < count <= len(player.deck):
            player.hand += player.deck[:count]
            del player.deck[:count]
            return 0
        while count > 0:
            drawn = self.draw_one(seat)
            if drawn is None:
                return count
            if not drawn:
                return 0
            count -= 1
        return 0

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
            if unit.owner == self.active and unit.uid in self.this_turn.ordered:
                self.this_turn.recalled.append(unit.kind.name)  # its order is spent, as recalled
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
        words = f"{self.seat_name(seat)}: {whose}{unit.kind.name} {SQUARE_NAMES[move.frm]}"
        if move.kind == "swap":
            other = self.unit_at(move.to)
            board[move.frm], board[move.to] = other, unit
            if as_order:  # both units moved (the team game shields each)
                self.this_turn.order_moved += [unit.uid, other.uid]
            self.note(f"{words} swaps with {other.kind.name} {SQUARE_NAMES[move.to]}")
            return unit
        names = [self.unit_at(c).kind.name for c in move.captures]
        for sq in move.captures:
            self.capture(sq)
        if move.to != move.frm:  # an Oracle attacks without moving
            board[move.frm], board[move.to] = None, unit
            if as_order:
                self.this_turn.order_moved.append(unit.uid)
        action = f" captures {', '.join(names)}" if names else ""
        self.note(f"{words}-{SQUARE_NAMES[move.to]}{action}")
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
        self.note(f"{self.seat_name(seat)}: deploys {kind.name} on {SQUARE_NAMES[sq]}")
        return unit

    def seat_name(self, seat: int) -> str:
        return self._seat_names[seat]

    def side_name(self, side: int) -> str:
        return COLOURS[side]

    # ================================================================ why a unit is refused

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


_NAME = attrgetter("name")


def _is_base(method: Callable[..., Any], base: Callable[..., Any]) -> bool:
    """Is the rules' bound ``method`` the base :class:`Rules`' own ``base``, not a variant's?"""
    return getattr(method, "__func__", None) is base


def distinct(items: Iterable[T]) -> list[T]:
    """The items without repeats, in first-seen order (never set order: determinism)."""
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out
