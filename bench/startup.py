"""Startup: ``crownp2p --version`` and the time to the first prompt of ``crownp2p solo``, each
beside ``python -c pass`` in the same run; prints the ratios (goal: ``--version`` at most 3x a
bare interpreter).

The first prompt is timed in a pseudo-terminal, as a player sees it: from starting the process
to the prompt appearing after the board, with the cursor position requests answered as a
terminal does. The three are run in turn, round after round, so a busy machine weighs on each
alike; the median and the best of the rounds are printed.

    python bench/startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import statistics
import subprocess
import sys
import time

ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
PROMPT = b"blue>"
LIMIT = 30.0  # seconds before a run counts as hung


def crownp2p() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "crownp2p")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "crownp2p"]


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def first_prompt(command: list[str]) -> float:
    """Seconds from starting ``command`` in a pty until the solo prompt shows."""
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", LINES="40", COLUMNS="120")
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    try:
        while True:
            if time.perf_counter() - start > LIMIT:
                raise RuntimeError("no prompt within 30 seconds: " + repr(seen[-300:]))
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(master, 65536)
            if not chunk:
                raise RuntimeError("the program ended before its prompt: " + repr(seen[-300:]))
            if b"\x1b[6n" in chunk:
                os.write(master, b"\x1b[1;1R")
            seen += chunk
            if PROMPT in ESCAPES.sub(b"", seen):
                return time.perf_counter() - start
    finally:
        child.kill()
        child.wait()
        os.close(master)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="runs of each (default 10)")
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    version = [*crownp2p(), "--version"]
    solo = [*crownp2p(), "solo", "--seed", "1"]
    times: dict[str, list[float]] = {"python -c pass": [], "crownp2p --version": [], "solo": []}
    timed(version)  # warm the file cache and the bytecode once
    first_prompt(solo)
    for _ in range(args.rounds):
        times["python -c pass"].append(timed(bare))
        times["crownp2p --version"].append(timed(version))
        times["solo"].append(first_prompt(solo))
    print(f"startup over {args.rounds} rounds (median, best), Python {sys.version.split()[0]}")
    labels = {"solo": "crownp2p solo, first prompt"}
    for name, values in times.items():
        median, best = statistics.median(values), min(values)
        print(f"  {labels.get(name, name):<30} {median * 1000:7.1f} ms  {best * 1000:7.1f} ms")
    anchor = statistics.median(times["python -c pass"])
    version_ratio = statistics.median(times["crownp2p --version"]) / anchor
    solo_ratio = statistics.median(times["solo"]) / anchor
    goal = "within" if version_ratio <= 3 else "OVER"
    print(f"ratio --version / python -c pass: {version_ratio:.2f}x ({goal} the 3x goal)")
    print(f"ratio first prompt / python -c pass: {solo_ratio:.2f}x")


if __name__ == "__main__":
    main()
