"""The primitives card effects are made of.

A card effect is a tuple of steps; the game runs them in order inside a :class:`~.game.Frame`.
Each step either does its work at once (``enter`` returns True) or waits for a decision: then
``options`` lists every legal decision, and ``choose`` applies one (returning True when the step
is finished, False to ask again, as Onslaught does for each of its units). Steps keep what later
steps need in ``frame.vars`` (plain data), never in themselves: a step is shared by every game.

"Do everything a card says if you can": a step with no legal choice is skipped. Only steps that
say "may" or "up to" offer ``done``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import adjacent, relative_rank, square_name
from .decisions import Decision
from .movement import UnitMove
from .position import Unit
from .units import UnitClass, UnitType

if TYPE_CHECKING:
    from .game import Frame, Game

Options = dict[Decision, Any]
DONE: Decision = ("done",)


class Step:
    kind = "card"
    text = ""

    def enter(self, g: Game, f: Frame) -> bool:
        """Do the automatic part; True when finished, False to wait for a decision."""
        return True

    def options(self, g: Game, f: Frame) -> Options:
        return {}

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        """Could this step do something now? (A card is only offered when it can.)"""
        return True

    def decider(self, g: Game, f: Frame) -> int:
        return f.seat

    def describe(self, g: Game, f: Frame) -> str:
        name = f.card if not f.card.startswith("#") else f.card[1:]
        return f"{name}: {self.text}" if self.text else name


class Choice(Step):
    """A step that waits for a decision. Subclasses list their real ``choices``; ``optional``
    ones add ``done``."""

    optional = False

    def choices(self, g: Game, f: Frame) -> Options:
        raise NotImplementedError

    def options(self, g: Game, f: Frame) -> Options:
        opts = self.choices(g, f)
        if opts and self.optional:
            opts[DONE] = DONE
        return opts

    def enter(self, g: Game, f: Frame) -> bool:
        opts = self.options(g, f)
        if not opts:
            return True
        g.offer(opts)  # the prompt that follows lists exactly these
        return False

    def possible(self, g: Game, f: Frame) -> bool:
        return bool(self.choices(g, f))


# ==================================================================== pools, gold, cards


@dataclass(frozen=True)
class Plus(Step):
    orders: int = 0
    actions: int = 0
    buys: int = 0
    gold: int = 0

    def enter(self, g: Game, f: Frame) -> bool:
        g.this_turn.orders += self.orders
        g.this_turn.actions += self.actions
        g.this_turn.buys += self.buys
        g.this_turn.gold += self.gold
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        return bool(self.orders or self.actions or self.buys or self.gold)


@dataclass(frozen=True)
class Draw(Step):
    """Draw ``count`` cards (or as many as ``count_var`` says), reshuffling as needed."""

    count: int = 0
    count_var: str = ""
    hand_size: bool = False  # housekeeping and dealing: the setup's hand size

    def enter(self, g: Game, f: Frame) -> bool:
        if "drawing" in f.vars:
            left = f.vars["drawing"]
        elif self.hand_size:
            left = g.setup.hand_size
        else:
            left = f.vars.get(self.count_var, 0) if self.count_var else self.count
        while left > 0:
            drawn = g.draw_one(f.seat)
            if drawn is None:
                f.vars["drawing"] = left
                return False
            if not drawn:
                break
            left -= 1
        f.vars.pop("drawing", None)
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        p = g.players[f.seat]
        return bool(p.deck or p.discard)


@dataclass(frozen=True)
class Discount(Step):
    """Every card costs ``amount`` less this turn (never below 0)."""

    amount: int = 1

    def enter(self, g: Game, f: Frame) -> bool:
        g.this_turn.discount += self.amount
        return True


@dataclass(frozen=True)
class GoldPerTreasure(Step):
    """Legend: 1 gold for each Treasure effect played before this one this turn."""

    def enter(self, g: Game, f: Frame) -> bool:
        g.this_turn.gold += f.vars.get("treasures_before", 0)
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        return True


def _hand_options(
    g: Game, seat: int, verb: str, keep: Callable[[str], bool] = lambda name: True
) -> Options:
    return {(verb, n): n for n in g.hand_names(seat) if keep(n)}


@dataclass(frozen=True)
class DiscardCards(Choice):
    """Discard ``count`` cards from the hand, one at a time; ``up_to`` lets the player stop.
    The number discarded is kept in ``vars[var]``."""

    count: int = 1
    up_to: bool = False
    var: str = "discarded"
    kind = "discard"

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"discard {'up to ' if self.up_to else ''}{self.count} card(s)"

    @property
    def optional(self) -> bool:  # type: ignore[override]
        return self.up_to

    def describe(self, g: Game, f: Frame) -> str:
        left = self.count - f.vars.get(self.var, 0)
        more = "up to " if self.up_to else ""
        return (
            f"{f.card}: discard {more}{left} more card{'s' if left != 1 else ''}"
            if (left != self.count)
            else super().describe(g, f)
        )

    def enter(self, g: Game, f: Frame) -> bool:
        if f.vars.get(self.var, 0) >= self.count:
            return True
        return Choice.enter(self, g, f)

    def choices(self, g: Game, f: Frame) -> Options:
        return _hand_options(g, f.seat, "discard")

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            f.vars.setdefault(self.var, 0)
            return True
        p = g.players[f.seat]
        p.discard.append(g.take_from_hand(f.seat, payload))
        f.vars[self.var] = f.vars.get(self.var, 0) + 1
        g.note(f"{g.seat_name(f.seat)}: discards {payload}")
        return f.vars[self.var] >= self.count or not p.hand


@dataclass(frozen=True)
class Topdeck(Choice):
    """Put a card from the hand on top of the deck (``optional``: you may)."""

    optional: bool = False
    kind = "topdeck"
    text = "put a card from your hand on top of your deck"

    def choices(self, g: Game, f: Frame) -> Options:
        return _hand_options(g, f.seat, "topdeck")

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision != DONE:
            g.players[f.seat].deck.insert(0, g.take_from_hand(f.seat, payload))
            g.note(f"{g.seat_name(f.seat)}: puts a card on top of their deck")
        return True


@dataclass(frozen=True)
class TrashFromHand(Choice):
    """Trash a card from the hand (``training_only``: a card with a Training effect). Remembers
    what the later steps need: the trashed card's cost, and the unit it trains."""

    training_only: bool = False
    kind = "trash"

    @property
    def text(self) -> str:  # type: ignore[override]
        return f"trash a {'training ' if self.training_only else ''}card from your hand"

    def choices(self, g: Game, f: Frame) -> Options:
        keep = (
            (lambda n: g.card_type(n).is_training_card) if self.training_only else (lambda n: True)
        )
        return _hand_options(g, f.seat, "trash", keep)

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        card = g.card_type(payload)
        g.trash.append(g.take_from_hand(f.seat, payload))
        f.vars["trashed_cost"] = g.cost(payload)
        if card.trains:
            f.vars["morph_into"] = card.trains
        g.note(f"{g.seat_name(f.seat)}: trashes {payload}")
        return True


