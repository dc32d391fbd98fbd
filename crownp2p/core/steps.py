"""The primitives card effects are made of.

A card effect is a tuple of steps; the game runs them in order inside a :class:`~.state.Frame`.
Each step either does its work at once (``enter`` returns True) or waits for a decision: then
``options`` lists every legal decision, and ``choose`` applies one (returning True when the step
is finished, False to ask again, as Onslaught does for each of its units). Steps keep what later
steps need in the frame under declared keys (keys.py), never in themselves: a step is shared by
every game. Where a unit may go is a small rule object (unit_rules.py), never a string.

"Do everything a card says if you can": a step with no legal choice is skipped. Only steps that
say "may" or "up to" offer ``done``. A card is offered only when one of its steps could do
something (``possible``): for a step that waits for a decision, that is whether it lists any.

A refused decision is explained by the step it was meant for (``why_not``), so the engine says
"Stables only marches" instead of a generic "not possible".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .board import parse_square, square_name
from .decisions import Decision
from .keys import PROMOTING, TREASURES_BEFORE, Key
from .mechanics import Mechanics
from .movement import UnitMove, move_decision
from .position import FROZEN_NEXT, Unit
from .state import Frame
from .unit_rules import BY_THE_RULES, Aftermath, Destination, Placement, Relocation
from .units import UnitClass

Options = dict[Decision, Any]
DONE: Decision = ("done",)

# Keys the base game's steps share (a card's own keys are declared with the card).
DISCARDED = Key[int]("discarded")
TRASHED_COST = Key[int]("trashed_cost")
MORPH_INTO = Key[str]("morph_into")
OPPONENT = Key[int]("opponent")
# Keys a step keeps for itself while it waits.
_DRAWING = Key[int]("drawing")
_MOVED = Key[int]("moved")
_REVEALED = Key[str]("revealed")
_CHOSEN = Key[int]("chosen")
_SHUFFLED = Key[int]("shuffled")
_WISHED = Key[str]("wished")


class EffectStep:
    kind = "card"
    text = ""
    # False for a step that only aims or repeats another (choosing the opponent, the second of
    # two deploys) or only restricts the player: it never makes a card worth playing by itself.
    counts = True

    def enter(self, g: Mechanics, f: Frame) -> bool:
        """Do the automatic part; True when finished, False to wait for a decision."""
        return True

    def options(self, g: Mechanics, f: Frame) -> Options:
        return {}

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        return True

    def possible(self, g: Mechanics, f: Frame) -> bool:
        """Would this step do something now? (A card is only offered when one of its steps
        would.) Automatic steps say so here; a :class:`Choice` answers from its own choices."""
        return True

    def always_possible(self) -> bool:
        """Would this step do something in any game? True only for a step whose
        :meth:`possible` never looks at the game (a card with one needs no probe); False, the
        safe answer, for the rest."""
        return False

    def reads(self) -> tuple[Key[Any], ...]:
        """The keys this step reads: an earlier step of its effect must write each."""
        return ()

    def writes(self) -> tuple[Key[Any], ...]:
        return ()

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        """Why ``decision`` is not one of this step's options, in one sentence; None when the
        step has nothing to add to the game's general reasons."""
        return None

    def decider(self, g: Mechanics, f: Frame) -> int:
        return f.seat

    def describe(self, g: Mechanics, f: Frame) -> str:
        name = f.card if not f.card.startswith("#") else f.card[1:]
        return f"{name}: {self.text}" if self.text else name


class Choice(EffectStep):
    """A step that waits for a decision. Subclasses list their real ``choices`` — all at
    once, or one by one in ``each_choice`` where finding the first is much cheaper than
    listing them all (a card is probed for every listing of a phase); ``optional`` ones add
    ``done``."""

    optional = False

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return dict(self.each_choice(g, f))

    def each_choice(self, g: Mechanics, f: Frame) -> Iterator[tuple[Decision, Any]]:
        """The choices in their order, one at a time (a subclass defines this or ``choices``)."""
        return iter(self.choices(g, f).items())

    def options(self, g: Mechanics, f: Frame) -> Options:
        opts = self.choices(g, f)
        if opts and self.optional:
            opts[DONE] = DONE
        return opts

    def enter(self, g: Mechanics, f: Frame) -> bool:
        opts = self.options(g, f)
        if not opts:
            return True
        g.offer(opts)  # the prompt that follows lists exactly these
        return False

    def possible(self, g: Mechanics, f: Frame) -> bool:
        # The one rule: a choice is possible when it has something to choose.
        return next(self.each_choice(g, f), None) is not None


# ==================================================================== pools, gold, cards


