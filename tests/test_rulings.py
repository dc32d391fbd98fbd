"""The designer's clarifications, one test per bullet of the rules reference's list, then the
core rules around them: promotion, the Immortal, "cannot be captured", reshuffling and winning.

Every expectation was worked out by hand from the rules reference (second edition) and the
first-edition rulebook, never taken from the engine's output. Positions are written with
:func:`fen`: upper case is blue (seat 0, plays up from rank 1), lower case is gold (seat 1).
"""

from __future__ import annotations

from scenario import RULES, SEED, at, fen, hand, legal_texts, zone
from scenario import game as _game
from scenario import play as _play

from crownp2p.core.board import parse_square
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.movement import KNIGHT, Leap
from crownp2p.core.rules import Rules
from crownp2p.core.setup import FIRST_GAME, TOURNAMENT
from crownp2p.core.standard import card_registry
from crownp2p.core.standard.cards import VARIABLE_NAMES
from crownp2p.core.standard.units import STANDARD_UNITS
from crownp2p.core.units import UnitClass, UnitRegistry, UnitType

FILES = "abcdefgh"


# --------------------------------------------------------------------------- helpers


def game(position: str, **kw) -> Game:
    kw.setdefault("piles", FIRST_GAME)
    return _game(position, **kw)


def settle(g: Game) -> Game:
    while g.prompt().seat == CHANCE and not g.over:
        g.apply(("seed", SEED))
    return g


def play(g: Game, *texts: str) -> Game:
    return settle(_play(g, *texts))


def options(g: Game) -> set[str]:
    return set(legal_texts(g))


def unit(g: Game, square: str):
    u = g.position.board[parse_square(square)]
    assert u is not None, f"no unit on {square}"
    return u


def barracks(g: Game, seat: int) -> list[str]:
    return sorted(k.name for k in g.position.barracks[seat])


def moves_from(g: Game, square: str) -> set[str]:
    return {
        t
        for t in legal_texts(g)
        if t.split()[0] in ("march", "attack", "swap") and t.split()[1] == square
    }


def sovereigns(g: Game, seat: int) -> list[str]:
    return [
        f"{u.kind.name}{u.owner}"
        for _, u in g.position.units()
        if u.owner == seat and u.kind.is_sovereign
    ]


# Promotion: "any unit type trainable by the Supply cards chosen at setup" (the starting cards
# are not Supply cards), from the card table. A Pawn may also stay a Pawn (promotion is optional).
CORE_UNITS = {"Knight", "Bishop", "Rook", "Queen"}  # Champion, Clergy, Tower, Consort
FIRST_GAME_UNITS = CORE_UNITS | {
    "Warlord",  # Armor
    "Chancellor",  # Bureaucracy
    "Acolyte",  # Evangelism
    "King",  # Heir
    "Hero",  # Legend
    "Dragoon",  # Patronage
    "Striker",  # Versatility
}  # Quartermaster, Refiner and Stables train nothing
TOURNAMENT_1_UNITS = CORE_UNITS | {
    "Immortal",
    "Spy",
    "Nightrider",
    "Charger",
    "Sniper",
    "Phantom",
    "Sphinx",
    "Banshee",
    "Gryphon",
}  # Sanctuary trains nothing; no Heir, so no King
PAWN_PROMOTES_TO = FIRST_GAME_UNITS | {"Pawn"}  # "Pawn": stay as it is


# =========================================================================== the clarifications


def test_marching_attacking_and_deploying_need_no_card() -> None:
    """Clarification 1: marching, attacking and deploying never need a card."""
    g = game(fen("Ke1 Rd4 pd6 ke8", blue="N"), counters={"orders": 3})
    texts = legal_texts(g)
    assert {"march d4 d5", "attack d4 d6", "deploy Knight b1"} <= set(texts)
    play(g, "attack d4 d6", "deploy Knight b1", "march e1 f2")
    assert (at(g, "d6"), at(g, "b1"), at(g, "f2")) == ("Rook0", "Knight0", "King0")
    assert zone(g, 0, "in_play") == [] and hand(g, 0) == []


