"""A search bot that sees only what its seat may see: determinized Monte Carlo search.

The greedy scoring names the few decisions worth searching, and one look ahead with the
evaluation a few orders more. Each iteration deals the hidden cards again from the seat's view
(``core.determinize``: never the true game's hands or deck orders), takes one candidate, plays
on with a policy for both sides (the greedy scoring pushed towards the enemy King, with the
checks a rush makes: :class:`Playout`) to the end of the opponent's next turn and scores where
it got to (:func:`evaluate`). The budget is spent by sequential halving — all candidates
on the same deals, then the better half on more — and the most tried decision wins. At the end
of a won game, once the cards can no longer change the board much, the orders come from a
search of the board alone instead (:mod:`.hunt`): playouts did not see such hunts through.

The budget is a number of iterations, so a choice depends only on the view and the seed, never
on the clock. A playout costs more as the board fills (the policy weighs every order of every
unit), so :func:`iterations_for` turns a think time into iterations at this machine's pace on
an empty board, and each decision runs that many scaled down by the units on the board
(:func:`scaled`): the same think time, early or late.

With ``workers`` above 1 the iterations are split over forked processes, each with a seed of its
own, and their tallies added (the same seed and workers give the same choice). The steps of a
card being resolved are decided by the greedy bot's scoring: a view keeps no mid-card state to
deal a game from, and those steps are small choices.
"""

from __future__ import annotations

import copy
import math
import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..core.board import adjacent, distance, parse_square
from ..core.cards import ORDER, CardType
from ..core.decisions import Decision, parse_decision
from ..core.determinize import KnownTops, determinize
from ..core.game import CHANCE, Game
from ..core.movement import EMPTY, OWN
from ..core.position import AttackMap, Position, Unit
from ..core.record import Step
from ..core.rules import Rules
from ..core.units import UnitType
from .base import Bot
from .greedy import GreedyBot, unit_value
from .hunt import hunt, hunting, supply_trains

