"""Whole greedy-vs-greedy games over loopback, sealed decks beside open decks (issue 12).

    python bench/sealed_game.py [--seed N] [--runs N] [--max-turns N] [--free-arithmetic]

Each seed is played twice between a host and a joiner process (as ``bench/net_game.py`` plays
it): once with ``host --sealed-decks``, once with open decks. The two are not the same game:
a sealed deck's order comes from the seats' secrets, an open one's from the commit-reveal
seeds, so the games part at the first shuffle and run to different lengths. The figure is
therefore the time per step, over all the games: sealed against open. Goal: at most 2x.

A sealed game has steps an open one has none of: chance turning cards face up (`open`, about
one step in nine), which only wait for keys. Counting them would flatter the sealed game, so
its steps are counted without them: each sealed game is played a second time, untimed, with
records, and its `open` steps are counted from the host's. Every sealed game must end with the
same hash at both peers (both times) and a clean audit (a cheat would be the result). The last
line is JSON.

With ``--free-arithmetic`` each seed is also played sealed with the group's arithmetic made
nearly free (``bench/free_group.py``: a stand-in with no security, between two such processes),
which splits the sealed game's extra time in two: the group arithmetic, and everything else.
The deck orders do not come from the group, so it is the same game as the sealed one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from net_game import ENTRY, over_loopback

from crownp2p.core.game import CHANCE
from crownp2p.core.record import Record

GOAL = 2.0
FREE_GROUP = [sys.executable, str(Path(__file__).with_name("free_group.py"))]


def chance_opens(seed: int, turns_each: int, final_hash: str) -> int:
    """The sealed game's steps that turn cards face up: the same game again, untimed, with
    records (checked to be the same by its final hash), counted from the host's record."""
    with tempfile.TemporaryDirectory() as tmp:
        _, results = over_loopback(seed, turns_each, Path(tmp), ENTRY, ("--sealed-decks",))
        if results[0]["final_hash"] != final_hash:
            raise SystemExit(f"seed {seed}: the sealed game differs when played again")
        steps = Record.load(Path(tmp) / f"host-{seed}.jsonl").steps
    return sum(1 for s in steps if s.seat == CHANCE and s.decision[0] == "open")


def per_step(rows: Sequence[dict[str, Any]], kind: str) -> float:
    mine = [r for r in rows if r["kind"] == kind]
    seconds: float = sum(r["seconds"] for r in mine)
    steps: int = sum(r["steps"] for r in mine)
    return seconds / steps


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
    rows: list[dict[str, Any]] = []
    for seed in range(args.seed, args.seed + args.runs):
        opens, sealed_seq = 0, 0
        for kind, entry, mode in kinds:
            seconds, results = over_loopback(seed, args.max_turns, None, entry, (mode,))
            final = results[0]["final_hash"]
            if len({r["final_hash"] for r in results}) != 1 or results[0]["result"] == "cheat":
                raise SystemExit(f"seed {seed}, {kind}: {results}")
            if kind == "sealed":
                opens, sealed_seq = chance_opens(seed, args.max_turns, final), results[0]["seq"]
            elif kind != "open" and results[0]["seq"] != sealed_seq:  # (the same game)
                raise SystemExit(f"seed {seed}: {kind} played another game than sealed")
            steps = results[0]["seq"] - (opens if kind != "open" else 0)
            rows.append({"seed": seed, "kind": kind, "seconds": seconds, "steps": steps})
            left_out = f" ({opens} `open` steps left out)" if kind != "open" else ""
            print(
                f"seed {seed}, {kind}: {steps} steps{left_out} in {seconds * 1000:.0f} ms "
                f"({seconds / steps * 1e6:.0f} µs a step), {results[0]['result']}",
                flush=True,
            )
    times = {kind: per_step(rows, kind) for kind, _, _ in kinds}
    ratio = times["sealed"] / times["open"]
    verdict = "meets" if ratio <= GOAL else "misses"
    print(
        f"time a step: sealed {times['sealed'] * 1e6:.0f} µs, open "
        f"{times['open'] * 1e6:.0f} µs: x{ratio:.2f}, {verdict} the goal of x{GOAL}"
    )
    out: dict[str, object] = {"ratio": ratio, "goal": GOAL, "per_step": times}
    if args.free_arithmetic:
        free = times["sealed, free arithmetic"] / times["open"]
        print(
            f"with the group arithmetic nearly free: x{free:.2f}; the arithmetic alone adds "
            f"x{ratio - free:.2f} of an open step"
        )
        out["ratio_free_arithmetic"] = free
    print(json.dumps({**out, "games": rows}))


if __name__ == "__main__":
    main()
