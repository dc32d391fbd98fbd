"""A search bot that sees only what its seat may see: determinized Monte Carlo search.

Each iteration deals the hidden cards again from the seat's view (``core.determinize``: never
the true game's hands or deck orders), tries one of the legal decisions — chosen by UCB1, so the
promising ones get most of the budget — plays on with a cheap policy to the end of the next
opponent's turn and scores where it got to (:func:`evaluate`). The most tried decision wins.

The budget is a number of iterations, so a choice depends only on the view and the seed, never
on the clock; :func:`iterations_for` turns a think time into iterations at this machine's pace.
With ``workers`` above 1 the iterations are split over forked processes, each with a seed of its
own, and their tallies added (the same seed and workers give the same choice). The steps of a
card being resolved are decided by the greedy bot's scoring: a view keeps no mid-card state to
deal a game from, and those steps are small choices.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from typing import Any

from ..core.board import parse_square
from ..core.decisions import Decision, parse_decision
from ..core.determinize import KnownTops, determinize
from ..core.game import CHANCE, Game
from ..core.record import Step
from ..core.rules import Rules
from .base import Bot
from .greedy import GreedyBot, card_value, unit_value

# Iterations one core runs in a second, measured mid-game on the project's 2-core machine
# (bench/bots.py prints the time per decision each level really takes).
ITERATIONS_PER_SECOND = 250
EXPLORATION = 0.7  # UCB1's constant: values are win chances in [0, 1]
MIN_CANDIDATES, MAX_CANDIDATES = 3, 12
ROLLOUT_DECISIONS = 80  # a cap on one playout, besides the end of the opponent's next turn


def iterations_for(seconds: float) -> int:
    """The iterations that fit in a think time of ``seconds`` on one core."""
    return max(1, round(seconds * ITERATIONS_PER_SECOND))


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

    def decide(self, game: Game, seat: int) -> Decision:
        self.seat = seat
        view = game.view(seat)
        legal = [parse_decision(text) for text in view["legal"]]
        if len(legal) == 1:
            return legal[0]
        if view["stack"]:  # a card's step: the greedy scoring reads only the public board
            return self.greedy.decide(game, seat)
        seed = f"{self.rng.getrandbits(64):016x}"
        candidates = self.candidates(determinize(game.rules, view, seed, self.tops), legal)
        if len(candidates) == 1:
            return candidates[0]
        tallies = search(
            game.rules, view, candidates, self.tops, seed, self.iterations, self.workers
        )
        best = max(range(len(candidates)), key=lambda k: (tallies[k][0], tallies[k][1], -k))
        return candidates[best]

    def candidates(self, sample: Game, legal: list[Decision]) -> list[Decision]:
        """The decisions worth searching: the greedy scoring's best few (scored on a sample:
        its board is the true one), as many as the budget can try about ten times each."""
        wanted = max(MIN_CANDIDATES, min(MAX_CANDIDATES, self.iterations // 10))
        seat = sample.prompt().seat
        scores = [self.greedy.score(sample, seat, d) for d in legal]
        order = sorted(range(len(legal)), key=lambda k: (-scores[k], k))
        return [legal[k] for k in sorted(order[:wanted])]

    def observe(self, game: Game, step: Step) -> None:
        """Remember the cards known to lie on top of a deck: what this seat put back there."""
        if self.seat is None:
            return
        self.tops.update(game.view(self.seat), shuffled=step.seat == CHANCE)
        if step.seat != self.seat or len(step.decision) != 2:
            return
        verb, name = step.decision
        if verb == "topdeck":
            self.tops.put(self.seat, name)
        elif verb == "keep" and len(game.rules.opponents(self.seat)) == 1:
            self.tops.put(game.rules.opponents(self.seat)[0], name)


Tally = list[list[float]]  # per legal decision: [times tried, total value]


def search(
    rules: Rules,
    view: dict[str, Any],
    legal: list[Decision],
    tops: KnownTops,
    seed: str,
    iterations: int,
    workers: int = 1,
) -> Tally:
    """The tallies of ``iterations`` playouts from samples of ``view``, over ``workers``."""
    if workers <= 1:
        return run_iterations(rules, view, legal, tops, f"{seed}:0", iterations)
    shares = [iterations // workers + (w < iterations % workers) for w in range(workers)]
    jobs = [(f"{seed}:{w}", share) for w, share in enumerate(shares) if share]
    # Forked workers inherit the rules (a pack's rules need not pickle); only tallies return.
    context = multiprocessing.get_context("fork")
    with context.Pool(len(jobs), _keep_job, (rules, view, legal, tops)) as pool:
        parts = pool.starmap(_run_job, jobs)
    return [[sum(p[k][i] for p in parts) for i in (0, 1)] for k in range(len(legal))]


_JOB: tuple[Rules, dict[str, Any], list[Decision], KnownTops] | None = None


def _keep_job(rules: Rules, view: dict[str, Any], legal: list[Decision], tops: KnownTops) -> None:
    global _JOB
    _JOB = (rules, view, legal, tops)


def _run_job(seed: str, iterations: int) -> Tally:
    assert _JOB is not None
    return run_iterations(*_JOB, seed, iterations)


def run_iterations(
    rules: Rules,
    view: dict[str, Any],
    legal: list[Decision],
    tops: KnownTops,
    seed: str,
    iterations: int,
) -> Tally:
    seat = view["seat"]
    rng = random.Random(f"search:{seed}")
    tally: Tally = [[0, 0.0] for _ in legal]
    for i in range(iterations):
        game = determinize(rules, view, f"{seed}:{i}", tops)
        k = _ucb(tally, i)
        start = game.turn
        game.apply(legal[k])
        rollout(game, start, rng)
        tally[k][0] += 1
        tally[k][1] += evaluate(game, seat)
    return tally


def _ucb(tally: Tally, done: int) -> int:
    for k, (tried, _) in enumerate(tally):
        if not tried:
            return k
    log_done = math.log(done)
    return max(
        range(len(tally)),
        key=lambda k: tally[k][1] / tally[k][0] + EXPLORATION * math.sqrt(log_done / tally[k][0]),
    )


# ====================================================================== playouts


def rollout(game: Game, start: int, rng: random.Random) -> None:
    """Play on from a game begun in turn ``start`` to the end of the next turn after it."""
    for _ in range(ROLLOUT_DECISIONS):
        if game.over or game.turn > start + 1:
            return
        prompt = game.prompt()
        if prompt.seat == CHANCE:
            game.apply(("seed", f"{rng.getrandbits(256):064x}"))
        else:
            game.apply(playout_choice(game, prompt.seat, rng))


def playout_choice(game: Game, seat: int, rng: random.Random) -> Decision:
    """A cheap choice: take material, keep the Sovereign out of reach, spend, buy dear."""
    legal = game.legal()
    if len(legal) == 1:
        return legal[0]
    board = game.position.board
    sovereigns = set(game.position.sovereign_squares(seat)) if not game.stack else set()
    best, best_score = legal[0], -math.inf
    for d in legal:
        verb = d[0]
        score = rng.random() * 2
        if verb == "attack":
            target = board[parse_square(d[2])]
            score += 10 + (unit_value(target.kind.name, game) if target else 2)
        elif verb == "march" and parse_square(d[1]) in sovereigns:
            frm, to = parse_square(d[1]), parse_square(d[2])
            safe_now = not game.position.would_be_threatened(frm, frm)
            score += -50 if game.position.would_be_threatened(frm, to) else 0 if safe_now else 60
        elif verb == "march":
            score += 1
        elif verb == "deploy":
            score += 4 + unit_value(d[1], game)
        elif verb == "treasure":
            score += 50
        elif verb == "buy":
            score += 5 + card_value(d[1], game)
        elif verb in ("play", "train"):
            score += 4
        if score > best_score:
            best, best_score = d, score
    return best


# ====================================================================== evaluation


def evaluate(game: Game, seat: int) -> float:
    """How good the game looks for ``seat``'s side, as a chance of winning in [0, 1]: material
    on the board and in the Barracks, Sovereigns in reach of an enemy (worse for the side that
    does not move next), and the deck's economy."""
    seating = game.rules.seating
    side = seating.sides[seat]
    if game.over:
        return 0.5 if game.winner is None else float(game.winner == side)
    position = game.position
    ours_next = not seating.are_enemies(game.active, seat)
    score = 0.0
    for sq, unit in position.units():
        sign = 1 if seating.sides[unit.owner] == side else -1
        if unit.kind.is_sovereign:
            if position.would_be_threatened(sq, sq):
                mover_is_enemy = ours_next == (sign < 0)
                score -= sign * (12 if mover_is_enemy else 4)
        else:
            score += sign * unit_value(unit.kind.name, game)
    for owner, barracks in enumerate(position.barracks):
        sign = 1 if seating.sides[owner] == side else -1
        score += sign * 0.7 * sum(min(unit_value(k.name, game), 9.0) for k in barracks)
    for owner, player in enumerate(game.players):
        sign = 1 if seating.sides[owner] == side else -1
        cards = player.deck + player.hand + player.discard + player.in_play
        if cards:
            worth = sum(card_value(game.cards[c], game) for c in cards)
            score += sign * 3 * worth / len(cards)
    return 0.5 + 0.5 * math.tanh(score / 10)
