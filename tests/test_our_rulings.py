"""One test for each call of ours in docs/rulings.md (the names match its brackets)."""

from __future__ import annotations

from pathlib import Path

from scenario import RULES, at, fen, game, hand, legal_texts, play, settle, zone

from crownp2p.core.board import parse_square
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import FIRST_GAME, NAMED_SUPPLIES, Setup, parse_supply
from crownp2p.core.standard import card_registry, unit_registry
from crownp2p.shell.render import prompt_line


def moves_of(fen: str, square: str) -> tuple[list[str], list[str]]:
    from crownp2p.core.board import square_name
    from crownp2p.core.position import Position

    pos = Position.from_fen(fen, unit_registry())
    moves = pos.unit_moves(parse_square(square))
    march = sorted(square_name(m.to) for m in moves if m.kind != "attack")
    attack = sorted({square_name(c) for m in moves for c in m.captures})
    return march, attack


def test_every_ruling_has_its_test() -> None:
    text = (Path(__file__).parent.parent / "docs" / "rulings.md").read_text()
    names = {part.split("]")[0].strip("`") for part in text.split("[`")[1:]}
    here = {name for name in globals() if name.startswith("test_")}
    assert names <= here, sorted(names - here)


def test_pawn_double_step_from_first_and_second_rank() -> None:
    assert moves_of("4k3/8/8/8/8/8/8/P3K3", "a1")[0] == ["a2", "a3"]
    assert moves_of("4k3/8/8/8/8/8/P7/4K3", "a2")[0] == ["a3", "a4"]
    assert moves_of("4k3/8/8/8/8/P7/8/4K3", "a3")[0] == ["a4"]
    assert moves_of("4k3/8/8/8/8/8/P7/p3K3", "a2")[0] == ["a3", "a4"]
    assert moves_of("4k3/8/8/8/8/n7/P7/4K3", "a2")[0] == []


def test_phantom_never_ends_on_its_start() -> None:
    march, _ = moves_of("4k3/8/8/8/8/8/8/F3K3", "a1")
    assert "a1" not in march


def test_warlord_marches_in_place_by_any_card() -> None:
    g = game("4k3/8/8/8/3W4/8/8/4K3", hand=["Armor"], piles=["Armor"])
    assert "march d4 d4" not in legal_texts(g)  # a plain order: standing still does nothing
    play(g, "play Armor 2")
    assert "march d4 d4" in legal_texts(g)
    play(g, "march d4 d4")
    assert at(g, "d4") == "Warlord0"
    assert g.position.board[parse_square("d4")].uncapturable
    # Sanctuary: the Warlord already touches the Rook, stays, and the Rook moves beside it.
    g = game("4k3/8/8/8/3W4/3R4/8/4K3", hand=["Sanctuary"], piles=["Sanctuary"])
    play(g, "play Sanctuary 1", "march d4 d4")
    assert at(g, "d4") == "Warlord0"
    play(g, "move d3 e5")
    assert at(g, "e5") == "Rook0"
    # False Orders: the enemy Warlord marches in place, and cannot take orders next turn.
    g = game("4k3/8/8/3w4/8/8/8/4K3", hand=["False Orders"], piles=["False Orders"])
    play(g, "play 'False Orders' 1", "march d5 d5")
    assert at(g, "d5") == "Warlord1"
    assert g.position.board[parse_square("d5")].frozen


def test_uncapturable_enemy_blocks_a_charger() -> None:
    g = game("4k3/8/8/8/8/8/8/J1p1K3", statuses=[{"square": "c1", "uncapturable": True}])
    texts = legal_texts(g)
    assert "march a1 b1" in texts
    assert not any(t.startswith("attack a1") for t in texts)
    assert "march a1 d1" not in texts


def test_uncapturable_unit_is_not_threatened() -> None:
    g = game(
        "4k3/8/8/8/8/8/8/r3K3",
        hand=["Heir"],
        piles=["Heir"],
        statuses=[{"square": "e1", "uncapturable": True}],
    )
    play(g, "play Heir 2")
    assert "march e1 d1" in legal_texts(g)  # on the Rook's rank, but it cannot be captured


def test_empty_phases_are_skipped() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], counters={"orders": 0})
    assert g.this_turn.phase == "action"  # no orders left: straight to the action phase
    assert legal_texts(g) == ["train Peon", "end"]
    play(g, "train Peon")
    # No actions left, and nothing in the Supply costs 0: buying is skipped too.
    assert (g.turn, g.active, g.this_turn.phase) == (2, 1, "order")


