"""How the bots' levels do against each other, with the time each takes to decide.

    python bench/bots.py [--games 100] [--match hard:greedy --match normal:greedy ...]
                         [--workers 2] [--think SECONDS] [--first-seed N] [--out FILE]
    python bench/bots.py --report FILE [FILE ...]

Each match is LEVEL:OPPONENT, played in ``--games`` games with the seats alternating (LEVEL is
blue in even games, gold in odd ones). An opponent is any bot name, or ``rush``: a fixed plan
written here as a baseline (buy cheap trainers, train one whenever the Barracks is empty,
deploy it and go for the enemy King). A game at the turn cap is unfinished: it counts as not
won and is reported. The win rate is over decided games, with its Wilson 95% interval; the time
per decision (median, 95th percentile) is the level's own, measured around its ``decide`` in
CPU time (the wall time beside it). How long the games ran (median and quartiles of the turns,
capped games counted at the cap) is printed too: the unfinished games are the tail of that
spread, and a change may move its middle and leave its tail (issue 14, session 12). Goals
(issue 14): hard beats greedy in 90% and rush in 80%, normal beats greedy in 75%, and games
between search bots end before the cap in 95%; and, as before, easy (greedy) beats random in
80%. The rush, to be a baseline worth beating, beats greedy in 75% (rush:greedy), near the four
games in five the issue saw a plain fixed plan win. A goal counts as shown only when the
interval's lower end reaches it.
``--workers`` plays that many games at once, in processes (each bot on one core). ``--out``
keeps each game as a JSON line as it ends, so a long match can be played in parts
(``--first-seed``) and reported together (``--report``). ``--records DIR`` keeps each
unfinished game's record there (``MATCH-SEED.jsonl``, the level's seat in it), to step through
with ``crownp2p replay`` and see why it reached the cap. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from crownp2p.bots import THINK, Bot, make_bot
from crownp2p.bots.greedy import GreedyBot, unit_value
from crownp2p.bots.search import after, pressure
from crownp2p.core.board import relative_rank
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Decider, Play, Seeds
from crownp2p.core.position import AttackMap, Position
from crownp2p.core.record import Record, Step
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules

MATCHES = [
    "hard:greedy",
    "hard:rush",
    "normal:greedy",
    "normal:normal",
    "rush:greedy",
    "easy:random",
]
GOALS = {
    "hard:greedy": 0.90,
    "hard:rush": 0.80,
    "normal:greedy": 0.75,
    "rush:greedy": 0.75,
    "easy:random": 0.80,
}
FINISHED_GOAL = 0.95  # games between search bots that end before the cap
CHEAP = 5  # the dearest trainer the rush buys first (the Patronage's Dragoon)
PRESS = 3.0  # the weight of its pressure on the enemy King against material
TRAPPED = 200.0  # an enemy Sovereign attacked with nowhere safe to go: taken next turn
SAFE = 3.0  # each of (up to two) safe squares its own King could flee to
HOME = 2.0  # each rank its own King stands away from its first rank
WON = 1e5  # a game won, against any material
ORDER = 1e6  # an order to a unit, before any card's order


class RushBot(Bot):
    """The baseline plan, with no search: buy cheap trainers (a dearer card only when none is
    left or affordable), train one (never a Peon: it is the gold) whenever the Barracks is
    empty, so that the one order a turn goes to the attack rather than to deploying a queue.
    Each order is chosen by one look ahead, the enemy to move: the King taken when it can be,
    its own King out of reach, at home and with squares to flee to, the enemy King trapped
    (attacked, nowhere safe to go, its attackers out of reach), material kept safe and
    pressure on the enemy King. Card steps by the greedy scoring."""

    name = "rush"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.greedy = GreedyBot(seed)

    def decide(self, game: Game, seat: int) -> Decision:
        if game.stack:
            return self.greedy.decide(game, seat)
        return max(game.legal(), key=lambda d: (self._score(game, seat, d), self.rng.random()))

    def _score(self, game: Game, seat: int, d: Decision) -> float:
        verb = d[0]
        if verb in ("attack", "march", "deploy"):
            return ORDER + self._standing(after(game, d), seat)
        if verb == "train":  # the best unit, into an empty Barracks
            card = game.card_type(d[1])
            if card.name == "Peon" or game.position.barracks[seat]:
                return -1
            return 50 + unit_value(card.trains or "Pawn", game) * card.train_count
        if verb in ("treasure", "play"):
            return 50 if verb == "treasure" else 40
        if verb == "buy":
            card = game.card_type(d[1])
            if card.trains and card.cost <= CHEAP:
                return 30 + unit_value(card.trains, game) * card.train_count
            return 10 + card.cost
        return 0  # end

    def _standing(self, game: Game, seat: int) -> float:
        """Where an order leaves the rush, the enemy to move: a game won or lost; else material
        on the board (units in the Barracks count for nothing, so it deploys), less most of
        what the enemy could take (its King most of all), its King's safety, a trapped enemy
        King and the pressure on the enemy King."""
        seating = game.rules.seating
        side = seating.sides[seat]
        if game.over:
            return WON if game.winner == side else -WON
        attacks = game.attack_map()
        score = 0.0
        for sq, unit in game.position.units():
            value = unit_value(unit.kind.name, game)  # a Sovereign's is the rest together
            if seating.sides[unit.owner] != side:
                score -= value
                if unit.kind.is_sovereign:
                    score += self._trap(game.position, attacks, sq, side)
            elif attacks.threatened(sq):
                score += 0.2 * value
            else:
                score += value
                if unit.kind.is_sovereign:  # at home, with squares to flee to
                    forward = seating.forward(unit.owner)
                    score += SAFE * min(2, self._flights(game.position, sq))
                    score -= HOME * relative_rank(sq, forward)
        return score + PRESS * pressure(game, attacks, side)

    def _trap(self, position: Position, attacks: AttackMap, king: int, side: int) -> float:
        """The bonus for an enemy Sovereign on ``king`` attacked by ``side``: it is lost if it
        has no safe square to go to and none of its attackers can be taken."""
        attackers = attacks.attackers(side, king)
        if not attackers or any(attacks.threatened(sq) for sq in attackers):
            return 0.0
        return 0.0 if self._flights(position, king) else TRAPPED

    def _flights(self, position: Position, king: int) -> int:
        """The safe squares the Sovereign on ``king`` could go to."""
        moves = position.unit_moves(king)
        return sum(not position.would_be_threatened(king, m.to) for m in moves)


class Timed:
    """A decider whose thinking is timed, one entry a decision: the CPU time of this process
    (a loaded machine slows the wall clock, not the count of work) and the wall time."""

    def __init__(self, bot: Decider, times: list[float], walls: list[float]) -> None:
        self.bot = bot
        self.times = times
        self.walls = walls

    def decide(self, game: Game, seat: int) -> Decision | None:
        cpu, wall = time.process_time(), time.perf_counter()
        decision = self.bot.decide(game, seat)
        self.times.append(time.process_time() - cpu)
        self.walls.append(time.perf_counter() - wall)
        return decision

    def observe(self, game: Game, step: Step) -> None:
        self.bot.observe(game, step)


def bot(name: str, seed: str, think: float | None) -> Bot:
    return RushBot(seed) if name == "rush" else make_bot(name, seed, think=think)


def play(
    match: str, seed: int, think: float | None, max_turns: int, records: Path | None = None
) -> dict[str, Any]:
    """One game of ``match``; the level sits in seat ``seed % 2``. Unfinished, its record is
    saved in ``records`` (a directory), when one is given."""
    level, opponent = match.split(":")
    rules = standard_rules()
    game = Game(rules, Setup())
    seat = seed % 2
    times: list[float] = []
    walls: list[float] = []
    names = [level, opponent] if seat == 0 else [opponent, level]
    deciders: dict[int, Decider] = {
        s: bot(name, f"{seed}:{s}", think) for s, name in enumerate(names)
    }
    deciders[seat] = Timed(deciders[seat], times, walls)
    deciders[CHANCE] = Seeds(seed)
    record = Record.begin(game, bots=names, seed=seed) if records else None
    Play(game, deciders, record=record, max_turns=max_turns).run()
    if record is not None and records is not None and not game.over:
        record.save(records / f"{match.replace(':', '-')}-{seed}.jsonl")
    return {
        "match": match,
        "seed": seed,
        "won": game.over and game.winner == seat,
        "over": game.over,
        "turns": game.turn,
        "times": times,
        "walls": walls,
    }


def outcome(game: dict[str, Any]) -> str:
    result = "won" if game["won"] else "lost" if game["over"] else "unfinished"
    return f"{result}, {len(game['times'])} decisions"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def report(match: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    decided = [g for g in games if g["over"]]
    wins = sum(g["won"] for g in decided)
    low, high = wilson(wins, len(decided))
    median, p95 = percentiles([t for g in games for t in g["times"]])
    wall_median, wall_p95 = percentiles([t for g in games for t in g["walls"]])
    rate = wins / len(decided) if decided else 0.0
    finished = len(decided) / len(games)
    level, opponent = match.split(":")
    goal = GOALS.get(match)
    verdict = f"goal {goal:.0%}: {'met' if low >= goal else 'NOT shown'}" if goal else ""
    print(
        f"{match:16} {len(games):4} games, {len(games) - len(decided)} unfinished; "
        f"won {wins} of {len(decided)} decided = {rate:.1%} [95% {low:.1%}–{high:.1%}] {verdict}"
    )
    if opponent in THINK:
        ok = "met" if finished >= FINISHED_GOAL else "NOT met"
        ends = wilson(len(decided), len(games))
        print(
            f"{'':16} finished before the cap: {finished:.1%} [95% {ends[0]:.1%}–{ends[1]:.1%}]"
            f" (goal {FINISHED_GOAL:.0%} of the games played: {ok})"
        )
    if len(decided) < len(games):
        capped = sorted(g["seed"] for g in games if not g["over"])
        print(f"{'':16} unfinished: seeds {', '.join(map(str, capped))} (see --records)")
    # How long the games ran, the capped ones counted at the cap (their share is this tail).
    turns = sorted(g["turns"] for g in games)
    quartiles = statistics.quantiles(turns, n=4) if len(turns) > 1 else turns * 3
    print(
        f"{'':16} length: median {quartiles[1]:.0f} turns, "
        f"quartiles {quartiles[0]:.0f}–{quartiles[2]:.0f}"
    )
    searched = sum(len(g["times"]) for g in games)
    print(
        f"{'':16} {level}: {searched} decisions, CPU median {median * 1e3:.1f} ms, "
        f"p95 {p95 * 1e3:.1f} ms (wall {wall_median * 1e3:.1f}, {wall_p95 * 1e3:.1f} ms)"
    )
    return {
        "match": match,
        "games": len(games),
        "decided": len(decided),
        "wins": wins,
        "rate": rate,
        "wilson95": [low, high],
        "finished": finished,
        "turns_quartiles": quartiles,
        "median_s": median,
        "p95_s": p95,
        "wall_median_s": wall_median,
        "wall_p95_s": wall_p95,
    }


def percentiles(times: list[float]) -> tuple[float, float]:
    """The median and the 95th percentile."""
    if not times:
        return 0.0, 0.0
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a match (default 100)")
    parser.add_argument("--match", action="append", help=f"LEVEL:OPPONENT (default {MATCHES})")
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--think", type=float, help="override every level's think time")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="add a JSON line for each game to this file")
    parser.add_argument(
        "--records", type=Path, metavar="DIR", help="keep the unfinished games' records in DIR"
    )
    parser.add_argument(
        "--report", type=Path, nargs="+", metavar="FILE", help="report the games kept in FILEs"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="a line for each game")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers take a number of at least 1")
    if args.report:
        kept = [json.loads(line) for path in args.report for line in path.read_text().splitlines()]
        by_match: dict[str, list[dict[str, Any]]] = {}
        for game in kept:
            by_match.setdefault(game["match"], []).append(game)
        print(json.dumps([report(match, games) for match, games in by_match.items()]))
        return
    matches = args.match or MATCHES
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
    seeds = range(args.first_seed, args.first_seed + args.games)
    results = []
    with ProcessPoolExecutor(args.workers) as pool:
        for match in matches:
            jobs = [
                pool.submit(play, match, s, args.think, args.max_turns, args.records) for s in seeds
            ]
            games = []
            for job in jobs:
                games.append(job.result())
                if args.out:
                    with args.out.open("a") as out:
                        out.write(json.dumps(games[-1]) + "\n")
                if args.verbose:
                    print(f"  {match} seed {games[-1]['seed']}: {outcome(games[-1])}", flush=True)
            results.append(report(match, games))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