@dataclass(frozen=True)
class Plus(EffectStep):
    orders: int = 0
    actions: int = 0
    buys: int = 0
    gold: int = 0

    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.this_turn.orders += self.orders
        g.this_turn.actions += self.actions
        g.this_turn.buys += self.buys
        g.this_turn.gold += self.gold
        return True

    def possible(self, g: Mechanics, f: Frame) -> bool:
        return self.always_possible()

    def always_possible(self) -> bool:
        return bool(self.orders or self.actions or self.buys or self.gold)


@dataclass(frozen=True)
class Draw(EffectStep):
    """Draw ``count`` cards (or as many as ``count_var`` says), reshuffling as needed."""

    count: int = 0
    count_var: Key[int] | None = None
    hand_size: bool = False  # housekeeping and dealing: the setup's hand size

    def reads(self) -> tuple[Key[Any], ...]:
        return (self.count_var,) if self.count_var else ()

    def enter(self, g: Mechanics, f: Frame) -> bool:
        if f.has(_DRAWING):
            left = f.value(_DRAWING)
        elif self.hand_size:
            left = g.setup.hand_size
        else:
            left = f.get(self.count_var, 0) if self.count_var else self.count
        left = g.draw(f.seat, left)
        if left:  # a shuffle first: drawing goes on once chance has decided it
            f.put(_DRAWING, left)
            return False
        f.drop(_DRAWING)
        return True

    def possible(self, g: Mechanics, f: Frame) -> bool:
        p = g.players[f.seat]
        return bool(p.deck or p.discard)


@dataclass(frozen=True)
class Discount(EffectStep):
    """Every card costs ``amount`` less this turn (never below 0)."""

    amount: int = 1

    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.this_turn.discount += self.amount
        return True

    def always_possible(self) -> bool:
        return True  # (possible() is the default: always)


@dataclass(frozen=True)
class GoldPerTreasure(EffectStep):
    """Legend: 1 gold for each Treasure effect played before this one this turn."""

    def reads(self) -> tuple[Key[Any], ...]:
        return (TREASURES_BEFORE,)

    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.this_turn.gold += f.get(TREASURES_BEFORE, 0)
        return True

    def always_possible(self) -> bool:
        return True  # (possible() is the default: always)


def _hand_options(
    g: Mechanics, seat: int, verb: str, keep: Callable[[str], bool] = lambda name: True
) -> Options:
    return {(verb, n): n for n in g.hand_names(seat) if keep(n)}


def _why_not_in_hand(g: Mechanics, f: Frame, decision: Decision) -> str | None:
    """A card step's decision names a card the hand does not hold."""
    if len(decision) != 2 or decision == DONE:
        return None
    name = decision[1]
    if name not in g.rules.cards:
        return f"There is no card called {name!r}"
    name = g.card_type(name).name
    return None if name in g.hand_names(f.seat) else f"There is no {name} in your hand"


class FromHand(Choice):
    """A choice of a card from the hand, by name. An engine that does not know every card of
    that hand (in a sealed game, another seat's) lists only those it knows, and asks all the
    same: the seat opens the card it names to all before its decision. Until then such an
    engine takes on trust that the step could act while the hand holds a card; the audit
    checks what it could not (docs/sealed-decks.md)."""

    def options(self, g: Mechanics, f: Frame) -> Options:
        opts = self.choices(g, f)
        if self.optional and (opts or g.blind_to_hand(f.seat)):
            opts[DONE] = DONE
        return opts

    def enter(self, g: Mechanics, f: Frame) -> bool:
        if g.blind_to_hand(f.seat):
            g.offer(self.options(g, f))
            return False
        return Choice.enter(self, g, f)

    def possible(self, g: Mechanics, f: Frame) -> bool:
        if g.blind_to_hand(f.seat):
            return bool(g.players[f.seat].hand)
        return Choice.possible(self, g, f)


@dataclass(frozen=True)
class DiscardCards(FromHand):
    """Discard ``count`` cards from the hand, one at a time; ``up_to`` lets the player stop.
    The number discarded is kept under ``var``."""

    count: int = 1
    up_to: bool = False
    var: Key[int] = DISCARDED
    kind = "discard"

    def writes(self) -> tuple[Key[Any], ...]:
        return (self.var,)

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"discard {'up to ' if self.up_to else ''}{self.count} card(s)"

    @property
    def optional(self) -> bool:  # type: ignore[override]
        return self.up_to

    def describe(self, g: Mechanics, f: Frame) -> str:
        left = self.count - f.get(self.var, 0)
        more = "up to " if self.up_to else ""
        return (
            f"{f.card}: discard {more}{left} more card{'s' if left != 1 else ''}"
            if (left != self.count)
            else super().describe(g, f)
        )

    def enter(self, g: Mechanics, f: Frame) -> bool:
        if f.get(self.var, 0) >= self.count:
            return True
        return FromHand.enter(self, g, f)

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return _hand_options(g, f.seat, "discard")

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        return _why_not_in_hand(g, f, decision)

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            f.put(self.var, f.get(self.var, 0))
            return True
        p = g.players[f.seat]
        p.discard.append(g.take_from_hand(f.seat, payload))
        f.put(self.var, f.get(self.var, 0) + 1)
        g.note(f"{g.seat_name(f.seat)}: discards {payload}")
        return f.value(self.var) >= self.count or not p.hand