def test_guard_deploys_any_unit_type_somewhere_unusual() -> None:
    """Clarification 1: Guard's Order deploys somewhere unusual, any unit type."""
    g = game(fen("Ke1 ke8", blue="R"), hand=["Guard"])
    # By the normal rules a Rook (not Foot) deploys on the first rank only.
    assert "deploy Rook e2" not in legal_texts(g)
    play(g, "play Guard 2")
    assert options(g) == {f"deploy Rook {s}" for s in ("d1", "f1", "d2", "e2", "f2")}
    play(g, "deploy Rook e2")
    assert at(g, "e2") == "Rook0"


def test_plus_one_order_adds_to_the_pool_and_is_not_used_at_once() -> None:
    """Clarification 2: +1 Order raises the number of orders; it is not an order to use now."""
    g = game(fen("Ra1 Ke1 ke8"), hand=["Astrology", "Astrology"])
    play(g, "play Astrology 2")
    assert g.this_turn.orders == 1  # 1, minus the card's own order, plus 1
    play(g, "play Astrology 2")
    assert g.this_turn.orders == 1
    # The extra order is ours to use on anything, or to leave unused.
    assert {"march a1 a5", "march e1 e2"} <= options(g)
    play(g, "march a1 a5")
    assert g.this_turn.orders == 0
    assert (g.active, g.this_turn.phase) == (0, "buy")


def test_bureaucracy_extra_order_is_for_another_unit() -> None:
    """Clarification 2 (the rulebook's Bureaucracy example)."""
    # The rulebook's example: after the Foot unit moves, the second order is anything except
    # one involving that same unit.
    g = game(fen("Pc2 Ra1 Ke1 ke8"), hand=["Bureaucracy"])
    play(g, "play Bureaucracy 2", "march c2 c4")
    assert g.this_turn.orders == 1
    assert moves_from(g, "c4") == set()
    assert "march a1 a8" in legal_texts(g)


def test_no_check_and_no_checkmate() -> None:
    """Clarification 3: no check or checkmate; a King is just another unit."""
    # Gold's Rook on e5 attacks the blue King on e1.
    g = game(fen("Ke1 Nb1 re5 kh8"))
    texts = legal_texts(g)
    assert "march b1 c3" in texts  # the King may be left attacked
    assert "march e1 e2" in texts  # and may walk along the attacked file
    play(g, "march b1 c3")
    assert g.active == 1
    assert "attack e5 e1" in legal_texts(g)
    play(g, "attack e5 e1")  # gold's only order: its turn ends, and with it the game
    assert sovereigns(g, 0) == []
    assert g.over and g.winner == 1


def test_stables_only_marches_and_cannot_capture_a_king() -> None:
    """Clarification 4: Stables only marches; it cannot capture, not even a King."""
    # Knight b1 reaches c3 (gold Rook); from d2 it would reach c4 (the gold King).
    g = game(fen("Nb1 Kh1 rc3 kc4"), hand=["Stables"])
    play(g, "play Stables 1")
    assert options(g) == {"march b1 a3", "march b1 d2"}
    play(g, "march b1 d2")
    assert options(g) == {"march d2 b1", "march d2 b3", "march d2 e4", "march d2 f3", "march d2 f1"}
    assert "attack d2 c4" not in options(g)
    play(g, "march d2 e4")
    assert at(g, "c4") == "King1"


def test_adjacent_includes_diagonals() -> None:
    """Clarification 5: adjacent includes diagonals."""
    g = game(fen("Ka1 ke8", blue="R"), hand=["Guard"])
    play(g, "play Guard 2")
    assert options(g) == {"deploy Rook a2", "deploy Rook b1", "deploy Rook b2"}  # b2: corner


