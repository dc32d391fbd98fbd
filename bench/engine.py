"""What a search needs from the engine (issue 14), each figure beside its goal, in one run.

    python bench/engine.py [--quick]

- ``Game.clone()`` in a mid-game position (21 units): at most 15 µs;
- legal + apply, random against random (bench/playout.py): at least 60,000 decisions a second;
- move generation against python-chess (bench/movegen.py): at least on par (ratio 1.0);
- the attack map: "is this unit threatened", "is my Sovereign attacked" in microseconds (its
  making, once per decision, is printed beside).

Runs on one core. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import movegen
import playout

from crownp2p.bots import make_bot
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

CLONE_GOAL_US = 15.0
ATTACK_QUERY_GOAL_US = 5.0  # "microseconds, not a copy of the board"
UNITS = 21


def midgame(units: int = UNITS, seed: int = 1) -> Game:
    """A greedy game played until ``units`` units stand on the board, at a phase prompt."""
    game = Game(standard_rules(), Setup())
    seeds, bot = SeedSource(seed), make_bot("greedy", seed)
    while not game.over:
        seat = game.prompt().seat
        if seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
        elif len(list(game.position.units())) >= units and not game.stack:
            return game
        else:
            decision = bot.decide(game, seat)
            assert decision is not None
            game.apply(decision)
    raise RuntimeError("the game ended before the position was reached")


def per_call_us(call: Callable[[], Any], seconds: float) -> float:
    """Best of five rounds, in microseconds a call."""
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds / 10:
        call()
        n += 1
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            call()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    seconds = 0.3 if args.quick else 1.5

    game = midgame()
    clone_us = per_call_us(game.clone, seconds)
    print(
        f"clone, {UNITS} units mid-game:  {clone_us:8.1f} µs   goal <= {CLONE_GOAL_US:.0f} µs"
        f" -> {verdict(clone_us <= CLONE_GOAL_US)}"
    )

    build_us = per_call_us(game.position.attack_map, seconds)
    attacks = game.attack_map()
    squares = [sq for sq, _ in game.position.units()]

    def queries() -> None:
        for sq in squares:
            attacks.threatened(sq)

    query_us = per_call_us(queries, seconds) / len(squares)
    sovereign_us = per_call_us(lambda: attacks.sovereign_attacked(game.active), seconds)
    print(
        f"attack map: threatened {query_us:.2f} µs, sovereign attacked {sovereign_us:.2f} µs"
        f"   goal <= {ATTACK_QUERY_GOAL_US:.0f} µs"
        f" -> {verdict(max(query_us, sovereign_us) <= ATTACK_QUERY_GOAL_US)}"
        f" (making the map, once a decision: {build_us:.1f} µs)"
    )

    games = 10 if args.quick else 40
    decisions = playout.run("random", games, 300)["engine_decisions_per_s"]
    print(
        f"legal + apply, random:      {decisions:8,.0f} /s   goal >= {playout.GOAL:,}"
        f" -> {verdict(decisions >= playout.GOAL)}"
    )

    ours_pass, ours_moves = movegen.make_ours()
    theirs_pass, theirs_moves = movegen.make_theirs()
    reps = movegen.calibrate(ours_pass, seconds / 3), movegen.calibrate(theirs_pass, seconds / 3)
    ours = ours_moves * reps[0] / movegen.best_time(ours_pass, reps[0], 5)
    theirs = theirs_moves * reps[1] / movegen.best_time(theirs_pass, reps[1], 5)
    ratio = ours / theirs
    print(
        f"move generation / python-chess: {ratio:5.2f}   goal >= {movegen.GOAL}"
        f" -> {verdict(ratio >= movegen.GOAL)}"
    )
    print(
        json.dumps(
            {
                "clone_us": round(clone_us, 2),
                "attack_query_us": round(max(query_us, sovereign_us), 3),
                "attack_map_us": round(build_us, 2),
                "decisions_per_s": round(decisions),
                "movegen_ratio": round(ratio, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
