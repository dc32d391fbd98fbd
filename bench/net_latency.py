"""How long one decision takes to be applied by every peer over loopback, for two and for four
peers, beside a raw trio TCP ping-pong round trip measured in the same run.

    python bench/net_latency.py [--decisions N] [--pingpongs N]

Every peer runs in its own process. The deciders are paced random bots: each waits until every
peer has acknowledged its previous decision before making the next, so each decision is timed
alone (no queue behind it). No records are kept (with records, each step also waits for an
fsync, about a millisecond here). Two figures per table size:

* **applied by all**: from the moment the decider makes a decision to the moment the last other
  peer has checked it against its legal list, applied it and checked its state hash (one way:
  the processes share the system's monotonic clock);
* **acknowledged by all**: a full round trip, until the decider holds every peer's
  acknowledgement (which each peer sends after applying and, with records, after fsync).

With four peers on a two-core machine the three receivers share two cores, so the last one
waits for the others' CPU time; the first peer's figure shows what one receiver costs.

Both are compared with the median raw round trip (64 bytes there and back on one trio TCP
connection between two processes). Goal: "applied by all" at most 3x the raw round trip.
The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import trio

GOAL = 3.0
PY = sys.executable


# ====================================================================== raw ping-pong


async def _echo_server(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    stream = await listeners[0].accept()
    while data := await stream.receive_some(4096):
        await stream.send_all(data)


async def _ping_client(port: int, count: int) -> list[float]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    times = []
    payload = b"x" * 64
    for _ in range(count + 100):
        start = time.perf_counter()
        await stream.send_all(payload)
        got = 0
        while got < len(payload):
            got += len(await stream.receive_some(4096))
        times.append(time.perf_counter() - start)
    await stream.aclose()
    return times[100:]  # the first hundred warm up


def ping_pong(count: int) -> float:
    """The median round trip of 64 bytes on one trio TCP connection between two processes."""
    server = subprocess.Popen([PY, __file__, "--role", "echo"], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    times = trio.run(_ping_client, port, count)
    server.wait(timeout=10)
    return statistics.median(times)


# ====================================================================== one peer


class PacedBot:
    """A random bot that decides only once every peer has acknowledged its last decision."""

    def __init__(self, seed: int) -> None:
        from crownp2p.net.deciders import LateBotDecider

        self.bot = LateBotDecider("random", seed)
        self.session: Any = None

    def decide(self, game: Any) -> Any:
        return self._decide(game)

    async def _decide(self, game: Any) -> Any:
        ls = self.session.ls
        while min(ls.acked.values()) < ls.applied:
            await trio.sleep(0.0005)
        return self.bot.decide(game)


def run_peer(role: str, players: int, port: int, code: str, turns: int) -> None:
    from crownp2p import __version__
    from crownp2p.core.setup import Setup
    from crownp2p.net.link import Timeouts
    from crownp2p.net.table import host_table, join_table

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "net"))
    if players == 2:
        from crownp2p.core.standard import standard_rules

        rules = standard_rules()
    else:
        from conftest import four_seat_rules  # the four-seat rules the tests use

        rules = four_seat_rules()
    decider = PacedBot(7)
    packs = [("crownp2p", __version__)]
    box: dict[str, Any] = {}

    def ready(session: Any) -> None:
        decider.session = session
        box["session"] = session

    timeouts = Timeouts(reveal=30, reconnect=30)

    async def main() -> None:
        if role == "host":
            async with trio.open_nursery() as nursery:

                async def play(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
                    await host_table(
                        rules,
                        Setup(),
                        decider=decider,
                        packs=packs,
                        bind="127.0.0.1",
                        port=0,
                        code=code,
                        max_turns=turns,
                        timeouts=timeouts,
                        test_seed=7,
                        measure=True,
                        session_ready=ready,
                        task_status=task_status,
                    )

                got = await nursery.start(play)
                print(got.port, flush=True)
        else:
            await join_table(
                rules,
                "127.0.0.1",
                port,
                code=code,
                decider=decider,
                packs=packs,
                timeouts=timeouts,
                test_seed=7,
                measure=True,
                session_ready=ready,
            )

    trio.run(main)
    ls = box["session"].ls
    print(
        json.dumps(
            {
                "seat": ls.me,
                "sent": ls.sent_at,
                "applied": ls.applied_at,
                "acked": ls.latencies,
            }
        ),
        flush=True,
    )


def table(players: int, turns: int) -> dict[str, float]:
    code = "bench-latency"
    host = subprocess.Popen(
        [
            PY,
            __file__,
            "--role",
            "host",
            "--players",
            str(players),
            "--code",
            code,
            "--turns",
            str(turns),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert host.stdout is not None
    port = host.stdout.readline().strip()
    joiners = [
        subprocess.Popen(
            [
                PY,
                __file__,
                "--role",
                "join",
                "--players",
                str(players),
                "--port",
                port,
                "--code",
                code,
                "--turns",
                str(turns),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(players - 1)
    ]
    reports = [json.loads(host.communicate(timeout=600)[0].strip().splitlines()[-1])]
    for j in joiners:
        reports.append(json.loads(j.communicate(timeout=600)[0].strip().splitlines()[-1]))
    one_way, first, acked = [], [], []
    for r in reports:
        acked.extend(r["acked"])
        for seq, sent in r["sent"].items():
            applied = [o["applied"].get(seq) for o in reports if o is not r]
            if all(a is not None for a in applied):
                one_way.append(max(applied) - sent)
                first.append(min(applied) - sent)  # type: ignore[type-var]
    return {
        "decisions": len(one_way),
        "applied_by_all": statistics.median(one_way),
        "applied_by_first": statistics.median(first),
        "acked_by_all": statistics.median(acked),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--role", choices=("echo", "host", "join"), help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=2, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--code", default="", help=argparse.SUPPRESS)
    parser.add_argument("--turns", type=int, default=30, help="turns per table (default 30)")
    parser.add_argument("--pingpongs", type=int, default=2000, help="raw round trips (2000)")
    args = parser.parse_args()
    if args.role == "echo":
        trio.run(_echo_server)
        return
    if args.role:
        run_peer(args.role, args.players, args.port, args.code, args.turns)
        return
    rtt = ping_pong(args.pingpongs)
    print(f"raw trio TCP round trip over loopback: median {rtt * 1e6:.0f} us", flush=True)
    out: dict[str, Any] = {"raw_rtt_us": rtt * 1e6, "goal": GOAL}
    for players in (2, 4):
        t = table(players, args.turns)
        ratio = t["applied_by_all"] / rtt
        print(
            f"{players} peers: one decision applied by all in {t['applied_by_all'] * 1e6:.0f} us "
            f"(x{ratio:.2f} the raw round trip; by the first peer in "
            f"{t['applied_by_first'] * 1e6:.0f} us, x{t['applied_by_first'] / rtt:.2f}); "
            f"acknowledged by all in {t['acked_by_all'] * 1e6:.0f} us "
            f"(x{t['acked_by_all'] / rtt:.2f}); {t['decisions']} decisions",
            flush=True,
        )
        out[f"peers_{players}"] = {
            "decisions": t["decisions"],
            "applied_by_all_us": t["applied_by_all"] * 1e6,
            "applied_by_first_us": t["applied_by_first"] * 1e6,
            "acked_by_all_us": t["acked_by_all"] * 1e6,
            "ratio_applied": ratio,
            "ratio_acked": t["acked_by_all"] / rtt,
        }
    worst = max(out[f"peers_{n}"]["ratio_applied"] for n in (2, 4))
    verdict = "meets" if worst <= GOAL else "misses"
    print(f"worst ratio x{worst:.2f}: {verdict} the goal of x{GOAL}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
