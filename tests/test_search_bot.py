"""The search bot: blind to what its seat cannot see, legal, repeatable, and its levels."""

from __future__ import annotations

import math

import pytest
from scenario import fen, hidden_twin
from scenario import game as scenario_game

from crownp2p.bots import BOT_NAMES, make_bot
from crownp2p.bots.greedy import GreedyBot
from crownp2p.bots.search import (
    AHEAD,
    BARRACKS,
    GOLD,
    QUEUE,
    REPEATS,
    SHORT,
    SPARE_SOVEREIGN,
    SPREAD,
    SUPPLY_LOW,
    TRAINABLE,
    UNDECIDED,
    USE,
    Playout,
    Root,
    SearchBot,
    after,
    board,
    buying_power,
    decided,
    distance,
    economy,
    evaluate,
    flights,
    iterations_for,
    mates,
    orders_next,
    pressure,
    queued_worth,
    run_iterations,
    scaled,
    search,
    trapped,
)
from crownp2p.bots.selfplay import play_game
from crownp2p.core.board import parse_square
from crownp2p.core.decisions import parse_decision
from crownp2p.core.determinize import KnownTops
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.position import FROZEN_NOW, Unit
from crownp2p.core.record import Step
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.standard import standard_rules
from crownp2p.net.deciders import LateBot
from crownp2p.shell.arguments import BOT_CHOICES
from crownp2p.shell.cli import build_parser, main

RULES = standard_rules()


def midgame(seed: int, turn: int) -> Game:
    """A greedy game at its first order prompt of ``turn``, as a fresh copy."""
    game = Game(RULES, Setup())
    seeds, bot = SeedSource(seed), GreedyBot(seed)
    while game.turn < turn or game.stack or game.this_turn.phase != "order":
        if game.prompt().seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
        else:
            game.apply(bot.decide(game, game.prompt().seat))
    return Game.from_json(RULES, game.to_json())


@pytest.mark.parametrize(("seed", "turn"), [(1, 9), (2, 14), (3, 21)])
def test_the_bot_cannot_tell_two_games_that_share_its_view(seed: int, turn: int) -> None:
    true = midgame(seed, turn)
    other = hidden_twin(true)
    seat = true.prompt().seat
    assert other.state_hash() != true.state_hash() and other.view(seat) == true.view(seat)
    # Every decision of the turn while the views agree (a card drawn from the decks, dealt
    # otherwise in the twin, ends it): the bot's choice, applied to both.
    for _ in range(4):
        if true.prompt().seat != seat or other.view(seat) != true.view(seat):
            break
        first = SearchBot(5, iterations=24).decide(true, seat)
        assert SearchBot(5, iterations=24).decide(other, seat) == first
        assert first in true.legal()
        true.apply(first)
        other.apply(first)


def test_a_whole_game_against_greedy_takes_only_legal_decisions() -> None:
    # Play applies every decision through Game.apply, which refuses an illegal one.
    result = play_game(RULES, Setup(), ["hard", "greedy"], 8, think=0.012)
    assert result.finished or result.turns > 300


def test_the_choice_repeats_from_the_seed_and_changes_with_it() -> None:
    game = midgame(4, 12)
    seat = game.prompt().seat
    picks = [SearchBot(s, iterations=30).decide(game, seat) for s in (1, 1, 2, 3, 4, 5)]
    assert picks[0] == picks[1]
    assert all(p in game.legal() for p in picks)


def test_workers_split_the_iterations_and_repeat() -> None:
    game = midgame(5, 10)
    view = game.view(game.prompt().seat)
    legal = [parse_decision(t) for t in view["legal"]][:6]
    root = Root(RULES, view, legal, KnownTops())
    tallies = search(root, "s", 12, workers=2)
    halves = [run_iterations(root, f"s:{w}", 6) for w in (0, 1)]
    first, second = halves
    assert tallies == [
        [a + b for a, b in zip(x, y, strict=True)] for x, y in zip(first, second, strict=True)
    ]
    assert search(root, "s", 12, workers=2) == tallies


