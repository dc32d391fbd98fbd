"""Every effect of the 33 second-edition cards, one scenario at a time.

Each test starts from an explicit state (board, Barracks, hand, deck, counters) and checks the
exact result. Every expectation below was worked out by hand from the rules reference (the card
table "The cards", "The units" and "The designer's clarifications") and the first-edition
rulebook's turn; none was copied from the engine's output. Squares listed as expected were
counted from the movement rules by hand.

Positions are written with :func:`fen`: ``"Ke1 Nb1 ke8"`` is a blue (seat 0, upper case) King on
e1 and Knight on b1, and a gold (seat 1, lower case) King on e8.
"""

from __future__ import annotations

import pytest
from scenario import SEED, at, fen, hand, legal_texts, zone
from scenario import game as _game
from scenario import play as _play

from crownp2p.core.board import parse_square
from crownp2p.core.decisions import IllegalDecision
from crownp2p.core.game import CHANCE
from crownp2p.core.setup import FIRST_GAME
from crownp2p.core.standard import standard_rules

FILES = "abcdefgh"
ALL_SQUARES = [f + r for r in "12345678" for f in FILES]


# --------------------------------------------------------------------------- helpers


def options(g) -> set[str]:
    return set(legal_texts(g))


def barracks(g, seat: int) -> list[str]:
    return sorted(k.name for k in g.position.barracks[seat])


def unit(g, square: str):
    u = g.position.board[parse_square(square)]
    assert u is not None, f"no unit on {square}"
    return u


def moves_from(g, square: str) -> set[str]:
    """The phase's march/attack/swap decisions that start on ``square``."""
    return {
        t
        for t in legal_texts(g)
        if t.split()[0] in ("march", "attack", "swap") and t.split()[1] == square
    }


def trash(g) -> list[str]:
    return sorted(g.cards[c] for c in g.trash)


def game(position: str, **kw):
    """scenario.game with the first-game Supply unless ``piles`` is given."""
    kw.setdefault("piles", FIRST_GAME)
    return _game(position, **kw)


def play(g, *texts: str):
    """Apply the decisions, then feed the fixed seed to a shuffle left pending at the end."""
    return settle(_play(g, *texts))


def settle(g):
    """Feed the fixed seed to any pending shuffle (a housekeeping reshuffle)."""
    while g.prompt().seat == CHANCE and not g.over:
        g.apply(("seed", SEED))
    return g


def squares_except(*excluded: str) -> list[str]:
    return [s for s in ALL_SQUARES if s not in excluded]


# The first-game Supply (the default of scenario.game): costs from the card table.
FIRST_GAME_COSTS = {
    "Champion": 2,
    "Clergy": 3,
    "Tower": 6,
    "Consort": 9,
    "Armor": 7,
    "Bureaucracy": 8,
    "Evangelism": 6,
    "Heir": 8,
    "Legend": 4,
    "Patronage": 5,
    "Quartermaster": 5,
    "Refiner": 4,
    "Stables": 3,
    "Versatility": 2,
}


def affordable(limit: int) -> set[str]:
    return {name for name, cost in FIRST_GAME_COSTS.items() if cost <= limit}


# =========================================================================== Training effects

# The card table: each training card, the unit it trains and how many ("x2").
TRAINING = [
    ("Peon", "Pawn", 1),
    ("Guard", "Pawn", 1),
    ("Squire", "Pawn", 1),
    ("Champion", "Knight", 1),
    ("Clergy", "Bishop", 1),
    ("Tower", "Rook", 1),
    ("Consort", "Queen", 1),
    ("Academy", "Spy", 1),
    ("Armor", "Warlord", 1),
    ("Astrology", "Oracle", 1),
    ("Aviary", "Gryphon", 1),
    ("Bureaucracy", "Chancellor", 1),
    ("Destiny", "Anointed", 1),
    ("Evangelism", "Acolyte", 2),
    ("Fog", "Phantom", 1),
    ("Heir", "King", 1),
    ("Legend", "Hero", 1),
    ("Mourning", "Banshee", 1),
    ("Onslaught", "Charger", 1),
    ("Patronage", "Dragoon", 1),
    ("Sacrifice", "Immortal", 1),
    ("Scribes", "Monk", 1),
    ("Subterfuge", "Sniper", 1),
    ("Temple", "Sphinx", 1),
    ("Versatility", "Striker", 2),
    ("Vigilance", "Nightrider", 1),
]
NOT_TRAINING = [
    "Executive Action",
    "False Orders",
    "Quartermaster",
    "Refiner",
    "Sanctuary",
    "Stables",
    "Wish",
]


def test_the_table_covers_all_33_cards() -> None:
    assert len(TRAINING) + len(NOT_TRAINING) == 33


@pytest.mark.parametrize(("card", "trained", "count"), TRAINING, ids=[t[0] for t in TRAINING])
def test_training_trashes_the_card_and_fills_the_barracks(card, trained, count) -> None:
    # A Clergy stays in hand so the buy phase has something to offer and waits.
    g = game(fen("Ke1 ke8"), hand=[card, "Clergy"], phase="action")
    assert f"train {card}" in legal_texts(g)
    play(g, f"train {card}")
    assert trash(g) == [card]
    assert barracks(g, 0) == [trained] * count
    assert hand(g, 0) == ["Clergy"]
    assert zone(g, 0, "in_play") == []
    assert g.this_turn.actions == 0
    assert g.this_turn.phase == "buy"


@pytest.mark.parametrize("card", NOT_TRAINING)
def test_cards_without_a_training_effect_cannot_train(card) -> None:
    g = game(fen("Ke1 ke8"), hand=[card, "Clergy"], phase="action")
    texts = legal_texts(g)
    assert "train Clergy" in texts
    assert not any(t.startswith("train") and "Clergy" not in t for t in texts)


def test_a_unit_trained_this_turn_waits_in_the_barracks() -> None:
    # Orders come before actions: the new Pawn can only be deployed on a later turn.
    g = game(fen("Ke1 ke8"), hand=["Peon", "Clergy"], phase="action")
    play(g, "train Peon")
    assert g.this_turn.phase == "buy"
    assert not any(t.startswith("deploy") for t in legal_texts(g))
    assert all(at(g, s) in (None, "King0", "King1") for s in ALL_SQUARES)


