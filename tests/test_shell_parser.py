"""The shell's parser: what typed lines stand for, and the one line said when they stand for
nothing legal."""

from __future__ import annotations

import pytest
from scenario import game

from crownp2p.core.decisions import decision_text
from crownp2p.shell.parser import InputError, did_you_mean, parse_input, unit_names, why_not

OPENING = "4k3/8/8/8/8/8/4P3/4K3"  # a blue Pawn on e2 in front of the King
COMMANDS = ["help", "moves", "log", "board", "undo", "save", "quit"]


def parsed(line: str, g) -> list[str]:
    return [decision_text(d) for d in parse_input(line, g.legal())]


# -------------------------------------------------------------------- short forms


@pytest.mark.parametrize("line", ["e2e4", "e2-e4", "e2 e4", "E2E4", "march e2 e4", "march e2e4"])
def test_marches_in_every_short_form(line):
    assert parsed(line, game(OPENING)) == ["march e2 e4"]


def test_attack_by_squares():
    g = game("4k3/8/8/8/8/3p4/4P3/4K3")
    assert parsed("e2xd3", g) == ["attack e2 d3"]
    assert parsed("e2d3", g) == ["attack e2 d3"]


def test_exact_text_in_any_case():
    assert parsed("END", game(OPENING)) == ["end"]
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], phase="buy", counters={"gold": 3})
    assert parsed("buy clergy", g) == ["buy Clergy"]
    assert parsed("Treasure peon", g) == ["treasure Peon"]


def test_play_a_card_by_its_name_when_one_effect_fits():
    g = game("4k3/8/8/8/8/8/8/4KN2", hand=["Stables"], piles=["Stables"])  # a Knight to march
    assert parsed("play Stables", g) == ["play Stables 1"]
    assert parsed("play stables 1", g) == ["play Stables 1"]


def test_play_a_card_with_two_playable_effects_asks_which():
    g = game("4k3/8/8/8/8/8/8/R3K3", hand=["Sanctuary"], piles=["Sanctuary"])  # a Heavy unit
    with pytest.raises(InputError, match="play Sanctuary 1.*play Sanctuary 2"):
        parse_input("play Sanctuary", g.legal())
    with pytest.raises(InputError, match="play Sanctuary 1.*play Sanctuary 2"):
        parse_input("play sanc", g.legal())


def test_deploy_by_kind_and_square():
    g = game("4k3/8/8/8/8/8/8/4K3 0 P -")
    assert parsed("deploy pawn d2", g) == ["deploy Pawn d2"]
    with pytest.raises(InputError, match="more than one square"):
        parse_input("deploy Pawn", g.legal())


def test_treasure_all_is_every_treasure():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon", "Clergy", "Guard"], phase="buy")
    assert parsed("treasure all", g) == ["treasure Peon", "treasure Clergy"]


def test_end_and_done_stand_for_each_other():
    g = game(OPENING)
    assert parsed("done", g) == ["end"]
    assert parsed("pass", g) == ["end"]


def test_a_unique_beginning_is_enough():
    g = game("4k3/8/8/8/8/8/8/4K3", phase="buy", counters={"gold": 9, "buys": 1})
    assert parsed("buy cons", g) == ["buy Consort"]
    with pytest.raises(InputError):
        parse_input("b", g.legal())  # one letter is no decision


def test_a_line_that_is_nothing_raises():
    with pytest.raises(InputError, match="not possible"):
        parse_input("fly to the moon", game(OPENING).legal())
    with pytest.raises(InputError):
        parse_input("   ", game(OPENING).legal())


# -------------------------------------------------------------------- why not, in one line


def test_why_not_says_what_a_card_costs():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], phase="buy", counters={"gold": 3})
    line = why_not("buy Tower", g, 0, COMMANDS)
    assert line.startswith("Tower costs 6 and you have 3 gold")
    assert "Possible now:" in line and "\n" not in line


def test_why_not_buys_in_the_order_phase():
    line = why_not("buy Tower", game(OPENING), 0)
    assert "buy phase" in line and "`end` ends the order phase" in line


def test_why_not_moves_name_the_unit_and_where_it_can_go():
    g = game(OPENING)
    assert why_not("e2e5", g, 0).startswith("The Pawn on e2 cannot go to e5 now; it can go to")
    assert why_not("e8e7", g, 0).startswith("The King on e8 is gold's")
    assert why_not("a3a4", g, 0).startswith("There is no unit on a3")


def test_why_not_moves_after_the_order_phase():
    g = game(OPENING, hand=["Peon"], phase="buy")
    assert "order phase" in why_not("e2e4", g, 0)


