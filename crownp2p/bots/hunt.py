"""The end of a game: herding and taking Sovereigns that have next to no army left.

With the enemy down to its Sovereigns and a few Pawns' worth of units, what is left is a hunt,
and the search's playouts do not see it through: a lone King steps away from each threat, a
sampled playout's reply is not its best one, and one order later the evaluation cannot tell a
King boxed in from one that is not. Two search bots left games won this way to the turn cap,
dancing around a lone King with a Rook, a Queen and spare Kings for fifty turns.

So here the board alone is searched, as a chess engine searches a won ending: each of our marches
and attacks, each enemy reply (its best for it, a pass included: there is no zugzwang in this
game), and the board we are left to move on scored by :meth:`Hunt.score`: the Sovereigns (the
enemy's dearer than ours: trading one for one brings its last nearer), one we can take with our
next order as good as taken, the material, a Pawn on its last rank as what it may become, and
above all how few squares each enemy Sovereign could still reach through squares we do not
attack (the box a Rook and a King make round a chess King, shrunk each move). The cards are left
out: the hunt begins only once the Supply trains no more units (see :func:`hunting`), the decks
are thin by then, and a card played is seen at the next decision. It begins for a side whose
army is no smaller than the enemy's, even level: a Pawn two orders from promotion is past the
playouts' horizon too.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from ..core.board import adjacent, distance, file_of, rank_of
from ..core.decisions import Decision
from ..core.game import Game
from ..core.movement import UnitMove, move_decision
from ..core.position import AttackMap, Position
from .greedy import UNIT_VALUES

# The hunt begins once the enemy's army (its units but the Sovereigns, on the board, in its
# Barracks and in its training cards) is worth BARE Pawns or less, and ours at least as much:
# then the board search sees more than the playouts (a Pawn two steps from promotion, a King
# boxed in), even for an even ending.
BARE = 4.0
WIN = 1000.0  # the last enemy Sovereign taken: more than any lead
# A Sovereign, in Pawns: the enemy's are dearer than ours, so a King traded for a King is a
# gain for the side that has more of them (our last one is the game: WIN).
THEIRS, OURS = 30.0, 20.0
TAKEN = 0.9  # an enemy Sovereign we can take with our next order counts for this share
ROOM = 0.5  # each square an enemy Sovereign could still reach, in Pawns
EDGE = 0.3  # each step an enemy Sovereign stands from the board's edge, in Pawns
DEEP = 2  # our orders the deep search looks at
NARROW = 3  # a Sovereign with no more room than this squares may be taken in two orders
CLOSE = 0.05  # each step one of our units stands nearer the enemy Sovereigns, in Pawns


def hunting(game: Game, seat: int) -> bool:
    """Is the game down to a hunt for ``seat``: the enemy's army worth :data:`BARE` Pawns or
    less and ours no less, nothing left in the Supply that trains a unit, and none of
    ours waiting in the Barracks (the hunt gives only marches and attacks)? The cards can then
    no longer change the board much, and the board is what there is to search. (Two seats
    only.)"""
    enemies = game.rules.opponents(seat)
    if len(enemies) != 1 or len(game.rules.seating.seats) != 2:
        return False
    enemy = enemies[0]
    position = game.position
    if position.barracks[seat] or not position.sovereign_squares(seat):
        return False
    if supply_trains(game, enemy):
        return False
    army = [0.0, 0.0]  # ours, the enemy's
    for _, unit in position.units():
        if not unit.kind.is_sovereign:
            army[unit.owner == enemy] += worth(unit.kind.name)
    army[1] += sum(worth(kind.name) for kind in position.barracks[enemy])
    player = game.players[enemy]
    for card in player.deck + player.hand + player.discard + player.in_play:
        kind = game.card_type(game.cards[card])
        if kind.trains:
            army[1] += worth(kind.trains) * kind.train_count
    return army[1] <= BARE and army[0] >= army[1]


def supply_trains(game: Game, seat: int) -> bool:
    """Does ``seat``'s Supply still hold a card that trains a unit?"""
    return any(
        count and game.card_type(name).trains for name, count in game.supply_for(seat).items()
    )


def hunt(game: Game, seat: int, legal: list[Decision], leaves: int) -> list[Decision]:
    """The legal marches and attacks, best first by the board search (ties in listing order),
    the deep search cut short once ``leaves`` boards have been scored."""
    return Hunt(game, seat, leaves).ranked(legal)


