"""Where a networked game's extra time goes: each step inside a turn, and each turn change.

    python bench/net_turns.py [--seed N] [--max-turns N] [--repeat N]

Plays net_game.py's game (greedy against greedy, ``--test-seed``) in one process and over
loopback, and stamps each step where it is applied, on the clock all processes share
(``time.monotonic``). Two spans make up a game, in both: from a seat's step to its next step
in the same turn, and a turn change, from the last step of one seat's turn to the first of the
next seat's (the chance steps between included; over loopback, from the first seat's process to
the next seat's, so the trip across is in it). Each span's median and total is printed beside
its one-process twin, with what the network adds: where bench/net_game.py's ratio comes from.
The peers are this file run as ``--peer host|join ...``: the ``crownp2p`` command with a stamp
on each step its table reports. The last line is JSON.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from crownp2p.core.game import Game
from crownp2p.core.record import Step
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net.local import play_local
from crownp2p.shell.turns import turn_limit

Stamp = tuple[int, int, float]  # the step's seq, its seat (CHANCE: -1), when it was applied


def spans(stamps: list[Stamp]) -> dict[str, list[float]]:
    """A game's stamps (each step once, in order) cut into its two kinds of span."""
    spans: dict[str, list[float]] = {"step": [], "turn change": []}
    last: Stamp | None = None  # the last step a seat (not chance) made
    for stamp in stamps:
        if stamp[1] < 0:
            continue
        if last is not None:
            spans["step" if stamp[1] == last[1] else "turn change"].append(stamp[2] - last[2])
        last = stamp
    return spans


class Stamper:
    def __init__(self) -> None:
        self.stamps: list[Stamp] = []

    def observe(self, game: Game, step: Step) -> None:
        self.stamps.append((len(self.stamps) + 1, step.seat, time.monotonic()))


def one_process(seed: int, turns_each: int) -> list[Stamp]:
    rules = standard_rules()
    stamper = Stamper()
    limit = turn_limit(rules, turns_each)
    play_local(
        rules,
        Setup(),
        ["greedy"] * 2,
        seed=seed,
        test_seed=seed,
        max_turns=limit,
        observers=[stamper],
    )
    return stamper.stamps


def over_loopback(seed: int, turns_each: int, where: Path) -> list[Stamp]:
    """The game between two peer processes; each step stamped by the peer that decided it (or,
    for chance, by either), so a turn change's span crosses between the two processes."""
    common = ["--bot", "greedy", "--seed", str(seed), "--test-seed", str(seed), "--json"]
    peer = [sys.executable, __file__, "--peer"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    host_out, join_out = where / "host.json", where / "join.json"
    host = subprocess.Popen(
        [
            *peer,
            str(host_out),
            "host",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            *common,
            "--max-turns",
            str(turns_each),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert host.stdout is not None
    listening = json.loads(host.stdout.readline())
    joiner = subprocess.run(
        [
            *peer,
            str(join_out),
            "join",
            f"127.0.0.1:{listening['port']}",
            "--code",
            listening["code"],
            *common,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    host.communicate(timeout=60)
    if not (host_out.exists() and join_out.exists()):
        sys.exit(f"a peer did not play the game: {joiner.stderr.strip()}")
    peers = [json.loads(path.read_text()) for path in (host_out, join_out)]
    mine = [{seq: (seat, t) for seq, seat, t, own in p if own} for p in peers]
    seen = {seq: (seat, t) for seq, seat, t, _ in peers[0]}
    # Each step stamped where it was decided (a chance step where the host applied it).
    return [(seq, *(mine[0].get(seq) or mine[1].get(seq) or seen[seq])) for seq in sorted(seen)]


def run_peer(out: str, argv: list[str]) -> None:
    """``crownp2p`` with a stamp on each step its table reports: (seq, seat, when, whether
    this peer decided it), written to ``out`` as it exits."""
    from crownp2p.net.events import Asked, StepApplied
    from crownp2p.shell import net_commands
    from crownp2p.shell.cli import main

    stamps: list[tuple[int, int, float, bool]] = []
    asked: set[int] = set()
    told = net_commands.Printer.stamp

    def stamp(self: net_commands.Printer, event: Any) -> None:
        if isinstance(event, StepApplied):
            seq = event.step.seq
            stamps.append((seq, event.step.seat, time.monotonic(), seq in asked))
        elif isinstance(event, Asked):
            asked.add(event.seq)
        told(self, event)

    net_commands.Printer.stamp = stamp  # type: ignore[method-assign]
    atexit.register(lambda: Path(out).write_text(json.dumps(stamps)))
    sys.exit(main(argv))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=150, help="turns each (default 150)")
    parser.add_argument("--repeat", type=int, default=3, help="games each way; medians")
    args = parser.parse_args()
    rows: dict[str, dict[str, list[float]]] = {"one process": {}, "over loopback": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):  # interleaved, so a busy moment of the machine hits both
            for way, stamps in (
                ("one process", one_process(args.seed, args.max_turns)),
                ("over loopback", over_loopback(args.seed, args.max_turns, Path(tmp))),
            ):
                for kind, values in spans(stamps).items():
                    rows[way].setdefault(kind, []).append(sum(values))
                    rows[way].setdefault(f"{kind} median", []).append(statistics.median(values))
                    rows[way][f"{kind} count"] = [len(values)]
    out: dict[str, Any] = {"seed": args.seed}
    for kind in ("step", "turn change"):
        here, there = (statistics.median(rows[w][kind]) for w in rows)
        med_here, med_there = (statistics.median(rows[w][f"{kind} median"]) for w in rows)
        count = rows["one process"][f"{kind} count"][0]
        print(
            f"{kind:12} x{count}: one process {here * 1e3:.0f} ms (median {med_here * 1e6:.0f} µs),"
            f" over loopback {there * 1e3:.0f} ms (median {med_there * 1e6:.0f} µs):"
            f" {(there - here) / count * 1e6:+.0f} µs each, {(there - here) * 1e3:+.0f} ms"
        )
        out[kind] = {"count": count, "one_process_s": here, "loopback_s": there}
    print(json.dumps(out))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--peer"]:
        run_peer(sys.argv[2], sys.argv[3:])
    else:
        main()