# Iterations one core runs in a second with no unit on the board, and the units that halve it:
# a playout's cost grows with the units. Measured in CPU time on the project's 2-core machine
# (0.5 ms an iteration times 1 + units / 5, from 3 to 33 units), and set at 70% of that pace,
# so that late positions, slower than the line, still fit the think time.
ITERATIONS_PER_SECOND = 1400
HALVING_UNITS = 5.0
MIN_CANDIDATES, MAX_CANDIDATES = 3, 12
LOOKED_AT = 3  # candidates besides those: the orders best by the evaluation, one look ahead
ORDERS = ("march", "attack", "deploy")
# Boards the hunt (hunt.py) may score for each iteration of the budget: about what a playout
# costs on a board with a dozen units (a board scored takes 100-200 µs).
LEAVES = 4
ROLLOUT_DECISIONS = 80  # a cap on one playout, besides the end of the opponent's next turn
# Pressure on the enemy Sovereigns, in Pawns: each square next to one that a side attacks, and
# each step nearer than NEAR one of its units stands (a unit at the King's side: 6 steps).
RING, APPROACH, NEAR = 0.4, 0.12, 7
# The side ahead (by TRADE's share) presses harder by 1 + MOPUP times its lead: a side well
# ahead that only waits lets the game run to the turn cap (a chess engine's "mop-up"). At 5,
# the side behind fears the enemy's approach more: it holds off a rush better, but games between
# two search bots run about twice as long, more of them to the turn cap.
MOPUP = 1.0
# The playouts' policy: each step a unit marches nearer an enemy Sovereign, what a deploy counts
# for less than the greedy bot gives it, and a march that attacks an enemy Sovereign or a square
# next to one (where it could flee) — the threats a rush makes (see Playout).
CLOSING, DEPLOY_DISCOUNT, CHECK, HEMMED, MATE = 8.0, 12.0, 20.0, 4.0, 500.0
LATER_WIN = 0.01  # a win's value lost for each turn it comes later
# A unit waiting in the Barracks, against one on the board; each one further back in the queue
# (one order deploys one) counts QUEUE times the one before it, so a long queue is not an army.
BARRACKS, QUEUE = 0.7, 0.85
# A deck's economy, in Pawns: each gold its average hand holds (what it buys with, turn after
# turn; past GOLD_ENOUGH a hand buys little more), and each unit its training cards would put in
# the Barracks, a step further off than one waiting there (a Training Action trashes its card:
# so a Peon trained is a Pawn won and a gold lost from every hand to come).
GOLD, GOLD_ENOUGH, TRAINABLE = 1.5, 8.0, 0.5
# Below GOLD_FLOOR gold an average hand buys next to nothing, turn after turn: each gold short
# of it costs SHORT more (else a deck trains its gold away one card at a time, each step
# looking cheap, until neither side can buy and the board locks until the turn cap). And each
# card is worth USE per gold of its cost besides: what its other effects bring (a deck is not
# made better by leaving a card unbought).
GOLD_FLOOR, SHORT, USE = 5.0, 2.0, 0.1
# Gold buys from the Supply: with fewer than SUPPLY_LOW cards left in it, gold is worth that
# share of itself (nothing, once the Supply is bought out: then a treasure kept untrained is a
# unit given up, and two decks that keep theirs leave the board as it is to the turn cap).
SUPPLY_LOW = 8
# How far ahead a side's army is as a share of both (the units on the board but Sovereigns), in
# Pawns: 20 against 10 is worth more than 40 against 30, so the side ahead trades down, and a
# locked board opens.
TRADE = 12.0
SPARE_SOVEREIGN = 3.0  # a Sovereign waiting in the Barracks (Heir's King), in Pawns
# A Sovereign on the board, in Pawns; what one in an enemy's reach costs, the enemy to move
# (the last one: the game, almost; a spare one half its worth: a threat is not a capture yet,
# and a side that counted it as one gained nothing by making the capture), or to flee on our
# move (see in_danger).
SOVEREIGN, LAST_SOVEREIGN, SPARE_IN_REACH, FLEE = 6.0, 12.0, 3.0, 4.0
FLIGHT = 1.0  # each of a Sovereign's first two squares to flee to that no enemy attacks
SPREAD = 20.0  # the lead, in Pawns, that makes a game 0.5 + UNDECIDED * tanh(1) good
# How far from even an undecided game may look: short of any decided one (see decided()), so a
# forced win past the playout's end is never worth less than a great lead.
UNDECIDED = 0.4
# A side well ahead (by the evaluation, AHEAD or more) does not leave the board as its orders
# have left it REPEATS times before: a Rook fleeing back and forth from the King that chases it,
# or two sides passing their orders, leaves a won game to the turn cap (as a chess engine
# counts a repetition as a draw). The side behind may repeat: that is its way to hold. Once
# the Supply trains no more units, the board is all that is left to play for: then a side that
# is not behind (ENDING_AHEAD) does not repeat either, else two even sides shuffle a Rook and a
# King to and fro to the turn cap.
REPEATS, AHEAD, ENDING_AHEAD = 2, 0.6, 0.5


def iterations_for(seconds: float) -> int:
    """The iterations that fit in a think time of ``seconds`` on one core, on an empty board."""
    return max(1, round(seconds * ITERATIONS_PER_SECOND))


def scaled(iterations: int, game: Game) -> int:
    """The iterations one decision runs: fewer as the board fills, so each takes the same time."""
    units = sum(1 for _ in game.position.units())
    return max(1, round(iterations / (1 + units / HALVING_UNITS)))


