"""Engine throughput: decisions per second (legal list + apply) and whole games per second.

    python bench/playout.py [--games N] [--quick]

Plays random-vs-random and greedy-vs-greedy games on the first-game Supply in this process, on
core's ``Play`` loop. "Engine" time is the play loop's time less the bots' thinking and the
seed chain: ``legal()`` and ``apply()`` (what a peer or a bot pays for the rules) and the loop
itself; games per second includes the bots' thinking. Goal (issue 14, what a search needs): at
least 60,000 engine decisions per second. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from crownp2p.bots import make_bot
from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Decider, Play, Seeds
from crownp2p.core.record import Step
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules

GOAL = 60_000  # issue 14: what a search that beats greedy needs


class Timed:
    """A bot, with the time it thinks kept apart from the engine's: its legal list is made
    (and timed as the engine's) before it is asked, as a peer validating a move would."""

    def __init__(self, bot: Decider, clock: list[float]) -> None:
        self.bot = bot
        self.clock = clock  # [engine seconds, outside seconds]

    def decide(self, game: Game, seat: int) -> Decision | None:
        t = time.perf_counter()
        game.legal()
        thinking = time.perf_counter()
        decision = self.bot.decide(game, seat)
        self.clock[0] += thinking - t
        self.clock[1] += time.perf_counter() - thinking
        return decision

    def observe(self, game: Game, step: Step) -> None:
        pass


class TimedSeeds(Seeds):
    """Chance, its seed chain timed outside the engine (as the bots are)."""

    def __init__(self, start: int, clock: list[float]) -> None:
        super().__init__(start)
        self.clock = clock

    def decide(self, game: Game, seat: int) -> Decision:
        t = time.perf_counter()
        decision = super().decide(game, seat)
        self.clock[1] += time.perf_counter() - t
        return decision


def run(bot_name: str, games: int, max_turns: int) -> dict[str, float]:
    rules = standard_rules()
    clock = [0.0, 0.0]  # seconds in legal(), seconds in the bots and the seed chain
    play_time = 0.0
    decisions = 0
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(rules, Setup())
        deciders: dict[int, Decider] = {
            s: Timed(make_bot(bot_name, f"{seed}:{s}"), clock) for s in range(2)
        }
        deciders[CHANCE] = TimedSeeds(seed, clock)
        play = Play(game, deciders, max_turns=max_turns)
        t = time.perf_counter()
        play.run()
        play_time += time.perf_counter() - t
        decisions += play.decisions
        turns += game.turn
    total = time.perf_counter() - start
    engine = play_time - clock[1]  # the play loop, legal() and apply(): all but the deciders
    return {
        "games": games,
        "decisions": decisions,
        "engine_decisions_per_s": decisions / engine,
        "decisions_per_s": decisions / total,
        "games_per_s": games / total,
        "mean_turns": turns / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="10 games of each")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    games = 10 if args.quick else args.games
    results = {}
    for bot in ("random", "greedy"):
        r = run(bot, games, args.max_turns)
        results[f"{bot}_vs_{bot}"] = r
        print(
            f"{bot:>6} vs {bot:<6}: {r['engine_decisions_per_s']:>9,.0f} engine decisions/s "
            f"(legal + apply), {r['decisions_per_s']:>8,.0f} decisions/s with the bots, "
            f"{r['games_per_s']:6.2f} games/s, {r['mean_turns']:.0f} turns a game"
        )
    worst = min(r["engine_decisions_per_s"] for r in results.values())
    print(f"goal: at least {GOAL:,} engine decisions/s -> {'met' if worst >= GOAL else 'NOT met'}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
