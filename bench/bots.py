"""How often the greedy bot beats the random bot.

    python bench/bots.py [--games 200]

Seats alternate (greedy is blue in odd games, gold in even ones); unfinished games at the turn
cap count as not won. Goal: greedy wins at least 80%. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json

from crownp2p.bots.selfplay import play_game
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules

GOAL = 0.80


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-turns", type=int, default=300)
    args = parser.parse_args()
    rules = standard_rules()
    wins = unfinished = 0
    for seed in range(args.games):
        greedy_seat = seed % 2
        bots = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        result = play_game(rules, Setup(), bots, seed, max_turns=args.max_turns)
        wins += result.winner == greedy_seat
        unfinished += not result.finished
    rate = wins / args.games
    print(
        f"greedy beat random in {wins} of {args.games} games ({rate:.1%}); "
        f"{unfinished} unfinished; goal {GOAL:.0%} -> {'met' if rate >= GOAL else 'NOT met'}"
    )
    print(
        json.dumps(
            {"games": args.games, "greedy_wins": wins, "rate": rate, "unfinished": unfinished}
        )
    )


if __name__ == "__main__":
    main()