@dataclass(frozen=True)
class Topdeck(Choice):
    """Put a card from the hand on top of the deck (``optional``: you may)."""

    optional: bool = False
    kind = "topdeck"
    text = "put a card from your hand on top of your deck"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        if g.setup.sealed:  # the card goes face down: named by its place in the hand
            return {("topdeck", str(i + 1)): i for i in range(len(g.players[f.seat].hand))}
        return _hand_options(g, f.seat, "topdeck")

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if g.setup.sealed and len(decision) == 2 and decision != DONE:
            size = len(g.players[f.seat].hand)
            return (
                "With sealed decks a card put back face down is named by its place in your "
                f"hand, `topdeck 1` to `topdeck {size}`"
            )
        return _why_not_in_hand(g, f, decision)

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision != DONE:
            hand = g.players[f.seat].hand
            card = hand.pop(payload) if g.setup.sealed else g.take_from_hand(f.seat, payload)
            g.players[f.seat].deck.insert(0, card)
            g.note(f"{g.seat_name(f.seat)}: puts a card on top of their deck")
        return True


@dataclass(frozen=True)
class TrashFromHand(FromHand):
    """Trash a card from the hand (``training_only``: a card with a Training effect). Remembers
    what the later steps need: the trashed card's cost, and the unit it trains."""

    training_only: bool = False
    kind = "trash"

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"trash a {'training ' if self.training_only else ''}card from your hand"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        keep = (
            (lambda n: g.card_type(n).is_training_card) if self.training_only else (lambda n: True)
        )
        return _hand_options(g, f.seat, "trash", keep)

    def writes(self) -> tuple[Key[Any], ...]:
        return (TRASHED_COST, MORPH_INTO)

    def options(self, g: Mechanics, f: Frame) -> Options:
        opts = FromHand.options(self, g, f)
        if not opts and g.hides_hand(f.seat):
            # The others cannot see that no card fits: the seat says so (the audit's replay
            # checks it), rather than the step passing by itself on a hidden hand.
            return {DONE: DONE}
        return opts

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        reason = _why_not_in_hand(g, f, decision)
        if reason is None and self.training_only and len(decision) == 2:
            return f"{f.card} trashes only a training card: {decision[1]} trains no unit"
        return reason

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            g.note(f"{g.seat_name(f.seat)}: has no training card to trash")
            return True
        card = g.card_type(payload)
        g.trash.append(g.take_from_hand(f.seat, payload))
        f.put(TRASHED_COST, g.cost(payload))
        if card.trains:
            f.put(MORPH_INTO, card.trains)
        g.note(f"{g.seat_name(f.seat)}: trashes {payload}")
        return True


@dataclass(frozen=True)
class GainCard(Choice):
    """Gain a Supply card costing up to ``limit``, or up to ``plus`` more than the card just
    trashed; ``needs`` names a key that must be set (Sacrifice: only if you discarded)."""

    limit: int | None = None
    plus: int | None = None
    needs: Key[int] | None = None
    kind = "gain"

    def reads(self) -> tuple[Key[Any], ...]:
        return ((TRASHED_COST,) if self.plus is not None else ()) + (
            (self.needs,) if self.needs else ()
        )

    @property
    def text(self) -> str:  # type: ignore[override]
        if self.plus is not None:
            return f"gain a card costing up to {self.plus} more than the trashed card"
        return f"gain a card costing up to {self.limit}"

    def _limit(self, f: Frame) -> int | None:
        # Nothing to gain before the step it follows has done its part (so a card is never
        # offered for its gain alone).
        if self.needs and not f.get(self.needs, 0):
            return None
        if self.plus is not None:
            return f.value(TRASHED_COST) + self.plus if f.has(TRASHED_COST) else None
        return self.limit

    def choices(self, g: Mechanics, f: Frame) -> Options:
        limit = self._limit(f)
        if limit is None:
            return {}
        supply = g.supply_for(f.seat)
        prices = g.prices()
        return {("gain", n): n for n, left in supply.items() if left > 0 and prices[n] <= limit}

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if len(decision) != 2 or decision[1] not in g.rules.cards:
            return None
        name, limit = g.card_type(decision[1]).name, self._limit(f)
        supply = g.supply_for(f.seat)
        if name not in supply:
            return f"{name} is not in your Supply"
        if supply[name] == 0:
            return f"The {name} pile is empty"
        if limit is not None and g.cost(name) > limit:
            return f"{f.card} gains a card costing up to {limit}: {name} costs {g.cost(name)}"
        return None

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        g.gain(f.seat, payload)
        g.note(f"{g.seat_name(f.seat)}: gains {payload}")
        return True


