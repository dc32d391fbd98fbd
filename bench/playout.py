"""Engine throughput: decisions per second (legal list + apply) and whole games per second.

    python bench/playout.py [--games N] [--quick]

Plays random-vs-random and greedy-vs-greedy games on the first-game Supply in this process.
"Engine" time is the time spent in ``legal()`` and ``apply()`` only (what a peer or a bot pays
for the rules); games per second includes the bots' thinking. Goal: at least 10,000 engine
decisions per second. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from crownp2p.bots import make_bot
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

GOAL = 10_000


def run(bot_name: str, games: int, max_turns: int) -> dict[str, float]:
    rules = standard_rules()
    engine = 0.0
    decisions = 0
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(rules, Setup())
        seeds = SeedSource(seed)
        bots = [make_bot(bot_name, f"{seed}:{s}") for s in range(2)]
        while not game.over and game.turn <= max_turns:
            seat = game.prompt().seat
            if seat == CHANCE:
                t = time.perf_counter()
                game.apply(("seed", seeds.next_seed()))
                engine += time.perf_counter() - t
                continue
            t = time.perf_counter()
            game.legal()
            engine += time.perf_counter() - t
            decision = bots[seat].decide(game, seat)
            t = time.perf_counter()
            game.apply(decision)
            engine += time.perf_counter() - t
            decisions += 1
        turns += game.turn
    total = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "engine_decisions_per_s": decisions / engine,
        "decisions_per_s": decisions / total,
        "games_per_s": games / total,
        "mean_turns": turns / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="10 games of each")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    games = 10 if args.quick else args.games
    results = {}
    for bot in ("random", "greedy"):
        r = run(bot, games, args.max_turns)
        results[f"{bot}_vs_{bot}"] = r
        print(
            f"{bot:>6} vs {bot:<6}: {r['engine_decisions_per_s']:>9,.0f} engine decisions/s "
            f"(legal + apply), {r['decisions_per_s']:>8,.0f} decisions/s with the bots, "
            f"{r['games_per_s']:6.2f} games/s, {r['mean_turns']:.0f} turns a game"
        )
    worst = min(r["engine_decisions_per_s"] for r in results.values())
    print(f"goal: at least {GOAL:,} engine decisions/s -> {'met' if worst >= GOAL else 'NOT met'}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
