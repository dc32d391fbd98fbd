"""A networked game's twin in one process: the same bots and the same chance seeds a table
of peers derives with ``--test-seed``, without any network. Tests and benchmarks compare a
table's final hash with this one's."""

from __future__ import annotations

from dataclasses import dataclass

from ..bots import make_bot
from ..core.game import CHANCE, Game
from ..core.record import Record
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


def play_local(
    rules: Rules,
    setup: Setup,
    bots: list[str],
    *,
    seed: int | str,
    test_seed: int | str,
    max_turns: int = 0,
) -> LocalResult:
    """Play the game a table of bots would play with ``--seed SEED --test-seed TEST_SEED``."""
    game = Game(rules, setup)
    game_id = crypto.new_game_id(test_seed)
    players = [make_bot(name, bot_seed(seed, s)) for s, name in enumerate(bots)]
    record = Record.begin(game)
    rounds = 0
    while not game.over and not (max_turns and game.turn > max_turns):
        seat = game.prompt().seat
        if seat == CHANCE:
            rounds += 1  # commit-reveal rounds are numbered by chance steps
            nonces = [crypto.insecure_nonce(test_seed, s, rounds) for s in rules.seating.seats]
            decision: tuple[str, ...] = ("seed", crypto.chance_seed(game_id, rounds, nonces))
        else:
            decision = players[seat].decide(game, seat)
        record.apply(game, decision)
    return LocalResult(game.winner, game.over, game.turn, game.state_hash(), record)
