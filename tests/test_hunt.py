"""The search bot's hunt: the end of a won game, searched on the board alone."""

from __future__ import annotations

from scenario import fen
from scenario import game as scenario_game

from crownp2p.bots.greedy import GreedyBot
from crownp2p.bots.hunt import WIN, Hunt, hunt, hunting
from crownp2p.bots.search import SearchBot, iterations_for
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.play import Seeds
from crownp2p.core.position import FROZEN_NOW
from crownp2p.core.standard import standard_rules

SOLD_OUT = [[["Champion", 0], ["Clergy", 0], ["Tower", 0], ["Consort", 0]]]
NORMAL = iterations_for(0.2)
RULES = standard_rules()


def ending(board: str, **extra: object) -> Game:
    """A game on ``board`` whose decks are three treasures each and whose Supply is bought out:
    nothing but the board matters, as in the endings two search bots used to leave undone."""
    hands = {"hand": ["Quartermaster"] * 3, "opp_hand": ["Quartermaster"] * 3}
    return scenario_game(board, supplies=SOLD_OUT, **{**hands, **extra})


def best(game: Game, leaves: int = 1000) -> tuple[str, ...]:
    return hunt(game, 0, game.legal(), leaves)[0]


def test_the_hunt_begins_once_the_enemy_has_next_to_no_army() -> None:
    assert hunting(ending(fen("Ke1 Ra1 kd5")), 0)
    assert hunting(ending(fen("Ke1 Ra1 Pa2 Pb2 kd5 ph7 pg7")), 0)  # 2 Pawns against 7
    assert not hunting(ending(fen("Ke1 Ra1 kd5")), 1)  # the hunted side searches as ever
    assert not hunting(ending(fen("Ke1 Ra1 kd5 rh8")), 0)  # an army on each side
    assert hunting(ending(fen("Ke1 Bc1 kd5 nh7")), 0)  # an even ending is searched on the board
    assert not hunting(ending(fen("Ke1 Pc2 kd5 nh7")), 0)  # (by the side not behind)
    # Units waiting in the enemy's Barracks are an army too, and so are those its cards train.
    assert not hunting(ending(fen("Ke1 Ra1 Qb1 kd5", gold="rr")), 0)
    assert not hunting(ending(fen("Ke1 Ra1 Qb1 kd5"), opp_deck=["Tower", "Clergy"]), 0)
    # Not while the Supply still trains units (early in a game, a small army is no ending),
    # nor while a unit of ours waits in the Barracks (the hunt gives only marches and attacks).
    assert not hunting(scenario_game(fen("Ke1 Ra1 Qb1 kd5")), 0)
    assert not hunting(ending(fen("Ke1 Ra1 Qb1 kd5", blue="P")), 0)


def test_it_takes_the_last_sovereign_at_once_rather_than_later() -> None:
    # The Queen on a8 has the King in reach and it cannot get away: every order wins, and a
    # search content with that moved a Bishop to and fro for thirty turns.
    game = ending(fen("Kf6 Qa8 Re6 Be3 Pb3 kd5"))
    assert best(game) == ("attack", "a8", "d5")


def test_it_never_takes_a_check_by_its_last_king_for_a_mate() -> None:
    # Kf6-e5 leaves the King on d5 no square to step to, but it may take the King on e5: our
    # last Sovereign, and the game with it.
    game = ending(fen("Kf6 Re6 Bf2 Pa7 Pb3 kd5"))
    search = Hunt(game, 0, 1000)
    search.deep = True
    assert search.score() < WIN / 2
    assert best(game) != ("march", "f6", "e5")


def test_a_pawn_on_its_last_rank_counts_as_what_it_may_become() -> None:
    game = ending(fen("Ke1 Rh1 Pa7 kd5"))
    assert best(game) == ("march", "a7", "a8")  # a Queen (the Consort's) at once


def test_a_king_for_a_king_is_a_gain_for_the_side_with_more() -> None:
    # The King on h8 has nowhere to step (the Queen holds g8, g7 and h7): the trade of e1's
    # King for it changes nothing else on the board, and still brings the last King nearer.
    three = Hunt(ending(fen("Ka1 Kc1 Ke1 Qf7 kd4 kh8")), 0, 1000)
    two = Hunt(ending(fen("Ka1 Kc1 Qf7 kd4")), 0, 1000)
    assert two.score() - three.score() > 5


def test_it_offers_only_legal_orders_and_each_march_and_attack_once() -> None:
    data = ending(fen("Ke1 Ra1 Bc1 kd5")).to_json()
    rook = next(entry for entry in data["board"] if entry["square"] == "a1")
    rook["frozen"] = FROZEN_NOW  # it takes no orders this turn (Mourning, False Orders)
    game = Game.from_json(RULES, data)
    ranked = hunt(game, 0, game.legal(), 50)
    moves = [d for d in game.legal() if d[0] in ("march", "attack")]
    assert sorted(ranked) == sorted(moves) and len(set(ranked)) == len(ranked)
    assert all(d[1] != "a1" for d in ranked)


def test_a_budget_of_boards_bounds_the_deep_search_and_the_same_board_gives_the_same_choice() -> (
    None
):
    game = ending(fen("Ke1 Qd1 Ra1 Rh1 Pa2 Pb2 Pc2 kd5"))
    small, large = Hunt(game, 0, 200), Hunt(game, 0, 20_000)
    small_ranked = small.ranked(game.legal())
    large.ranked(game.legal())
    shallow = Hunt(game, 0, 0)
    shallow.ranked(game.legal())
    assert small.leaves <= max(shallow.leaves, 200) + 40  # (the last board's look for mates)
    assert large.leaves > small.leaves
    assert Hunt(game, 0, 200).ranked(game.legal()) == small_ranked


def finish(board: str, defender: GreedyBot, turns: int = 60) -> Game:
    game = ending(fen(board))
    bots = {0: SearchBot(1, iterations=NORMAL), 1: defender}
    seeds = Seeds(1)
    while not game.over and game.turn < turns:
        seat = game.prompt().seat
        decider = seeds if seat == CHANCE else bots[seat]
        game.apply(decider.decide(game, seat))
    return game


def test_a_normal_bot_hunts_down_a_lone_king() -> None:
    # Before the hunt, two search bots left a sixth of their games to the turn cap, many of
    # them with a lone King dancing round a Rook, a Queen and spare Kings. The greedy bot
    # defends by passing whenever it can (there is no zugzwang in this game).
    game = finish("Ke1 Rh1 Bc1 Pa2 Pb2 kd5", GreedyBot(2))
    assert game.over and game.winner == 0
    game = finish("Ke1 Ra1 Kh1 kd5", SearchBot(2, iterations=NORMAL))
    assert game.over and game.winner == 0