def test_the_evaluation_prefers_material_and_a_won_game() -> None:
    game = midgame(6, 8)
    seat = game.prompt().seat
    before = evaluate(game, seat)
    enemy = next(sq for sq, u in game.position.units() if u.owner != seat)
    if game.position.board[enemy] and not game.position.board[enemy].kind.is_sovereign:
        game.position.board[enemy] = None
        assert evaluate(game, seat) > before
    game.over, game.winner = True, RULES.seating.sides[seat]
    assert evaluate(game, seat) == 1.0


def test_pressure_grows_as_units_close_on_the_enemy_king() -> None:
    game = Game(RULES, Setup())  # the Kings on e1 and e8, nothing else
    rook = Unit(RULES.units.get("Rook"), 0, 99)

    def pressure_with_rook_on(square: str) -> float:
        board = game.position.board
        board[:] = [u if u is None or u.kind.is_sovereign else None for u in board]
        board[parse_square(square)] = rook
        return pressure(game, game.position.attack_map(), 0)

    far, nearer, beside = (pressure_with_rook_on(sq) for sq in ("a2", "a5", "d7"))
    assert 0 < far < nearer < beside  # d7 also attacks four squares around the King
    assert pressure(game, game.position.attack_map(), 1) == 0.0  # gold has no unit out


def test_each_enemy_sovereign_taken_counts_even_while_others_remain() -> None:
    # Extra Kings (Heir, promotions) were worth nothing to the evaluation, so a search never
    # hunted them and games against a side with several Kings ran to the turn cap.
    game = Game(RULES, Setup())  # the Kings on e1 and e8, blue to move
    king = RULES.units.get("King")
    board = game.position.board
    board[parse_square("a8")] = Unit(king, 1, 98)
    two_left = evaluate(game, 0)
    board[parse_square("a8")] = None
    assert evaluate(game, 0) > two_left


def test_a_last_sovereign_in_reach_costs_more_than_a_spare_one() -> None:
    game = Game(RULES, Setup())
    king, rook = RULES.units.get("King"), RULES.units.get("Rook")
    board = game.position.board
    board[parse_square("e4")] = Unit(rook, 1, 97)  # attacks e1, gold to move next
    game.active = 1
    last = evaluate(game, 0)
    board[parse_square("a1")] = Unit(king, 0, 96)  # a spare King, out of reach
    spare = evaluate(game, 0)
    assert spare > last


def test_a_quicker_win_counts_more_and_a_quicker_loss_less() -> None:
    game = midgame(6, 8)
    seat = game.prompt().seat
    side = RULES.seating.sides[seat]
    game.over, game.winner = True, side
    assert 1.0 == evaluate(game, seat, game.turn) > evaluate(game, seat, game.turn - 2)
    game.winner = 1 - side
    assert 0.0 == evaluate(game, seat, game.turn) < evaluate(game, seat, game.turn - 2)


def test_a_fuller_board_runs_fewer_iterations_for_the_same_think_time() -> None:
    start, later = Game(RULES, Setup()), midgame(3, 21)
    assert len(list(later.position.units())) > len(list(start.position.units()))
    assert 1 <= scaled(600, later) < scaled(600, start) < 600
    assert scaled(1, later) == 1  # never none


def test_playouts_march_on_the_enemy_king_where_the_greedy_bot_deploys() -> None:
    # Playouts by the greedy scoring never come near the enemy King (it deploys first); a
    # search on them turtled, and two search bots played to the turn cap.
    game, seeds, greedy = Game(RULES, Setup()), SeedSource(2), GreedyBot(2)
    while game.turn < 40:
        seat = game.prompt().seat
        if seat == CHANCE:
            game.apply(("seed", seeds.next_seed()))
            continue
        chosen = greedy.decide(game, seat)
        pushed = Playout(2).decide(game, seat)
        if chosen[0] == "deploy" and pushed[0] == "march":
            frm, to = parse_square(pushed[1]), parse_square(pushed[2])
            kings = [
                sq for sq, u in game.position.units() if u.kind.is_sovereign and u.owner != seat
            ]
            assert min(distance(to, k) for k in kings) < min(distance(frm, k) for k in kings)
            assert not game.position.would_be_threatened(frm, to)
            return
        game.apply(chosen)
    raise AssertionError("the playout policy never preferred a march to a deploy")