def test_why_not_train_in_the_order_phase_and_cards_not_in_hand():
    g = game(OPENING, hand=["Peon"])
    assert "Training is an action" in why_not("train Peon", g, 0)
    g = game(OPENING, hand=["Peon"], phase="action")
    assert why_not("train Clergy", g, 0).startswith("There is no Clergy in your hand")
    assert why_not("play Wombat", g, 0).startswith("There is no card called 'wombat'")


def test_why_not_deploy_what_is_not_in_the_barracks():
    g = game("4k3/8/8/8/8/8/8/4K3 0 P -")
    assert why_not("deploy Knight b1", g, 0).startswith("Your Barracks has no Knight")
    assert why_not("deploy Pawn h8", g, 0).startswith("A Pawn can be deployed on")


def test_did_you_mean_finds_decisions_short_forms_and_commands():
    g = game(OPENING)
    assert "Did you mean `end`?" in why_not("edn", g, 0, COMMANDS)
    assert "Did you mean `help`?" in why_not("hlep", g, 0, COMMANDS)
    assert did_you_mean("e2e3x", g.legal()) == "e2e3"


def test_why_not_when_another_seat_decides():
    g = game(OPENING)
    line = why_not("end", g, 1)
    assert line.startswith("It is blue's decision now")
    assert "Nothing is yours to decide now" in line


def test_possible_now_lists_few_choices_in_full_and_many_by_verb():
    few = why_not("zz", game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], phase="buy"), 0)
    assert few.endswith("Possible now: `treasure Peon`, `end`.")
    many = why_not("zz", game(OPENING), 0)
    assert "Possible now: march, end (Tab lists all" in many


# -------------------------------------------------------------------- forgiving words


def words(line: str, g) -> list[str]:
    return [decision_text(d) for d in parse_input(line, g.legal(), unit_names(g))]


def destiny_morph(board: str):
    """Destiny played and a Tower trashed: morph a unit (board or Barracks) into a Rook."""
    g = game(f"{board} 0 P -", hand=["Destiny", "Tower"], deck=["Peon"], phase="action")
    g.apply(("play", "Destiny", "2"))
    g.apply(("trash", "Tower"))
    return g


def test_the_prompts_own_verb_and_a_bare_card_name_at_a_card_step():
    g = game("4k3/8/8/8/8/8/8/4K2N", hand=["Stables", "Peon", "Guard"], deck=["Peon", "Guard"])
    g.apply(("end",))
    g.apply(("play", "Stables", "2"))
    assert g.prompt().text == "Stables: put a card from your hand on top of your deck"
    for line in ("put Peon", "put peon on top", "Peon", "topdeck pe", "choose peon"):
        assert words(line, g) == ["topdeck Peon"]
    with pytest.raises(InputError, match="`put` could be `topdeck Peon` or `topdeck Guard`"):
        parse_input("put", g.legal())


def test_a_unit_name_stands_for_its_square_or_the_barracks_and_two_are_asked_about():
    g = destiny_morph("4k3/8/8/8/8/8/8/4K2N")
    assert words("morph pawn", g) == ["morph barracks Pawn"]
    assert words("morph king", g) == ["morph e1"]
    assert words("morph kn", g) == ["morph h1"]
    assert words("e1", g) == ["morph e1"]
    g = destiny_morph("4k3/8/8/8/8/8/4P3/4K3")  # a Pawn on the board as well
    with pytest.raises(InputError, match="could be `morph e2` or `morph barracks Pawn`: which"):
        parse_input("morph pawn", g.legal(), unit_names(g))
    assert why_not("morph pawn", g, 0).startswith(
        "`morph pawn` could be `morph e2` or `morph barracks Pawn`: which one? Possible now:"
    )


def test_a_card_steps_verb_alone_when_one_card_fits_but_never_a_turns_verb():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Destiny", "Tower"], phase="action")  # draws none
    g.apply(("play", "Destiny", "2"))
    assert words("trash", g) == ["trash Tower"]  # the only training card in hand
    g = game("4k3/8/8/8/8/8/8/4K3", phase="buy", counters={"gold": 3})
    with pytest.raises(InputError, match="not possible"):
        parse_input("buy", g.legal())  # a purchase is never guessed


def test_treasures_in_the_action_phase_are_refused_in_one_sentence():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon", "Clergy"], phase="action")
    assert why_not("treasure all", g, 0).startswith(
        "Treasures and buys come in the buy phase: `end` ends the action phase."
    )