# =========================================================================== starting cards


def test_peon_treasure_gives_one_gold() -> None:
    g = game(fen("Ke1 ke8"), hand=["Peon", "Peon"], phase="buy")
    play(g, "treasure Peon")
    assert g.this_turn.gold == 1
    assert hand(g, 0) == ["Peon"]
    assert zone(g, 0, "in_play") == ["Peon"]
    assert g.this_turn.buys == 1


def test_guard_deploys_any_unit_next_to_a_sovereign() -> None:
    # King e4; e5 (own Pawn) and d5 (enemy Pawn) are taken.
    g = game(fen("Ke4 Pe5 pd5 ke8", blue="R"), hand=["Guard"], counters={"orders": 2})
    play(g, "play Guard 2")
    assert g.prompt().kind == "deploy"
    assert options(g) == {f"deploy Rook {s}" for s in ("d3", "e3", "f3", "d4", "f4", "f5")}
    play(g, "deploy Rook f5")
    assert at(g, "f5") == "Rook0"
    assert barracks(g, 0) == []
    assert g.this_turn.orders == 1
    assert zone(g, 0, "in_play") == ["Guard"]
    # The card ordered the Rook: it cannot march or attack this turn.
    assert moves_from(g, "f5") == set()


def test_guard_needs_a_unit_in_the_barracks() -> None:
    g = game(fen("Ke1 ke8"), hand=["Guard"])
    assert "play Guard 2" not in legal_texts(g)


def test_squire_deploys_any_unit_on_the_second_rank() -> None:
    g = game(fen("Ke1 Pd2 ke8", blue="R"), hand=["Squire"], counters={"orders": 2})
    play(g, "play Squire 2")
    assert options(g) == {f"deploy Rook {f}2" for f in "abcefgh"}
    play(g, "deploy Rook b2")
    assert at(g, "b2") == "Rook0"
    assert barracks(g, 0) == []
    assert g.this_turn.orders == 1
    assert moves_from(g, "b2") == set()


def test_squire_for_gold_uses_rank_seven() -> None:
    g = game(fen("Ke1 ke8 pd7", gold="r", to_move=1), active=1, hand=["Squire"])
    play(g, "play Squire 2")
    assert options(g) == {f"deploy Rook {f}7" for f in "abcefgh"}
    play(g, "deploy Rook h7")
    assert at(g, "h7") == "Rook1"
    assert barracks(g, 1) == []


# =========================================================================== core Supply


def test_champion_action_draws_one_with_a_buy_and_two_gold() -> None:
    g = game(fen("Ke1 ke8"), hand=["Champion", "Peon"], deck=["Tower", "Clergy"], phase="action")
    play(g, "play Champion 2")
    assert hand(g, 0) == ["Peon", "Tower"]
    assert zone(g, 0, "deck") == ["Clergy"]
    assert zone(g, 0, "in_play") == ["Champion"]
    assert (g.this_turn.actions, g.this_turn.buys, g.this_turn.gold) == (0, 2, 2)
    assert g.this_turn.phase == "buy"


def test_clergy_treasure_gives_two_gold() -> None:
    g = game(fen("Ke1 ke8"), hand=["Clergy", "Peon"], phase="buy")
    play(g, "treasure Clergy")
    assert g.this_turn.gold == 2
    assert hand(g, 0) == ["Peon"]


def test_tower_treasure_gives_three_gold() -> None:
    g = game(fen("Ke1 ke8"), hand=["Tower", "Peon"], phase="buy")
    play(g, "treasure Tower")
    assert g.this_turn.gold == 3
    assert hand(g, 0) == ["Peon"]