# ==================================================================== units

MOVE_VERBS = ("march", "attack", "swap")


def _class_ok(unit: Unit, cls: UnitClass | None) -> bool:
    return cls is None or unit.kind.has(cls)


def _named_square(decision: Decision, at: int) -> int | None:
    """The square a decision names at word ``at``, or None (a peer may send anything)."""
    try:
        return parse_square(decision[at])
    except (IndexError, ValueError):
        return None


def _unit_named(g: Mechanics, decision: Decision) -> tuple[int, Unit] | None:
    sq = _named_square(decision, 1)
    unit = None if sq is None else g.position.board[sq]
    return None if sq is None or unit is None else (sq, unit)


@dataclass(frozen=True)
class OrderUnit(Choice):
    """March and/or attack with one unit by its normal rules.

    ``cls`` limits the class; ``enemy`` picks an enemy non-Sovereign unit moved as its owner
    could (False Orders); ``same`` moves again the unit whose square is kept under that key
    (Stables); ``dest`` limits where it may go; ``after`` is the card's consequence;
    ``remember`` keeps the unit's new square for the next step.
    """

    cls: UnitClass | None = None
    march: bool = True
    attack: bool = True
    enemy: bool = False
    same: Key[int] | None = None
    dest: Destination | None = None
    after: Aftermath | None = None
    remember: Key[int] | None = None
    kind = "order"

    @property
    def text(self) -> str:  # type: ignore[override]
        verb = (
            "march or attack with"
            if self.march and self.attack
            else ("march" if self.march else "attack with")
        )
        whose = "an enemy non-Sovereign" if self.enemy else "your"
        what = f"{self.cls.value} unit" if self.cls else "unit"
        again = " again" if self.same else ""
        where = self.dest.text if self.dest else ""
        after = self.after.text if self.after else ""
        return f"{verb} {whose} {what}{again}{where}{after}"

    def reads(self) -> tuple[Key[Any], ...]:
        return (self.same,) if self.same else ()

    def writes(self) -> tuple[Key[Any], ...]:
        return (self.remember,) if self.remember else ()

    def _units(self, g: Mechanics, f: Frame) -> Iterator[int]:
        """The squares of the units the order may move, in board order, one at a time: a
        probe of the card (``possible``) stops at the first that can go somewhere."""
        board = g.position.board
        if self.same:
            sq = f.get(self.same, -1)
            if sq >= 0 and board[sq] is not None:
                yield sq
            return
        for sq in g.orderable(f.seat, f.as_order, own=not self.enemy):
            unit = g.unit_at(sq)
            if _class_ok(unit, self.cls) and (not self.enemy or self._is_target(g, f, unit)):
                yield sq

    @staticmethod
    def _is_target(g: Mechanics, f: Frame, unit: Unit) -> bool:
        return not unit.kind.is_sovereign and g.rules.seating.are_enemies(f.seat, unit.owner)

    def each_choice(self, g: Mechanics, f: Frame) -> Iterator[tuple[Decision, Any]]:
        pos = g.position
        occ_of: dict[int, list[int]] = {}
        for sq in self._units(g, f):
            unit = pos.board[sq]
            assert unit is not None
            occ = occ_of.get(unit.owner)
            if occ is None:
                occ = occ_of[unit.owner] = pos.occupancy(unit.owner)
            forward = g.rules.seating.forward(unit.owner)
            moves = unit.kind.moves(occ, sq, forward)
            if unit.kind.can_march_in_place(occ, sq, forward):  # a card's march may stand still
                moves.append(UnitMove("march", sq, sq))
            for m in moves:
                if (m.kind == "attack" and not self.attack) or (
                    m.kind != "attack" and not self.march
                ):
                    continue
                if self.dest and not self.dest.allows(g, f.seat, m):
                    continue
                yield move_decision(m), m

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if len(decision) != 3 or decision[0] not in MOVE_VERBS:
            return None
        if decision[0] == "attack" and not self.attack:
            return f"{f.card} only marches: it cannot attack"
        if decision[0] != "attack" and not self.march:
            return f"{f.card} only attacks"
        found = _unit_named(g, decision)
        if found is None:
            return None
        sq, unit = found
        name = f"the {unit.kind.name} on {square_name(sq)}"  # mid-sentence
        if self.same and sq != f.get(self.same, -1):
            return f"{f.card} moves the same unit again, not the {unit.kind.name} on {decision[1]}"
        if self.enemy and not self._is_target(g, f, unit):
            return f"{f.card} orders an enemy unit that is not a Sovereign: {name} is not one"
        if not _class_ok(unit, self.cls):
            assert self.cls is not None
            return f"{f.card} orders only {self.cls.value} units: {name} is not one"
        reason = g.why_not_command(f.seat, sq, f.as_order, own=not self.enemy)
        if reason is None and self.dest is not None:
            pos, forward = g.position, g.rules.seating.forward(unit.owner)
            reach = unit.kind.moves(pos.occupancy(unit.owner), sq, forward)
            if any(move_decision(m)[2] == decision[2] for m in reach):
                return f"{f.card} moves it only{self.dest.text}"
        return reason

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        move: UnitMove = payload
        unit = g.perform(move, f.seat, as_order=f.as_order)
        if self.after is not None:
            self.after(g, f.seat, move, unit)
        if self.remember:
            f.put(self.remember, move.to)
        return True


