"""Building games from explicit states for scenario tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from crownp2p.bots import make_bot
from crownp2p.core.decisions import Decision, parse_decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules

RULES = standard_rules()
SEED = "00" * 32


def board_field(units: str) -> str:
    """The board field of the notation for units listed as ``"Qd4 pf6"`` (written here from
    the notation's definition, not by the engine)."""
    grid = {token[1:]: token[0] for token in units.split()}
    rows = []
    for rank in "87654321":
        row, empties = "", 0
        for file in "abcdefgh":
            letter = grid.get(file + rank)
            if letter is None:
                empties += 1
                continue
            if empties:
                row, empties = row + str(empties), 0
            row += letter
        rows.append(row + (str(empties) if empties else ""))
    return "/".join(rows)


def fen(units: str, blue: str = "-", gold: str = "-", to_move: int = 0) -> str:
    """A full position: the listed units, the seat to move and both Barracks."""
    return f"{board_field(units)} {to_move} {blue} {gold}"


def game(
    fen: str,
    *,
    hand=(),
    deck=(),
    discard=(),
    opp_hand=(),
    opp_deck=(),
    opp_discard=(),
    piles=None,
    phase="order",
    active=0,
    counters=None,
    statuses=(),
    **extra: Any,
) -> Game:
    """A game at the start of ``active``'s ``phase`` with the given board and cards.

    ``hand``/``deck``/``discard`` belong to the active seat, ``opp_*`` to the other; decks are
    listed top card first. ``piles`` are the variable Supply piles (default: none, so only the
    core piles).
    """
    mine = {"hand": list(hand), "deck": list(deck), "discard": list(discard)}
    theirs = {"hand": list(opp_hand), "deck": list(opp_deck), "discard": list(opp_discard)}
    players = [mine, theirs] if active == 0 else [theirs, mine]
    data: dict[str, Any] = {
        "fen": fen,
        "players": players,
        "this_turn": {"phase": phase, **(counters or {})},
        "active": active,
        "statuses": list(statuses),
    }
    if piles is not None:
        data["setup"] = {"piles": list(piles)}
    data.update(extra)
    return Game.from_json(RULES, data)


def play(g: Game, *texts: str) -> Game:
    """Apply decisions given in text form; a chance prompt gets the fixed seed first."""
    for text in texts:
        settle(g)
        g.apply(parse_decision(text))
    return g


def settle(g: Game) -> Game:
    """Answer every pending chance prompt with the fixed seed."""
    while g.prompt().seat == CHANCE and not g.over:
        g.apply(("seed", SEED))
    return g


def legal_texts(g: Game) -> list[str]:
    from crownp2p.core.decisions import decision_text

    return [decision_text(d) for d in g.legal()]


def hand(g: Game, seat: int) -> list[str]:
    return sorted(g.cards[c] for c in g.players[seat].hand)


def zone(g: Game, seat: int, name: str) -> list[str]:
    return [g.cards[c] for c in getattr(g.players[seat], name)]


def at(g: Game, square: str) -> str | None:
    """``"K0"`` style: unit name and owner on a square, or None."""
    from crownp2p.core.board import parse_square

    unit = g.position.board[parse_square(square)]
    return None if unit is None else f"{unit.kind.name}{unit.owner}"


def hidden_twin(game: Game) -> Game:
    """The same game but for what the seat to move cannot see: the other hand and deck dealt
    otherwise, and its own deck in another order."""
    seat = game.prompt().seat
    data = game.to_json()
    other = data["players"][1 - seat]
    pool = other["hand"] + other["deck"]
    random.Random(3).shuffle(pool)
    other["hand"], other["deck"] = pool[: len(other["hand"])], pool[len(other["hand"]) :]
    data["players"][seat]["deck"].reverse()
    return Game.from_json(game.rules, data)


def hidden_ids(game: Game, seat: int) -> list[int]:
    """The cards of ``seat``'s deck, then hand, that not every seat has seen (docs/state.md)."""
    player = game.players[seat]
    return [c for c in player.deck + player.hand if c not in game.shown]


def renamed(game: Game, seat: int, names: list[str]) -> Game:
    """A copy of ``game`` whose hidden cards of ``seat`` are ``names`` instead: the same game
    for every other seat."""
    twin = game.clone()
    for card, name in zip(hidden_ids(twin, seat), names, strict=True):
        twin.cards[card] = name
    return twin


def greedy_decisions(
    setup: Setup, seed: int, bot_seeds: tuple[int, int], steps: int
) -> Iterator[tuple[Game, int, Decision]]:
    """A greedy game of ``setup``, its chance from ``SeedSource(seed)``, at most ``steps``
    steps: before each seat's decision, the game, the seat and the decision, which is applied
    once the caller moves on."""
    game, chance = Game(RULES, setup), SeedSource(seed)
    bots = [make_bot("greedy", s) for s in bot_seeds]
    for _ in range(steps):
        if game.over:
            return
        prompt = game.prompt()
        if prompt.kind == "open":  # (a sealed game: this engine knows every card)
            game.apply(("open", *[game.cards[c] for c in game.chance["cards"]]))
            continue
        if prompt.seat == CHANCE:
            game.apply(("seed", chance.next_seed()))
            continue
        decision = bots[prompt.seat].decide(game, prompt.seat)
        yield game, prompt.seat, decision
        game.apply(decision)