def test_spy_swap_orders_only_the_spy_and_may_swap_with_a_sovereign() -> None:
    """Clarification 6: the Spy's swap orders only the Spy; any class, Sovereigns too."""
    g = game(fen("Sd4 Ke1 Bc1 ke8"), counters={"orders": 2})
    assert {"swap d4 e1", "swap d4 c1"} <= options(g)
    play(g, "swap d4 e1")
    assert (at(g, "d4"), at(g, "e1")) == ("King0", "Spy0")
    assert g.this_turn.orders == 1
    assert moves_from(g, "e1") == set()  # the Spy has had its order
    assert "march d4 d5" in legal_texts(g)  # the King has not


def test_a_promoted_unit_is_the_same_unit_and_cannot_be_ordered_again() -> None:
    """Clarification 7: a promoted unit is the same unit: no second order."""
    g = game(fen("Pe7 Ke1 kh8"), counters={"orders": 2})
    uid = unit(g, "e7").uid
    play(g, "march e7 e8", "promote Queen")
    assert at(g, "e8") == "Queen0"
    assert unit(g, "e8").uid == uid
    assert g.this_turn.orders == 1
    assert moves_from(g, "e8") == set()


def test_a_morphed_unit_is_the_same_unit_and_keeps_its_order() -> None:
    """Clarification 7: a morphed unit is the same unit (it keeps its order)."""
    g = game(fen("Nb1 Ke1 ke8"), hand=["Destiny", "Tower"], deck=["Peon"])
    uid = unit(g, "b1").uid
    play(g, "march b1 c3")
    assert g.this_turn.phase == "action"
    play(g, "play Destiny 2", "trash Tower", "morph c3")
    assert at(g, "c3") == "Rook0"
    assert unit(g, "c3").uid == uid
    assert uid in g.this_turn.ordered


def centaur_rules() -> Rules:
    """The standard rules plus a Foot and Mounted test unit (a Knight's leap), so that a
    dual-class unit can be promoted partway through Stables."""
    centaur = UnitType("Centaur", "U", (UnitClass.FOOT, UnitClass.MOUNTED), (Leap(KNIGHT),))
    return Rules(
        UnitRegistry((*STANDARD_UNITS, centaur)),
        card_registry(),
        variable_cards=list(VARIABLE_NAMES),
    )


def test_a_dual_class_unit_promoted_partway_through_stables_finishes_the_card() -> None:
    """Clarification 7: a dual-class unit promoted partway through Stables finishes it."""
    rules = centaur_rules()
    g = Game.from_json(
        rules,
        {
            "fen": fen("Ub6 Ke1 kf8"),
            "setup": {"piles": list(FIRST_GAME)},
            "players": [{"hand": ["Stables"]}, {}],
            "this_turn": {"orders": 2},
        },
    )
    play(g, "play Stables 1", "march b6 c8")
    assert g.prompt().kind == "promote"
    assert {"promote Centaur", "promote Rook", "promote Knight"} <= options(g)
    play(g, "promote Rook")
    # The second march is the Rook's (it is the same unit); still no attack on f8.
    assert options(g) == {
        f"march c8 {s}" for s in ("c7", "c6", "c5", "c4", "c3", "c2", "c1", "b8", "a8", "d8", "e8")
    }
    play(g, "march c8 c2")
    assert at(g, "c2") == "Rook0"
    assert g.stack == [] and g.this_turn.orders == 1


def test_oracle_captures_without_moving() -> None:
    """Clarification 8: the Oracle does not move when attacking."""
    g = game(fen("Od4 Ke1 pd6 ke8"))
    play(g, "attack d4 d6")
    assert at(g, "d4") == "Oracle0"
    assert at(g, "d6") is None


def test_sniper_moves_onto_what_it_captures() -> None:
    """Clarification 8: the Sniper moves onto what it captures."""
    g = game(fen("Za1 Ke1 pa5 pb2 ke8"))
    assert "attack a1 b2" not in legal_texts(g)  # it attacks at least 2 away
    play(g, "attack a1 a5")
    assert at(g, "a5") == "Sniper0"
    assert at(g, "a1") is None


def test_threatened_is_judged_after_the_move() -> None:
    """Clarification 9: threatened is judged after the move (Heir)."""
    # The gold Rook a1 cannot see f1 while the King stands on e1; after the King's step it can.
    g = game(fen("Ke1 ra1 ke8"), hand=["Heir"])
    play(g, "play Heir 2")
    assert options(g) == {"march e1 d2", "march e1 e2", "march e1 f2"}


