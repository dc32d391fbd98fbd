"""Where a networked game's extra time goes: each step inside a turn, and each turn change.

    python bench/net_turns.py [--seed N] [--max-turns N] [--repeat N]

Plays net_game.py's game (greedy against greedy, ``--test-seed``) in one process and over
loopback, and stamps each step where it is applied, on the clock all processes share
(``time.monotonic``). Two spans make up a game, in both: from a seat's step to its next step
in the same turn, and a turn change, from the last step of one seat's turn to the first of the
next seat's (the chance steps between included; over loopback, from the first seat's process to
the next seat's, so the trip across is in it). Each span's median and total is printed beside
its one-process twin, with what the network adds: where bench/net_game.py's ratio comes from.
The peers are net_game.py's, each started as this file with ``--peer DIR host|join ...``: the
``crownp2p`` command with a stamp on each step its table reports. The last line is JSON.
"""

from __future__ import annotations

import argparse
import atexit
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import net_game

from crownp2p.core.game import Game
from crownp2p.core.record import Step

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
    stamper = Stamper()
    net_game.one_process(seed, turns_each, [stamper])
    return stamper.stamps


def over_loopback(seed: int, turns_each: int, where: Path) -> list[Stamp]:
    """net_game.py's game between two peer processes, each stamping its steps into ``where``;
    each step is taken as stamped by the peer that decided it (chance's, by the host), so a
    turn change's span crosses between the two processes."""
    net_game.over_loopback(seed, turns_each, None, [sys.executable, __file__, "--peer", str(where)])
    peers = [json.loads((where / f"{role}.json").read_text()) for role in ("host", "join")]
    mine = [{seq: (seat, t) for seq, seat, t, own in p if own} for p in peers]
    seen = {seq: (seat, t) for seq, seat, t, _ in peers[0]}
    return [(seq, *(mine[0].get(seq) or mine[1].get(seq) or seen[seq])) for seq in sorted(seen)]


def run_peer(where: str, argv: list[str]) -> None:
    """``crownp2p`` (``argv``: host or join and its options) with a stamp on each step its
    table reports: (seq, seat, when, whether this peer decided it), written as it exits to
    ``where``/host.json or join.json."""
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
    out = Path(where) / f"{argv[0]}.json"
    atexit.register(lambda: out.write_text(json.dumps(stamps)))
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
