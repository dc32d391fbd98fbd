"""Handshake to `start`: how long a table takes to assemble over loopback, beside a bare TCP
connect (the floor).

    python bench/handshake.py [--runs N]

For two seats (the standard game) and four (the team game of an installed pack), a host and its
joiners run in one process; a run is timed from the first joiner's dial to the moment every
seat's session has started: SPAKE2 and the sealed join link per joiner, the table, the Noise KK
mesh between the joiners, confirmations and `start`. The floor is one TCP connect and close on
the same loopback. Medians of ``--runs``; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import trio

from crownp2p import packs
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net.events import Event, Started
from crownp2p.net.seating import HostReady, host_game, join_game

PACKS = packs.installed_packs(packs.load())
CODE = "bench-code-1"


async def assemble(rules: Rules, setup: Setup) -> float:
    """Seconds from the first dial to every seat started."""
    players = len(rules.seating.sides)
    started = 0
    everyone = trio.Event()

    def on_event(event: Event) -> None:
        nonlocal started
        if isinstance(event, Started):
            started += 1
            if started == players:
                everyone.set()

    async with trio.open_nursery() as nursery:
        ready: HostReady = await nursery.start(
            lambda task_status: host_game(
                rules,
                setup,
                decider=None,
                packs=PACKS,
                bind="127.0.0.1",
                code=CODE,
                on_event=on_event,
                task_status=task_status,
            )
        )
        begin = time.perf_counter()
        for order in range(1, players):
            nursery.start_soon(
                lambda n=order: join_game(
                    rules,
                    "127.0.0.1",
                    ready.port,
                    code=CODE,
                    decider=None,
                    packs=PACKS,
                    name=f"p{n}",
                    on_event=on_event,
                )
            )
        await everyone.wait()
        elapsed = time.perf_counter() - begin
        nursery.cancel_scope.cancel()
    return elapsed


async def bare_connect() -> float:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(trio.serve_listeners, lambda stream: stream.aclose(), listeners)
        begin = time.perf_counter()
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        elapsed = time.perf_counter() - begin
        await stream.aclose()
        nursery.cancel_scope.cancel()
    return elapsed


def four_seat_game() -> tuple[Rules, Setup] | None:
    catalog = packs.load()
    four = [name for name, v in catalog.variants.items() if v.seats == 4]
    if not four:
        return None
    return catalog.rules(four[0]), catalog.setup("first-game", variant=four[0])


def median_ms(runs: int, measure) -> float:
    return statistics.median(trio.run(measure) for _ in range(runs)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="tables timed; medians (default 10)")
    args = parser.parse_args()
    figures: dict[str, float] = {"bare_connect_ms": median_ms(args.runs, bare_connect)}
    rules2 = standard_rules()
    figures["two_seats_ms"] = median_ms(args.runs, lambda: assemble(rules2, Setup()))
    four = four_seat_game()
    if four is not None:
        figures["four_seats_ms"] = median_ms(args.runs, lambda: assemble(*four))
    print(f"bare TCP connect (the floor): {figures['bare_connect_ms']:8.2f} ms")
    print(f"two seats to start:           {figures['two_seats_ms']:8.2f} ms")
    if four is not None:
        print(f"four seats to start:          {figures['four_seats_ms']:8.2f} ms")
    else:
        print("four seats: no four-seat variant is installed")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
