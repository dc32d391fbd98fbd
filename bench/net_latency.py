"""How long one decision takes to be applied by every peer over loopback, for two and for four
peers, beside a raw trio TCP ping-pong round trip at the same pace, measured in the same run.

Two peers play the base game; four play the team game of the all_kings_men pack, loaded as
``crownp2p host --variant team`` loads it (without the pack, the four-peer part is skipped).

    python bench/net_latency.py [--turns N] [--tables N] [--pingpongs N]

Every peer runs in its own process. The deciders are paced random bots: each waits until every
peer has acknowledged its previous decision before making the next, so each decision is timed
alone (no queue behind it). No records are kept (with records, each step also waits for an
fsync, about a millisecond here). Two figures per table size:

* **applied by all**: from the moment the decider makes a decision to the moment the last other
  peer is told (by its session's ``StepApplied`` event) that it has checked it (the state hash
  it was decided in against its own, the decision against its legal list) and applied it (one
  way: the processes share the system's monotonic clock). The state hash *after* the step is
  computed just after the event (it is needed only by the acknowledgement and the next
  decision's check), so it is not in this figure but is in the next. Each peer's subscriber
  stamps the events it receives: the protocol itself keeps no clock;
* **acknowledged by all**: a full round trip, until the decider holds every peer's
  acknowledgement (which each peer sends after applying, hashing and, with records, fsync).

With four peers on a two-core machine the three receivers share two cores, so the last one
waits for the others' CPU time; the first peer's figure shows what one receiver costs. To show
what this machine allows, each table size is followed by its floor, measured in the same run:
64 bytes fanned out from one trio process to one or three others, each answering at once
("bare") or after as much busy work as a peer spends between reading a decision and having
applied it (its legality check and the engine's apply, timed on a replay),
and the most work per peer for which that fan-out alone stays within the goal.

Both are compared with the median raw round trip (64 bytes there and back on one trio TCP
connection between two processes) **at the table's pace**: one round trip as often as the table
makes a decision (the median time from one decision to the next), measured just after its
tables, as the floors are. At that pace each end waits in between, as a peer waits for the next
decision. Back to back (printed too, for reference) the other end is still awake when the next
64 bytes come, and they arrive in about half the time: on the machine this was written on, 48 us
one way back to back against 77-106 us with 50-1,000 us between messages, a head start that no
peer waiting for a decision has. Goal: "applied by all" at most 2x the raw round trip for two
peers (issue 11; the four-peer figure is printed for information).
The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

import trio

from crownp2p import __version__, packs
from crownp2p.core.game import CHANCE
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules

GOAL = 2.0
PY = sys.executable


# ====================================================================== raw ping-pong


async def _echo_server(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    stream = await listeners[0].accept()
    while data := await stream.receive_some(4096):
        await stream.send_all(data)


async def _pace(period: float, due: float) -> float:
    """For messages ``period`` seconds apart (0: back to back), wait until this one is
    ``due``; returns when the next one is."""
    if not period:
        return due
    await trio.sleep(max(0.0, due - time.perf_counter()))
    return max(due, time.perf_counter()) + period


async def _ping_client(port: int, count: int, period: float) -> list[float]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    times = []
    payload = b"x" * 64
    due = time.perf_counter()
    for _ in range(count + 100):
        due = await _pace(period, due)
        start = time.perf_counter()
        await stream.send_all(payload)
        got = 0
        while got < len(payload):
            got += len(await stream.receive_some(4096))
        times.append(time.perf_counter() - start)
    await stream.aclose()
    return times[100:]  # the first hundred warm up


async def _fan_receiver(port: int, work: float) -> None:
    """One of the fan-out's receivers: stamp each 64-byte message once it has been "worked"
    on (a busy wait of ``work`` seconds, standing in for a peer's processing), then answer."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    done = []
    while await stream.receive_some(4096):
        end = time.perf_counter() + work
        while time.perf_counter() < end:
            pass
        done.append(time.perf_counter())
        await stream.send_all(b"k")
    print(json.dumps(done), flush=True)


async def _fan_sender(receivers: int, count: int, work: float, period: float) -> float:
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = str(listener.socket.getsockname()[1])
    procs = [
        subprocess.Popen(
            [PY, __file__, "--role", "fan", "--port", port, "--work", str(work)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(receivers)
    ]
    links = [await listener.accept() for _ in procs]
    sent = []
    due = time.perf_counter()
    for _ in range(count + 100):
        due = await _pace(period, due)
        sent.append(time.perf_counter())
        for link in links:
            await link.send_all(b"x" * 64)
        for link in links:
            await link.receive_some(4096)
    for link in links:
        await link.aclose()
    done = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    return statistics.median(max(d[i] for d in done) - sent[i] for i in range(100, count + 100))


def fan_out(receivers: int, count: int, work: float, period: float) -> float:
    """The floor for a table on this machine: the median time for 64 bytes sent to
    ``receivers`` trio processes (one connection each) to have been worked on by all of them,
    each doing ``work`` seconds of busy work and answering, like peers acknowledging; one
    message every ``period`` seconds (0: back to back)."""
    return trio.run(_fan_sender, receivers, count, work, period)


def work_budget(receivers: int, count: int, limit: float, period: float) -> float:
    """The most busy work per receiver (to about 3 us) for which the fan-out stays within
    ``limit`` seconds: what a peer may spend on a decision for its table to meet the goal here,
    if nothing else ran (a decider applying its own decision, acknowledgements)."""
    low, high = 0.0, 256e-6
    while high - low > 4e-6:
        mid = (low + high) / 2
        worked = fan_out(receivers, count, mid, period)
        low, high = (mid, high) if worked <= limit else (low, mid)
    return low


def ping_pong(count: int, period: float = 0.0) -> float:
    """The median round trip of 64 bytes on one trio TCP connection between two processes,
    one every ``period`` seconds (0: back to back)."""
    server = subprocess.Popen([PY, __file__, "--role", "echo"], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    port = int(server.stdout.readline())
    times = trio.run(_ping_client, port, count, period)
    server.wait(timeout=10)
    return statistics.median(times)


# ====================================================================== one peer


class PacedBot:
    """A random bot that decides only once every peer has acknowledged its last decision, and
    the benchmark's subscriber: it stamps the events it receives (the protocol keeps no clock).

    The seat has no decider of its own (as a person's): when the game asks (the ``Asked``
    event), a task waits until every peer has caught up, then offers the bot's decision to the
    session. It waits on an event that the acknowledgement handler sets, rather than polling,
    so that the waiting decider spends no CPU while the other peers apply its decision."""

    def __init__(self, seed: int, nursery: trio.Nursery) -> None:
        self.seed = seed
        self.nursery = nursery
        self.bot: Any = None
        self.session: Any = None
        self._caught_up: trio.Event | None = None
        self.sent: dict[int, float] = {}  # our decisions, when made
        self.applied: dict[int, float] = {}  # the others', when we were told they were applied
        self.acked: list[float] = []  # how long each of ours took to be acknowledged by all
        self._unacked: dict[int, float] = {}

    def watch(self, session: Any) -> None:
        from crownp2p.net.deciders import seat_bot

        self.session = session
        self.bot = seat_bot("random", self.seed, session.seat)
        ls = session.ls
        on_ack = ls._on_ack

        def watched(seat: int, msg: dict[str, Any], now: float) -> None:
            on_ack(seat, msg, now)
            low, t = min(ls.acked.values()), time.perf_counter()
            for seq in [q for q in self._unacked if q <= low]:
                self.acked.append(t - self._unacked.pop(seq))
            if self._caught_up is not None and low >= ls.applied:
                self._caught_up.set()

        ls._on_ack = watched  # Lockstep looks its handlers up by name, per message

    def event(self, event: Any) -> None:
        from crownp2p.net.events import Asked, StepApplied

        if isinstance(event, StepApplied) and event.step.seat != self.session.seat:
            self.applied[event.step.seq] = time.perf_counter()
        elif isinstance(event, Asked):
            self.nursery.start_soon(self._decide, event.seq)

    async def _decide(self, seq: int) -> None:
        ls = self.session.ls
        while min(ls.acked.values()) < ls.applied:
            self._caught_up = trio.Event()
            await self._caught_up.wait()
        self._caught_up = None
        decision = self.bot.decide(self.session.game, self.session.seat)
        self.sent[seq] = self._unacked[seq] = time.perf_counter()
        self.session.offer(decision, seq - 1)


def peer_work(rules: Any, record: Any, seat: int) -> dict[int, float]:
    """What a peer spends on each other seat's decision between reading and having applied it
    (its legality check and the engine's apply; the state hash comes after), timed on a
    replay."""
    work: dict[int, float] = {}
    steps = record.steps
    for game, step in record.replay(rules, check=False):
        done = 0 if step is None else step.seq
        if done < len(steps) and steps[done].seat not in (seat, CHANCE):
            decision, peer = steps[done].decision, game.clone()
            start = time.perf_counter()
            peer.is_legal(decision)
            peer.apply(decision)
            work[done + 1] = time.perf_counter() - start
    return work


def game_for(players: int) -> tuple[Rules, Setup, list[tuple[str, str]]] | None:
    """The rules, the setup and the packs to compare for a table of ``players``: the base game
    for two, the pack's team game for four (None when no installed pack has it)."""
    if players == 2:
        return standard_rules(), Setup(), [("crownp2p", __version__)]
    catalog = packs.load()
    if "team" not in catalog.variants:
        return None
    return catalog.rules("team"), catalog.setup(variant="team"), packs.installed_packs(catalog)


def run_peer(role: str, players: int, port: int, code: str, turns: int, seed: int) -> None:
    from crownp2p.net.link import Timeouts
    from crownp2p.net.seating import host_game, join_game

    game = game_for(players)
    assert game is not None, "main() runs a table only for a game it found"
    rules, setup, compared = game
    box: dict[str, Any] = {}
    timeouts = Timeouts(reveal=30, reconnect=30)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            paced = box["paced"] = PacedBot(seed, nursery)

            def ready(session: Any) -> None:
                paced.watch(session)
                box["session"] = session

            common: dict[str, Any] = dict(
                decider=None,
                packs=compared,
                code=code,
                timeouts=timeouts,
                test_seed=seed,
                session_ready=ready,
                on_event=paced.event,
            )
            if role == "host":

                async def play(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
                    await host_game(
                        rules,
                        setup,
                        bind="127.0.0.1",
                        port=0,
                        max_turns=turns,
                        task_status=task_status,
                        **common,
                    )

                got = await nursery.start(play)
                print(got.port, flush=True)
            else:
                await join_game(rules, "127.0.0.1", port, **common)

    trio.run(main)
    paced, session = box["paced"], box["session"]
    print(
        json.dumps(
            {
                "seat": session.seat,
                "sent": paced.sent,
                "applied": paced.applied,
                "work": list(peer_work(rules, session.record, session.seat).values()),
                "acked": paced.acked,
            }
        ),
        flush=True,
    )


def _peer(role: str, players: int, code: str, turns: int, seed: int, port: str = "0") -> Any:
    command = [PY, __file__, "--role", role, "--players", str(players), "--code", code]
    command += ["--turns", str(turns), "--seed", str(seed), "--port", port]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def one_table(players: int, turns: int, seed: int) -> list[dict[str, Any]]:
    """Play one paced table; every peer's report."""
    code = "bench-latency"
    host = _peer("host", players, code, turns, seed)
    assert host.stdout is not None
    port = host.stdout.readline().strip()
    peers = [host] + [_peer("join", players, code, turns, seed, port) for _ in range(players - 1)]
    return [json.loads(p.communicate(timeout=600)[0].strip().splitlines()[-1]) for p in peers]


def table(players: int, turns: int, tables: int) -> dict[str, float]:
    """Medians over the decisions of ``tables`` tables, each from its own seed; ``pace``: the
    time from one decision to the next at a table."""
    one_way, first, acked, work, pace = [], [], [], [], []
    for seed in range(1, tables + 1):
        reports = one_table(players, turns, seed)
        sent = sorted(t for r in reports for t in r["sent"].values())
        pace += [b - a for a, b in zip(sent, sent[1:], strict=False)]
        for r in reports:
            acked.extend(r["acked"])
            work.extend(r["work"])
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
        "work": statistics.median(work),
        "pace": statistics.median(pace),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--role", choices=("echo", "fan", "host", "join"), help=argparse.SUPPRESS)
    parser.add_argument("--work", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=2, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--code", default="", help=argparse.SUPPRESS)
    parser.add_argument("--turns", type=int, default=30, help="turns per table (default 30)")
    parser.add_argument("--tables", type=int, default=5, help="tables per size (default 5)")
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--pingpongs", type=int, default=2000, help="raw round trips (2000)")
    args = parser.parse_args()
    if args.role == "echo":
        trio.run(_echo_server)
        return
    if args.role == "fan":
        trio.run(_fan_receiver, args.port, args.work)
        return
    if args.role:
        run_peer(args.role, args.players, args.port, args.code, args.turns, args.seed)
        return
    back_to_back = ping_pong(args.pingpongs)
    print(
        f"raw trio TCP round trip over loopback, back to back: median {back_to_back * 1e6:.0f} us",
        flush=True,
    )
    out: dict[str, Any] = {"raw_rtt_back_to_back_us": back_to_back * 1e6, "goal": GOAL}
    for players in (2, 4):
        if game_for(players) is None:
            print(
                f"{players} peers: skipped, the team game is not installed "
                "(pip install -e plugins/all_kings_men)",
                flush=True,
            )
            continue
        t = table(players, args.turns, args.tables)
        pace = t["pace"]
        rtt = ping_pong(args.pingpongs // 2, pace)
        ratio = t["applied_by_all"] / rtt
        print(
            f"{players} peers: a decision every {pace * 1e6:.0f} us; the raw round trip at that "
            f"pace: median {rtt * 1e6:.0f} us",
            flush=True,
        )
        print(
            f"  one decision applied by all in {t['applied_by_all'] * 1e6:.0f} us "
            f"(x{ratio:.2f} the raw round trip at the pace, "
            f"x{t['applied_by_all'] / back_to_back:.2f} back to back; by the first peer in "
            f"{t['applied_by_first'] * 1e6:.0f} us, x{t['applied_by_first'] / rtt:.2f}); "
            f"acknowledged by all in {t['acked_by_all'] * 1e6:.0f} us "
            f"(x{t['acked_by_all'] / rtt:.2f}); {t['decisions']} decisions",
            flush=True,
        )
        bare = fan_out(players - 1, args.pingpongs // 2, 0.0, pace)
        worked = fan_out(players - 1, args.pingpongs // 2, t["work"], pace)
        budget = work_budget(players - 1, args.pingpongs // 4, GOAL * rtt, pace)
        print(
            f"  a peer takes {t['work'] * 1e6:.0f} us from reading a decision to having applied "
            f"it; the floor here, 64 bytes fanned out to {players - 1} trio processes at the "
            f"pace: x{bare / rtt:.2f} the round trip bare, x{worked / rtt:.2f} if each works "
            f"{t['work'] * 1e6:.0f} us; within x{GOAL} only up to {budget * 1e6:.0f} us of work",
            flush=True,
        )
        out[f"peers_{players}"] = {
            "decisions": t["decisions"],
            "pace_us": pace * 1e6,
            "raw_rtt_us": rtt * 1e6,
            "applied_by_all_us": t["applied_by_all"] * 1e6,
            "applied_by_first_us": t["applied_by_first"] * 1e6,
            "acked_by_all_us": t["acked_by_all"] * 1e6,
            "ratio_applied": ratio,
            "ratio_applied_back_to_back": t["applied_by_all"] / back_to_back,
            "ratio_acked": t["acked_by_all"] / rtt,
            "peer_work_us": t["work"] * 1e6,
            "floor_bare_ratio": bare / rtt,
            "floor_worked_ratio": worked / rtt,
            "work_budget_us": budget * 1e6,
        }
    # Issue 11 asks the goal of two peers; four share this machine's two cores three ways (see
    # the module) and are shown for information.
    ratio = out["peers_2"]["ratio_applied"]
    verdict = "meets" if ratio <= GOAL else "misses"
    print(
        f"two peers x{ratio:.2f} the raw round trip at the table's pace: {verdict} the goal of "
        f"x{GOAL} (x{out['peers_2']['ratio_applied_back_to_back']:.2f} the back-to-back round "
        "trip; four peers: for information)"
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