def test_consort_moves_a_non_sovereign_next_to_a_different_regal_unit() -> None:
    # Regal units: Queen d4 and Chancellor h1. The Knight marches first: Consort is an
    # Action, so it may still move a unit that has had its order.
    g = game(fen("Qd4 Ke1 Na1 Ch1 ke8"), hand=["Consort"])
    play(g, "march a1 b3")
    assert g.this_turn.phase == "action"
    play(g, "play Consort 2")
    around_d4 = ["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]
    around_h1 = ["g1", "g2", "h2"]
    expected = (
        {f"move b3 {s}" for s in around_d4 + around_h1}  # the Knight
        | {f"move d4 {s}" for s in around_h1}  # the Queen: only next to the other Regal
        | {f"move h1 {s}" for s in around_d4}  # the Chancellor
    )  # the King is a Sovereign; the gold King is not ours
    assert options(g) == expected
    play(g, "move b3 e5")
    assert at(g, "e5") == "Knight0"
    assert at(g, "b3") is None


def test_consort_needs_a_second_unit_for_a_lone_regal() -> None:
    # The only Regal unit cannot be moved next to itself, and the King is a Sovereign.
    g = game(fen("Qd4 Ke1 ke8"), hand=["Consort", "Peon"], phase="action")
    assert "play Consort 2" not in legal_texts(g)


# =========================================================================== variable Supply


def test_academy_gives_an_order_and_deploys_a_foot_unit() -> None:
    g = game(fen("Ke1 ke8", blue="PR"), hand=["Academy"])
    play(g, "play Academy 2")
    first_and_second = [f + "1" for f in "abcdfgh"] + [f + "2" for f in FILES]
    assert options(g) == {f"deploy Pawn {s}" for s in first_and_second}  # no Rook
    play(g, "deploy Pawn d2")
    assert at(g, "d2") == "Pawn0"
    assert barracks(g, 0) == ["Rook"]
    assert g.this_turn.orders == 1  # 1 - 1 (the card) + 1
    texts = legal_texts(g)
    assert "deploy Rook a1" in texts
    assert moves_from(g, "d2") == set()


def test_armor_marches_a_heavy_unit_that_cannot_be_captured() -> None:
    # Rook a1 could attack the gold Pawn on a5 normally, but Armor only marches.
    position = fen("Ra1 Nb1 Ke1 pa5 bc5 ke8")
    g = game(position, hand=["Armor"])
    play(g, "play Armor 2")
    assert options(g) == {"march a1 a2", "march a1 a3", "march a1 a4"}
    play(g, "march a1 a3")
    assert at(g, "a3") == "Rook0"
    assert unit(g, "a3").uncapturable
    # Gold's turn: the Bishop could reach a3 (c5-b4-a3), but cannot capture there.
    assert g.active == 1
    assert "attack c5 a3" not in legal_texts(g)
    assert "march c5 b4" in legal_texts(g)
    play(g, "end")
    # Blue's next turn: the protection is over.
    assert g.active == 0
    assert not unit(g, "a3").uncapturable


def test_without_armor_the_same_rook_is_capturable() -> None:
    g = game(fen("Ra1 Nb1 Ke1 pa5 bc5 ke8"))
    play(g, "march a1 a3")
    assert g.active == 1
    assert "attack c5 a3" in legal_texts(g)


def test_armor_lets_a_warlord_march_in_place() -> None:
    g = game(fen("Wd4 Ke1 ke8"), hand=["Armor"], counters={"orders": 2})
    play(g, "play Armor 2")
    assert "march d4 d4" in legal_texts(g)
    play(g, "march d4 d4")
    assert at(g, "d4") == "Warlord0"
    assert unit(g, "d4").uncapturable
    assert moves_from(g, "d4") == set()


def test_astrology_gives_order_buy_gold_and_shows_the_opponents_hand() -> None:
    g = game(fen("Ke1 ke8"), hand=["Astrology"], opp_hand=["Tower", "Peon", "Guard"])
    play(g, "play Astrology 2")
    assert (g.this_turn.orders, g.this_turn.buys, g.this_turn.gold) == (1, 2, 1)
    assert g.this_turn.glimpses == {0: {1: ["Guard", "Peon", "Tower"]}}
    assert g.this_turn.phase == "order"


def test_aviary_moves_a_regal_unit_to_an_unthreatened_square() -> None:
    g = game(fen("Qd4 Ke1 rd8 kh8"), hand=["Aviary"], counters={"orders": 2})
    play(g, "play Aviary 2")
    # Judged with the Queen already moved: once d4 is empty the Rook sees the whole d-file.
    threatened = {
        "d1",
        "d2",
        "d3",
        "d5",
        "d6",
        "d7",  # gold Rook down the d-file
        "a8",
        "b8",
        "c8",
        "e8",
        "f8",
        "g8",  # gold Rook along rank 8
        "g7",
        "h7",
    }  # gold King h8
    targets = set(squares_except("d4", "e1", "d8", "h8")) - threatened
    assert len(targets) == 46
    assert options(g) == {f"move d4 {s}" for s in targets}  # the King is not Regal
    play(g, "move d4 b2")
    assert at(g, "b2") == "Queen0"
    assert at(g, "d4") is None
    assert g.this_turn.orders == 1
    assert moves_from(g, "b2") == set()


def test_bureaucracy_gives_an_order_and_moves_a_foot_unit() -> None:
    g = game(fen("Pe4 pd5 Ra1 Ke1 ke8"), hand=["Bureaucracy"])
    play(g, "play Bureaucracy 2")
    assert options(g) == {"march e4 e5", "attack e4 d5"}
    play(g, "attack e4 d5")
    assert at(g, "d5") == "Pawn0"
    assert at(g, "e4") is None
    assert g.this_turn.orders == 1
    assert moves_from(g, "d5") == set()
    assert "march a1 a2" in legal_texts(g)


def test_destiny_draws_and_morphs_a_board_unit() -> None:
    g = game(
        fen("Ke1 Nb1 ke8", blue="P"),
        hand=["Destiny", "Tower", "Executive Action"],
        deck=["Clergy"],
        phase="action",
    )
    play(g, "play Destiny 2")
    assert hand(g, 0) == ["Clergy", "Executive Action", "Tower"]
    assert g.this_turn.actions == 1
    # Forced: only training cards, and no way to decline.
    assert options(g) == {"trash Tower", "trash Clergy"}
    play(g, "trash Tower")
    assert options(g) == {"morph e1", "morph b1", "morph barracks Pawn"}
    play(g, "morph b1")
    assert at(g, "b1") == "Rook0"
    assert barracks(g, 0) == ["Pawn"]
    assert trash(g) == ["Tower"]
    assert hand(g, 0) == ["Clergy", "Executive Action"]
    assert g.this_turn.phase == "action" and g.this_turn.actions == 1


def test_destiny_can_morph_a_barracks_unit() -> None:
    g = game(fen("Ke1 ke8", blue="P"), hand=["Destiny", "Clergy"], deck=["Peon"], phase="action")
    play(g, "play Destiny 2", "trash Clergy", "morph barracks Pawn")
    assert barracks(g, 0) == ["Bishop"]
    assert at(g, "e1") == "King0"
    assert trash(g) == ["Clergy"]


def test_evangelism_deploys_a_pious_unit_next_to_a_pious_unit() -> None:
    # Blue Bishop d4 is the anchor; the gold Bishop h5 is not ours; the Rook is not Pious.
    g = game(fen("Bd4 Ke1 bh5 ke8", blue="BR"), hand=["Evangelism"], phase="action")
    play(g, "play Evangelism 2")
    assert options(g) == {
        f"deploy Bishop {s}" for s in ("c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5")
    }
    play(g, "deploy Bishop e5")
    assert at(g, "e5") == "Bishop0"
    assert barracks(g, 0) == ["Rook"]


def test_executive_action_order_draws_two_and_gives_an_action() -> None:
    g = game(fen("Ke1 ke8"), hand=["Executive Action"], deck=["Peon", "Tower", "Clergy"])
    play(g, "play 'Executive Action' 1")
    assert hand(g, 0) == ["Peon", "Tower"]
    assert zone(g, 0, "deck") == ["Clergy"]
    assert g.this_turn.actions == 2
    assert g.this_turn.orders == 0
    assert g.this_turn.phase == "action"


def test_executive_action_action_deploys_by_the_normal_rules() -> None:
    g = game(fen("Ke1 ke8", blue="PR"), hand=["Executive Action"], phase="action")
    play(g, "play 'Executive Action' 2")
    first = [f + "1" for f in "abcdfgh"]
    second = [f + "2" for f in FILES]
    expected = {f"deploy Rook {s}" for s in first} | {f"deploy Pawn {s}" for s in first + second}
    assert options(g) == expected
    play(g, "deploy Rook h1")
    assert at(g, "h1") == "Rook0"
    assert barracks(g, 0) == ["Pawn"]


FALSE_ORDERS_POSITION = fen("Ke1 Pb4 nc6 pe7 ke8")


def test_false_orders_offers_enemy_non_sovereigns_moving_as_their_owner() -> None:
    g = game(FALSE_ORDERS_POSITION, hand=["False Orders"])
    play(g, "play 'False Orders' 1")
    # Gold Knight c6: e7 holds a gold Pawn (never captured), b4 a blue Pawn (may be).
    # Gold Pawn e7 moves down the board, two squares from gold's second rank. No gold King,
    # no blue unit.
    assert options(g) == {
        "march c6 a5",
        "march c6 a7",
        "march c6 b8",
        "march c6 d8",
        "march c6 e5",
        "march c6 d4",
        "attack c6 b4",
        "march e7 e6",
        "march e7 e5",
    }


def test_false_orders_capture_and_the_owner_cannot_order_it_next_turn() -> None:
    g = game(FALSE_ORDERS_POSITION, hand=["False Orders"], counters={"orders": 2})
    play(g, "play 'False Orders' 1", "attack c6 b4")
    assert at(g, "b4") == "Knight1"
    assert at(g, "c6") is None
    assert g.log[-1].startswith("blue: gold's Knight c6-b4 captures")  # who moved whose
    knight = unit(g, "b4")
    assert knight.frozen == 1
    assert knight.uid in g.this_turn.ordered
    assert moves_from(g, "b4") == set()  # ordered: blue cannot use it again either
    play(g, "end")
    # Gold's turn: the Knight cannot take orders; the Pawn and the King can.
    assert g.active == 1
    assert moves_from(g, "b4") == set()
    assert "march e7 e6" in legal_texts(g)
    play(g, "end")
    # Blue's turn again: the status is over.
    assert g.active == 0
    assert unit(g, "b4").frozen == 0


@pytest.mark.parametrize(
    ("choice", "deck_after", "trashed"),
    [("trash", ["Peon"], ["Tower"]), ("keep", ["Tower", "Peon"], [])],
)
def test_false_orders_reveals_the_opponents_top_card(choice, deck_after, trashed) -> None:
    g = game(fen("Ke1 ke8"), hand=["False Orders"], phase="action", opp_deck=["Tower", "Peon"])
    assert "play 'False Orders' 2" in legal_texts(g)
    play(g, "play 'False Orders' 2")
    assert options(g) == {"trash Tower", "keep Tower"}
    assert "Tower" in g.this_turn.revealed
    play(g, f"{choice} Tower")
    assert zone(g, 1, "deck") == deck_after
    assert trash(g) == trashed


def test_fog_marches_a_mounted_unit_that_already_had_its_order() -> None:
    g = game(fen("Nb1 Ke1 pd5 ke8"), hand=["Fog"])
    play(g, "march b1 c3")
    assert g.this_turn.phase == "action"
    play(g, "play Fog 2")
    # From c3: a2 a4 b1 b5 d1 e2 e4; d5 holds a gold Pawn and Fog does not attack.
    assert options(g) == {f"march c3 {s}" for s in ("a2", "a4", "b1", "b5", "d1", "e2", "e4")}
    play(g, "march c3 e4")
    assert at(g, "e4") == "Knight0"
    assert at(g, "d5") == "Pawn1"


def test_heir_marches_a_sovereign_only_to_unthreatened_squares() -> None:
    # Gold Rook a1 covers d1, and f1 once the King has left e1; gold Bishop h4 covers f2.
    g = game(fen("Ke1 Ng6 ra1 bh4 ke8"), hand=["Heir"])
    play(g, "play Heir 2")
    assert options(g) == {"march e1 d2", "march e1 e2"}
    play(g, "march e1 e2")
    assert at(g, "e2") == "King0"
    assert g.this_turn.orders == 1
    assert moves_from(g, "e2") == set()
    assert "march g6 e5" in legal_texts(g)


def test_heir_avoids_squares_a_pawn_attacks() -> None:
    # The gold Pawn e4 attacks d3 and f3 (down the board); e3 it only marches to.
    g = game(fen("Ke2 pe4 ke8"), hand=["Heir"])
    play(g, "play Heir 2")
    assert options(g) == {f"march e2 {s}" for s in ("d1", "e1", "f1", "d2", "f2", "e3")}


def test_legend_counts_treasure_effects_played_before_it() -> None:
    g = game(fen("Ke1 ke8"), hand=["Legend", "Peon", "Clergy", "Legend"], phase="buy")
    play(g, "treasure Legend")
    assert g.this_turn.gold == 0  # nothing before it
    play(g, "treasure Peon", "treasure Clergy")
    assert g.this_turn.gold == 3
    play(g, "treasure Legend")
    assert g.this_turn.gold == 6  # Legend, Peon and Clergy came before it


MOURNING_POSITION = fen("Qd1 Ka1 nd5 pc6 re4 ba5 ke8")


def test_mourning_attacks_with_a_regal_unit_and_freezes_the_neighbours() -> None:
    g = game(MOURNING_POSITION, hand=["Mourning"], counters={"orders": 2})
    play(g, "play Mourning 2")
    assert options(g) == {"attack d1 d5"}  # no marches; the Queen's only capture
    play(g, "attack d1 d5")
    assert at(g, "d5") == "Queen0"
    assert unit(g, "c6").frozen == 1  # next to d5 (diagonally)
    assert unit(g, "e4").frozen == 1  # next to d5 (diagonally)
    assert unit(g, "a5").frozen == 0  # not next to it
    assert unit(g, "d5").frozen == 0
    play(g, "end")
    # Gold's turn: the Pawn and the Rook cannot take orders; the Bishop can.
    assert g.active == 1
    assert moves_from(g, "c6") == set()
    assert moves_from(g, "e4") == set()
    assert "march a5 b6" in legal_texts(g)


def test_mourning_next_to_our_own_unit_barred_now_keeps_it_barred_and_bars_it_again() -> None:
    # The blue Rook cannot take orders this turn (gold's Mourning last turn); blue's own
    # Mourning captures next to it: it stays barred now, and is barred on blue's next turn.
    g = game(
        fen("Qa5 Rd4 Ke1 pe5 ke8"),
        hand=["Mourning"],
        counters={"orders": 2},
        statuses=[{"square": "d4", "frozen": 2}],
    )
    assert moves_from(g, "d4") == set()
    play(g, "play Mourning 2", "attack a5 e5")
    assert g.this_turn.orders == 1 and moves_from(g, "d4") == set()  # still barred this turn
    for turn_of in (1, 0):  # on to gold's turn, then back to blue's
        while g.active != turn_of:
            play(g, "end")
    assert moves_from(g, "d4") == set()  # barred on this turn too
    assert unit(g, "d4").frozen == 2


def test_mourning_needs_a_regal_attack() -> None:
    g = game(fen("Qd1 Ka1 Re3 pe4 ke8"), hand=["Mourning"])
    assert "attack e3 e4" in legal_texts(g)  # a Rook is not Regal
    assert "play Mourning 2" not in legal_texts(g)


def test_onslaught_marches_or_deploys_up_to_four_foot_units() -> None:
    position = fen("Pa2 Pb2 Pc3 Pg2 pd4 Rh1 Ke1 ke8", blue="PR")
    g = game(position, hand=["Onslaught"], counters={"orders": 2})
    play(g, "play Onslaught 2")
    deploys = [f + "1" for f in "abcdfg"] + [f + "2" for f in "cdefh"]
    assert options(g) == (
        {
            "march a2 a3",
            "march a2 a4",
            "march b2 b3",
            "march b2 b4",
            "march c3 c4",
            "march g2 g3",
            "march g2 g4",
            "done",
        }
        | {f"deploy Pawn {s}" for s in deploys}
    )  # no attack c3 d4, nothing for the Rook
    play(g, "march a2 a4", "march b2 b3", "deploy Pawn d2")
    assert options(g) == {"march c3 c4", "march g2 g3", "march g2 g4", "done"}
    play(g, "march c3 c4")
    # Four units moved: the card is over, one normal order is left.
    assert g.stack == []
    assert g.this_turn.orders == 1
    assert [at(g, s) for s in ("a4", "b3", "d2", "c4")] == ["Pawn0"] * 4
    assert barracks(g, 0) == ["Rook"]
    assert "march g2 g3" in legal_texts(g)
    assert all(moves_from(g, s) == set() for s in ("a4", "b3", "d2", "c4"))


def test_onslaught_may_stop_early() -> None:
    g = game(fen("Pa2 Ke1 ke8"), hand=["Onslaught"], counters={"orders": 2})
    play(g, "play Onslaught 2", "done")
    assert g.this_turn.orders == 1
    assert at(g, "a2") == "Pawn0"
    assert "march a2 a3" in legal_texts(g)


def test_patronage_draws_one_with_an_action_and_a_gold() -> None:
    g = game(fen("Ke1 ke8"), hand=["Patronage"], deck=["Tower", "Peon"], phase="action")
    play(g, "play Patronage 2")
    assert hand(g, 0) == ["Tower"]
    assert zone(g, 0, "deck") == ["Peon"]
    assert (g.this_turn.actions, g.this_turn.gold) == (1, 1)
    assert g.this_turn.phase == "action"


def test_quartermaster_deploys_two_units_to_different_first_rank_squares() -> None:
    g = game(fen("Ke1 ke8", blue="PR"), hand=["Quartermaster"], counters={"orders": 2})
    play(g, "play Quartermaster 1")
    first = [f + "1" for f in "abcdfgh"]
    assert options(g) == {f"deploy {k} {s}" for k in ("Pawn", "Rook") for s in first}
    play(g, "deploy Rook a1")
    assert options(g) == {f"deploy Pawn {s}" for s in first if s != "a1"}
    play(g, "deploy Pawn b1")
    assert (at(g, "a1"), at(g, "b1")) == ("Rook0", "Pawn0")
    assert barracks(g, 0) == []
    assert g.this_turn.orders == 1
    assert moves_from(g, "a1") == moves_from(g, "b1") == set()


def test_quartermaster_needs_two_empty_first_rank_squares() -> None:
    g = game(fen("Ra1 Nb1 Bc1 Qd1 Ke1 Bf1 Ng1 ke8", blue="PR"), hand=["Quartermaster"])
    assert "deploy Rook h1" in legal_texts(g)  # a normal deploy is still possible
    assert "play Quartermaster 1" not in legal_texts(g)


def test_quartermaster_treasure_gold_buy_and_discount() -> None:
    g = game(fen("Ke1 ke8"), hand=["Quartermaster"], phase="buy", counters={"gold": 5})
    play(g, "treasure Quartermaster")
    assert (g.this_turn.gold, g.this_turn.buys, g.this_turn.discount) == (6, 2, 1)
    buyable = {name for name, cost in FIRST_GAME_COSTS.items() if cost - 1 <= 6}
    assert buyable == affordable(7)
    assert {t for t in legal_texts(g) if t.startswith("buy")} == {f"buy {n}" for n in buyable}
    play(g, "buy Tower")  # 6 - 1
    assert (g.this_turn.gold, g.this_turn.buys) == (1, 1)
    assert zone(g, 0, "discard") == ["Tower"]
    assert g.supply["Tower"] == 7
    assert "buy Champion" in legal_texts(g)  # 2 - 1 = 1


def test_quartermaster_discount_never_goes_below_zero() -> None:
    g = game(fen("Ke1 ke8"), hand=["Quartermaster"] * 3, phase="buy")
    play(g, "treasure Quartermaster", "treasure Quartermaster", "treasure Quartermaster")
    assert (g.this_turn.gold, g.this_turn.buys, g.this_turn.discount) == (3, 4, 3)
    play(g, "buy Champion")  # 2 - 3 is 0, not -1: no gold back
    assert (g.this_turn.gold, g.this_turn.buys) == (3, 3)
    play(g, "buy Versatility")
    assert (g.this_turn.gold, g.this_turn.buys) == (3, 2)
    play(g, "buy Clergy")  # 3 - 3
    assert (g.this_turn.gold, g.this_turn.buys) == (3, 1)


def test_refiner_morphs_a_barracks_unit() -> None:
    g = game(
        fen("Ke1 Nb1 ke8", blue="NP"),
        hand=["Refiner", "Tower", "Executive Action"],
        deck=["Peon"],
        phase="action",
    )
    play(g, "play Refiner 1")
    assert hand(g, 0) == ["Executive Action", "Peon", "Tower"]
    assert g.this_turn.actions == 1
    assert options(g) == {"trash Tower", "trash Peon"}
    play(g, "trash Tower")
    # Only the Barracks: the Knight on b1 and the King stay as they are.
    assert options(g) == {"morph barracks Knight", "morph barracks Pawn"}
    play(g, "morph barracks Pawn")
    assert barracks(g, 0) == ["Knight", "Rook"]
    assert at(g, "b1") == "Knight0"
    assert trash(g) == ["Tower"]
    assert hand(g, 0) == ["Executive Action", "Peon"]


def test_refiner_trashes_a_card_to_gain_one_costing_up_to_two_more() -> None:
    g = game(fen("Ke1 ke8"), hand=["Refiner", "Clergy"], deck=["Peon"], phase="action")
    play(g, "play Refiner 2")
    assert hand(g, 0) == ["Clergy", "Peon"]
    assert g.this_turn.actions == 1
    assert options(g) == {"trash Clergy", "trash Peon"}
    play(g, "trash Clergy")
    assert options(g) == {f"gain {n}" for n in affordable(3 + 2)}
    play(g, "gain Patronage")
    assert zone(g, 0, "discard") == ["Patronage"]
    assert g.supply["Patronage"] == 3
    assert trash(g) == ["Clergy"]
    assert hand(g, 0) == ["Peon"]


def test_sacrifice_discards_then_gains_a_card_costing_up_to_six() -> None:
    g = game(fen("Ke1 ke8"), hand=["Sacrifice", "Peon", "Tower"], phase="action")
    play(g, "play Sacrifice 2")
    assert options(g) == {"discard Peon", "discard Tower"}  # not optional
    play(g, "discard Peon")
    assert options(g) == {f"gain {n}" for n in affordable(6)}
    play(g, "gain Evangelism")
    assert zone(g, 0, "discard") == ["Peon", "Evangelism"]
    assert g.supply["Evangelism"] == 3
    assert hand(g, 0) == ["Tower"]


def test_sacrifice_alone_in_hand_is_not_offered() -> None:
    g = game(fen("Ke1 ke8"), hand=["Sacrifice"], phase="action")
    assert "play Sacrifice 2" not in legal_texts(g)


def test_sanctuary_marches_a_heavy_unit_next_to_a_friend_then_moves_the_friend() -> None:
    g = game(fen("Ra1 Nb4 Ke1 ke8"), hand=["Sanctuary"], counters={"orders": 2})
    play(g, "play Sanctuary 1")
    # Rook marches: a2-a8, b1-d1. Next to another blue unit: a3 a4 a5 (Knight b4), d1 (King).
    assert options(g) == {"march a1 a3", "march a1 a4", "march a1 a5", "march a1 d1"}
    play(g, "march a1 a4")
    assert options(g) == {"move b4 a3", "move b4 a5", "move b4 b3", "move b4 b5"}
    play(g, "move b4 b5")
    assert (at(g, "a4"), at(g, "b5"), at(g, "b4")) == ("Rook0", "Knight0", None)
    assert g.this_turn.orders == 1
    assert moves_from(g, "a4") == moves_from(g, "b5") == set()
    assert "march e1 e2" in legal_texts(g)


def test_sanctuary_order_draws_two_then_discards_two() -> None:
    g = game(fen("Ke1 ke8"), hand=["Sanctuary", "Peon"], deck=["Tower", "Clergy", "Guard"])
    play(g, "play Sanctuary 2")
    assert (g.this_turn.orders, g.this_turn.gold) == (1, 1)
    assert hand(g, 0) == ["Clergy", "Peon", "Tower"]
    assert options(g) == {"discard Peon", "discard Tower", "discard Clergy"}  # no "done"
    play(g, "discard Peon", "discard Clergy")
    assert hand(g, 0) == ["Tower"]
    assert zone(g, 0, "discard") == ["Peon", "Clergy"]
    assert zone(g, 0, "deck") == ["Guard"]
    assert g.this_turn.phase == "order"


@pytest.mark.parametrize("put_back", [True, False])
def test_scribes_draws_three_gives_a_buy_and_may_topdeck(put_back) -> None:
    g = game(
        fen("Ke1 ke8"), hand=["Scribes"], deck=["Peon", "Tower", "Clergy", "Guard"], phase="action"
    )
    play(g, "play Scribes 2")
    assert hand(g, 0) == ["Clergy", "Peon", "Tower"]
    assert g.this_turn.buys == 2
    assert options(g) == {"topdeck Peon", "topdeck Tower", "topdeck Clergy", "done"}
    if put_back:
        play(g, "topdeck Tower")
        assert hand(g, 0) == ["Clergy", "Peon"]
        assert zone(g, 0, "deck") == ["Tower", "Guard"]
    else:
        play(g, "done")
        assert hand(g, 0) == ["Clergy", "Peon", "Tower"]
        assert zone(g, 0, "deck") == ["Guard"]


def test_stables_marches_a_mounted_unit_twice_without_attacking() -> None:
    g = game(fen("Nb1 Ra1 Kh1 rc3 pe4 ke8"), hand=["Stables"])
    play(g, "play Stables 1")
    assert options(g) == {"march b1 a3", "march b1 d2"}  # not attack b1 c3; no Rook
    play(g, "march b1 d2")
    # From d2: b1 b3 c4 f3 f1; e4 holds a gold Pawn and may not be attacked.
    assert options(g) == {"march d2 b1", "march d2 b3", "march d2 c4", "march d2 f3", "march d2 f1"}
    play(g, "march d2 f3")
    assert at(g, "f3") == "Knight0"
    assert at(g, "b1") is None and at(g, "d2") is None
    assert (at(g, "c3"), at(g, "e4")) == ("Rook1", "Pawn1")


def test_stables_needs_a_mounted_unit_that_has_not_had_its_order() -> None:
    g = game(fen("Nb1 Ke1 ke8"), hand=["Stables"], counters={"orders": 2})
    assert "play Stables 1" in legal_texts(g)
    play(g, "march b1 c3")
    assert "play Stables 1" not in legal_texts(g)


def test_stables_action_draws_two_action_buy_then_topdecks() -> None:
    g = game(
        fen("Ke1 ke8"), hand=["Stables", "Peon"], deck=["Tower", "Clergy", "Guard"], phase="action"
    )
    play(g, "play Stables 2")
    assert hand(g, 0) == ["Clergy", "Peon", "Tower"]
    assert (g.this_turn.actions, g.this_turn.buys) == (1, 2)
    assert options(g) == {"topdeck Peon", "topdeck Tower", "topdeck Clergy"}  # must
    play(g, "topdeck Peon")
    assert zone(g, 0, "deck") == ["Peon", "Guard"]
    assert hand(g, 0) == ["Clergy", "Tower"]


SUBTERFUGE_POSITION = fen("Ra1 Bc1 Ke1 Wd4 ke8", blue="NS")


def test_subterfuge_offers_only_units_sharing_a_class() -> None:
    g = game(SUBTERFUGE_POSITION, hand=["Subterfuge"], phase="action")
    play(g, "play Subterfuge 2")
    # Heavy: Rook, Warlord, Spy (Barracks). The Bishop, the King and the Knight have no partner.
    assert options(g) == {"swap a1 d4", "swap a1 Spy", "swap d4 Spy"}


def test_subterfuge_swaps_two_board_units() -> None:
    g = game(SUBTERFUGE_POSITION, hand=["Subterfuge"], phase="action")
    play(g, "play Subterfuge 2", "swap a1 d4")
    assert (at(g, "a1"), at(g, "d4")) == ("Warlord0", "Rook0")
    assert barracks(g, 0) == ["Knight", "Spy"]


def test_subterfuge_swaps_with_the_barracks() -> None:
    g = game(SUBTERFUGE_POSITION, hand=["Subterfuge"], phase="action")
    play(g, "play Subterfuge 2", "swap d4 Spy")
    assert at(g, "d4") == "Spy0"
    assert barracks(g, 0) == ["Knight", "Warlord"]


def test_temple_gives_an_order_and_marches_a_pious_unit() -> None:
    g = game(fen("Bc1 Rh1 Ke1 pe3 ke8"), hand=["Temple"])
    play(g, "play Temple 2")
    assert options(g) == {"march c1 d2", "march c1 b2", "march c1 a3"}  # not attack c1 e3
    play(g, "march c1 a3")
    assert at(g, "a3") == "Bishop0"
    assert g.this_turn.orders == 1
    assert moves_from(g, "a3") == set()


def test_versatility_discards_up_to_four_and_draws_as_many() -> None:
    g = game(
        fen("Ke1 ke8"),
        hand=["Versatility", "Peon", "Guard", "Tower"],
        deck=["Clergy", "Champion", "Legend"],
    )
    play(g, "play Versatility 2")
    assert g.this_turn.orders == 1
    assert options(g) == {"discard Peon", "discard Guard", "discard Tower", "done"}
    play(g, "discard Peon", "discard Guard", "done")
    assert hand(g, 0) == ["Champion", "Clergy", "Tower"]
    assert zone(g, 0, "deck") == ["Legend"]
    assert zone(g, 0, "discard") == ["Peon", "Guard"]


def test_versatility_stops_after_four() -> None:
    g = game(fen("Ke1 ke8"), hand=["Versatility"] + ["Peon"] * 5, deck=["Tower"] * 5)
    play(g, "play Versatility 2", *["discard Peon"] * 4)
    assert g.stack == []
    assert hand(g, 0) == ["Peon"] + ["Tower"] * 4
    assert zone(g, 0, "deck") == ["Tower"]
    assert zone(g, 0, "discard") == ["Peon"] * 4


def test_vigilance_draws_one_action_buy_two_gold_then_topdecks() -> None:
    g = game(fen("Ke1 ke8"), hand=["Vigilance", "Peon"], deck=["Tower", "Clergy"], phase="action")
    play(g, "play Vigilance 2")
    assert hand(g, 0) == ["Peon", "Tower"]
    assert (g.this_turn.actions, g.this_turn.buys, g.this_turn.gold) == (1, 2, 2)
    assert options(g) == {"topdeck Peon", "topdeck Tower"}  # must
    play(g, "topdeck Tower")
    assert zone(g, 0, "deck") == ["Tower", "Clergy"]
    assert hand(g, 0) == ["Peon"]


def test_wish_finds_the_named_card_and_discards_the_rest() -> None:
    g = game(fen("Ke1 ke8"), hand=["Wish"], deck=["Peon", "Guard", "Tower", "Clergy"])
    play(g, "play Wish 1")
    assert g.this_turn.orders == 1
    assert {"name Tower", "name Peon", "name Guard", "name Consort"} <= options(g)
    play(g, "name Tower")
    assert hand(g, 0) == ["Tower"]
    assert zone(g, 0, "discard") == ["Peon", "Guard"]
    assert zone(g, 0, "deck") == ["Clergy"]


def test_wish_for_a_card_not_in_the_deck_discards_the_whole_deck() -> None:
    g = game(fen("Ke1 ke8"), hand=["Wish"], deck=["Peon", "Guard"])
    play(g, "play Wish 1", "name Consort")
    assert hand(g, 0) == []
    assert zone(g, 0, "discard") == ["Peon", "Guard"]
    assert zone(g, 0, "deck") == []


def test_wish_protects_chosen_sovereigns_and_locks_order_cards_next_turn() -> None:
    # Gold Rook e5 could capture the King on e1; gold Bishop f5 the Anointed on h3.
    g = game(fen("Ke1 Ah3 re5 bf5 ke8"), hand=["Wish"], deck=["Astrology"] + ["Peon"] * 4)
    play(g, "play Wish 2")
    assert g.this_turn.orders == 1
    assert options(g) == {"protect e1", "protect h3", "done"}
    play(g, "protect e1")
    assert options(g) == {"protect h3", "done"}
    play(g, "done")
    assert unit(g, "e1").uncapturable
    assert not unit(g, "h3").uncapturable
    assert g.order_lock[0] == 1
    assert moves_from(g, "e1") == set()  # chosen by an Order card: ordered
    assert "march h3 g2" in legal_texts(g)
    play(g, "end")
    # Gold's turn: the King is safe, the Anointed is not.
    assert g.active == 1
    assert "attack e5 e1" not in legal_texts(g)
    assert "attack f5 h3" in legal_texts(g)
    play(g, "end")
    # Blue's next turn: no Order cards, protection over; Actions still allowed.
    assert g.active == 0
    assert hand(g, 0) == ["Astrology"] + ["Peon"] * 4
    assert not unit(g, "e1").uncapturable
    assert "play Astrology 2" not in legal_texts(g)
    assert "march e1 e2" in legal_texts(g)
    play(g, "end")
    assert g.this_turn.phase == "action"
    assert "train Astrology" in legal_texts(g)


def test_wish_lock_lasts_one_turn_only() -> None:
    g = game(fen("Ke1 ke8"), hand=["Wish"], deck=["Peon"] * 5 + ["Astrology"] + ["Peon"] * 4)
    play(g, "play Wish 2", "done", "end")
    assert g.active == 1
    play(g, "end")  # gold
    assert g.active == 0 and g.order_lock[0] == 2
    play(g, "end", "end", "end")  # blue: order, action, buy
    assert g.active == 1
    play(g, "end")
    assert g.active == 0 and g.order_lock[0] == 0
    assert "play Astrology 2" in legal_texts(g)


# =========================================================================== what the turn forbids


def test_after_buying_no_more_treasures() -> None:
    g = game(fen("Ke1 ke8"), hand=["Clergy", "Clergy", "Peon"], phase="buy", counters={"buys": 2})
    play(g, "treasure Clergy", "treasure Clergy")
    assert g.this_turn.gold == 4
    play(g, "buy Champion")
    assert (g.this_turn.gold, g.this_turn.buys) == (2, 1)
    texts = legal_texts(g)
    assert "buy Champion" in texts
    assert "treasure Peon" not in texts
    with pytest.raises(IllegalDecision):
        play(g, "treasure Peon")


def test_order_effects_in_the_order_phase_action_effects_in_the_action_phase() -> None:
    g = game(fen("Nb1 Ke1 ke8"), hand=["Stables", "Peon"])
    texts = legal_texts(g)
    assert "play Stables 1" in texts
    assert "play Stables 2" not in texts and "train Peon" not in texts
    play(g, "end")
    texts = legal_texts(g)
    assert "play Stables 2" in texts and "train Peon" in texts
    assert "play Stables 1" not in texts
    assert "treasure Peon" not in texts


def test_an_empty_pile_cannot_be_bought() -> None:
    g = game(
        fen("Ke1 ke8"),
        hand=["Tower", "Tower", "Tower"],
        phase="buy",
        supply=[["Tower", 0], ["Champion", 1], ["Clergy", 8], ["Consort", 4]],
    )
    play(g, "treasure Tower", "treasure Tower", "treasure Tower")
    assert g.this_turn.gold == 9
    assert {t for t in legal_texts(g) if t.startswith("buy")} == {
        "buy Champion",
        "buy Clergy",
        "buy Consort",
    }


def test_buying_costs_gold_and_a_buy_and_is_limited_by_both() -> None:
    # The rulebook's example: 6 gold and 2 buys: Legend (4) and Champion (2), not two Towers.
    g = game(
        fen("Ke1 ke8"),
        hand=["Tower", "Tower"],
        deck=["Peon"] * 5,
        phase="buy",
        counters={"buys": 2},
    )
    play(g, "treasure Tower", "treasure Tower")
    play(g, "buy Legend")
    assert (g.this_turn.gold, g.this_turn.buys) == (2, 1)
    assert {t for t in legal_texts(g) if t.startswith("buy")} == {
        "buy Champion",
        "buy Versatility",
    }  # cost 2; the first-game Supply
    play(g, "buy Champion")
    # No buy left: housekeeping has run. Bought cards, then the played Towers, were discarded.
    assert g.active == 1
    assert zone(g, 0, "discard") == ["Legend", "Champion", "Tower", "Tower"]
    assert hand(g, 0) == ["Peon"] * 5


def test_one_order_per_unit_per_turn() -> None:
    g = game(fen("Ra1 Ke1 pa6 ke8"), counters={"orders": 2})
    play(g, "march a1 a3")
    assert g.this_turn.orders == 1
    assert moves_from(g, "a3") == set()  # cannot march again, nor attack a6
    assert "march e1 e2" in legal_texts(g)


def test_a_unit_deployed_this_turn_cannot_march() -> None:
    g = game(fen("Ke1 ke8", blue="R"), counters={"orders": 2})
    play(g, "deploy Rook a1")
    assert at(g, "a1") == "Rook0"
    assert g.this_turn.orders == 1
    assert moves_from(g, "a1") == set()


def test_orders_and_actions_run_out() -> None:
    g = game(fen("Ra1 Ke1 ke8"), hand=["Patronage", "Champion", "Clergy"], deck=["Tower"])
    play(g, "march a1 a2")
    assert g.this_turn.phase == "action"  # the one order is used
    play(g, "play Champion 2")
    assert g.this_turn.phase == "buy"  # the one action is used: Patronage is not playable now
    assert "play Patronage 2" not in legal_texts(g)


def test_a_cards_gold_is_what_one_play_of_it_adds() -> None:
    cards = standard_rules().cards
    gold = {name: cards.get(name).gold for name in ("Peon", "Clergy", "Tower", "Champion")}
    assert gold == {"Peon": 1, "Clergy": 2, "Tower": 3, "Champion": 2}
    assert cards.get("Vigilance").gold == 2  # an Action's "+2 gold"
    assert cards.get("Stables").gold == 0
    assert cards.get("Legend").gold == 0  # its gold depends on the turn: not counted