def cards_of(game: Game, names: list[str]) -> list[int]:
    """New card ids for ``names``, as a deck holds them."""
    return [game.new_card(name) for name in names]


def test_a_trained_peon_costs_the_economy_more_than_its_pawn_is_worth() -> None:
    # A Training Action trashes its card: the Pawn waits in the Barracks, and every hand to
    # come holds less gold. (The greedy bot trains Peons; a search that did so ran out of gold.)
    game = Game(RULES, Setup())
    start = ["Peon"] * 6 + ["Guard"] * 4
    trained = economy(game, cards_of(game, start[1:])) + BARRACKS * 1
    assert trained < economy(game, cards_of(game, start))


def test_a_deck_that_adds_no_gold_is_worth_less_than_the_starting_deck() -> None:
    game = Game(RULES, Setup())
    start = economy(game, cards_of(game, ["Peon"] * 6 + ["Guard"] * 4))
    assert economy(game, cards_of(game, ["Stables"] * 3)) < start
    # A card that adds gold and trains (Clergy: 2 gold or a Bishop) is worth buying.
    assert economy(game, cards_of(game, ["Peon"] * 6 + ["Guard"] * 4 + ["Clergy"])) > start


def test_a_training_card_counts_its_units_and_a_king_as_a_spare_one() -> None:
    game = Game(RULES, Setup())
    base = economy(game, cards_of(game, ["Stables"]))
    king = TRAINABLE * SPARE_SOVEREIGN + USE * 8  # (Heir costs 8)
    assert economy(game, cards_of(game, ["Stables", "Heir"])) == pytest.approx(base + king)
    two_strikers = TRAINABLE * 2 * 1.5 + USE * 2  # (Versatility costs 2)
    assert economy(game, cards_of(game, ["Stables", "Versatility"])) == pytest.approx(
        base + two_strikers
    )


def test_each_gold_a_hand_is_short_of_the_floor_costs_more() -> None:
    # Seen in a game between two search bots: each training of a Tower or a Clergy looked
    # cheap, one at a time, until neither deck could buy and the board locked to the turn cap.
    game = Game(RULES, Setup())

    def gained_by_a_peon(deck: list[str]) -> float:  # decks smaller than a hand: all drawn
        return economy(game, cards_of(game, [*deck, "Peon"])) - economy(game, cards_of(game, deck))

    short = gained_by_a_peon(["Refiner"])  # 0 gold a hand, then 1
    enough = gained_by_a_peon(["Tower", "Clergy"])  # 5, then 6
    assert short - enough == pytest.approx(SHORT)
    assert enough == pytest.approx(GOLD + TRAINABLE)  # a gold, and the Pawn it could train


def test_gold_is_worth_what_the_supply_has_left_to_buy() -> None:
    # Seen at the turn cap: both Supplies bought out, both decks kept their Towers untrained.
    game = midgame(3, 12)
    seat = game.prompt().seat
    assert buying_power(game, seat) == 1.0
    supply = game.supply_for(seat)
    for name in supply:
        supply[name] = 0
    supply[next(iter(supply))] = SUPPLY_LOW // 2
    assert buying_power(game, seat) == 0.5
    supply[next(iter(supply))] = 0
    assert buying_power(game, seat) == 0.0
    towers = cards_of(game, ["Tower"] * 2)
    kept = economy(game, towers, power=0.0)
    trained = economy(game, towers[1:], power=0.0) + BARRACKS * 5  # a Rook waiting
    assert trained > kept


def test_a_card_bought_is_worth_something_even_without_gold() -> None:
    # Else a search saw the playouts' buys lower every deck with gold to spare, and preferred
    # training its treasures (which leaves less to buy with) to playing them.
    game = Game(RULES, Setup())
    rich = ["Tower"] * 4 + ["Clergy"]  # 14 gold, all drawn: past GOLD_ENOUGH
    assert economy(game, cards_of(game, rich + ["Refiner"])) > economy(game, cards_of(game, rich))


def test_a_bot_at_a_networked_seat_is_told_of_the_steps() -> None:
    game = midgame(7, 6)
    seat = game.prompt().seat
    late = LateBot("normal", 1, think=0.02)
    decision = late.decide(game, seat)
    assert isinstance(late.bot, SearchBot) and late.bot.iterations == iterations_for(0.02)
    game.apply(decision)
    late.observe(game, Step(1, seat, decision, ""))
    assert late.bot.tops.sizes == {s: p["deck"] for s, p in enumerate(game.view(seat)["players"])}


