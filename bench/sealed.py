"""What sealed decks cost each peer (issue 12), each figure beside its goal and its floor, the
group's scalar multiplication, measured in the same run.

    python bench/sealed.py [--cards N] [--repeat N]

- **Sealing a reshuffle** of ``--cards`` cards (default 40), the CPU one peer spends on it, at two
  seats and at four: deriving its secrets from its seed, its shuffle pass, its re-key pass, and
  checking every other seat's passes as they arrive (count, subgroup points, no two alike).
  Goals: 20 ms at two seats, 60 ms at four.
- **A draw**: the drawer lifts every seat's lock from one position and names the card (the
  seats releasing keys only look them up). Goal: 1 ms.
- The **audit** of one such shuffle (re-running every seat's passes from the seeds), for
  information: a whole game's audit is the sum over its shuffles.

Each peer's share is timed alone, with ``time.process_time``, as the median of ``--repeat`` runs.
The passes of the seats around it are computed before the clock starts: on a table they are
other processes' work. Sealed decks are not yet played at tables (issue 12); this measures the
cryptography they will use. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from nacl import bindings as sodium

from crownp2p.net import sealed_deck as sealed

GOAL_SEAL_MS = {2: 20.0, 4: 60.0}
GOAL_DRAW_MS = 1.0
GAME = bytes(16)


def cpu_ms(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def seed(seat: int) -> bytes:
    return bytes([seat]) * 32


def honest_shuffle(seats: int, cards: int) -> sealed.ShuffleLog:
    order = list(range(seats))
    mine = [sealed.ShuffleSecrets.derive(GAME, 1, s, seed(s), cards) for s in order]
    log = sealed.ShuffleLog(
        GAME,
        1,
        seats=order,
        commitments={s: sealed.commitment(GAME, 1, s, seed(s)) for s in order},
        start=[sealed.card_point(GAME, i) for i in range(cards)],
    )
    deck = log.start
    for stage, s in sealed.pass_order(order):
        deck = sealed.run_pass(stage, deck, mine[s])
        log.passes.append(deck)
    return log


def one_peer(log: sealed.ShuffleLog, me: int) -> None:
    """Seat ``me``'s share of the shuffle in ``log``: deriving its secrets, its own passes, and
    checks of the others' passes as they arrive."""
    mine = sealed.ShuffleSecrets.derive(GAME, 1, me, seed(me), len(log.start))
    before = log.start
    for (stage, seat), after in zip(sealed.pass_order(log.seats), log.passes, strict=True):
        if seat == me:
            sealed.run_pass(stage, before, mine)
        else:
            sealed.check_pass(seat, before, after)
        before = after


def measure(seats: int, cards: int, repeat: int) -> dict[str, float]:
    """Milliseconds of CPU: the slowest seat's share of sealing, a draw, the audit."""
    log = honest_shuffle(seats, cards)
    # every seat is timed: the first and the last in the order check different lists
    figures = {"seal": max(cpu_ms(lambda me=me: one_peer(log, me), repeat) for me in range(seats))}
    mine = [sealed.ShuffleSecrets.derive(GAME, 1, s, seed(s), cards) for s in range(seats)]
    table = sealed.card_table(GAME, range(cards))
    final = log.final
    assert final is not None
    keys = [[m.position_keys[j] for m in mine] for j in range(cards)]
    opened = [sealed.open_card(final[j], keys[j], table) for j in range(cards)]
    assert sorted(i for i in opened if i is not None) == list(range(cards))
    draw = cpu_ms(
        lambda: [sealed.open_card(final[j], keys[j], table) for j in range(cards)], repeat
    )
    figures["draw"] = draw / cards
    seeds = {(1, s): seed(s) for s in range(seats)}
    figures["audit"] = cpu_ms(lambda: sealed.audit([log], seeds), max(1, repeat // 3))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=40, help="cards in the reshuffle (40)")
    parser.add_argument("--repeat", type=int, default=15, help="timings of each figure (15)")
    args = parser.parse_args()
    cards, repeat = args.cards, args.repeat

    point = sealed.card_point(GAME, 0)
    scalar = sodium.crypto_core_ed25519_scalar_reduce(bytes(range(64)))
    multiply = sodium.crypto_scalarmult_ed25519_noclamp
    mult_ms = cpu_ms(lambda: [multiply(scalar, point) for _ in range(1000)], repeat) / 1000
    print(f"floor: one scalar multiplication {mult_ms * 1000:.0f} µs")

    out: dict[str, object] = {"cards": cards, "scalar_mult_us": round(mult_ms * 1000, 1)}
    met = True
    for seats in (2, 4):
        figures = measure(seats, cards, repeat)
        goal = GOAL_SEAL_MS[seats]
        seal = figures["seal"]
        ok = seal <= goal
        met = met and ok
        print(
            f"sealing a {cards}-card reshuffle, {seats} seats: {seal:.1f} ms of CPU per peer "
            f"({seal / mult_ms:.0f} multiplications' worth)   goal <= {goal:.0f} ms -> "
            f"{'met' if ok else 'NOT met'}"
        )
        out[f"seal_ms_{seats}"] = round(seal, 2)
        draw = figures["draw"]
        ok = draw <= GOAL_DRAW_MS
        met = met and ok
        print(
            f"a draw, {seats} seats: {draw * 1000:.0f} µs for the drawer   goal <= "
            f"{GOAL_DRAW_MS:.0f} ms -> {'met' if ok else 'NOT met'}"
        )
        print(f"the audit of one {cards}-card shuffle, {seats} seats: {figures['audit']:.1f} ms")
        out[f"draw_us_{seats}"] = round(draw * 1000, 1)
        out[f"audit_ms_{seats}"] = round(figures["audit"], 2)
    out["met"] = met
    print(json.dumps(out))


if __name__ == "__main__":
    main()