@dataclass(frozen=True)
class Deploy(Choice):
    """Deploy a unit from the Barracks, ``where`` a placement rule (unit_rules.py) allows;
    ``cls`` limits which unit."""

    where: Placement = BY_THE_RULES
    cls: UnitClass | None = None
    needs_squares: int = 1  # Quartermaster: only with two empty squares to deploy to
    again: bool = False  # the second of two deploys: never what makes a card playable
    kind = "deploy"

    @property
    def text(self) -> str:  # type: ignore[override]
        what = f"a {self.cls.value} unit" if self.cls else "a unit"
        return f"deploy {what}{self.where.text}"

    @property
    def counts(self) -> bool:  # type: ignore[override]
        return not self.again

    def each_choice(self, g: Mechanics, f: Frame) -> Iterator[tuple[Decision, Any]]:
        for kind in g.distinct_barracks(f.seat, as_order=f.as_order):
            if self.cls is not None and not kind.has(self.cls):
                continue
            squares = self.where.squares(g, f.seat, kind)
            if len(squares) < self.needs_squares:
                continue
            for sq in squares:
                yield ("deploy", kind.name, square_name(sq)), (kind.name, sq)

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if decision[0] != "deploy":
            return None
        reason = g.why_not_deploy(f.seat, decision, as_order=f.as_order)
        if reason is not None or len(decision) != 3:
            return reason
        kind = g.rules.units.get(decision[1])
        if self.cls is not None and not kind.has(self.cls):
            return f"{f.card} deploys only {self.cls.value} units"
        where = self.where.squares(g, f.seat, kind)
        if len(where) < self.needs_squares:
            return f"{f.card} needs {self.needs_squares} empty squares to deploy on"
        squares = ", ".join(square_name(s) for s in where)
        return f"{f.card} deploys{self.where.text or ' by the usual rules'}: on {squares}"

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        g.deploy(f.seat, payload[0], payload[1], as_order=f.as_order)
        return True


@dataclass(frozen=True)
class Onslaught(Choice):
    """Up to ``count`` Foot units, one at a time: each marches (on the board) or deploys (from
    the Barracks). No attacks."""

    count: int = 4
    cls: UnitClass = UnitClass.FOOT
    kind = "order"
    optional = True

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"march or deploy up to {self.count} {self.cls.value} units, one at a time"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        if f.get(_MOVED, 0) >= self.count:
            return {}
        opts: Options = {}
        squares = [sq for sq, u in g.position.units() if u.kind.has(self.cls)]
        for m in g.unit_orders(f.seat, as_order=True, units=squares):
            if m.kind == "march":
                opts[move_decision(m)] = ("move", m)
        for kind in g.distinct_barracks(f.seat, as_order=True):
            if kind.has(self.cls):
                for sq in g.position.deploy_squares(f.seat, kind):
                    opts[("deploy", kind.name, square_name(sq))] = ("deploy", kind.name, sq)
        return opts

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if decision[0] == "deploy":
            reason = g.why_not_deploy(f.seat, decision, as_order=True)
            if reason is None and not g.rules.units.get(decision[1]).has(self.cls):
                return f"{f.card} deploys only {self.cls.value} units"
            return reason
        if len(decision) != 3 or decision[0] not in MOVE_VERBS:
            return None
        if decision[0] != "march":
            return f"{f.card} only marches and deploys: no attacks"
        found = _unit_named(g, decision)
        if found is not None and not found[1].kind.has(self.cls):
            return f"{f.card} orders only {self.cls.value} units"
        return None if found is None else g.why_not_command(f.seat, found[0], as_order=True)

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            f.drop(_MOVED)
            return True
        if payload[0] == "move":
            g.perform(payload[1], f.seat, as_order=True)
        else:
            g.deploy(f.seat, payload[1], payload[2], as_order=True)
        f.put(_MOVED, f.get(_MOVED, 0) + 1)
        if f.value(_MOVED) >= self.count:
            f.drop(_MOVED)
            return True
        return False

    def enter(self, g: Mechanics, f: Frame) -> bool:
        if Choice.enter(self, g, f):
            f.drop(_MOVED)
            return True
        return False