@dataclass(frozen=True)
class GainCard(Choice):
    """Gain a Supply card costing up to ``limit``, or up to ``plus`` more than the card just
    trashed; ``needs`` names a var that must be set (Sacrifice: only if you discarded)."""

    limit: int | None = None
    plus: int | None = None
    needs: str = ""
    kind = "gain"

    @property
    def text(self) -> str:  # type: ignore[override]
        if self.plus is not None:
            return f"gain a card costing up to {self.plus} more than the trashed card"
        return f"gain a card costing up to {self.limit}"

    def _limit(self, f: Frame) -> int | None:
        if self.needs and not f.vars.get(self.needs):
            return None
        if self.plus is not None:
            return f.vars["trashed_cost"] + self.plus if "trashed_cost" in f.vars else None
        return self.limit

    def choices(self, g: Game, f: Frame) -> Options:
        limit = self._limit(f)
        if limit is None:
            return {}
        supply = g.supply_for(f.seat)
        return {("gain", n): n for n, left in supply.items() if left > 0 and g.cost(n) <= limit}

    def possible(self, g: Game, f: Frame) -> bool:
        return False  # only ever follows a step that makes it possible

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        g.gain(f.seat, payload)
        g.note(f"{g.seat_name(f.seat)}: gains {payload}")
        return True


# ==================================================================== units


def _class_ok(unit: Unit, cls: UnitClass | None) -> bool:
    return cls is None or unit.kind.has(cls)


