"""What sealed decks cost each peer (issue 12), each figure beside its goal and its floor, the
group's scalar multiplication, measured in the same run.

    python bench/sealed.py [--cards N] [--repeat N] [--games N]

- **Sealing a reshuffle** of ``--cards`` cards (default 40), the CPU one peer spends on it, at two
  seats and at four: deriving its secrets from its seed, its shuffle pass, its re-key pass, and
  checking every other seat's passes as they arrive (count, 32 bytes, no two alike; the group
  is checked by the multiplications that use the points).
  Goals: 20 ms at two seats, 60 ms at four.
- **A draw**: the drawer lifts every seat's lock from one position and names the card (the
  seats releasing keys only look them up). Goal: 1 ms.
- The **audit** of one such shuffle (re-running every seat's passes from the seeds), and of
  every shuffle of whole greedy games at two seats (``--games``, seeds from 0, 150 turns each
  as ``bench/net_game.py`` plays them): the same shuffles, by size, as the game made. Goal for
  a whole game: 1 s (its openings are checked as they come, so the audit is its shuffles).

Each peer's share is timed alone, with ``time.process_time``, as the median of ``--repeat`` runs.
The passes of the seats around it are computed before the clock starts: on a table they are
other processes' work. This measures the cryptography alone; ``bench/sealed_game.py`` times
whole sealed games over loopback. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from nacl import bindings as sodium

from crownp2p.bots import make_bot
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Decider, Play
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net import crypto
from crownp2p.net import sealed_deck as sealed
from crownp2p.net.local import InsecureSeeds, bot_seed
from crownp2p.shell.turns import turn_limit

GOAL_SEAL_MS = {2: 20.0, 4: 60.0}
GOAL_DRAW_MS = 1.0
GOAL_GAME_AUDIT_MS = 1000.0
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


def honest_shuffle(seats: int, cards: int, number: int = 1) -> sealed.ShuffleLog:
    order = list(range(seats))
    mine = {s: sealed.ShuffleSecrets.derive(GAME, number, s, seed(s), cards) for s in order}
    log = sealed.ShuffleLog(
        GAME,
        number,
        seats=order,
        commitments={s: sealed.commitment(GAME, number, s, seed(s)) for s in order},
        start=[sealed.card_point(GAME, i) for i in range(cards)],
    )
    log.passes = [deck for _, _, deck in sealed.honest_passes(log.start, order, mine)]
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


class CountedSeeds(InsecureSeeds):
    """The seeds of a game played as bench/net_game.py plays it, noting how many cards each
    shuffle takes (the deck and the discard pile of the seat that shuffles)."""

    def __init__(self, test_seed: int, seats: list[int]) -> None:
        super().__init__(crypto.new_game_id(test_seed), test_seed, seats)
        self.sizes: list[int] = []

    def decide(self, game: Game, seat: int) -> Decision:
        if game.chance is not None and game.chance["kind"] == "shuffle":
            player = game.players[game.chance["seat"]]
            self.sizes.append(len(player.deck) + len(player.discard))
        return super().decide(game, seat)


def shuffle_sizes(game_seed: int, turns_each: int = 150) -> list[int]:
    """How many cards each shuffle of the greedy game bench/net_game.py plays with this seed
    takes, in order."""
    rules = standard_rules()
    seats = list(rules.seating.seats)
    deciders: dict[int, Decider] = {s: make_bot("greedy", bot_seed(game_seed, s)) for s in seats}
    chance = deciders[CHANCE] = CountedSeeds(game_seed, seats)
    Play(Game(rules, Setup()), deciders, max_turns=turn_limit(rules, turns_each)).run()
    return chance.sizes


def game_audit_ms(sizes: list[int], seats: int = 2) -> float:
    """The audit of shuffles of these sizes, all of one game."""
    logs = [honest_shuffle(seats, n, number) for number, n in enumerate(sizes, 1) if n]
    seeds = {(log.number, s): seed(s) for log in logs for s in range(seats)}
    return cpu_ms(lambda: sealed.audit(logs, seeds), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=40, help="cards in the reshuffle (40)")
    parser.add_argument("--repeat", type=int, default=15, help="timings of each figure (15)")
    parser.add_argument("--games", type=int, default=5, help="greedy games audited (5)")
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
    worst = 0.0
    for game_seed in range(args.games):
        sizes = shuffle_sizes(game_seed)
        ms = game_audit_ms(sizes)
        worst = max(worst, ms)
        print(
            f"greedy game {game_seed}: {len(sizes)} shuffles, {sum(sizes)} cards in all; "
            f"their audit at two seats {ms:.0f} ms"
        )
    if args.games:
        ok = worst <= GOAL_GAME_AUDIT_MS
        met = met and ok
        print(
            f"the longest audit of a whole game: {worst:.0f} ms   goal <= "
            f"{GOAL_GAME_AUDIT_MS:.0f} ms -> {'met' if ok else 'NOT met'}"
        )
        out["game_audit_ms_max"] = round(worst, 1)
    out["met"] = met
    print(json.dumps(out))


if __name__ == "__main__":
    main()