class Spent(Exception):
    """The deep search has scored all the boards it may."""


class Hunt:
    """One search of the board for ``seat``, on a copy of the game's position."""

    def __init__(self, game: Game, seat: int, leaves: int) -> None:
        self.position = game.position.copy()
        self.seat = seat
        self.enemy = game.rules.opponents(seat)[0]
        self.side = game.rules.seating.sides[seat]
        self.enemy_side = game.rules.seating.sides[self.enemy]
        # What a Foot unit on its last rank may become (the engine asks at once; see score).
        trained = (game.card_type(name).trains for name in game.supply_names())
        self.promoted = max((worth(name) for name in trained if name), default=0.0)
        self.budget = leaves
        self.leaves = 0  # boards scored, and orders tried by mates
        self.given = 0  # our orders on the board being searched
        self.deep = False  # in the deep search (else the shallow look)

    def ranked(self, legal: list[Decision]) -> list[Decision]:
        """Each legal march and attack, best first: by a look two orders deep (ours and the
        enemy's reply), then the best of those searched :data:`DEEP` orders of ours deep, as
        far as the budget of leaves goes (a count, not the clock: the same board, the same
        choice)."""
        wanted = set(legal)
        moves = [m for m in self.position.all_moves(self.seat) if move_decision(m) in wanted]
        # The shallow look is not cut short (each order needs a place in the ranking), and so
        # does not look for mates at its leaves; its leaves count against the deep search's.
        self.deep = False
        scored = []
        for k, move in enumerate(moves):
            with self.ordered(move):
                scored.append((-self.reply(1, -math.inf, math.inf), k))
        order = [moves[k] for _, k in sorted(scored)]
        self.deep = True
        best, alpha = order[0] if order else None, -math.inf
        try:
            for move in order:
                with self.ordered(move):
                    value = self.reply(DEEP, alpha, math.inf)
                if value > alpha:
                    best, alpha = move, value
        except Spent:
            pass  # the best of the orders searched to the end stands
        if best is not None:
            order.remove(best)
            order.insert(0, best)
        return [move_decision(m) for m in order]

    @contextmanager
    def ordered(self, move: UnitMove) -> Iterator[None]:
        """The board with our ``move`` made on it, counted (see :meth:`won`)."""
        self.given += 1
        try:
            with moved(self.position, move):
                yield
        finally:
            self.given -= 1

    def won(self, orders: int) -> float:
        """A game won with our ``orders``-th order from the board being searched: the sooner,
        the better (else a search content that every line wins may never take the King). A
        loss counts as its negative: the later, the better."""
        return WIN - self.given - orders

    def order(self, depth: int, alpha: float, beta: float) -> float:
        """The best we can make of the board with ``depth`` orders of ours to give (alpha-beta:
        the enemy will not allow more than ``beta``, and we have ``alpha`` elsewhere)."""
        if depth == 0:
            self.spend(1)
            return self.score()
        ended = self.decided()
        if ended is not None:
            return ended
        best = -math.inf
        for move in self.by_captures(self.position.all_moves(self.seat)):
            with self.ordered(move):
                value = self.reply(depth, alpha, beta)
            if value > best:
                best, alpha = value, max(alpha, value)
                if alpha >= beta:
                    break
        return best if best > -math.inf else self.score()

    def reply(self, depth: int, alpha: float, beta: float) -> float:
        """The worst the enemy can make of the board for us by its next order (or none)."""
        if not self.position.sovereign_squares(self.enemy):
            return self.won(0)
        best = math.inf
        for reply in self.replies():
            if reply is None:
                value = self.order(depth - 1, alpha, beta)
            else:
                with moved(self.position, reply):
                    value = self.order(depth - 1, alpha, beta)
            if value < best:
                best, beta = value, min(beta, value)
                if alpha >= beta:
                    break
        return best

    def spend(self, leaves: int) -> None:
        self.leaves += leaves
        if self.deep and self.leaves > self.budget:
            raise Spent

    def decided(self) -> float | None:
        """WIN or -WIN when a side has no Sovereign left, or ours can take the last enemy one."""
        position = self.position
        if not position.sovereign_squares(self.seat):
            return -self.won(0)
        targets = position.sovereign_squares(self.enemy)
        if not targets:
            return self.won(0)
        if len(targets) == 1 and position.attack_map().threatened(targets[0]):
            return self.won(1)
        return None

    @staticmethod
    def by_captures(moves: list[UnitMove]) -> list[UnitMove]:
        """Captures first: alpha-beta cuts off sooner after a good order."""
        return sorted(moves, key=lambda m: not m.captures)

    def replies(self) -> Iterator[UnitMove | None]:
        """The enemy's orders: giving none, and each march and attack."""
        yield None
        yield from self.by_captures(self.position.all_moves(self.enemy))

    def score(self) -> float:
        """How good the board is for our side, ours to move, in Pawns."""
        position, seat = self.position, self.seat
        ours = position.sovereign_squares(seat)
        if not ours:
            return -self.won(0)
        targets = position.sovereign_squares(self.enemy)
        if not targets:
            return self.won(0)
        attacks = position.attack_map()
        in_reach = [t for t in targets if attacks.threatened(t)]
        if in_reach and len(targets) == 1:
            return self.won(1)  # taken with our next order
        rooms = [room(position, attacks, self.side, t) for t in targets]
        if len(targets) == 1 and self.deep and rooms[0] <= NARROW and self.mates(targets[0]):
            return self.won(2)  # taken the order after, whatever the enemy does
        value = OURS * len(ours) - THEIRS * (len(targets) - TAKEN * bool(in_reach))
        for sq, unit in position.units():
            if unit.owner != seat:
                value -= 0.0 if unit.kind.is_sovereign else worth(unit.kind.name)
                continue
            value -= CLOSE * min(distance(sq, t) for t in targets)
            if unit.kind.is_sovereign:
                continue
            value += worth(unit.kind.name)
            if unit.kind.is_foot and position.is_last_rank(sq, seat):
                value += max(0.0, self.promoted - worth(unit.kind.name))
        for t, space in zip(targets, rooms, strict=True):
            value -= ROOM * space + EDGE * from_edge(t)
        return value

    def mates(self, target: int) -> bool:
        """Have we an order that leaves the Sovereign on ``target`` in reach with nowhere to go:
        no square it could step to that we do not attack, and no enemy unit that could take the
        unit that gave the check (but the hunted one itself, onto a square we attack, unless
        that unit is our last Sovereign: taking it wins)? (A rider's line could still be
        blocked: rare with the enemy's units all but gone, and then the next search sees it.)"""
        position = self.position
        last = len(position.sovereign_squares(self.seat)) == 1
        moves = position.all_moves(self.seat)
        self.spend(len(moves))
        for move in moves:
            with moved(position, move):
                attacks = position.attack_map()
                checker = position.board[move.to]
                assert checker is not None
                spared = not (last and checker.kind.is_sovereign)
                if (
                    attacks.threatened(target)
                    and room(position, attacks, self.side, target) == 1
                    and all(
                        a == target and spared for a in attacks.attackers(self.enemy_side, move.to)
                    )
                ):
                    return True
        return False