def _relocate(g: Mechanics, frm: int, to: int, as_order: bool) -> None:
    """Move a unit ignoring its movement rules (a card's "move"): no capture, no promotion."""
    board = g.position.board
    unit = board[frm]
    assert unit is not None and board[to] is None
    board[frm], board[to] = None, unit
    if as_order:
        g.mark_ordered(unit)
        g.this_turn.order_moved.append(unit.uid)
    g.note(
        f"{g.seat_name(unit.owner)}: {unit.kind.name} {square_name(frm)}"
        f" is moved to {square_name(to)}"
    )


@dataclass(frozen=True)
class MoveUnit(Choice):
    """Move one of your units, ignoring its movement rules, as ``rule`` (unit_rules.py) allows:
    Consort's ``NEXT_TO_REGAL``, Aviary's ``REGAL_TO_SAFETY``, Sanctuary's ``around(key)``."""

    rule: Relocation
    kind = "move"

    @property
    def text(self) -> str:  # type: ignore[override]
        return self.rule.text

    def reads(self) -> tuple[Key[Any], ...]:
        return self.rule.reads()

    def choices(self, g: Mechanics, f: Frame) -> Options:
        seat = f.seat
        mine = g.orderable(seat, f.as_order)
        return {
            ("move", square_name(sq), square_name(t)): (sq, t)
            for sq, t in self.rule.moves(g, f, mine)
        }

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        found = _unit_named(g, decision) if decision[0] == "move" else None
        if found is None:
            return None
        reason = g.why_not_command(f.seat, found[0], f.as_order)
        return reason or f"{f.card}: {self.rule.text}"

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        _relocate(g, payload[0], payload[1], f.as_order)
        return True


@dataclass(frozen=True)
class Morph(Choice):
    """Morph one of your units into the type the trashed card trains (``MORPH_INTO``);
    ``barracks_only`` for Refiner."""

    barracks_only: bool = False
    kind = "morph"

    @property
    def text(self) -> str:  # type: ignore[override]
        return "morph a unit in your Barracks" if self.barracks_only else "morph one of your units"

    def reads(self) -> tuple[Key[Any], ...]:
        return (MORPH_INTO,)

    def choices(self, g: Mechanics, f: Frame) -> Options:
        if not f.has(MORPH_INTO):  # the trashed card trains no unit (or none was trashed)
            return {}
        opts: Options = {}
        if not self.barracks_only:
            for sq in g.orderable(f.seat, f.as_order):
                opts[("morph", square_name(sq))] = ("board", sq)
        for kind in g.distinct_barracks(f.seat):
            opts[("morph", "barracks", kind.name)] = ("barracks", kind.name)
        return opts

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if len(decision) == 2 and self.barracks_only:
            return f"{f.card} morphs only a unit in your Barracks"
        found = _unit_named(g, decision) if len(decision) == 2 else None
        return None if found is None else g.why_not_command(f.seat, found[0], f.as_order)

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        into = g.rules.units.get(f.value(MORPH_INTO))
        f.drop(MORPH_INTO)
        if payload[0] == "board":
            unit = g.unit_at(payload[1])
            g.note(
                f"{g.seat_name(unit.owner)}: {unit.kind.name} on {square_name(payload[1])}"
                f" becomes {into.name}"
            )
            unit.kind = into
            if f.as_order:
                g.mark_ordered(unit)
        else:
            barracks = g.position.barracks[f.seat]
            barracks.remove(g.rules.units.get(payload[1]))
            barracks.append(into)
            g.note(f"{g.seat_name(f.seat)}: morphs a {payload[1]} in the Barracks into {into.name}")
        return True


@dataclass(frozen=True)
class SwapShared(Choice):
    """Subterfuge: swap two of your units that share a class; one may be in the Barracks."""

    kind = "swap"
    text = "swap two of your units that share a class (one may be in your Barracks)"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        seat = f.seat
        mine = [(sq, g.unit_at(sq)) for sq in g.orderable(seat, f.as_order)]
        opts: Options = {}
        for i, (a, ua) in enumerate(mine):
            for b, ub in mine[i + 1 :]:
                if set(ua.kind.classes) & set(ub.kind.classes):
                    opts[("swap", square_name(a), square_name(b))] = ("board", a, b)
            for kind in g.distinct_barracks(seat):
                if set(ua.kind.classes) & set(kind.classes):
                    opts[("swap", square_name(a), kind.name)] = ("barracks", a, kind.name)
        return opts

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        board = g.position.board
        if payload[0] == "board":
            _, a, b = payload
            board[a], board[b] = board[b], board[a]
            g.note(
                f"{g.seat_name(f.seat)}: swaps the units on {square_name(a)} and {square_name(b)}"
            )
            return True
        _, a, kind_name = payload
        leaving = g.unit_at(a)
        board[a] = None
        barracks = g.position.barracks[f.seat]
        barracks.append(leaving.kind)
        g.deploy(f.seat, kind_name, a, as_order=f.as_order)
        g.note(
            f"{g.seat_name(f.seat)}: {leaving.kind.name} on {square_name(a)} goes to the Barracks"
        )
        return True