def test_levels_and_think_budgets() -> None:
    assert isinstance(make_bot("easy"), GreedyBot)
    normal, hard = make_bot("normal"), make_bot("hard")
    assert isinstance(normal, SearchBot) and isinstance(hard, SearchBot)
    assert normal.iterations == iterations_for(0.2) < hard.iterations == iterations_for(1.0)
    thought = make_bot("hard", think=0.4, workers=2)
    assert isinstance(thought, SearchBot) and thought.workers == 2
    assert thought.iterations == iterations_for(0.8)  # 0.4 s on each of two processes
    assert BOT_CHOICES == BOT_NAMES


def test_the_levels_are_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for command in ("solo", "selfplay", "host", "join"):
        text = sub[command].format_help()
        assert "--think" in text and "--workers" in text
        assert all(name in text for name in ("easy", "normal", "hard")), command
    assert sub["solo"].parse_args([]).bot == "normal"
    args = ["selfplay", "--bots", "normal,greedy", "--think", "0.01", "--max-turns", "2"]
    assert main([*args, "--json"]) == 0
    with pytest.raises(SystemExit):
        main(["selfplay", "--think", "0"])
    assert "0 is not above 0" in capsys.readouterr().err


def test_a_sovereign_in_a_ladder_is_trapped_unless_it_can_flee_or_take() -> None:
    def is_trapped(units: str) -> bool:
        g = scenario_game(fen(units))
        return trapped(g.position, g.attack_map(), parse_square("e8"))

    assert is_trapped("Ke1 Ra8 Ra7 ke8")  # a8 gives check; a7 holds the seventh rank
    assert not is_trapped("Ke1 Ra8 ke8")  # it steps to the seventh rank
    assert not is_trapped("Ke1 Ra8 Ra7 bd5 ke8")  # its Bishop takes the lone attacker
    assert is_trapped("Ke1 Ra8 Ra7 Rb8 bd5 ke8")  # two attackers: taking one is not enough


def test_playouts_give_the_check_that_traps_before_any_capture() -> None:
    # The rush wins by checks with nowhere to flee (two leapers around the King); playouts that
    # only ever took material never showed a search that danger.
    g = scenario_game(fen("Ke1 Ra7 Rh1 Pb2 nc3 ke8"))
    assert GreedyBot(0).decide(g, 0) == ("attack", "b2", "c3")
    assert Playout(0).decide(g, 0) == ("march", "h1", "h8")
    before = g.position.board_fen()
    e8, h1 = parse_square("e8"), parse_square("h1")
    assert mates(g.position, h1, parse_square("h8"), [e8])
    assert not mates(g.position, h1, parse_square("h5"), [e8])  # (no check from h5)
    assert g.position.board_fen() == before  # judged on the board, and put back


def test_each_unit_further_back_in_the_barracks_counts_less() -> None:
    game = Game(RULES, Setup())
    rook, pawn = RULES.units.get("Rook"), RULES.units.get("Pawn")
    assert queued_worth([pawn, rook, rook], game) == pytest.approx(5 + 5 * QUEUE + QUEUE**2)
    assert queued_worth([rook] * 10 + [pawn], game) - queued_worth([rook] * 10, game) < 0.25


def test_the_side_ahead_gains_by_an_even_trade_and_the_side_behind_loses() -> None:
    before = scenario_game(fen("Ke1 Ra1 Rb1 Rc1 ke8 rh8"))
    after = scenario_game(fen("Ke1 Ra1 Rb1 ke8"))  # a Rook each, traded
    assert evaluate(after, 0) > evaluate(before, 0)
    assert evaluate(after, 1) < evaluate(before, 1)


def pawns(value: float) -> float:
    """An undecided game's evaluation back in Pawns (the squash taken off)."""
    return SPREAD * math.atanh((value - 0.5) / UNDECIDED)