@dataclass(frozen=True)
class OrderUnit(Choice):
    """March and/or attack with one unit by its normal rules.

    ``cls`` limits the class; ``enemy`` picks an enemy non-Sovereign unit moved as its owner
    could (False Orders); ``same`` moves again the unit whose square is in that var (Stables);
    ``dest`` filters where it may go; ``after`` adds the card's consequence; ``remember`` stores
    the unit's new square for the next step.
    """

    cls: UnitClass | None = None
    march: bool = True
    attack: bool = True
    enemy: bool = False
    same: str = ""
    dest: str = ""  # "", "unthreatened", "next_to_own"
    in_place: bool = False  # Armor: the Warlord may march out and back
    after: str = ""  # "", "uncapturable", "freeze_adjacent", "freeze_unit"
    remember: str = ""
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
        return f"{verb} {whose} {what}{again}"

    def _units(self, g: Game, f: Frame) -> list[int]:
        board = g.position.board
        if self.same:
            sq = f.vars.get(self.same)
            return [sq] if sq is not None and board[sq] is not None else []
        out = []
        for sq in range(64):
            unit = board[sq]
            if unit is None or not _class_ok(unit, self.cls):
                continue
            if self.enemy:
                if unit.kind.is_sovereign or not g.rules.seating.are_enemies(f.seat, unit.owner):
                    continue
                if not g.can_order(f.seat, unit, f.as_order, own=False):
                    continue
            elif not g.can_order(f.seat, unit, f.as_order):
                continue
            out.append(sq)
        return out

    def choices(self, g: Game, f: Frame) -> Options:
        from .game import move_decision

        opts: Options = {}
        pos = g.position
        for sq in self._units(g, f):
            unit = pos.board[sq]
            assert unit is not None
            occ = pos.occupancy(unit.owner)
            forward = g.rules.seating.forward(unit.owner)
            moves = unit.kind.moves(occ, sq, forward)
            if self.in_place and unit.kind.can_march_in_place(occ, sq, forward):
                moves.append(UnitMove("march", sq, sq))
            for m in moves:
                if (m.kind == "attack" and not self.attack) or (
                    m.kind != "attack" and not self.march
                ):
                    continue
                if self.dest and not self._dest_ok(g, f, m):
                    continue
                opts[move_decision(m)] = m
        return opts

    def _dest_ok(self, g: Game, f: Frame, m: UnitMove) -> bool:
        if self.dest == "unthreatened":
            return not g.position.would_be_threatened(m.frm, m.to)
        if self.dest == "next_to_own":
            board = g.position.board
            return any(
                t != m.frm and (u := board[t]) is not None and g.rules.is_own(g, f.seat, u)
                for t in adjacent(m.to)
            )
        raise ValueError(f"unknown destination rule {self.dest!r}")

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        move: UnitMove = payload
        unit = g.perform(move, f.seat, as_order=f.as_order)
        if self.after == "uncapturable":
            g.rules.protect(g, f.seat, unit)
        elif self.after == "freeze_unit":
            unit.freeze()
        elif self.after == "freeze_adjacent":
            for c in move.captures:
                for t in adjacent(c):
                    neighbour = g.position.board[t]
                    if neighbour is not None and neighbour is not unit:
                        g.rules.freeze_beside_capture(g, f.seat, neighbour)
        if self.remember:
            f.vars[self.remember] = move.to
        return True


def _deploy_squares(
    g: Game, f: Frame, where: str, kind: UnitType, cls: UnitClass | None
) -> list[int]:
    pos, seat = g.position, f.seat
    forward = g.rules.seating.forward(seat)
    board = pos.board
    if where == "normal":
        return pos.deploy_squares(seat, kind)
    if where in ("first_rank", "second_rank"):
        rank = 0 if where == "first_rank" else 1
        return [sq for sq in range(64) if board[sq] is None and relative_rank(sq, forward) == rank]
    if where in ("next_to_sovereign", "next_to_class"):
        anchors = [
            sq
            for sq, u in pos.units()
            if g.rules.is_own(g, seat, u)
            and (u.kind.is_sovereign if where == "next_to_sovereign" else _class_ok(u, cls))
        ]
        out: list[int] = []
        for a in anchors:
            out.extend(t for t in adjacent(a) if board[t] is None and t not in out)
        return sorted(out)
    raise ValueError(f"unknown deploy rule {where!r}")