def test_aviary_judges_threat_after_the_move() -> None:
    """Clarification 9: threatened is judged after the move (Aviary)."""
    # The Queen on d4 blocks the gold Rook d8; once moved to d2 she would be on its open file.
    g = game(fen("Qd4 Ke1 rd8 kh8"), hand=["Aviary"])
    play(g, "play Aviary 2")
    assert "move d4 d2" not in options(g)
    assert "move d4 c2" in options(g)


def test_guard_deploys_next_to_a_sovereign_that_already_acted() -> None:
    """Clarification 10: Guard may deploy next to a Sovereign that already acted."""
    g = game(fen("Ke1 ke8", blue="R"), hand=["Guard"], counters={"orders": 2})
    play(g, "march e1 e2", "play Guard 2")
    around_e2 = ("d1", "e1", "f1", "d2", "f2", "d3", "e3", "f3")
    assert options(g) == {f"deploy Rook {s}" for s in around_e2}
    play(g, "deploy Rook e3")
    assert at(g, "e3") == "Rook0"


def test_false_orders_promotion_is_chosen_by_the_owner_and_may_be_a_king() -> None:
    """Clarification 11: False Orders' promotion is the owner's, and may be a Sovereign."""
    g = game(fen("Kh1 pd2 ke8"), hand=["False Orders"], counters={"orders": 2})
    play(g, "play 'False Orders' 1")
    assert options(g) == {"march d2 d1"}
    play(g, "march d2 d1")
    prompt = g.prompt()
    assert (prompt.seat, prompt.kind) == (1, "promote")  # gold decides
    assert options(g) == {f"promote {n}" for n in PAWN_PROMOTES_TO}
    play(g, "promote King")
    assert at(g, "d1") == "King1"
    assert unit(g, "d1").frozen == 1
    assert g.prompt().seat == 0 and g.this_turn.phase == "order"


def test_destiny_is_forced_and_may_morph_away_the_only_sovereign() -> None:
    """Clarification 12: Destiny is forced and may morph away the only Sovereign."""
    g = game(
        fen("Ke1 ke8"),
        hand=["Destiny", "Champion", "Peon"],
        deck=["Tower"] + ["Peon"] * 5,
        phase="action",
    )
    play(g, "play Destiny 2")
    assert options(g) == {"trash Champion", "trash Peon", "trash Tower"}  # no "done"
    play(g, "trash Champion")
    assert options(g) == {"morph e1"}  # no "done"
    play(g, "morph e1")
    assert at(g, "e1") == "Knight0"
    assert sovereigns(g, 0) == []
    # Victory is checked at the end of the turn only: the turn goes on.
    assert not g.over
    assert g.this_turn.phase == "action" and g.this_turn.actions == 1 and g.prompt().seat == 0
    play(g, "end", "end")  # action phase, buy phase
    assert g.over and g.winner == 1


def test_refiner_morphs_only_one_unit_even_with_an_x2_card() -> None:
    """Clarification 13: Refiner morphs one unit, even with an x2 card."""
    g = game(
        fen("Ke1 ke8", blue="PP"), hand=["Refiner", "Versatility"], deck=["Peon"], phase="action"
    )
    play(g, "play Refiner 1", "trash Versatility", "morph barracks Pawn")
    assert barracks(g, 0) == ["Pawn", "Striker"]
    assert g.stack == []