def test_the_side_ahead_presses_harder_on_the_king() -> None:
    # Mop-up: two search bots, one far ahead, played on to the turn cap without it.
    def closing(pieces: str) -> float:
        far = scenario_game(fen(f"Ke1 Ra2 {pieces} ke8"))
        near = scenario_game(fen(f"Ke1 Ra6 {pieces} ke8"))
        return pawns(evaluate(near, 0)) - pawns(evaluate(far, 0))

    assert closing("Nb1 Nc1 Ng1 Nh1 pa7") > closing("pa7 pb7 pc7 pd7 pf7 pg7 ph7 nb8")
    game = scenario_game(fen("Ke1 Ra6 ke8"))
    attacks = game.attack_map()
    assert pressure(game, attacks, 0, ahead=0.5) > pressure(game, attacks, 0) > 0


def test_a_sovereign_with_squares_to_flee_to_is_worth_more_than_a_boxed_one() -> None:
    boxed = scenario_game(fen("Ke1 Nd1 Nf1 Pd2 Pe2 Pf2 ke8"))
    free = scenario_game(fen("Ke1 Na1 Nh1 Pa2 Pb2 Pc2 ke8"))
    assert flights(boxed.position, boxed.attack_map(), parse_square("e1")) == 0
    assert flights(free.position, free.attack_map(), parse_square("e1")) == 5
    covered = scenario_game(fen("Ke1 ke8 rh2"))  # the Rook holds d2, e2 and f2
    assert flights(covered.position, covered.attack_map(), parse_square("e1")) == 2
    assert evaluate(free, 0) > evaluate(boxed, 0)


def test_taking_one_of_two_forked_kings_beats_holding_the_fork() -> None:
    # A Rook on h8 attacks both gold Kings. The evaluation counted each King in reach as lost,
    # and the Rook's pressure on both, so taking one looked worse than a Pawn's step: two
    # search bots held such a fork for thirty turns, and the game ran to the turn cap.
    taken = scenario_game(fen("Ke1 Pa2 Ra8 kh6", to_move=1), active=1)
    held = scenario_game(fen("Ke1 Pa3 Rh8 ka8 kh6", to_move=1), active=1)
    assert evaluate(taken, 0) > evaluate(held, 0)
    game = scenario_game(fen("Ke1 Pa2 Rh8 ka8 kh6"), hand=["Peon"] * 5, deck=["Peon"] * 5)
    choice = SearchBot(3, iterations=60).decide(game, 0)
    assert choice in (("attack", "h8", "a8"), ("attack", "h8", "h6"))


def test_taking_a_sovereign_never_lowers_the_pressure_on_the_rest() -> None:
    # The least pressed enemy Sovereign sets the pressure: summed over all of them, the Knights
    # around the one taken stopped counting, and a side gained by leaving it on the board.
    both = scenario_game(fen("Ke1 Nb6 Nc6 Rh8 ka8 kh6"))
    one = scenario_game(fen("Ke1 Nb6 Nc6 Rh8 kh6"))  # the King on a8 taken, the rest as it was
    assert pressure(one, one.attack_map(), 0) >= pressure(both, both.attack_map(), 0) > 0


def test_a_last_sovereign_the_side_to_order_can_take_is_a_decided_game() -> None:
    # Blue's Kings stood round gold's lone King for the last fifty turns of a game at the cap:
    # the move that put it in reach, protected, counted for less than a quiet lead, as the
    # capture itself came after the playout's end.
    game = scenario_game(fen("Kf7 Kg6 Kh5 Kh3 kh8"), hand=["Peon"] * 5, deck=["Peon"] * 5)
    assert SearchBot(3, iterations=60).decide(game, 0) in (
        ("march", "f7", "g7"),
        ("march", "g6", "g7"),
    )
    in_reach = scenario_game(fen("Ke1 Rh1 kh8"))  # blue gives the next order
    assert evaluate(in_reach, 0) == decided(True, 1) and evaluate(in_reach, 1) == decided(False, 1)
    # Not when it cannot be taken (Armor, Wish), nor when its one attacker cannot take orders.
    for status in ({"uncapturable": True}, {"frozen": FROZEN_NOW}):
        held = scenario_game(fen("Ke1 Rh1 kh8"))
        unit = held.position.board[parse_square("h8" if "uncapturable" in status else "h1")]
        assert unit is not None
        for name, value in status.items():
            setattr(unit, name, value)
        assert 0.5 < evaluate(held, 0) < decided(True, 1)