def test_game_ends_only_at_the_end_of_the_turn() -> None:
    g = game("4k3/4R3/8/8/8/8/8/4K3", hand=["Peon"])
    play(g, "attack e7 e8")
    assert not g.over and g.this_turn.phase == "action"
    play(g, "end")
    assert not g.over and g.this_turn.phase == "buy"
    play(g, "end")
    assert g.over and g.winner == 0


def test_both_sides_without_sovereigns_is_a_draw() -> None:
    g = game("4k3/4R3/8/8/8/8/8/4K3", hand=["Destiny", "Clergy"], piles=["Destiny"])
    play(g, "attack e7 e8", "play Destiny 2", "trash Clergy", "morph e1")
    assert at(g, "e1") == "Bishop0"
    assert g.over and g.winner is None


def test_a_card_that_would_do_nothing_is_not_offered() -> None:
    g = game(
        "4k3/8/8/8/8/8/8/4K3", hand=["Stables", "Guard", "Academy"], piles=["Stables", "Academy"]
    )
    texts = legal_texts(g)
    assert "play Stables 1" not in texts  # no Mounted unit
    assert "play Guard 2" not in texts  # nothing in the Barracks
    assert "play Academy 2" in texts  # +1 Order is always something
    # Steps that only aim or repeat another do not count: choosing the opponent whose top
    # card False Orders reveals (they have none), Quartermaster's second deploy (one square).
    g = game("4k3/8/8/8/8/8/8/RNBQK1NR 0 PP -", hand=["False Orders", "Quartermaster"])
    texts = legal_texts(g)
    assert "play Quartermaster 1" not in texts
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["False Orders"], phase="action")
    assert "play 'False Orders' 2" not in legal_texts(g)
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["False Orders"], phase="action", opp_deck=["Peon"])
    assert "play 'False Orders' 2" in legal_texts(g)


def test_one_deploy_decision_per_type_and_square() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3 0 NNP -")
    texts = legal_texts(g)
    assert texts.count("deploy Knight a1") == 1
    assert texts.count("deploy Pawn a2") == 1
    assert "deploy Knight a2" not in texts  # only Foot units use the second rank


def test_drawing_from_nothing_draws_what_it_can() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Champion"], deck=[], discard=[], phase="action")
    play(g, "play Champion 2")
    assert hand(g, 0) == [] and g.this_turn.gold == 2 and g.this_turn.buys == 2


def test_wish_protection_orders_the_sovereign() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Wish"], piles=["Wish"])
    play(g, "play Wish 2", "protect e1")
    assert g.position.board[parse_square("e1")].uncapturable
    assert not any(t.startswith("march e1") for t in legal_texts(g))  # it has had its order
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Wish"], piles=["Wish"], counters={"orders": 2})
    play(g, "march e1 e2", "play Wish 2")
    assert not g.position.board[parse_square("e2")].uncapturable  # nothing left to choose
    assert g.order_lock[0] == 1


def test_mourning_freezes_own_neighbours_on_their_next_turn() -> None:
    g = game("4k3/8/8/8/8/2p5/1P1N4/2Q1K3", hand=["Mourning"], piles=["Mourning"])
    play(g, "play Mourning 2", "attack c1 c3")
    pawn = g.position.board[parse_square("b2")]
    knight = g.position.board[parse_square("d2")]
    assert pawn.frozen == 1 and knight.frozen == 1
    assert g.position.board[parse_square("c3")].frozen == 0  # the attacker is on the square


def test_stables_second_march_is_required() -> None:
    g = game("4k3/8/8/8/8/8/8/N3K3", hand=["Stables"], piles=["Stables"])
    play(g, "play Stables 1", "march a1 b3")
    texts = legal_texts(g)
    assert "done" not in texts and "end" not in texts
    assert "march b3 a1" in texts


def test_sanctuary_moves_a_neighbour() -> None:
    g = game("4k3/8/8/8/8/8/8/R3K2N", hand=["Sanctuary"], piles=["Sanctuary"])
    play(g, "play Sanctuary 1")
    texts = legal_texts(g)
    assert "march a1 d1" in texts  # touches the King
    assert "march a1 b1" not in texts  # touches nothing of ours
    play(g, "march a1 d1")
    texts = legal_texts(g)
    assert "move e1 c2" in texts and "move e1 d2" in texts
    assert not any(t.startswith("move h1") for t in texts)  # the Knight is not next to it
    play(g, "move e1 c2")
    assert at(g, "c2") == "King0"