@dataclass(frozen=True)
class Deploy(Choice):
    """Deploy a unit from the Barracks: ``where`` is normal, first_rank, second_rank,
    next_to_sovereign or next_to_class (next to a unit of ``cls``); ``cls`` also limits which
    unit."""

    where: str = "normal"
    cls: UnitClass | None = None
    needs_squares: int = 1  # Quartermaster: only with two empty squares to deploy to
    again: bool = False  # the second of two deploys: never what makes a card playable
    kind = "deploy"

    @property
    def text(self) -> str:  # type: ignore[override]
        what = f"a {self.cls.value} unit" if self.cls else "a unit"
        places = {
            "normal": "",
            "first_rank": " on your first rank",
            "second_rank": " on your second rank",
            "next_to_sovereign": " next to one of your Sovereigns",
            "next_to_class": f" next to one of your {self.cls.value if self.cls else ''} units",
        }
        return f"deploy {what}{places[self.where]}"

    def choices(self, g: Game, f: Frame) -> Options:
        opts: Options = {}
        for kind in g.distinct_barracks(f.seat, as_order=f.as_order):
            if self.cls is not None and not kind.has(self.cls):
                continue
            squares = _deploy_squares(g, f, self.where, kind, self.cls)
            if len(squares) < self.needs_squares:
                continue
            for sq in squares:
                opts[("deploy", kind.name, square_name(sq))] = (kind.name, sq)
        return opts

    def possible(self, g: Game, f: Frame) -> bool:
        return not self.again and super().possible(g, f)

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
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

    def choices(self, g: Game, f: Frame) -> Options:
        from .game import move_decision

        if f.vars.get("moved", 0) >= self.count:
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

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            f.vars.pop("moved", None)
            return True
        if payload[0] == "move":
            g.perform(payload[1], f.seat, as_order=True)
        else:
            g.deploy(f.seat, payload[1], payload[2], as_order=True)
        f.vars["moved"] = f.vars.get("moved", 0) + 1
        if f.vars["moved"] >= self.count:
            f.vars.pop("moved")
            return True
        return False

    def enter(self, g: Game, f: Frame) -> bool:
        if Choice.enter(self, g, f):
            f.vars.pop("moved", None)
            return True
        return False


def _relocate(g: Game, frm: int, to: int, as_order: bool) -> None:
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
    """Move one of your units, ignoring its movement rules.

    ``rule`` is ``next_to_regal`` (Consort: a non-Sovereign unit to an empty square next to a
    different Regal unit of yours), ``unthreatened`` (Aviary: a Regal unit to any empty square
    where it will not be threatened) or ``next_to_var`` (Sanctuary: a unit next to the one whose
    square is in ``var``, to another empty square next to it).
    """

    rule: str = "next_to_regal"
    var: str = ""
    kind = "move"

    @property
    def text(self) -> str:  # type: ignore[override]
        return {
            "next_to_regal": "move a non-Sovereign unit next to another of your Regal units",
            "unthreatened": "move a Regal unit to an empty square where it is not threatened",
            "next_to_var": "move a unit next to your Heavy unit to an empty square next to it",
        }[self.rule]

    def choices(self, g: Game, f: Frame) -> Options:
        pos, seat, board = g.position, f.seat, g.position.board
        mine = [sq for sq, u in pos.units() if g.can_order(seat, u, f.as_order)]
        opts: Options = {}
        if self.rule == "next_to_regal":
            regals = [
                sq
                for sq, u in pos.units()
                if g.rules.is_own(g, seat, u) and u.kind.has(UnitClass.REGAL)
            ]
            for sq in mine:
                if self.unit(g, sq).kind.is_sovereign:
                    continue
                targets = sorted(
                    {t for r in regals if r != sq for t in adjacent(r) if board[t] is None}
                )
                for t in targets:
                    opts[("move", square_name(sq), square_name(t))] = (sq, t)
        elif self.rule == "unthreatened":
            for sq in mine:
                if not self.unit(g, sq).kind.has(UnitClass.REGAL):
                    continue
                for t in range(64):
                    if board[t] is None and not pos.would_be_threatened(sq, t):
                        opts[("move", square_name(sq), square_name(t))] = (sq, t)
        elif self.rule == "next_to_var":
            anchor = f.vars.get(self.var)
            if anchor is None:
                return {}
            around = adjacent(anchor)
            for sq in around:
                if sq in mine:
                    for t in around:
                        if board[t] is None:
                            opts[("move", square_name(sq), square_name(t))] = (sq, t)
        return opts

    @staticmethod
    def unit(g: Game, sq: int) -> Unit:
        return g.unit_at(sq)

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        _relocate(g, payload[0], payload[1], f.as_order)
        return True