def test_legend_ignores_other_effects_and_quartermaster_treasure_gives_gold_and_discount() -> None:
    """Clarification 14: Legend ignores other effects; Quartermaster gives gold + discount."""
    g = game(
        fen("Ke1 ke8"),
        hand=["Peon", "Champion", "Legend", "Quartermaster", "Legend"],
        deck=["Clergy"],
        phase="action",
        counters={"actions": 2},
    )
    play(g, "train Peon", "play Champion 2")  # a Training and an Action: not Treasures
    assert (g.this_turn.gold, g.this_turn.buys, g.this_turn.phase) == (2, 2, "buy")
    play(g, "treasure Legend")
    assert g.this_turn.gold == 2  # + 0
    play(g, "treasure Quartermaster")
    assert (g.this_turn.gold, g.this_turn.buys, g.this_turn.discount) == (3, 3, 1)
    play(g, "treasure Legend")
    assert g.this_turn.gold == 5  # + 2: the first Legend and the Quartermaster
    play(g, "treasure Clergy")
    assert g.this_turn.gold == 7
    play(g, "buy Tower")  # 6 - 1
    assert g.this_turn.gold == 2


def test_gained_cards_are_shuffled_in_but_cards_in_play_are_not() -> None:
    """Clarification 15: gained cards are shuffled in mid-turn, cards in play are not."""
    g = game(
        fen("Ke1 ke8"),
        hand=["Sacrifice", "Patronage", "Peon"],
        discard=["Guard"],
        phase="action",
        counters={"actions": 2},
    )
    play(g, "play Sacrifice 2", "discard Peon", "gain Tower")
    assert zone(g, 0, "discard") == ["Guard", "Peon", "Tower"]
    assert zone(g, 0, "deck") == []
    play(g, "play Patronage 2")  # must draw from an empty deck: reshuffle
    assert zone(g, 0, "in_play") == ["Sacrifice", "Patronage"]
    assert zone(g, 0, "discard") == []
    assert len(hand(g, 0)) == 1 and len(zone(g, 0, "deck")) == 2
    assert sorted(hand(g, 0) + zone(g, 0, "deck")) == ["Guard", "Peon", "Tower"]


def test_mourning_status_follows_the_units_not_the_squares() -> None:
    """Clarification 16: Mourning's status follows the units, not the squares."""
    g = game(
        fen("Qd1 Ka1 nd5 nc6 sh6 ke8"),
        hand=["Mourning"],
        opp_hand=["Fog", "Peon"],
        counters={"orders": 2},
    )
    play(g, "play Mourning 2", "attack d1 d5", "end")
    assert g.active == 1
    assert moves_from(g, "c6") == set()  # the Knight next to d5 cannot take orders
    # The gold Spy trades places with it: the Knight stays frozen on h6, the Spy on c6 is not.
    play(g, "swap h6 c6")
    assert (at(g, "h6"), at(g, "c6")) == ("Knight1", "Spy1")
    assert unit(g, "h6").frozen == 2
    assert unit(g, "c6").frozen == 0
    # Actions are not orders: Fog may march the frozen Knight, which stays frozen.
    assert g.this_turn.phase == "action"
    play(g, "play Fog 2")
    assert options(g) == {"march h6 g8", "march h6 f7", "march h6 f5", "march h6 g4"}
    play(g, "march h6 f5")
    assert g.this_turn.phase == "buy" and g.active == 1
    assert unit(g, "f5").frozen == 2
    play(g, "end")
    assert g.active == 0
    assert unit(g, "f5").frozen == 0


def test_cannot_be_captured_stops_a_charger_capture_on_its_path() -> None:
    """Clarification 17: cannot be captured protects against all captures, path captures too."""
    # Gold Charger a4; blue Pawn b4 and blue Rook c4, the Rook protected (as by Armor).
    position = fen("Ke1 Pb4 Rc4 ja4 ke8", to_move=1)
    protected = game(position, active=1, statuses=[{"square": "c4", "uncapturable": True}])
    assert moves_from(protected, "a4") == {
        "march a4 a5",
        "march a4 a6",
        "march a4 a7",
        "march a4 a3",
        "march a4 a2",
        "march a4 a1",
        "attack a4 b4",
    }
    plain = game(position, active=1)
    assert {"attack a4 b4", "attack a4 c4", "attack a4 d4"} <= moves_from(plain, "a4")
    play(plain, "attack a4 d4")
    assert (at(plain, "b4"), at(plain, "c4"), at(plain, "d4")) == (None, None, "Charger1")