def test_quartermaster_deploys_what_it_can() -> None:
    g = game("4k3/8/8/8/8/8/8/4K3 0 N -", hand=["Quartermaster"], piles=["Quartermaster"])
    play(g, "play Quartermaster 1", "deploy Knight a1")
    assert at(g, "a1") == "Knight0"
    assert settle(g).active == 1  # the second deploy had no unit: the turn went on
    g = game("4k3/8/8/8/8/8/8/4K3 0 NP -", hand=["Quartermaster"], piles=["Quartermaster"])
    play(g, "play Quartermaster 1", "deploy Pawn a1")
    texts = legal_texts(g)
    assert "deploy Knight b1" in texts and "deploy Knight a1" not in texts
    assert not any(t.endswith("2") for t in texts)  # first rank only, even for Foot


def test_refiner_trashes_even_with_an_empty_barracks() -> None:
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["Refiner", "Tower", "Patronage"],
        deck=["Wish"],
        phase="action",
        piles=["Refiner", "Patronage"],
    )
    play(g, "play Refiner 1")
    assert legal_texts(g) == ["trash Tower", "trash Patronage"]
    play(g, "trash Tower")
    assert [g.cards[c] for c in g.trash] == ["Tower"]
    assert hand(g, 0) == ["Patronage", "Wish"]
    assert (
        g.this_turn.phase == "action" and g.stack == []
    )  # the morph had no Barracks unit: skipped


def test_refiner_uses_current_costs() -> None:
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["Refiner", "Quartermaster", "Peon"],
        deck=["Peon"],
        phase="action",
        piles=["Refiner", "Quartermaster"],
        counters={"discount": 1, "actions": 1},
    )
    play(g, "play Refiner 2", "trash Peon")
    gains = {t for t in legal_texts(g) if t.startswith("gain")}
    # Peon costs 0; up to 2 with every card 1 cheaper: Clergy (3 -> 2) is in reach.
    assert "gain Clergy" in gains and "gain Champion" in gains and "gain Refiner" not in gains


def test_wish_names_any_card_of_the_game() -> None:
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["Wish"],
        piles=["Wish"],
        deck=["Peon"],
        supply=[["Champion", 0], ["Clergy", 8], ["Tower", 8], ["Consort", 4], ["Wish", 3]],
    )
    play(g, "play Wish 1")
    names = {t.split(" ", 1)[1] for t in legal_texts(g)}
    assert {"Peon", "Guard", "Champion", "Wish", "Consort"} <= names


def test_reveals_never_reshuffle() -> None:
    # Wish reveals only the deck: the discard pile stays out of it.
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["Wish"],
        piles=["Wish"],
        deck=["Peon", "Guard"],
        discard=["Tower"],
    )
    play(g, "play Wish 1", "name Tower")
    assert g.prompt().seat != CHANCE
    assert sorted(zone(g, 0, "discard")) == ["Guard", "Peon", "Tower"]
    assert zone(g, 0, "deck") == [] and hand(g, 0) == []
    # False Orders' reveal neither: an empty deck has no top card, whatever the discard pile.
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["False Orders"],
        piles=["False Orders"],
        phase="action",
        opp_deck=[],
        opp_discard=["Tower"],
    )
    assert "play 'False Orders' 2" not in legal_texts(g)
    g = game(
        "4k3/8/8/8/8/8/8/4K3",
        hand=["False Orders"],
        piles=["False Orders"],
        phase="action",
        opp_deck=["Tower"],
        opp_discard=["Peon"],
    )
    play(g, "play 'False Orders' 2")
    assert g.prompt().seat != CHANCE
    play(g, "trash Tower")
    assert [g.cards[c] for c in g.trash] == ["Tower"]
    assert zone(g, 1, "discard") == ["Peon"]


def test_sanctuary_takes_a_spy_swapped_next_to_its_partner() -> None:
    g = game("4k3/8/8/8/8/8/8/K2SR3", hand=["Sanctuary"], piles=["Sanctuary"])
    play(g, "play Sanctuary 1")
    assert "swap d1 e1" in legal_texts(g)  # after the swap the Rook is on d1, next to e1
    play(g, "swap d1 e1")
    assert (at(g, "e1"), at(g, "d1")) == ("Spy0", "Rook0")
    assert "move d1 f2" in legal_texts(g)


