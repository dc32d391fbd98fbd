"""Whole greedy-vs-greedy games over loopback, sealed decks beside open decks (issue 12).

    python bench/sealed_game.py [--seed N] [--runs N] [--max-turns N] [--free-arithmetic]

Each seed is played twice between a host and a joiner process (as ``bench/net_game.py`` plays
it): once with ``host --sealed-decks``, once with open decks. The two are not the same game:
a sealed deck's order comes from the seats' secrets, an open one's from the commit-reveal
seeds, so the games part at the first shuffle and run to different lengths. The figure is
therefore the time per step, over all the games: sealed against open. Goal: at most 2x.
Every sealed game must end with the same hash at both peers and a clean audit (a cheat would
be the result). The last line is JSON.

With ``--free-arithmetic`` each seed is also played sealed with the group's arithmetic made
nearly free (``bench/free_group.py``: a stand-in with no security, between two such processes),
which splits the sealed game's extra time in two: the group arithmetic, and everything else.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from net_game import ENTRY, over_loopback

GOAL = 2.0
FREE_GROUP = [sys.executable, str(Path(__file__).with_name("free_group.py"))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--runs", type=int, default=5, help="games of each kind (default 5)")
    parser.add_argument("--max-turns", type=int, default=150, help="turns each (default 150)")
    parser.add_argument(
        "--free-arithmetic",
        action="store_true",
        help="also play each seed sealed with the group arithmetic nearly free (no security)",
    )
    args = parser.parse_args()
    kinds = [("open", ENTRY, "--open-decks"), ("sealed", ENTRY, "--sealed-decks")]
    if args.free_arithmetic:
        kinds.append(("sealed, free arithmetic", FREE_GROUP, "--sealed-decks"))
    totals = {kind: [0.0, 0] for kind, _, _ in kinds}
    rows = []
    for seed in range(args.seed, args.seed + args.runs):
        for kind, entry, mode in kinds:
            seconds, results = over_loopback(seed, args.max_turns, None, entry, (mode,))
            steps = results[0]["seq"]
            if len({r["final_hash"] for r in results}) != 1 or results[0]["result"] == "cheat":
                raise SystemExit(f"seed {seed}, {kind}: {results}")
            totals[kind][0] += seconds
            totals[kind][1] += steps
            rows.append({"seed": seed, "kind": kind, "seconds": seconds, "steps": steps})
            print(
                f"seed {seed}, {kind}: {steps} steps in {seconds * 1000:.0f} ms "
                f"({seconds / steps * 1e6:.0f} µs a step), {results[0]['result']}",
                flush=True,
            )
    per_step = {kind: s / n for kind, (s, n) in totals.items()}
    ratio = per_step["sealed"] / per_step["open"]
    verdict = "meets" if ratio <= GOAL else "misses"
    print(
        f"time a step: sealed {per_step['sealed'] * 1e6:.0f} µs, open "
        f"{per_step['open'] * 1e6:.0f} µs: x{ratio:.2f}, {verdict} the goal of x{GOAL}"
    )
    out: dict[str, object] = {"ratio": ratio, "goal": GOAL, "per_step": per_step}
    if args.free_arithmetic:
        free = per_step["sealed, free arithmetic"] / per_step["open"]
        print(
            f"with the group arithmetic nearly free: x{free:.2f}; the arithmetic alone adds "
            f"x{ratio - free:.2f} of an open step"
        )
        out["ratio_free_arithmetic"] = free
    print(json.dumps({**out, "games": rows}))


if __name__ == "__main__":
    main()