@dataclass(frozen=True)
class ProtectSovereigns(Choice):
    """Wish: any of your Sovereigns you choose cannot be captured until your next turn."""

    kind = "protect"
    text = "choose Sovereigns that cannot be captured until your next turn"
    optional = True

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return {
            ("protect", square_name(sq)): sq
            for sq in g.orderable(f.seat, f.as_order)
            if (u := g.unit_at(sq)).kind.is_sovereign and not u.uncapturable
        }

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            return True
        unit = g.unit_at(payload)
        g.rules.protect(g, f.seat, unit)
        if f.as_order:
            g.mark_ordered(unit)
        g.note(f"{g.seat_name(f.seat)}: protects the {unit.kind.name} on {square_name(payload)}")
        return False


@dataclass(frozen=True)
class LockOrderCards(EffectStep):
    """Wish: you cannot play Order cards on your next turn."""

    counts = False  # a restriction, never a reason to play the card

    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.order_lock[f.seat] |= FROZEN_NEXT  # a lock on the rest of this turn stays
        return True


# ==================================================================== opponents' cards


@dataclass(frozen=True)
class ChooseOpponent(Choice):
    """Pick the opponent a card aims at; automatic when there is only one."""

    kind = "target"
    text = "choose the opponent this card affects"
    counts = False  # it only aims the step that follows

    def writes(self) -> tuple[Key[Any], ...]:
        return (OPPONENT,)

    def enter(self, g: Mechanics, f: Frame) -> bool:
        opponents = g.rules.opponents(f.seat)
        if len(opponents) == 1:
            f.put(OPPONENT, opponents[0])
            return True
        return Choice.enter(self, g, f)

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return {("target", str(s)): s for s in g.rules.opponents(f.seat)}

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        f.put(OPPONENT, payload)
        return True


@dataclass(frozen=True)
class LookAtHand(EffectStep):
    """Astrology: see the chosen opponent's hand (kept for this turn in the viewer's view)."""

    counts = False  # it only follows the choice of opponent: a glimpse alone is no reason to play

    def reads(self) -> tuple[Key[Any], ...]:
        return (OPPONENT,)

    def enter(self, g: Mechanics, f: Frame) -> bool:
        opponent = f.value(OPPONENT)
        names = sorted(g.cards[c] for c in g.players[opponent].hand)
        g.this_turn.glimpses.setdefault(f.seat, {})[opponent] = names
        g.looks.append((f.seat, opponent, tuple(g.players[opponent].hand)))
        return True


@dataclass(frozen=True)
class RevealTopCard(Choice):
    """False Orders: the opponent reveals their top card; trash it or put it back. A reveal is
    no draw: an empty deck reveals nothing and is not reshuffled (docs/rulings.md)."""

    kind = "reveal"
    text = "trash the revealed card, or put it back"

    def reads(self) -> tuple[Key[Any], ...]:
        return (OPPONENT,)

    def enter(self, g: Mechanics, f: Frame) -> bool:
        opponent = f.value(OPPONENT)
        if not g.players[opponent].deck:
            return True  # nothing to reveal
        top_id = g.players[opponent].deck[0]
        if not g.face_up([top_id]):
            return False
        top = g.cards[top_id]
        if f.get(_REVEALED, "") != top:
            f.put(_REVEALED, top)
            g.this_turn.revealed.append(top)
            g.shown.add(top_id)
            g.note(f"{g.seat_name(opponent)}: reveals {top}")
        return Choice.enter(self, g, f)

    def possible(self, g: Mechanics, f: Frame) -> bool:
        # The choice comes after the reveal its enter makes: the step can act when the chosen
        # opponent, or before the choice any, has a card in their deck.
        aimed = [f.value(OPPONENT)] if f.has(OPPONENT) else g.rules.opponents(f.seat)
        return any(g.players[o].deck for o in aimed)

    def choices(self, g: Mechanics, f: Frame) -> Options:
        p = g.players[f.value(OPPONENT)] if f.has(OPPONENT) else None
        if p is None or not p.deck:
            return {}
        top = g.cards[p.deck[0]]
        return {("trash", top): "trash", ("keep", top): "keep"}

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        opponent = f.value(OPPONENT)
        f.drop(OPPONENT)
        f.drop(_REVEALED)
        if payload == "trash":
            g.trash.append(g.players[opponent].deck.pop(0))
            g.note(f"{g.seat_name(f.seat)}: trashes it")
        return True


