"""Tab completion, tested directly with prompt_toolkit Documents (pgcli's way)."""

from __future__ import annotations

from prompt_toolkit import PromptSession
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout.menus import MultiColumnCompletionMenuControl
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.shortcuts import CompleteStyle
from scenario import RULES, game

from crownp2p.core.decisions import decision_text
from crownp2p.shell.completer import MENU_ROWS, DecisionCompleter, fit_menu
from crownp2p.shell.solo import SOLO_COMMANDS

OPENING = "4k3/8/8/8/8/8/4P3/4K3"


def completer(g) -> DecisionCompleter:
    return DecisionCompleter(g.legal, list(SOLO_COMMANDS), RULES, lambda: g)


def complete(g, text: str) -> list[str]:
    doc = Document(text, len(text))
    return [
        c.text for c in completer(g).get_completions(doc, CompleteEvent(completion_requested=True))
    ]


def test_an_empty_line_offers_every_legal_decision_and_the_commands():
    g = game(OPENING)
    got = complete(g, "")
    assert "e2e4" in got and "end" in got  # a move in its short form, and only in that one
    assert "march e2 e4" not in got
    moves = [d for d in g.legal() if d[0] == "march"]
    assert [t for t in got if t[:2] in ("e1", "e2")] == [d[1] + d[2] for d in moves]
    assert {"help", "moves", "undo", "quit"} <= set(got)


def test_completion_follows_the_legal_list_as_it_changes():
    g = game(OPENING)
    c = completer(g)
    before = [x.text for x in c.get_completions(Document("march e2"), CompleteEvent())]
    assert before == ["march e2 e3", "march e2 e4"]
    g.apply(("march", "e2", "e4"))
    after = [x.text for x in c.get_completions(Document("march e2"), CompleteEvent())]
    assert after == []


def test_short_moves_complete_from_the_square():
    assert complete(game(OPENING), "e2") == ["e2e3", "e2e4"]


def test_buy_lists_what_can_be_bought_with_its_cost():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], phase="buy", counters={"gold": 3})
    doc = Document("buy ")
    got = list(completer(g).get_completions(doc, CompleteEvent()))
    assert [c.text for c in got] == ["buy Champion", "buy Clergy"]
    assert got[0].display_meta_text == "costs 2"
    assert got[0].start_position == -len("buy ")  # the whole line is replaced


def test_a_word_inside_a_candidate_is_found_when_no_line_begins_so():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon"], phase="buy", counters={"gold": 3})
    assert complete(g, "cler") == ["buy Clergy"]


def test_treasure_all_is_offered_with_two_or_more_treasures():
    g = game("4k3/8/8/8/8/8/8/4K3", hand=["Peon", "Clergy"], phase="buy")
    assert complete(g, "treasure") == ["treasure Peon", "treasure Clergy", "treasure all"]


def test_help_completes_card_and_unit_names():
    g = game(OPENING)
    assert complete(g, "help Sta") == ["help Stables"]
    assert "help Knight" in complete(g, "help Kn")


def test_moves_completes_the_squares_that_hold_a_unit():
    g = game(OPENING)
    assert complete(g, "moves ") == ["moves e1", "moves e2", "moves e8"]


def test_case_does_not_matter_and_leading_spaces_are_kept():
    g = game(OPENING)
    doc = Document("  MARCH E2 E4")
    got = list(completer(g).get_completions(doc, CompleteEvent()))
    assert [c.text for c in got] == ["march e2 e4"]
    assert got[0].start_position == -len("MARCH E2 E4")


def test_nothing_to_decide_leaves_only_the_commands():
    g = game(OPENING)
    idle = DecisionCompleter(lambda: [], ["help", "quit"], RULES)
    assert [c.text for c in idle.get_completions(Document(""), CompleteEvent())] == [
        "help",
        "quit",
    ]
    assert complete(g, "zzz") == []


def test_one_form_per_move_whatever_is_typed():
    g = game(OPENING)
    assert complete(g, "e2") == ["e2e3", "e2e4"]
    assert complete(g, "march") == [decision_text(d) for d in g.legal() if d[0] == "march"]
    assert complete(g, "mar") == complete(g, "march")


def test_the_two_effects_of_a_card_read_differently():
    g = game("4k3/8/8/8/8/8/8/4K3 0 P -", hand=["Refiner", "Tower"], phase="action")
    got = list(completer(g).get_completions(Document("play Refiner"), CompleteEvent()))
    assert [c.text for c in got] == ["play Refiner 1", "play Refiner 2"]
    one, two = (c.display_meta_text for c in got)
    assert one == "...training card from your hand and turn one unit in your..."
    assert two == "...card from your hand and gain a card costing at most 2..."


def test_rules_completes_its_sections():
    assert complete(game(OPENING), "rules p") == ["rules promotion"]


def test_the_menu_keeps_to_a_few_rows_in_columns():
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        session = PromptSession(complete_style=CompleteStyle.MULTI_COLUMN)
        fit_menu(session.layout)
    grids = [
        w
        for w in session.layout.find_all_windows()
        if isinstance(w.content, MultiColumnCompletionMenuControl)
    ]
    assert grids and all(w.height.max == MENU_ROWS for w in grids)