def test_a_captured_immortal_is_not_deployed_by_another_order() -> None:
    g = game(
        "3rk3/8/8/8/3I4/8/8/4K3",
        hand=["False Orders", "Executive Action"],
        piles=["False Orders", "Executive Action"],
        counters={"orders": 3},
    )
    play(g, "march d4 d5", "play 'False Orders' 1", "attack d8 d5")
    assert at(g, "d5") == "Rook1" and g.position.barracks[0] == [g.rules.units.get("Immortal")]
    assert not any(t.startswith("deploy Immortal") for t in legal_texts(g))  # its order is spent
    play(g, "end")
    play(g, "play 'Executive Action' 2")  # an Action is no order: it may
    assert any(t.startswith("deploy Immortal") for t in legal_texts(g))


def test_promotion_choices_come_from_this_games_cards() -> None:
    g = game("4k3/P7/8/8/8/8/8/4K3", piles=["Heir", "Versatility"])
    play(g, "march a7 a8")
    assert g.prompt().kind == "promote"
    options = {t.split()[1] for t in legal_texts(g)}
    assert options == {"Pawn", "Knight", "Bishop", "Rook", "Queen", "King", "Striker"}
    g = game("4k3/P7/8/8/8/8/8/4K3", piles=["Versatility"])
    play(g, "march a7 a8")
    assert "promote King" not in legal_texts(g)
    # not the starting cards (Peon and Guard train Pawns); a sold-out pile still counts
    g = game("4k3/I7/8/8/8/8/8/4K3", piles=["Versatility"])
    g.supply["Versatility"] = 0
    play(g, "march a7 a8")
    options = {t.split()[1] for t in legal_texts(g)}
    assert "Pawn" not in options and {"Immortal", "Striker"} <= options


def test_tournament_three_has_nine_piles() -> None:
    setup = parse_supply("tournament-3", RULES.variable_cards, card_registry().names())
    assert len(setup.piles) == 9 == len(NAMED_SUPPLIES["tournament-3"])
    g = Game(RULES, setup)
    while g.prompt().seat == CHANCE:
        g.apply(("seed", "11" * 32))
    assert len(g.supply) == 4 + 9


def test_random_supply_is_a_chance_decision() -> None:
    g = Game(RULES, Setup(piles=(), fill_piles=10))
    assert g.prompt().kind == "supply"
    g.apply(("seed", "22" * 32))
    assert len(g.piles) == 10 == len(set(g.piles))
    again = Game(RULES, Setup(piles=(), fill_piles=10))
    again.apply(("seed", "22" * 32))
    assert again.piles == g.piles


def test_an_action_may_deploy_a_unit_trained_this_turn() -> None:
    g = game(
        fen("Ke1 ke8"),
        hand=["Peon", "Executive Action"],
        phase="action",
        counters={"actions": 2},
        piles=["Executive Action"],
    )
    play(g, "train Peon")
    assert [k.name for k in g.position.barracks[0]] == ["Pawn"]
    play(g, "play 'Executive Action' 2")
    assert "deploy Pawn e2" in legal_texts(g)  # the Pawn trained a moment ago
    play(g, "deploy Pawn e2")
    assert at(g, "e2") == "Pawn0"


def test_a_refusal_gives_the_first_reason_that_applies() -> None:
    g = game("4k3/8/8/8/8/8/4P3/4K3", hand=["Peon"])
    assert g.why_illegal(("buy", "Wombat"), 1) == "It is blue's decision now"  # whose, first
    assert g.why_illegal(("buy", "Wombat")) == (  # then the phase
        "Treasures and buys come in the buy phase: `end` ends the order phase"
    )
    assert g.why_illegal(("play", "Wombat", "1")) == "There is no card called 'Wombat'"
    assert g.why_illegal(("march", "e2", "e5")) == (  # with the way forward
        "The Pawn on e2 cannot go to e5 now; it can go to e3, e4"
    )


# ---------------------------------------------------------------------- sealed decks


def sealed_action_phase(sealed: bool, **cards: list[str]) -> Game:
    """Blue's action phase, King against King, with these cards, decks sealed or open."""
    setup = {"piles": list(FIRST_GAME), "sealed": sealed}
    return game(fen("Ke1 ke8"), phase="action", setup=setup, **cards)


def asked(g: Game) -> tuple[int, str]:
    prompt = g.prompt()
    return prompt.seat, prompt.kind


