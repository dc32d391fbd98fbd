"""The engine's observable behaviour over 204 games, to check that a change meant to leave it
alone (a speed-up) does.

    git stash; python bench/engine_trace.py --save /tmp/engine.json.gz; git stash pop
    python bench/engine_trace.py --check /tmp/engine.json.gz     [--jobs 2]

Each game runs to its end or the 300-turn cap, chance by ``Seeds(seed)``: random bots on the
first-game Supply (seeds 0-99) and on random Supplies (0-29), greedy bots (0-49), and with the
All the King's Men pack installed, 24 of its games (the team game, the extended game, the
alternative starters). At every decision it keeps the seat, the whole legal list in order and
the decision taken; after every step the state hash; and every 25th decision it checks that a
clone lists the same decisions in the same order (a seeded bot plays on from a copy as from the
original). ``--check`` names each game that differs and its first differing line, and exits 1.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from crownp2p.bots import make_bot
from crownp2p.core.decisions import Decision, decision_text
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Decider, Play, Seeds
from crownp2p.core.record import Step
from crownp2p.core.setup import RANDOM_PILES, Setup
from crownp2p.core.standard import standard_rules
from crownp2p.packs import load

MAX_TURNS = 300
CLONE_EVERY = 25
PACK_GAMES = [  # (variant, Supply, options) from the pack, played in turn
    ("team", "first-game", ()),
    ("team", "random", ()),
    ("extended-13", "random", ()),
    ("standard", "random", ("squire",)),
    ("standard", "random", ("anointed",)),
    ("standard", "first-game", ("conscript",)),
    ("extended-16", "random", ("watchman",)),
    ("standard", "random", ("advisor",)),
]

Spec = tuple[str, str, str, tuple[str, ...], str, int]  # name, variant, Supply, options, bot, seed


class Traced:
    """A decider whose prompts are written down: the seat, the decision, the legal list."""

    def __init__(self, inner: Decider, lines: list[str], asked: list[int]) -> None:
        self.inner, self.lines, self.asked = inner, lines, asked

    def decide(self, game: Game, seat: int) -> Decision | None:
        legal = game.legal()
        self.asked[0] += 1
        if self.asked[0] % CLONE_EVERY == 0 and game.clone().legal() != legal:
            self.lines.append("a clone lists other decisions, or in another order")
        decision = self.inner.decide(game, seat)
        assert decision is not None  # (bots and seeds always answer)
        shown = ";".join(decision_text(d) for d in legal)
        self.lines.append(f"{seat}|{decision_text(decision)}|{shown}")
        return decision

    def observe(self, game: Game, step: Step) -> None:
        self.inner.observe(game, step)


class Hashes:
    """Writes down the state hash after each step."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def observe(self, game: Game, step: Step) -> None:
        self.lines.append(f"# {game.state_hash()}")


def specs() -> list[Spec]:
    games: list[Spec] = [(f"random-{s}", "", "first-game", (), "random", s) for s in range(100)]
    games += [(f"greedy-{s}", "", "first-game", (), "greedy", s) for s in range(50)]
    games += [(f"random-supply-{s}", "", "random", (), "random", s) for s in range(30)]
    if "team" not in load().variants:
        return games  # (the pack is not installed)
    for i in range(24):
        variant, supply, options = PACK_GAMES[i % len(PACK_GAMES)]
        name = f"pack-{variant}-{supply}-{'+'.join(options) or 'plain'}-{i}"
        games.append((name, variant, supply, options, "random", 1000 + i))
    return games


def play(spec: Spec) -> tuple[str, list[str]]:
    name, variant, supply, options, bot, seed = spec
    if variant:
        catalog = load()
        rules = catalog.rules(variant)
        setup = catalog.setup(supply, variant=variant, options=options)
    else:
        rules = standard_rules()
        setup = Setup() if supply == "first-game" else Setup(piles=(), fill_piles=RANDOM_PILES)
    game = Game(rules, setup)
    lines: list[str] = []
    asked = [0]
    deciders: dict[int, Decider] = {
        s: Traced(make_bot(bot, f"{seed}:{s}"), lines, asked) for s in rules.seating.seats
    }
    deciders[CHANCE] = Traced(Seeds(seed), lines, asked)
    Play(game, deciders, max_turns=MAX_TURNS, observers=[Hashes(lines)]).run()
    lines.append(f"end: over {game.over}, winner {game.winner}, turn {game.turn}")
    return name, lines


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--save", type=Path, metavar="FILE", help="write the trace to FILE")
    which.add_argument("--check", type=Path, metavar="FILE", help="compare with FILE's trace")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        games = dict(pool.map(play, specs(), chunksize=2))
    took = time.perf_counter() - started
    print(f"{len(games)} games, {sum(map(len, games.values()))} lines, {took:.0f} s")
    if args.save:
        with gzip.open(args.save, "wt") as out:
            json.dump(games, out)
        print(f"saved to {args.save}")
        return
    with gzip.open(args.check, "rt") as kept:
        golden: dict[str, Any] = json.load(kept)
    differ = 0
    for name in sorted(set(golden) | set(games)):
        old, new = golden.get(name, []), games.get(name, [])
        if digest(old) == digest(new):
            continue
        differ += 1
        pairs = enumerate(zip(old, new, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(old), len(new)))
        print(f"{name}, line {at}:\n  was: {old[at] if at < len(old) else '(none)'}")
        print(f"  now: {new[at] if at < len(new) else '(none)'}")
    print(f"{len(games) - differ} of {len(games)} games the same")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