def room(position: Position, attacks: AttackMap, side: int, start: int) -> int:
    """The squares the Sovereign on ``start`` could reach a step at a time without standing
    where ``side`` attacks: through empty squares and onto ``side``'s undefended units."""
    board = position.board
    hunted = board[start]
    assert hunted is not None
    seen = {start}
    frontier = [start]
    while frontier:
        sq = frontier.pop()
        for t in adjacent(sq):
            if t in seen:
                continue
            unit = board[t]
            if attacks.attackers(side, t) or (unit is not None and unit.owner == hunted.owner):
                continue
            seen.add(t)
            frontier.append(t)
    return len(seen)


def from_edge(sq: int) -> int:
    """Steps from ``sq`` to the nearest edge of the board: 0 on the edge, 3 in the centre."""
    f, r = file_of(sq), rank_of(sq)
    return min(f, 7 - f, r, 7 - r)


def worth(name: str) -> float:
    """A unit type's worth in Pawns (a Sovereign's is counted apart)."""
    return float(UNIT_VALUES.get(name, 3))


@contextmanager
def moved(position: Position, move: UnitMove) -> Iterator[None]:
    """The board with ``move`` made on it, then put back (nothing else on it changes)."""
    board = position.board
    squares = (move.frm, move.to, *move.captures)
    before = [board[sq] for sq in squares]
    unit = board[move.frm]
    if move.kind == "swap":
        board[move.frm], board[move.to] = board[move.to], unit
    else:
        for sq in move.captures:
            board[sq] = None
        board[move.frm] = None
        board[move.to] = unit
    try:
        yield
    finally:
        for sq, was in zip(squares, before, strict=True):
            board[sq] = was
