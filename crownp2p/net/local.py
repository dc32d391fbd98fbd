"""A networked game's twin in one process: the same bots and the same chance seeds a table
of peers derives with ``--test-seed``, without any network. Tests and benchmarks compare a
table's final hash with this one's."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..bots import make_bot
from ..core.decisions import Decision
from ..core.game import CHANCE, Game
from ..core.play import Decider, Observer, Play
from ..core.record import Record, Step
from ..core.rules import Rules
from ..core.setup import Setup
from . import crypto


@dataclass
class LocalResult:
    winner: int | None
    over: bool
    turns: int
    final_hash: str
    record: Record


def bot_seed(seed: int | str, seat: int) -> str:
    """A seat's bot seed, as ``selfplay`` derives it."""
    return f"{seed}:{seat}"


class InsecureSeeds:
    """Chance as a table of peers started with ``--test-seed`` plays it: each round's seed from
    every seat's nonce, in seat order, as the commit-reveal round derives it (rounds are
    numbered by chance steps, 1 the first)."""

    def __init__(self, game_id: bytes, test_seed: int | str, seats: list[int]) -> None:
        self.game_id = game_id
        self.test_seed = test_seed
        self.seats = seats
        self.rounds = 0

    def decide(self, game: Game, seat: int) -> Decision:
        self.rounds += 1
        nonces = [crypto.insecure_nonce(self.test_seed, s, self.rounds) for s in self.seats]
        return ("seed", crypto.chance_seed(self.game_id, self.rounds, nonces))

    def observe(self, game: Game, step: Step) -> None:
        pass


def play_local(
    rules: Rules,
    setup: Setup,
    bots: list[str],
    *,
    seed: int | str,
    test_seed: int | str,
    max_turns: int = 0,
    observers: Iterable[Observer] = (),
) -> LocalResult:
    """Play the game a table of bots would play with ``--seed SEED --test-seed TEST_SEED``
    (``observers`` are told each step, as a table's are)."""
    game = Game(rules, setup)
    seats = list(rules.seating.seats)
    deciders: dict[int, Decider] = {
        s: make_bot(name, bot_seed(seed, s)) for s, name in enumerate(bots)
    }
    deciders[CHANCE] = InsecureSeeds(crypto.new_game_id(test_seed), test_seed, seats)
    record = Record.begin(game)
    Play(game, deciders, record=record, max_turns=max_turns, observers=observers).run()
    return LocalResult(game.winner, game.over, game.turn, game.state_hash(), record)