def test_the_next_order_is_the_active_seats_until_its_order_phase_ends() -> None:
    game = scenario_game(fen("Ke1 ke8"))
    assert orders_next(game) == 0
    spent = scenario_game(fen("Ke1 ke8"), phase="action")
    assert orders_next(spent) == 1
    # Blue has given its order: its King in reach is lost, not one it can still save.
    marched = scenario_game(fen("Ke1 ke8 rh1"), phase="action")
    ordering = scenario_game(fen("Ke1 ke8 rh1"))
    assert evaluate(marched, 0) < evaluate(ordering, 0)


def test_the_search_does_not_leave_its_queen_to_the_enemy_king() -> None:
    # From a game between two search bots: gold's new Queen marched next to blue's lone King,
    # which took her. The playouts had blue's King flee instead of taking her (see greedy's
    # test), so the search counted the Queen as safe there, and the King as hunted.
    game = scenario_game(
        fen("Kg6 qc1 ke6 pa7 tb7", to_move=1),
        active=1,
        hand=["Peon"] * 5,
        deck=["Peon"] * 5,
        opp_hand=["Peon"] * 5,
        opp_deck=["Peon"] * 5,
    )
    choice = SearchBot(3, iterations=140).decide(game, 1)
    assert choice not in (("march", "c1", "g5"), ("march", "c1", "h6")), choice


def test_a_side_well_ahead_does_not_leave_the_same_board_again_and_again() -> None:
    # From a game between two search bots: blue's Rook fled from gold's King, back and forth
    # between c6 and f6, for seventy turns, with nine more blue units on the board.
    hands = {"hand": ["Peon"] * 5, "deck": ["Peon"] * 5}
    ahead = scenario_game(fen("Kc3 Kd1 Ba1 Ye1 Yg1 Pe2 Pe3 Tc2 Th2 Rc6 kd7 nh8"), **hands)
    first = SearchBot(3, iterations=60).decide(ahead, 0)
    again = SearchBot(3, iterations=60)
    again.left[board(after(ahead, first))] = REPEATS  # it has left that board twice already
    assert again.decide(ahead, 0) != first
    # Behind, a repetition is its way to hold: it repeats.
    behind = scenario_game(fen("Kc3 Rc6 qa7 qb7 qh7 kh8"), **hands)
    first = SearchBot(3, iterations=60).decide(behind, 0)
    again = SearchBot(3, iterations=60)
    again.left[board(after(behind, first))] = REPEATS
    assert again.decide(behind, 0) == first


def test_a_search_bot_remembers_the_boards_its_orders_leave() -> None:
    hands = {"hand": ["Peon"] * 5, "deck": ["Peon"] * 5}
    game = scenario_game(fen("Ke1 Ra1 ke8"), **hands)
    bot = SearchBot(3, iterations=30)
    choice = bot.decide(game, 0)
    assert bot.left == {board(after(game, choice)): 1}


def test_once_the_supply_trains_no_more_a_side_not_behind_does_not_repeat_either() -> None:
    # Two even sides in an ending shuffled a Rook and a King to and fro to the turn cap.
    units = fen("Ke1 Ra1 Nb1 Pa2 Pb2 Pc2 ke8 ra8 nb8 pa7 pb7 pc7")
    hands = {"hand": ["Peon"] * 5, "deck": ["Peon"] * 5}
    hands |= {"opp_hand": ["Peon"] * 5, "opp_deck": ["Peon"] * 5}
    sold_out = [[["Champion", 0], ["Clergy", 0], ["Tower", 0], ["Consort", 0]]]
    for supplies, repeats in ((sold_out, False), (None, True)):
        game = scenario_game(units, **hands, **({"supplies": supplies} if supplies else {}))
        assert 0.5 <= evaluate(game, 0) < AHEAD  # not behind, not well ahead
        first = SearchBot(3, iterations=60).decide(game, 0)
        again = SearchBot(3, iterations=60)
        again.left[board(after(game, first))] = REPEATS
        assert (again.decide(game, 0) == first) == repeats
