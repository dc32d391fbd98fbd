"""A decision in words, and one line on why it is good, from facts the engine gives.

For a hint (the shell's ``hint``) or a bot author's log: :func:`named` says a decision the way
a player reads it ("Knight c3xd5", "buy Tower"); :func:`why` gives its reason, first that
applies of: the enemy units it captures (the decision played on a copy), a threat it meets
(one of the seat's units attacked now, safe after: ``Game.attack_map``), a threat it makes
(an enemy unit attacked after, not before), in the hunt at the end of a won game the squares
left to the enemy Sovereigns (``hunt.room``), the card it buys (with its gold and the units it
trains). Nothing here judges a decision; it only says what the engine shows it does.
"""

from __future__ import annotations

from ..core.board import parse_square, square_name
from ..core.decisions import Decision, decision_text
from ..core.game import Game
from .hunt import hunting, room
from .search import after

__all__ = ["named", "why"]

MOVES = ("march", "attack", "swap")


def named(game: Game, decision: Decision) -> str:
    """``decision`` as a player reads it: a unit's move with its name ("Knight c3xd5",
    "King e1-f1"), anything else in its own words ("buy Tower")."""
    if decision[0] in MOVES and len(decision) == 3:
        unit = game.position.board[parse_square(decision[1])]
        if unit is not None:
            sign = "x" if decision[0] == "attack" else "-"
            return f"{unit.kind.name} {decision[1]}{sign}{decision[2]}"
    return decision_text(decision)


def why(game: Game, seat: int, decision: Decision) -> str:
    """One line on what ``decision`` (one of ``game``'s legal decisions, ``seat``'s) does."""
    side = game.rules.seating.sides[seat]
    then = after(game, decision)
    taken = _captured(game, then, side)
    if taken:
        return "wins " + " and ".join(f"a {name}" for name in taken)
    met = _threat_met(game, then, decision, side)
    if met:
        return met
    made = _threat_made(game, then, side)
    if made:
        return made
    if decision[0] in MOVES and hunting(game, seat):
        return _hems_in(then, side)
    if decision[0] == "buy" and len(decision) == 2:
        return "the card it wants most" + _brings(game, decision[1])
    if decision == ("end",):
        return "nothing more here is worth doing"
    return "its best try against the deals it looked at"


def _brings(game: Game, name: str) -> str:
    """What a card brings to a deck, as the search weighs it: its gold, the units it trains."""
    card = game.card_type(name)
    parts = [f"{card.gold} gold"] if card.gold else []
    if card.trains:
        unit, count = card.trains, card.train_count
        one = f"an {unit}" if unit[0] in "AEIOU" else f"a {unit}"
        parts.append(f"trains {one if count == 1 else f'{count} {unit}s'}")
    return ": " + ", or ".join(parts) if parts else ""


def _hems_in(after: Game, side: int) -> str:
    """The squares the enemy Sovereigns could still reach a step at a time, out of reach."""
    attacks, sides = after.attack_map(), after.rules.seating.sides
    hunted = [
        (sq, unit.kind.name)
        for sq, unit in after.position.units()
        if unit.kind.is_sovereign and sides[unit.owner] != side
    ]
    return "hems in " + " and ".join(
        f"the {name} on {square_name(sq)}: {room(after.position, attacks, side, sq)} squares left"
        for sq, name in hunted
    )


def _enemies(game: Game, side: int) -> dict[int, str]:
    """The squares of the units of sides other than ``side``, with their kinds."""
    sides = game.rules.seating.sides
    return {sq: u.kind.name for sq, u in game.position.units() if sides[u.owner] != side}


def _captured(before: Game, after: Game, side: int) -> list[str]:
    """The enemy units gone from the board: those on squares that no longer hold them."""
    now = _enemies(after, side)
    return [name for sq, name in sorted(_enemies(before, side).items()) if now.get(sq) != name]


def _threat_met(before: Game, after: Game, decision: Decision, side: int) -> str:
    """One of the seat's units (its Sovereign first) attacked now and safe after."""
    attacked = before.attack_map().under_attack(side)
    for sq in sorted(attacked, key=lambda sq: (not _is_sovereign(before, sq), sq)):
        unit = before.position.board[sq]
        assert unit is not None
        moved = decision[0] in MOVES and len(decision) == 3 and decision[1] == square_name(sq)
        for where in ([parse_square(decision[2])] if moved else []) + [sq]:
            there = after.position.board[where]
            if there is not None and (there.kind, there.owner) == (unit.kind, unit.owner):
                if not after.attack_map().threatened(where):
                    return f"your {unit.kind.name} is attacked on {square_name(sq)}"
                break
    return ""


def _threat_made(before: Game, after: Game, side: int) -> str:
    """An enemy unit attacked after the decision and not before."""
    sides = before.rules.seating.sides
    was = {sq for s in set(sides) if s != side for sq in before.attack_map().under_attack(s)}
    for s in sorted(set(sides)):
        if s == side:
            continue
        for sq in after.attack_map().under_attack(s):
            unit = after.position.board[sq]
            if sq not in was and unit is not None:
                return f"attacks the {unit.kind.name} on {square_name(sq)}"
    return ""


def _is_sovereign(game: Game, sq: int) -> bool:
    unit = game.position.board[sq]
    return unit is not None and unit.kind.is_sovereign
