"""A whole greedy-vs-greedy game over loopback, beside the same game in one process.

    python bench/net_game.py [--seed N] [--runs N] [--repeat N] [--record]

Starts a host and a joiner as two processes (``python -m crownp2p host|join``), each
with ``--bot greedy`` and the same ``--test-seed``, so they play exactly the game that
``crownp2p.net.local.play_local`` plays in one process; checks the final hashes agree; and
compares the time from the game's start to its end (as each peer reports it) with the one-process
time (the median of ``--repeat`` timings of each). Goal: at most 1.5x. With ``--record`` both
peers also keep fsync'd records. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from crownp2p.core.play import Observer
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net.local import play_local
from crownp2p.shell.turns import turn_limit

GOAL = 1.5
PY = sys.executable
ENTRY = [PY, "-m", "crownp2p"]


def one_process(
    seed: int, turns_each: int, observers: Iterable[Observer] = ()
) -> tuple[float, str, int]:
    rules = standard_rules()
    limit = turn_limit(rules, turns_each)  # as `host --max-turns` counts
    start = time.perf_counter()
    result = play_local(
        rules,
        Setup(),
        ["greedy", "greedy"],
        seed=seed,
        test_seed=seed,
        max_turns=limit,
        observers=observers,
    )
    return time.perf_counter() - start, result.final_hash, result.turns


def over_loopback(
    seed: int,
    turns_each: int,
    record_dir: Path | None,
    entry: Sequence[str] = ENTRY,
    host_extra: Sequence[str] = ("--open-decks",),
) -> tuple[float, list[dict[str, Any]]]:
    """The game between a host and a joiner, each a process started as ``entry`` (the
    ``crownp2p`` command; ``host_extra``: more of the host's options, open decks unless they
    say: the same game as one process plays it): its time, and each peer's last line."""
    common = ["--bot", "greedy", "--seed", str(seed), "--test-seed", str(seed), "--json"]
    host_args = [*entry, "host", "--bind", "127.0.0.1", "--port", "0", *common]
    host_args += ["--max-turns", str(turns_each), *host_extra]
    join_extra: list[str] = []
    if record_dir is not None:
        host_args += ["--record", str(record_dir / f"host-{seed}.jsonl")]
        join_extra = ["--record", str(record_dir / f"join-{seed}.jsonl")]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    host = subprocess.Popen(host_args, stdout=subprocess.PIPE, text=True, env=env)
    assert host.stdout is not None
    listening = json.loads(host.stdout.readline())
    address = f"127.0.0.1:{listening['port']}"
    join = subprocess.run(
        [*entry, "join", address, "--code", listening["code"], *common, *join_extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    host_out, _ = host.communicate(timeout=60)
    results = [json.loads(host_out.strip().splitlines()[-1])]
    results.append(json.loads(join.stdout.strip().splitlines()[-1]))
    seconds = max(r["seconds"] for r in results)
    return seconds, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--runs", type=int, default=10, help="games, one seed each (default 10)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="times each game is timed; medians (default 3)"
    )
    parser.add_argument("--max-turns", type=int, default=150, help="turns each (default 150)")
    parser.add_argument("--record", action="store_true", help="peers keep fsync'd records")
    args = parser.parse_args()
    ratios, rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seed, args.seed + args.runs):
            # Each side several times, interleaved, so a busy moment of the machine hits both.
            local_times, net_times, same = [], [], True
            for attempt in range(args.repeat):
                local_s, local_hash, turns = one_process(seed, args.max_turns)
                where = Path(tmp) / f"{seed}-{attempt}" if args.record else None
                if where is not None:
                    where.mkdir()
                net_s, results = over_loopback(seed, args.max_turns, where)
                local_times.append(local_s)
                net_times.append(net_s)
                same = same and all(r["final_hash"] == local_hash for r in results)
            local_s, net_s = statistics.median(local_times), statistics.median(net_times)
            ratio = net_s / local_s
            ratios.append(ratio)
            rows.append(
                {"seed": seed, "turns": turns, "local_s": local_s, "net_s": net_s, "ratio": ratio}
            )
            print(
                f"seed {seed}: {turns} turns, {results[0]['seq']} steps; one process "
                f"{local_s * 1000:.0f} ms, over loopback {net_s * 1000:.0f} ms "
                f"(x{ratio:.2f}); same final hash: {same}",
                flush=True,
            )
            if not same:
                sys.exit(f"seed {seed}: the final hashes differ")
    median = statistics.median(ratios)
    # The games' total times weigh each game by its length: steadier than the median of ratios
    # of short games, which the machine's moments move by a tenth either way.
    total = sum(r["net_s"] for r in rows) / sum(r["local_s"] for r in rows)
    verdict = "meets" if median <= GOAL else "misses"
    print(
        f"median ratio x{median:.2f} (all games' time x{total:.2f}): {verdict} the goal of x{GOAL}"
    )
    out = {"records": args.record, "median_ratio": median, "total_ratio": total, "goal": GOAL}
    print(json.dumps({**out, "games": rows}))


if __name__ == "__main__":
    main()