def test_false_orders_respects_one_order_per_unit() -> None:
    """Clarification 18: no side-benefits for the mover; one order per unit still applies."""
    g = game(fen("Ke1 nc6 rh7 ke8"), hand=["False Orders", "False Orders"], counters={"orders": 3})
    play(g, "play 'False Orders' 1", "march c6 d4")
    assert g.this_turn.orders == 2  # no side-benefit: the card only used an order
    play(g, "play 'False Orders' 1")
    assert not any(t.split()[1] == "d4" for t in legal_texts(g))  # that Knight is done
    assert "march h7 h1" in legal_texts(g)


def test_the_stock_does_not_limit_units() -> None:
    """Clarification 19: the Stock does not limit play."""
    pawns = " ".join(f"P{f}2" for f in FILES)
    g = game(fen(f"{pawns} Ke1 ke8", blue="P" * 8), hand=["Peon", "Clergy"], phase="action")
    play(g, "train Peon")
    assert barracks(g, 0) == ["Pawn"] * 9


def test_blue_moves_first_and_both_seats_start_alike() -> None:
    """Clarification 20: who goes first is a convention (blue here); neither seat is favoured."""
    g = Game(RULES)
    settle(g)
    assert (g.active, g.turn, g.this_turn.phase) == (0, 1, "order")
    assert (at(g, "e1"), at(g, "e8")) == ("King0", "King1")
    for seat in (0, 1):
        cards = hand(g, seat) + zone(g, seat, "deck")
        assert len(hand(g, seat)) == 5
        assert sorted(cards) == ["Guard"] * 4 + ["Peon"] * 6
    assert (g.this_turn.orders, g.this_turn.actions, g.this_turn.buys, g.this_turn.gold) == (
        1,
        1,
        1,
        0,
    )
    while g.active == 0:
        play(g, "end")
    assert (g.active, g.this_turn.phase) == (1, "order")
    assert (g.this_turn.orders, g.this_turn.actions, g.this_turn.buys, g.this_turn.gold) == (
        1,
        1,
        1,
        0,
    )
    assert len(hand(g, 1)) == 5


# =========================================================================== promotion


def test_promotion_is_optional_and_offers_the_units_of_this_games_cards() -> None:
    g = game(fen("Pe7 Ke1 kh8"))
    play(g, "march e7 e8")
    assert g.prompt().kind == "promote" and g.prompt().seat == 0
    assert options(g) == {f"promote {n}" for n in PAWN_PROMOTES_TO}  # King: Heir is there
    play(g, "promote Pawn")
    assert at(g, "e8") == "Pawn0"


def test_promotion_to_a_king_with_heir_in_the_supply() -> None:
    g = game(fen("Pe7 Ke1 kh8"))
    play(g, "march e7 e8", "promote King")
    assert sovereigns(g, 0) == ["King0", "King0"]


def test_no_king_promotion_without_heir() -> None:
    g = game(fen("Pe7 Ke1 kh8"), piles=TOURNAMENT[0])
    play(g, "march e7 e8")
    assert options(g) == {f"promote {n}" for n in TOURNAMENT_1_UNITS | {"Pawn"}}


def test_promotion_by_attack() -> None:
    g = game(fen("Pe7 Ke1 rd8 kh8"))
    play(g, "attack e7 d8")
    assert g.prompt().kind == "promote"
    play(g, "promote Knight")
    assert at(g, "d8") == "Knight0"


def test_placed_on_the_last_rank_by_a_card_does_not_promote() -> None:
    g = game(fen("Qd7 Pa2 Ke1 kh1"), hand=["Consort"], phase="action")
    play(g, "play Consort 2", "move a2 d8")
    assert g.prompt().kind != "promote"
    assert at(g, "d8") == "Pawn0"


def test_a_placed_unit_promotes_when_it_marches_along_the_last_rank() -> None:
    g = game(fen("Id8 Ke1 kh1"))
    play(g, "march d8 e8")
    assert g.prompt().kind == "promote"
    play(g, "promote Queen")
    assert at(g, "e8") == "Queen0"