@dataclass(frozen=True)
class WishFor(Choice):
    """Wish: name a card; reveal cards from your deck until you find it; take it into your hand
    and discard the others. The deck is not reshuffled (docs/rulings.md)."""

    kind = "name"
    text = "name a card to look for in your deck"

    def choices(self, g: Mechanics, f: Frame) -> Options:
        return {("name", n): n for n in g.game_cards()}

    def why_not(self, g: Mechanics, f: Frame, decision: Decision) -> str | None:
        if len(decision) == 2 and decision[0] == "name":
            return f"{decision[1]} is no card of this game: name one of its cards"
        return None

    def enter(self, g: Mechanics, f: Frame) -> bool:
        if not f.has(_WISHED):
            return Choice.enter(self, g, f)
        # Turned over one at a time: in a sealed game each waits for its opening.
        wished, p = f.value(_WISHED), g.players[f.seat]
        while p.deck:
            if not g.face_up(p.deck[:1]):
                return False
            cid = p.deck.pop(0)
            if g.cards[cid] == wished:
                p.hand.append(cid)
                g.shown.add(cid)
                g.note(f"{g.seat_name(f.seat)}: finds {wished}")
                f.drop(_WISHED)
                return True
            p.discard.append(cid)
            g.this_turn.revealed.append(g.cards[cid])
        g.note(f"{g.seat_name(f.seat)}: does not find {wished}")
        f.drop(_WISHED)
        return True

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        f.put(_WISHED, payload)
        return False  # the cards are turned over as the step is entered again


# ==================================================================== the turn's machinery


@dataclass(frozen=True)
class Promote(Choice):
    """A Foot unit that marched or attacked onto its owner's last rank: its owner picks a type
    trained by a card of this game, or keeps it as it is."""

    kind = "promote"
    text = "promote the unit, or keep it as it is"

    def reads(self) -> tuple[Key[Any], ...]:
        return (PROMOTING,)

    def choices(self, g: Mechanics, f: Frame) -> Options:
        unit = g.position.board[f.value(PROMOTING)]
        if unit is None:
            return {}
        names = [unit.kind.name, *g.promotion_choices(unit)]
        return {("promote", n): n for n in names}

    def describe(self, g: Mechanics, f: Frame) -> str:
        return f"promote the unit on {square_name(f.value(PROMOTING))}, or keep it as it is"

    def choose(self, g: Mechanics, f: Frame, decision: Decision, payload: Any) -> bool:
        unit = g.unit_at(f.value(PROMOTING))
        if payload != unit.kind.name:
            g.note(f"{g.seat_name(unit.owner)}: promotes the {unit.kind.name} to {payload}")
            unit.kind = g.rules.units.get(payload)
        return True


class _SetupSupply(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        short = any(len(p) < g.setup.fill_piles for p in g.pile_lists)
        if short and not f.has(_CHOSEN):
            f.put(_CHOSEN, 1)
            g.chance = {"kind": "supply"}
            return False
        for i, piles in enumerate(g.pile_lists):
            g.supplies[i] = {name: count for name, count in g.setup.core_piles}
            g.supplies[i].update((name, g.setup.pile_size) for name in piles)
        return True


class _Shuffle(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        if f.has(_SHUFFLED):
            f.drop(_SHUFFLED)
            return True
        if g.ask_to_shuffle(f.seat):
            return True
        f.put(_SHUFFLED, 1)
        return False


class _BeginFirstTurn(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.begin_turn(g.rules.first_seat())
        return True


class _CheckOutcome(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.check_outcome()
        return True


class _Cleanup(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        p = g.players[f.seat]
        if not g.face_up(p.hand):  # the discard pile is face up
            return False
        p.discard.extend(p.in_play + p.hand)
        p.in_play, p.hand = [], []
        return True


class _EndTurn(EffectStep):
    def enter(self, g: Mechanics, f: Frame) -> bool:
        g.end_turn()
        return True


SYSTEM_STEPS: dict[str, tuple[EffectStep, ...]] = {
    "#supply": (_SetupSupply(),),
    "#deal": (_Shuffle(), Draw(hand_size=True)),
    "#begin": (_BeginFirstTurn(),),
    "#housekeeping": (_CheckOutcome(), _Cleanup(), Draw(hand_size=True), _EndTurn()),
    "#promote": (Promote(),),
}