@dataclass(frozen=True)
class Morph(Choice):
    """Morph one of your units into the type the trashed card trains (vars["morph_into"]);
    ``barracks_only`` for Refiner."""

    barracks_only: bool = False
    kind = "morph"

    @property
    def text(self) -> str:  # type: ignore[override]
        return "morph a unit in your Barracks" if self.barracks_only else "morph one of your units"

    def choices(self, g: Game, f: Frame) -> Options:
        into = f.vars.get("morph_into")
        if into is None:
            return {}
        opts: Options = {}
        if not self.barracks_only:
            for sq, u in g.position.units():
                if g.can_order(f.seat, u, f.as_order):
                    opts[("morph", square_name(sq))] = ("board", sq)
        for kind in g.distinct_barracks(f.seat):
            opts[("morph", "barracks", kind.name)] = ("barracks", kind.name)
        return opts

    def possible(self, g: Game, f: Frame) -> bool:
        return False

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        into = g.rules.units.get(f.vars.pop("morph_into"))
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

    def choices(self, g: Game, f: Frame) -> Options:
        seat = f.seat
        mine = [(sq, u) for sq, u in g.position.units() if g.can_order(seat, u, f.as_order)]
        opts: Options = {}
        for i, (a, ua) in enumerate(mine):
            for b, ub in mine[i + 1 :]:
                if set(ua.kind.classes) & set(ub.kind.classes):
                    opts[("swap", square_name(a), square_name(b))] = ("board", a, b)
            for kind in g.distinct_barracks(seat):
                if set(ua.kind.classes) & set(kind.classes):
                    opts[("swap", square_name(a), kind.name)] = ("barracks", a, kind.name)
        return opts

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
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

    def choices(self, g: Game, f: Frame) -> Options:
        return {
            ("protect", square_name(sq)): sq
            for sq, u in g.position.units()
            if u.kind.is_sovereign and not u.uncapturable and g.can_order(f.seat, u, f.as_order)
        }

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        if decision == DONE:
            return True
        unit = g.unit_at(payload)
        g.rules.protect(g, f.seat, unit)
        if f.as_order:
            g.mark_ordered(unit)
        g.note(f"{g.seat_name(f.seat)}: protects the {unit.kind.name} on {square_name(payload)}")
        return False


@dataclass(frozen=True)
class LockOrderCards(Step):
    """Wish: you cannot play Order cards on your next turn."""

    def enter(self, g: Game, f: Frame) -> bool:
        from .position import FROZEN_NEXT

        g.order_lock[f.seat] |= FROZEN_NEXT  # a lock on the rest of this turn stays
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        return False


# ==================================================================== opponents' cards


@dataclass(frozen=True)
class ChooseOpponent(Choice):
    """Pick the opponent a card aims at; automatic when there is only one."""

    kind = "target"
    text = "choose the opponent this card affects"

    def enter(self, g: Game, f: Frame) -> bool:
        opponents = g.rules.opponents(f.seat)
        if len(opponents) == 1:
            f.vars["opponent"] = opponents[0]
            return True
        return Choice.enter(self, g, f)

    def choices(self, g: Game, f: Frame) -> Options:
        return {("target", str(s)): s for s in g.rules.opponents(f.seat)}

    def possible(self, g: Game, f: Frame) -> bool:
        return False

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        f.vars["opponent"] = payload
        return True


@dataclass(frozen=True)
class LookAtHand(Step):
    """Astrology: see the chosen opponent's hand (kept for this turn in the viewer's view)."""

    def enter(self, g: Game, f: Frame) -> bool:
        opponent = f.vars["opponent"]
        names = sorted(g.cards[c] for c in g.players[opponent].hand)
        g.this_turn.glimpses.setdefault(f.seat, {})[opponent] = names
        return True

    def possible(self, g: Game, f: Frame) -> bool:
        return False