class SearchBot(Bot):
    name = "search"

    def __init__(self, seed: int | str = 0, *, iterations: int = 50, workers: int = 1) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.workers = workers
        self.greedy = GreedyBot(seed)
        self.greedy.rng = self.rng  # one random state: putting it back (solo's undo) replays
        self.tops = KnownTops()
        self.seat: int | None = None
        self.left: Counter[Board] = Counter()  # the boards our orders left, and how often

    def decide(self, game: Game, seat: int) -> Decision:
        self.seat = seat
        view = game.view(seat)
        legal = [parse_decision(text) for text in view["legal"]]
        if len(legal) == 1:
            return legal[0]
        if view["stack"] or legal[0][0] == "treasure":
            # A card's step: the greedy scoring (it reads only the public board). Treasures:
            # playing them all before buying loses nothing, so there is nothing to search.
            return self.greedy.decide(game, seat)
        seed = f"{self.rng.getrandbits(64):016x}"
        sample = determinize(game.rules, view, seed, self.tops)
        iterations = scaled(self.iterations, sample)  # (the board is public: the sample's is true)
        ordering = sample.this_turn.phase == ORDER
        if ordering and hunting(sample, seat):
            ranked = hunt(sample, seat, legal, LEAVES * self.iterations)
            if ranked:
                return self.unrepeated(sample, ranked)
        candidates = self.candidates(sample, legal, iterations)
        if ordering:
            candidates = self.fresh(sample, seat, candidates)
        if len(candidates) == 1:
            choice = candidates[0]
        else:
            root = Root(game.rules, view, candidates, self.tops)
            tallies = search(root, seed, iterations, self.workers)
            best = max(range(len(candidates)), key=lambda k: (tallies[k][0], tallies[k][1], -k))
            choice = candidates[best]
        if ordering:
            self.left[board(after(sample, choice))] += 1
        return choice

    def memory(self) -> Any:
        """Besides the random state: the boards our orders left, and the cards known to lie
        on top of each deck."""
        return super().memory(), Counter(self.left), copy.deepcopy(self.tops)

    def recall(self, memory: Any) -> None:
        state, left, tops = memory
        super().recall(state)
        self.left = Counter(left)
        self.tops = copy.deepcopy(tops)

    def unrepeated(self, sample: Game, ranked: list[Decision]) -> Decision:
        """The first of the ``ranked`` orders that does not leave a board our orders have left
        :data:`REPEATS` times already (the first if every one does); the hunt's choice."""
        for choice in ranked:
            key = board(after(sample, choice))
            if self.left[key] < REPEATS:
                break
        else:
            choice, key = ranked[0], board(after(sample, ranked[0]))
        self.left[key] += 1
        return choice

    def fresh(self, sample: Game, seat: int, candidates: list[Decision]) -> list[Decision]:
        """The candidates, but for a side well ahead (not behind, once the Supply trains no
        more units) not those that leave a board our orders have left :data:`REPEATS` times
        already (all of them if every one does)."""
        if evaluate(sample, seat) < (AHEAD if supply_trains(sample, seat) else ENDING_AHEAD):
            return candidates
        new = [c for c in candidates if self.left[board(after(sample, c))] < REPEATS]
        return new or candidates

    def candidates(self, sample: Game, legal: list[Decision], iterations: int) -> list[Decision]:
        """The decisions worth searching: the greedy scoring's best few (scored on a sample:
        its board is the true one), as many as the budget can try about ten times each, and
        the orders that leave the board best by :func:`evaluate` (:data:`LOOKED_AT`): what
        the greedy scoring does not see, a Sovereign's squares to flee to above all."""
        wanted = max(MIN_CANDIDATES, min(MAX_CANDIDATES, iterations // 10))
        seat = sample.prompt().seat
        scores = [self.greedy.score(sample, seat, d) for d in legal]
        order = sorted(range(len(legal)), key=lambda k: (-scores[k], k))
        chosen = set(order[:wanted])
        orders = [k for k in order[wanted:] if legal[k][0] in ORDERS]
        if orders and LOOKED_AT:
            values = {k: evaluate(after(sample, legal[k]), seat) for k in orders}
            chosen.update(sorted(orders, key=lambda k: (-values[k], k))[:LOOKED_AT])
        return [legal[k] for k in sorted(chosen)]

    def observe(self, game: Game, step: Step) -> None:
        """Remember the cards known to lie on top of a deck: what this seat put back there."""
        if self.seat is None:
            return
        self.tops.update(game.view(self.seat), shuffled=step.seat == CHANCE)
        if step.seat != self.seat or len(step.decision) != 2:
            return
        verb, name = step.decision
        if verb == "topdeck" and name in game.rules.cards:
            self.tops.put(self.seat, name)
        elif verb == "topdeck":  # sealed decks: by its place in the hand, now the top card
            deck = game.players[self.seat].deck
            if deck and deck[0] not in game.unknown:
                self.tops.put(self.seat, game.cards[deck[0]])
        elif verb == "keep" and len(game.rules.opponents(self.seat)) == 1:
            self.tops.put(game.rules.opponents(self.seat)[0], name)


Board = tuple[tuple[int, str, int], ...]  # each unit's square, type and owner


def board(game: Game) -> Board:
    """The units on the board, as a key: what a repetition repeats."""
    return tuple((sq, unit.kind.name, unit.owner) for sq, unit in game.position.units())


def after(game: Game, decision: Decision) -> Game:
    """A copy of ``game`` with ``decision`` applied."""
    copy = game.clone()
    copy.apply(decision)
    return copy


Tally = list[list[float]]  # per candidate decision: [times tried, total value]


@dataclass(frozen=True)
class Root:
    """Where a search starts: the seat's view, its candidate decisions, and what it knows of
    the decks' tops (the rules to sample games with)."""

    rules: Rules
    view: dict[str, Any]
    candidates: list[Decision]
    tops: KnownTops


def search(root: Root, seed: str, iterations: int, workers: int = 1) -> Tally:
    """The tallies of ``iterations`` playouts from samples of the root's view, over
    ``workers`` processes."""
    if workers <= 1:
        return run_iterations(root, f"{seed}:0", iterations)
    shares = [iterations // workers + (w < iterations % workers) for w in range(workers)]
    jobs = [(f"{seed}:{w}", share) for w, share in enumerate(shares) if share]
    # Forked workers inherit the root (a pack's rules need not pickle); only tallies return.
    context = multiprocessing.get_context("fork")
    with context.Pool(len(jobs), _keep_root, (root,)) as pool:
        parts = pool.starmap(_run_job, jobs)
    return [[sum(p[k][i] for p in parts) for i in (0, 1)] for k in range(len(root.candidates))]


_ROOT: Root | None = None  # a worker process's root


def _keep_root(root: Root) -> None:
    global _ROOT
    _ROOT = root


def _run_job(seed: str, iterations: int) -> Tally:
    assert _ROOT is not None
    return run_iterations(_ROOT, seed, iterations)


def run_iterations(root: Root, seed: str, iterations: int) -> Tally:
    """Sequential halving: the budget is cut into rounds; in each, every candidate still in is
    played out in the same deals with the same chance and playout choices (so they are
    compared on equal terms), then the worse half is dropped."""
    seat = root.view["seat"]
    tally: Tally = [[0, 0.0] for _ in root.candidates]
    alive = list(range(len(root.candidates)))
    rounds = max(1, math.ceil(math.log2(len(alive))))
    spent = 0
    for round_ in range(rounds):
        deals = max(1, (iterations - spent) // ((rounds - round_) * len(alive)))
        for deal in range(deals):
            deal_seed = f"{seed}:{round_}:{deal}"
            for k in alive:
                game = determinize(root.rules, root.view, deal_seed, root.tops)
                start = game.turn
                game.apply(root.candidates[k])
                rollout(game, start, random.Random(deal_seed))
                tally[k][0] += 1
                tally[k][1] += evaluate(game, seat, start)
                spent += 1
        alive.sort(key=lambda k: (-tally[k][1] / tally[k][0], k))
        alive = alive[: max(1, (len(alive) + 1) // 2)]
    return tally


# ====================================================================== playouts


def rollout(game: Game, start: int, rng: random.Random) -> None:
    """Play on from a game begun in turn ``start`` to the end of the next turn after it. Both
    sides play by :class:`Playout` (it takes material, keeps its Sovereign out of reach and
    closes on the enemy's), its ties and the shuffles drawn from ``rng``."""
    policy = Playout()
    policy.rng = rng
    for _ in range(ROLLOUT_DECISIONS):
        if game.over or game.turn > start + 1:
            return
        seat = game.prompt().seat
        if seat == CHANCE:
            game.apply(("seed", f"{rng.getrandbits(256):064x}"))
        else:
            game.apply(policy.decide(game, seat))


class Playout(GreedyBot):
    """The greedy scoring, pushed forward: the greedy bot deploys whenever its Barracks hold a
    unit and marches only a little forward, so in playouts by it nobody ever comes near the
    enemy King, and a search on them sees no reason to either (two search bots then wall
    their home ranks until the turn cap). Here a march is worth more for each step it brings
    the unit nearer an enemy Sovereign, and a deploy less; and, as a rush plays, a march that
    attacks an enemy Sovereign or the squares around it more, and one that leaves it attacked
    with nowhere to go more than any capture (else a search never sees that danger coming)."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.targets: tuple[int, ...] = ()  # the enemy Sovereigns' squares, for this decision
        self.zone: frozenset[int] = frozenset()  # the squares next to them
        self.occupancy: list[int] = []  # the board as the seat's units see it (order phase)

    def decide(self, game: Game, seat: int) -> Decision:
        self.targets = tuple(
            sq
            for sq, unit in game.position.units()
            if unit.kind.is_sovereign and game.rules.seating.are_enemies(unit.owner, seat)
        )
        self.zone = frozenset(t for k in self.targets for t in adjacent(k))
        self.occupancy = game.position.occupancy(seat) if game.this_turn.phase == "order" else []
        return super().decide(game, seat)

    def _score_march(self, game: Game, seat: int, d: Decision) -> float:
        score = super()._score_march(game, seat, d)
        mover = self._unit(game, d[1])
        if mover is None or mover.owner != seat or mover.kind.is_sovereign or not self.targets:
            return score
        frm, to = parse_square(d[1]), parse_square(d[2])
        closer = min(distance(frm, k) for k in self.targets) - min(
            distance(to, k) for k in self.targets
        )
        return score + CLOSING * closer + self._threat(game, mover, frm, to)

    def _threat(self, game: Game, mover: Unit, frm: int, to: int) -> float:
        """What a march from ``frm`` to ``to`` threatens: an enemy Sovereign attacked
        (:data:`CHECK`), and each square next to one (:data:`HEMMED`); one attacked with
        nowhere to go (:func:`trapped`: :data:`MATE`, above any capture but a Sovereign's)."""
        occ = self.occupancy
        if not occ:
            return 0.0
        was = occ[to]
        occ[frm], occ[to] = EMPTY, OWN
        attacked: list[int] = []
        forward = game.rules.seating.forward(mover.owner)
        for piece in mover.kind.movers:
            piece.attacks(occ, to, forward, attacked)
        occ[frm], occ[to] = OWN, was
        checks = [t for t in self.targets if t in attacked]
        if checks and mates(game.position, frm, to, checks):
            return MATE
        return CHECK * len(checks) + HEMMED * len(self.zone.intersection(attacked))

    def _score_deploy(self, game: Game, seat: int, d: Decision) -> float:
        return super()._score_deploy(game, seat, d) - DEPLOY_DISCOUNT


# ====================================================================== evaluation


def evaluate(game: Game, seat: int, start: int | None = None) -> float:
    """How good the game looks for ``seat``'s side, as a chance of winning in [0, 1]: material on
    the board (the Sovereigns too) and in the Barracks, Sovereigns in reach of an enemy (worse for
    the side that does not give the next order, worst for a side's last one; :func:`in_danger`),
    the pressure each side puts on the other's Sovereigns, and what each side's cards bring
    (:func:`economy`). A game over counts by who won (:func:`decided`: a little less for each
    turn since ``start``), and so does a last Sovereign that the side giving the next order can
    take (:func:`capturable`)."""
    seating = game.rules.seating
    side = seating.sides[seat]
    turns = game.turn - (game.turn if start is None else start)
    if game.over:
        return 0.5 if game.winner is None else decided(game.winner == side, turns)
    position = game.position
    attacks = game.attack_map()
    ours_next = not seating.are_enemies(orders_next(game), seat)
    sovereigns = Counter(
        seating.sides[unit.owner] for _, unit in position.units() if unit.kind.is_sovereign
    )
    score = 0.0
    army = [0.0, 0.0]  # the units on the board but the Sovereigns: ours, the enemies'
    in_reach: list[list[tuple[float, bool]]] = [[], []]  # Sovereigns an enemy attacks: ours, theirs
    for sq, unit in position.units():
        owner_side = seating.sides[unit.owner]
        sign = 1 if owner_side == side else -1
        if unit.kind.is_sovereign:
            # Each counts (so a search hunts the spare Kings an Heir or a promotion brings).
            score += sign * (SOVEREIGN + FLIGHT * min(2, flights(position, attacks, sq)))
            if position.would_be_threatened(sq, sq):
                moves_next = ours_next == (sign > 0)  # else whether it is trapped is moot
                last = sovereigns[owner_side] == 1
                if last and not moves_next and capturable(position, attacks, sq):
                    # The enemy takes it with its next order, after the playout's end: a won
                    # game, not a lead the evaluation might weigh as less than a quiet one.
                    return decided(sign < 0, turns + 1)
                cost = LAST_SOVEREIGN if last else SPARE_IN_REACH
                boxed = moves_next and trapped(position, attacks, sq)
                in_reach[0 if sign > 0 else 1].append((cost, boxed))
        else:
            value = unit_value(unit.kind.name, game)
            score += sign * value
            army[0 if sign > 0 else 1] += value
    score -= in_danger(in_reach[0], ours_next) - in_danger(in_reach[1], not ours_next)
    lead = (army[0] - army[1]) / (army[0] + army[1]) if army[0] + army[1] else 0.0
    score += TRADE * lead  # the side ahead gains by trading down (a locked board opens)
    for owner, barracks in enumerate(position.barracks):
        sign = 1 if seating.sides[owner] == side else -1
        score += sign * BARRACKS * queued_worth(barracks, game)
    for owner, player in enumerate(game.players):
        sign = 1 if seating.sides[owner] == side else -1
        cards = player.deck + player.hand + player.discard + player.in_play
        score += sign * economy(game, cards, buying_power(game, owner))
    for other in sorted(set(seating.sides)):
        ahead = max(0.0, lead if other == side else -lead)
        score += (1 if other == side else -1) * pressure(game, attacks, other, ahead)
    return 0.5 + UNDECIDED * math.tanh(score / SPREAD)


def orders_next(game: Game) -> int:
    """The seat that gives the next order: the one whose turn it is while its order phase
    lasts, else the next in turn (a side that has spent its orders cannot save a Sovereign
    in reach, nor take one, before the enemy moves)."""
    turn = game.this_turn
    if turn.phase == ORDER and turn.orders > 0:
        return game.active
    return game.rules.next_seat(game, game.active)


def decided(won: bool, turns: int) -> float:
    """A game won (or lost) ``turns`` turns from the search's start: a win is worth a little
    less for each turn it takes, a loss a little more (:data:`LATER_WIN`), so a search takes
    the quicker of two wins and puts off a loss."""
    return 1.0 - LATER_WIN * turns if won else LATER_WIN * turns


def capturable(position: Position, attacks: AttackMap, sq: int) -> bool:
    """Can an enemy take the Sovereign on ``sq`` (attacked) with an order: it is not protected
    (Armor, Wish) and an attacker of it is free to take orders (not Mourning, False Orders)."""
    target = position.board[sq]
    if target is None or target.uncapturable:
        return False
    return any(
        (unit := position.board[a]) is not None and not unit.frozen
        for a in enemy_attackers(position, attacks, sq)
    )


def in_danger(in_reach: list[tuple[float, bool]], moves_next: bool) -> float:
    """What a side stands to lose by its Sovereigns in an enemy's reach (what each would cost,
    and whether it is :func:`trapped`), in Pawns. One order takes one Sovereign, and one order
    saves one: giving the next order, a side flees with the dearest one it can (:data:`FLEE`,
    the tempo it spends) and the enemy takes the dearest one left; else the enemy takes the
    dearest one. (Counted for each one in reach, a side holding two Kings in reach gained
    nothing by taking one, and held its threats to the turn cap.)"""
    can_flee = sorted(cost for cost, is_trapped in in_reach if not is_trapped)
    fled = can_flee.pop() if moves_next and can_flee else 0.0
    left = can_flee + [cost for cost, is_trapped in in_reach if is_trapped]
    return (FLEE if fled else 0.0) + max(left, default=0.0)


def trapped(position: Position, attacks: AttackMap, sq: int) -> bool:
    """Is the attacked Sovereign on ``sq`` lost even with its side to move: no square to flee
    to out of reach, and no lone attacker its side could take? (A rider's line could still be
    blocked: the search finds that, this does not.)"""
    attackers = enemy_attackers(position, attacks, sq)
    if len(attackers) == 1 and attacks.threatened(attackers[0]):
        return False
    return all(position.would_be_threatened(sq, m.to) for m in position.unit_moves(sq))


def flights(position: Position, attacks: AttackMap, sq: int) -> int:
    """The squares the Sovereign on ``sq`` could step to that no enemy attacks now."""
    enemies = enemy_sides(position, sq)
    return sum(
        not any(attacks.attackers(side, move.to) for side in enemies)
        for move in position.unit_moves(sq)
    )


def enemy_attackers(position: Position, attacks: AttackMap, sq: int) -> list[int]:
    """The squares of the enemy units that attack the unit on ``sq``, side by side."""
    return [a for side in enemy_sides(position, sq) for a in attacks.attackers(side, sq)]


def enemy_sides(position: Position, sq: int) -> list[int]:
    """The sides other than that of the unit on ``sq``, in order."""
    unit = position.board[sq]
    assert unit is not None
    mine = position.seating.sides[unit.owner]
    return [side for side in sorted(set(position.seating.sides)) if side != mine]


def mates(position: Position, frm: int, to: int, checks: list[int]) -> bool:
    """Does the march from ``frm`` to ``to`` leave a Sovereign on ``checks`` :func:`trapped`?
    Judged on the board with the unit moved there and back (a march changes nothing else on
    it), not on a copy of the game: a playout asks this of each march that gives check."""
    board = position.board
    unit, was = board[frm], board[to]
    board[frm], board[to] = None, unit
    try:
        attacks = position.attack_map()
        return any(attacks.threatened(t) and trapped(position, attacks, t) for t in checks)
    finally:
        board[frm], board[to] = unit, was


def economy(game: Game, cards: list[int], power: float = 1.0) -> float:
    """What a player's cards are worth, in Pawns: the gold of an average hand (a deck thinner
    than a hand draws all of it; :data:`GOLD`, and :data:`SHORT` below the floor) times what
    gold still buys (``power``: :func:`buying_power`), the units they can train
    (:data:`TRAINABLE`), and the cards themselves (:data:`USE`)."""
    gold, cost, units = 0, 0, 0.0
    for c in cards:
        card = game.card_type(game.cards[c])
        gold += card.gold
        cost += card.cost
        if card.trains:
            units += trained_worth(card, game)
    per_hand = gold * min(len(cards), game.setup.hand_size) / len(cards) if cards else 0.0
    short = max(0.0, GOLD_FLOOR - per_hand)
    buying = GOLD * min(per_hand, GOLD_ENOUGH) - SHORT * short
    return power * buying + TRAINABLE * units + USE * cost


def buying_power(game: Game, seat: int) -> float:
    """What gold is worth to ``seat``, from 1 down to 0: the share of :data:`SUPPLY_LOW` cards
    its Supply still holds (1 before the Supply is chosen)."""
    supply = game.supply_for(seat)
    return min(1.0, sum(supply.values()) / SUPPLY_LOW) if supply else 1.0


def trained_worth(card: CardType, game: Game) -> float:
    """What a training card's units are worth, in Pawns (:func:`waiting_worth` each)."""
    assert card.trains is not None
    return waiting_worth(game.rules.units.get(card.trains), game) * card.train_count


def queued_worth(barracks: list[UnitType], game: Game) -> float:
    """What a Barracks' units are worth, in Pawns: the best first (:data:`QUEUE`)."""
    worths = sorted((waiting_worth(kind, game) for kind in barracks), reverse=True)
    return sum(worth * QUEUE**k for k, worth in enumerate(worths))


def waiting_worth(kind: UnitType, game: Game) -> float:
    """A unit not on the board yet (in the Barracks, or a card's to train), in Pawns: a
    Sovereign as a spare one."""
    return SPARE_SOVEREIGN if kind.is_sovereign else unit_value(kind.name, game)


def pressure(game: Game, attacks: AttackMap, side: int, ahead: float = 0.0) -> float:
    """How hard ``side`` presses on its enemies' Sovereigns, in Pawns: on each, the squares
    around it that the side attacks (where it could flee) and how near the side's units stand
    (so a search moves up on the King rather than wait for the turn cap), the more the further
    ``ahead`` the side is (:data:`MOPUP`). The least pressed one counts: all must fall, and so
    taking one never lowers the pressure (summed, a side holding two Kings in reach would lose
    by taking one the pressure its units put on it, and would hold them to the turn cap)."""
    seating = game.rules.seating
    targets = [
        sq
        for sq, unit in game.position.units()
        if unit.kind.is_sovereign and seating.sides[unit.owner] != side
    ]
    if not targets:
        return 0.0
    army = [
        sq
        for sq, unit in game.position.units()
        if seating.sides[unit.owner] == side and not unit.kind.is_sovereign
    ]
    approach = APPROACH * (1 + MOPUP * ahead)
    return min(
        RING * sum(bool(attacks.attackers(side, t)) for t in adjacent(k))
        + approach * sum(max(0, NEAR - distance(sq, k)) for sq in army)
        for k in targets
    )