def test_a_non_pawn_foot_unit_promotes_only_to_what_the_supply_trains() -> None:
    """The reference: the types trainable by the Supply cards chosen at setup. The starting
    cards are not Supply cards, so an Immortal may not become a Pawn (our call 25)."""
    g = game(fen("Id7 Ke1 kh1"))
    play(g, "march d7 d8")
    assert options(g) == {f"promote {n}" for n in FIRST_GAME_UNITS | {"Immortal"}}


def test_promotion_partway_through_onslaught_and_the_card_goes_on() -> None:
    g = game(fen("Pe7 Pa2 Ke1 kh1"), hand=["Onslaught"])
    play(g, "play Onslaught 2", "march e7 e8")
    assert g.prompt().kind == "promote"
    play(g, "promote Rook")
    assert at(g, "e8") == "Rook0"
    assert options(g) == {"march a2 a3", "march a2 a4", "done"}  # the Rook is not Foot
    play(g, "march a2 a4")
    assert at(g, "a4") == "Pawn0"


def test_a_foot_unit_that_does_not_reach_the_last_rank_is_not_promoted() -> None:
    g = game(fen("Pe6 Ke1 kh1"))
    play(g, "march e6 e7")
    assert g.prompt().kind != "promote"
    assert at(g, "e7") == "Pawn0"


# =========================================================================== the Immortal


def test_a_captured_immortal_returns_to_its_owners_barracks() -> None:
    g = game(fen("Ra1 Ke1 ia5 ke8"))
    play(g, "attack a1 a5")
    assert at(g, "a5") == "Rook0"
    assert barracks(g, 1) == ["Immortal"]
    assert barracks(g, 0) == []


def test_a_charger_capturing_an_immortal_and_a_pawn_sends_back_only_the_immortal() -> None:
    g = game(fen("Ja1 Ke1 ib1 pc1 ke8"))
    play(g, "attack a1 c1")
    assert at(g, "c1") == "Charger0"
    assert at(g, "b1") is None
    assert barracks(g, 1) == ["Immortal"]


def test_other_captured_units_leave_play() -> None:
    g = game(fen("Ra1 Ke1 pa5 ke8"))
    play(g, "attack a1 a5")
    assert barracks(g, 1) == []
    assert [u.kind.name for _, u in g.position.units() if u.owner == 1] == ["King"]


# =========================================================================== cannot be captured

PROTECTED = fen("Ke1 Rd4 rd8 of4 ja4 nc6 ke8", to_move=1)


def test_cannot_be_captured_blocks_every_capture() -> None:
    # Blue Rook d4. Gold: Rook d8 (straight), Oracle f4 (2 away, e4 empty), Charger a4 (3
    # squares), Knight c6 (a leap).
    plain = game(PROTECTED, active=1)
    attacks = {"attack d8 d4", "attack f4 d4", "attack a4 d4", "attack c6 d4"}
    assert attacks <= options(plain)
    protected = game(PROTECTED, active=1, statuses=[{"square": "d4", "uncapturable": True}])
    texts = options(protected)
    assert not any(t.startswith("attack") and t.endswith("d4") for t in texts)
    assert {t for t in texts if t.split()[1:2] == ["a4"] and t.split()[2][0] != "a"} == {
        "march a4 b4",
        "march a4 c4",
    }  # the Charger can neither capture nor pass it


def test_cannot_be_captured_also_against_false_orders() -> None:
    g = game(
        fen("Ke1 Pb4 Rd4 nc6 ke8"),
        hand=["False Orders"],
        statuses=[{"square": "d4", "uncapturable": True}],
    )
    play(g, "play 'False Orders' 1")
    texts = options(g)
    assert "attack c6 b4" in texts
    assert "attack c6 d4" not in texts


def test_cannot_be_captured_also_against_mourning() -> None:
    # The gold Queen's only capture would be the protected blue Queen on d1.
    g = game(
        fen("Qd1 Ka1 qd7 ke8", to_move=1),
        active=1,
        hand=["Mourning", "Peon"],
        statuses=[{"square": "d1", "uncapturable": True}],
    )
    assert "attack d7 d1" not in legal_texts(g)
    assert "play Mourning 2" not in legal_texts(g)