def test_a_sealed_phase_waits_for_its_seats_end() -> None:
    # Wish is two Orders: nothing in this hand can be played in the action phase.
    assert asked(sealed_action_phase(False, hand=["Wish"])) != (0, "action")  # passed by itself
    g = sealed_action_phase(True, hand=["Wish"])
    assert asked(g) == (0, "action") and g.legal() == [("end",)]
    play(g, "end")
    assert asked(g) != (0, "action")
    # Once a card is bought no Treasure may be played: what is left of the phase is public.
    g = sealed_action_phase(True, hand=["Peon", "Peon", "Wish"])
    play(g, "end")  # the action phase (the Peons could train)
    assert asked(g) == (0, "buy")
    play(g, "treasure Peon", "treasure Peon", "buy Champion")
    assert asked(g) != (0, "buy")  # its one buy spent, the phase ended by itself


def test_a_sealed_seat_says_done_when_no_training_card_fits() -> None:
    # Destiny draws the Wish, then would trash a training card: the hand holds none.
    g = sealed_action_phase(False, hand=["Destiny", "Wish"], deck=["Wish"])
    play(g, "play Destiny 2")
    assert g.prompt().kind != "trash"  # the step passed by itself
    g = sealed_action_phase(True, hand=["Destiny", "Wish"], deck=["Wish"])
    play(g, "play Destiny 2")
    assert g.prompt().kind == "trash" and g.legal() == [("done",)]
    play(g, "done")
    assert g.log[-1] == "blue: has no training card to trash"
    assert hand(g, 0) == ["Wish", "Wish"]
    # A seat that holds a training card must trash it.
    g = sealed_action_phase(True, hand=["Destiny", "Wish"], deck=["Peon"])
    play(g, "play Destiny 2")
    assert g.legal() == [("trash", "Peon")] and not g.is_legal(("done",))


def test_a_sealed_card_put_back_face_down_is_named_by_its_place_in_the_hand() -> None:
    # Vigilance draws a card, then puts one from the hand back on the deck, face down.
    g = sealed_action_phase(False, hand=["Vigilance", "Tower", "Peon"], deck=["Guard"])
    play(g, "play Vigilance 2")
    assert g.legal() == [("topdeck", "Tower"), ("topdeck", "Peon"), ("topdeck", "Guard")]
    g = sealed_action_phase(True, hand=["Vigilance", "Tower", "Peon"], deck=["Guard"])
    play(g, "play Vigilance 2")
    assert g.legal() == [("topdeck", "1"), ("topdeck", "2"), ("topdeck", "3")]
    assert "`topdeck 1` to `topdeck 3`" in g.why_illegal(("topdeck", "Tower"))
    assert "`topdeck 1` Tower, `topdeck 2` Peon, `topdeck 3` Guard" in prompt_line(g, 0)
    play(g, "topdeck 2")
    assert g.log[-1] == "blue: puts a card on top of their deck"  # no name, for anyone
    assert [g.cards[c] for c in g.players[0].deck] == ["Peon"]
    assert hand(g, 0) == ["Guard", "Tower"]


def test_a_sealed_shuffle_of_cards_all_of_one_name_seals_nothing() -> None:
    # Vigilance draws a card from an empty deck: the discard pile is shuffled first.
    g = sealed_action_phase(False, hand=["Vigilance", "Tower"], discard=["Peon", "Peon"])
    play(g, "play Vigilance 2")
    assert g.prompt().seat == CHANCE and g.chance == {"kind": "shuffle", "seat": 0}
    # Sealed: two Peons in either order are the same deck, so chance is not asked, and every
    # seat knows the card drawn and the one left (fresh cards, as a sealed shuffle makes).
    g = sealed_action_phase(True, hand=["Vigilance", "Tower"], discard=["Peon", "Peon"])
    before = len(g.cards)
    play(g, "play Vigilance 2")
    assert g.prompt().seat != CHANCE and g.log[-1] == "blue: shuffles"
    drawn, [left] = g.players[0].hand[-1], g.players[0].deck
    assert min(drawn, left) >= before and {drawn, left} <= g.shown
    assert g.cards[drawn] == g.cards[left] == "Peon" and not g.unknown
    # Two names: the order is a secret again, and the seats seal it.
    g = sealed_action_phase(True, hand=["Vigilance", "Tower"], discard=["Peon", "Guard"])
    play(g, "play Vigilance 2")
    assert g.prompt().seat == CHANCE and g.chance == {"kind": "shuffle", "seat": 0}