@dataclass(frozen=True)
class RevealTopCard(Choice):
    """False Orders: the opponent reveals their top card; trash it or put it back. An empty
    deck is first made from their discard pile, as for a draw (docs/rulings.md)."""

    kind = "reveal"
    text = "trash the revealed card, or put it back"

    def enter(self, g: Game, f: Frame) -> bool:
        opponent = f.vars["opponent"]
        ready = g.deck_ready(opponent)
        if not ready:
            return ready is False  # nothing to reveal: done; or wait for the reshuffle
        top = g.cards[g.players[opponent].deck[0]]
        if f.vars.get("revealed") != top:
            f.vars["revealed"] = top
            g.this_turn.revealed.append(top)
            g.note(f"{g.seat_name(opponent)}: reveals {top}")
        return Choice.enter(self, g, f)

    def possible(self, g: Game, f: Frame) -> bool:
        return any(g.players[o].deck or g.players[o].discard for o in g.rules.opponents(f.seat))

    def choices(self, g: Game, f: Frame) -> Options:
        p = g.players[f.vars.get("opponent", -1)] if "opponent" in f.vars else None
        if p is None or not p.deck:
            return {}
        top = g.cards[p.deck[0]]
        return {("trash", top): "trash", ("keep", top): "keep"}

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        opponent = f.vars.pop("opponent")
        f.vars.pop("revealed", None)
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

    def choices(self, g: Game, f: Frame) -> Options:
        return {("name", n): n for n in g.game_cards()}

    def possible(self, g: Game, f: Frame) -> bool:
        return False

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        p = g.players[f.seat]
        while p.deck:
            cid = p.deck.pop(0)
            if g.cards[cid] == payload:
                p.hand.append(cid)
                g.note(f"{g.seat_name(f.seat)}: finds {payload}")
                return True
            p.discard.append(cid)
            g.this_turn.revealed.append(g.cards[cid])
        g.note(f"{g.seat_name(f.seat)}: does not find {payload}")
        return True


# ==================================================================== the turn's machinery


@dataclass(frozen=True)
class Promote(Choice):
    """A Foot unit that marched or attacked onto its owner's last rank: its owner picks a type
    trained by a card of this game, or keeps it as it is."""

    kind = "promote"
    text = "promote the unit, or keep it as it is"

    def choices(self, g: Game, f: Frame) -> Options:
        unit = g.position.board[f.vars["square"]]
        if unit is None:
            return {}
        names = [unit.kind.name, *g.promotion_choices(unit)]
        return {("promote", n): n for n in names}

    def describe(self, g: Game, f: Frame) -> str:
        return f"promote the unit on {square_name(f.vars['square'])}, or keep it as it is"

    def choose(self, g: Game, f: Frame, decision: Decision, payload: Any) -> bool:
        unit = g.unit_at(f.vars["square"])
        if payload != unit.kind.name:
            g.note(f"{g.seat_name(unit.owner)}: promotes the {unit.kind.name} to {payload}")
            unit.kind = g.rules.units.get(payload)
        return True


class _SetupSupply(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        short = any(len(p) < g.setup.fill_piles for p in g.pile_lists)
        if short and not f.vars.get("chosen"):
            f.vars["chosen"] = 1
            g.chance = {"kind": "supply"}
            return False
        for i, piles in enumerate(g.pile_lists):
            g.supplies[i] = {name: count for name, count in g.setup.core_piles}
            g.supplies[i].update((name, g.setup.pile_size) for name in piles)
        return True


class _Shuffle(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        if f.vars.pop("shuffled", None):
            return True
        f.vars["shuffled"] = 1
        g.chance = {"kind": "shuffle", "seat": f.seat}
        return False


class _BeginFirstTurn(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        g.begin_turn(g.rules.first_seat())
        return True


class _CheckOutcome(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        g.check_outcome()
        return True


class _Cleanup(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        p = g.players[f.seat]
        p.discard.extend(p.in_play + p.hand)
        p.in_play, p.hand = [], []
        return True


class _EndTurn(Step):
    def enter(self, g: Game, f: Frame) -> bool:
        g.end_turn()
        return True


SYSTEM_STEPS: dict[str, tuple[Step, ...]] = {
    "#supply": (_SetupSupply(),),
    "#deal": (_Shuffle(), Draw(hand_size=True)),
    "#begin": (_BeginFirstTurn(),),
    "#housekeeping": (_CheckOutcome(), _Cleanup(), Draw(hand_size=True), _EndTurn()),
    "#promote": (Promote(),),
}