def test_protection_ends_when_its_owners_next_turn_begins() -> None:
    g = game(fen("Ke1 Rd4 rd8 ke8"), statuses=[{"square": "d4", "uncapturable": True}])
    play(g, "end")  # blue's turn ends: the Rook stays protected through gold's turn
    assert g.active == 1
    assert "attack d8 d4" not in legal_texts(g)
    play(g, "end")
    assert g.active == 0
    assert not unit(g, "d4").uncapturable


# =========================================================================== reshuffling


def test_housekeeping_discards_everything_then_reshuffles_to_draw_five() -> None:
    g = game(fen("Ke1 ke8"), hand=["Clergy", "Peon"], deck=["Tower"], phase="buy")
    play(g, "treasure Clergy", "end")
    assert g.active == 1
    assert hand(g, 0) == ["Clergy", "Peon", "Tower"]  # all there was
    assert zone(g, 0, "deck") == [] and zone(g, 0, "discard") == []
    assert zone(g, 0, "in_play") == []


def test_trashed_cards_are_not_shuffled_back() -> None:
    g = game(fen("Ke1 ke8"), hand=["Peon", "Clergy"], discard=["Guard"], phase="action")
    play(g, "train Peon", "end")  # buy phase: end
    assert g.active == 1
    assert hand(g, 0) == ["Clergy", "Guard"]
    assert [g.cards[c] for c in g.trash] == ["Peon"]


# =========================================================================== winning


def test_capturing_the_last_sovereign_wins_at_the_end_of_the_turn() -> None:
    g = game(fen("Ra1 Ke1 ka8"), counters={"orders": 2})
    play(g, "attack a1 a8")
    assert sovereigns(g, 1) == []
    assert not g.over  # mid-turn: the turn goes on
    assert g.this_turn.phase == "order" and g.prompt().seat == 0
    assert "march e1 e2" in legal_texts(g)
    play(g, "end")
    assert g.over and g.winner == 0


def test_an_anointed_keeps_its_side_in_the_game() -> None:
    g = game(fen("Ra1 Ke1 ka8 ah8"))
    play(g, "attack a1 a8")
    assert not g.over
    assert g.active == 1


def test_a_king_promoted_after_the_capture_saves_its_side() -> None:
    # Blue captures gold's only King, then False Orders marches a gold Pawn onto gold's last
    # rank: gold promotes it to a King, so at the end of the turn gold has a Sovereign.
    g = game(fen("Ra1 Kh1 pd2 ka8"), hand=["False Orders"], counters={"orders": 2})
    play(g, "attack a1 a8", "play 'False Orders' 1", "march d2 d1", "promote King")
    assert sovereigns(g, 1) == ["King1"]
    assert not g.over
    # Gold's new King could not take orders on gold's turn (False Orders), and gold had nothing
    # else to do: that turn passed, and it is blue's turn 3.
    assert (g.turn, g.active) == (3, 0)
    assert at(g, "d1") == "King1"


def test_morphing_away_the_only_sovereign_and_back_in_one_turn() -> None:
    g = game(
        fen("Ke1 ke8"),
        hand=["Destiny", "Destiny", "Champion", "Heir"],
        deck=["Peon"] * 7,
        phase="action",
    )
    play(g, "play Destiny 2", "trash Champion", "morph e1")
    assert at(g, "e1") == "Knight0" and not g.over
    play(g, "play Destiny 2", "trash Heir", "morph e1")
    assert at(g, "e1") == "King0"
    while g.active == 0 and not g.over:
        play(g, "end")
    assert not g.over
    assert g.active == 1


def test_units_in_the_barracks_do_not_count() -> None:
    # Gold's King on a8 falls; the King in gold's Barracks does not keep gold in the game.
    g = game(fen("Ra1 Ke1 ka8", gold="k"), counters={"orders": 2})
    play(g, "attack a1 a8", "end")
    assert g.over and g.winner == 0
