"""The attack map (``Game.attack_map``) against a brute-force count over positions of real
games: for each side and square, every unit that could capture an enemy placed there."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from real_games import STANDARD, TEAM, positions

from crownp2p.core.board import SQUARES
from crownp2p.core.game import Game
from crownp2p.core.position import Position, Unit
from crownp2p.core.rules import Rules


def brute_attackers(position: Position, side: int, sq: int, pawn: Unit) -> list[int]:
    """Put a capturable enemy of ``side`` on ``sq`` and list ``side``'s units with an attack
    that captures it."""
    board = position.copy()
    board.board[sq] = pawn
    sides = position.seating.sides
    return [
        frm
        for frm, unit in board.units()
        if frm != sq
        and sides[unit.owner] == side
        and any(sq in m.captures for m in board.unit_moves(frm))
    ]


def brute_threatened(position: Position, sq: int) -> bool:
    unit = position.board[sq]
    if unit is None:
        return False
    seating = position.seating
    return any(
        sq in move.captures
        for enemy in seating.seats
        if seating.are_enemies(unit.owner, enemy)
        for move in position.all_moves(enemy)
    )


def sample() -> list[tuple[Rules, Game]]:
    return [(rules, Game.from_json(rules, state)) for rules, state in positions()[::3]]


def check(rules: Rules, position: Position) -> None:
    attacks = position.attack_map()
    seating = rules.seating
    pawn_kind = rules.units.get("Pawn")
    for side in sorted(set(seating.sides)):
        enemy = next(s for s in seating.seats if seating.sides[s] != side)
        for sq in SQUARES:
            expected = brute_attackers(position, side, sq, Unit(pawn_kind, enemy, 999))
            assert list(attacks.attackers(side, sq)) == expected, (position.board_fen(), side, sq)
        assert attacks.attacked(side) == [sq for sq in SQUARES if attacks.attackers(side, sq)]
    threatened = [sq for sq in SQUARES if brute_threatened(position, sq)]
    assert [sq for sq in SQUARES if attacks.threatened(sq)] == threatened
    for side in sorted(set(seating.sides)):
        mine = [sq for sq in threatened if seating.sides[position.board[sq].owner] == side]
        assert attacks.under_attack(side) == mine
    for seat in seating.seats:
        sovereigns = position.sovereign_squares(seat)
        assert attacks.sovereign_attacked(seat) == any(sq in threatened for sq in sovereigns)


@pytest.mark.parametrize("index", range(4))
def test_the_attack_map_agrees_with_brute_force_in_real_games(index: int) -> None:
    for rules, game in sample()[index::4]:
        check(rules, game.position)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_the_attack_map_agrees_with_brute_force_for_every_unit_type(data: st.DataObject) -> None:
    """Random boards of every unit type, the odd movers included, some units uncapturable."""
    rules = data.draw(st.sampled_from([STANDARD, TEAM]))
    kinds = list(rules.units)
    squares = data.draw(st.lists(st.sampled_from(SQUARES), min_size=1, max_size=20, unique=True))
    position = Position(rules.units, rules.seating)
    for uid, sq in enumerate(squares, 1):
        kind = data.draw(st.sampled_from(kinds))
        owner = data.draw(st.sampled_from(rules.seating.seats))
        uncapturable = data.draw(st.booleans())
        position.board[sq] = Unit(kind, owner, uid, uncapturable)
    check(rules, position)


def test_the_attack_map_follows_the_game() -> None:
    rules, state = positions()[20]
    game = Game.from_json(rules, state)
    for _ in range(30):
        if game.over:
            break
        assert game.attack_map() is game.attack_map()  # one map until the next decision
        before = game.attack_map()
        clone = game.clone()
        legal = game.legal()
        decision = legal[len(legal) // 2] if legal else ("seed", "00" * 32)
        game.apply(decision)
        fresh = game.position.attack_map()
        for side in (0, 1):
            assert game.attack_map().attacked(side) == fresh.attacked(side)
            assert clone.attack_map().attacked(side) == before.attacked(side)
