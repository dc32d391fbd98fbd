"""Learning the game in the app: ``help UNIT`` draws the unit's moves, ``help CARD`` adds what
the unit it trains does, names may be cut short, and ``rules`` tells the game in sections."""

from __future__ import annotations

import re

import pytest
from scenario import board_field
from test_shell_table import solo

from crownp2p.core.board import parse_square, square_name
from crownp2p.core.movement import UnitMove
from crownp2p.core.position import Position
from crownp2p.shell.cli import main
from crownp2p.shell.context import catalog

ALL_UNITS = [u.name for u in catalog().rules().units]  # the base game's and every pack's
MARK = {
    frozenset({"march"}): "o",
    frozenset({"attack"}): "x",
    frozenset({"march", "attack"}): "*",
    frozenset({"swap"}): "s",
    frozenset({"swap", "attack"}): "&",
}


def real_moves(letter: str) -> dict[str, str]:
    """Square -> mark, from positions on the engine's board: the unit alone on d4, then with a
    lone enemy (its captures) or a lone unit of its own (its swaps) on each other square."""
    units = catalog().rules().units
    ways: dict[str, set[str]] = {}

    def moves(others: str) -> list[UnitMove]:
        pos = Position.from_fen(board_field(f"{letter}d4 {others}"), units)
        return pos.unit_moves(parse_square("d4"))

    for m in moves(""):
        ways.setdefault(square_name(m.to), set()).add("march")
    for file in "abcdefgh":
        for rank in "12345678":
            sq = file + rank
            if sq == "d4":
                continue
            if any(sq in {square_name(c) for c in m.captures} for m in moves(letter.lower() + sq)):
                ways.setdefault(sq, set()).add("attack")
            if any(m.kind == "swap" and square_name(m.to) == sq for m in moves(letter + sq)):
                ways.setdefault(sq, set()).add("swap")
    return {sq: MARK[frozenset(w)] for sq, w in ways.items()}


def drawn_moves(lines: list[str]) -> dict[str, str]:
    """Square -> mark, read back from ``help UNIT``'s picture."""
    rows = [line.split() for line in lines if re.fullmatch(r"  [1-8](?: \S)+", line)]
    files = next(line.split() for line in lines if re.fullmatch(r"    [a-h](?: [a-h])*", line))
    out = {}
    for rank, *cells in rows:
        for file, cell in zip(files, cells, strict=True):
            if cell not in ("·", ".") and not cell.isupper():
                out[file + rank] = cell
    return out


@pytest.mark.parametrize("unit", ALL_UNITS)
def test_help_unit_draws_the_engines_moves_on_an_empty_board(unit):
    t = solo()
    lines = t.handle(f"help {unit}").lines
    kind = t.rules.units.get(unit)
    assert drawn_moves(lines) == real_moves(kind.letter)
    assert any(f" {kind.letter} " in line for line in lines)  # the unit itself, on d4


def test_help_unit_names_classes_trainers_and_the_marks():
    lines = solo().handle("help Hero").lines
    assert lines[0] == "Hero (H): Mounted. Trained by Legend."
    assert lines[-1].endswith("* marches or attacks there")
    pawn = solo().handle("help pawn").lines
    trained = "Trained by Peon, Guard, Squire. On its last rank it may promote."
    assert pawn[0] == f"Pawn (P): Foot. {trained}"
    assert "o marches there" in pawn[-1] and "x attacks there" in pawn[-1]


def test_help_card_shows_both_effects_and_the_unit_it_trains():
    lines = solo().handle("help Legend").lines
    assert lines[0].startswith("Legend (cost")
    assert [line.split(".")[0].strip() for line in lines[1:3]] == ["1", "2"]
    assert "Hero (H): Mounted. Trained by Legend." in lines
    assert drawn_moves(lines) == real_moves("H")


def test_help_takes_a_unique_beginning_and_asks_when_two_match():
    t = solo()
    assert t.handle("help stab").lines[0].startswith("Stables (cost 3)")
    assert t.handle("help hero").lines[0].startswith("Hero (H)")
    assert t.handle("help st").lines == ["`st` could be `Stables` or `Striker`: which one?"]
    assert t.handle("help wombat").lines == ["There is no card or unit called 'wombat'."]


def test_cards_takes_a_unique_beginning(capsys):
    assert main(["cards", "stab"]) == 0
    assert capsys.readouterr().out.startswith("Stables (cost 3)")
    assert main(["cards", "sa"]) == 2
    assert "`sa` could be `Sacrifice` or `Sanctuary`: which one?" in capsys.readouterr().err


def test_rules_tells_the_game_in_sections():
    t = solo()
    overview = t.handle("rules").lines
    assert "Capture every enemy Sovereign to win." in overview[3]
    for name in ("turn", "deploy", "promotion", "winning", "setup"):
        assert any(line.startswith(f"  rules {name} ") for line in overview)
        assert t.handle(f"rules {name}").lines and t.handle(f"rules {name}").lines != overview
    assert t.handle("rules dep").lines == t.handle("rules deploy").lines
    assert "second rank" in " ".join(t.handle("rules deploy").lines)
    assert "4. Housekeeping." in "\n".join(t.handle("rules turn").lines)
    assert "  --option anointed: both sides start with an Anointed instead of the King" in (
        t.handle("rules setup").lines
    )
    assert t.handle("rules chess").lines == [
        "There is no section of the rules called 'chess'. "
        "Sections: turn, deploy, promotion, winning, setup."
    ]
    assert any(line.startswith("  rules [TOPIC]") for line in t.handle("help").lines)
