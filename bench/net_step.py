"""Where one step's time goes: the spans of a decision's path through two peers over loopback.

    python bench/net_step.py [--turns N]

Two peers play the base game in one trio process (so the spans are not split by another
process's scheduling), with the paced random bots of net_latency.py. Every piece of the path is
timed where it runs (perf_counter around it, medians over the game):

* sender: the offer until the decision frame is on the socket (the lockstep's checks, the
  encoding, sealing and the send); it applies its own decision after that;
* receiver: reading, opening and checking the frame, then the lockstep's checks and the
  engine's apply (which also finds the next position's legal decisions), after which the step
  is told (StepApplied); then the state hash with the acknowledgement queued (idle), and the
  acknowledgement's encoding, sealing and send.

In one process the receiver also waits for the sender's own apply (one thread runs both), so
the first figure is longer than net_latency.py's; the spans are the point. The engine's part is
what net_latency.py's goal must leave room for. The last line is JSON.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import trio
from net_latency import PacedBot

from crownp2p import __version__
from crownp2p.core.game import Game
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net import crypto, link, lockstep, session
from crownp2p.net.seating import host_game, join_game

SPANS: dict[str, list[float]] = {}


def timed(owner: Any, name: str, label: str, when: Callable[..., bool] = lambda *a: True) -> None:
    """Time every call of ``owner.name`` for which ``when(*args)`` holds, as ``label``."""
    inner = getattr(owner, name)
    SPANS[label] = []  # printed in the order they are set up

    @functools.wraps(inner)
    def wrapper(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return inner(*args)
        finally:
            if when(*args):
                SPANS[label].append(time.perf_counter() - start)

    setattr(owner, name, wrapper)


def instrument() -> None:
    def is_decision(_self: Any, _seat: int, msg: dict[str, Any], _now: float) -> bool:
        return bool(msg["t"] == "decision")

    SPANS["sender: offer -> on the socket"] = []
    timed(link.FramedStream, "decode", "receiver: open + msgpack")
    timed(link, "validate", "receiver: schema")
    timed(lockstep.Lockstep, "on_message", "receiver: lockstep + engine", is_decision)
    timed(Game, "apply", "  engine apply (+ next legal)")
    timed(Game, "state_hash", "  state hash")
    timed(lockstep.Lockstep, "idle", "receiver: hash + acks queued")
    timed(crypto, "seal", "either: seal")
    timed(link.Link, "send", "either: encode + seal + send")
    offered: list[float] = []
    offer, send = session.Session.offer, link.Link.send

    def stamped_offer(self: Any, decision: Any, at_step: int) -> None:
        offered.append(time.perf_counter())
        offer(self, decision, at_step)

    def stamped_send(self: Any, message: dict[str, Any]) -> None:
        send(self, message)
        if message["t"] == "decision" and offered:
            SPANS["sender: offer -> on the socket"].append(time.perf_counter() - offered.pop())

    session.Session.offer = stamped_offer  # type: ignore[method-assign]
    link.Link.send = stamped_send  # type: ignore[method-assign]


async def play(turns: int) -> list[float]:
    """A paced two-peer game; the time from each decision to its StepApplied at the other."""
    rules, packs = standard_rules(), [("crownp2p", __version__)]
    timeouts = link.Timeouts(reveal=30, reconnect=30)
    async with trio.open_nursery() as nursery:
        bots = [PacedBot(1, nursery), PacedBot(1, nursery)]
        common: dict[str, Any] = dict(
            decider=None, packs=packs, code="bench-step", timeouts=timeouts, test_seed=1
        )

        async def host(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            await host_game(
                rules,
                Setup(),
                bind="127.0.0.1",
                port=0,
                max_turns=turns,
                session_ready=bots[0].watch,
                on_event=bots[0].event,
                task_status=task_status,
                **common,
            )

        ready = await nursery.start(host)
        await join_game(
            rules,
            "127.0.0.1",
            ready.port,
            session_ready=bots[1].watch,
            on_event=bots[1].event,
            **common,
        )
    return [
        bots[b].applied[seq] - sent
        for a, b in ((0, 1), (1, 0))
        for seq, sent in bots[a].sent.items()
        if seq in bots[b].applied
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=150, help="turns of the game (150)")
    args = parser.parse_args()
    instrument()
    one_way = trio.run(play, args.turns)
    medians = {label: statistics.median(times) * 1e6 for label, times in SPANS.items() if times}
    print(f"decision to applied by the other: median {statistics.median(one_way) * 1e6:.0f} us")
    for label, us in medians.items():
        print(f"  {label:34s} {us:6.1f} us  ({len(SPANS[label])} spans)")
    print(json.dumps({"applied_by_other_us": statistics.median(one_way) * 1e6, **medians}))


if __name__ == "__main__":
    main()
