"""The reference commands: ``crownp2p units`` and ``crownp2p moves``."""

from __future__ import annotations

import json

import pytest

from crownp2p.shell.cli import main

# The rules reference's unit table: letter and classes of every unit type.
UNITS = {
    "Pawn": ("P", {"Foot"}),
    "Knight": ("N", {"Mounted"}),
    "Bishop": ("B", {"Pious"}),
    "Rook": ("R", {"Heavy"}),
    "Queen": ("Q", {"Regal"}),
    "King": ("K", {"Sovereign"}),
    "Spy": ("S", {"Heavy"}),
    "Warlord": ("W", {"Heavy"}),
    "Oracle": ("O", {"Pious"}),
    "Gryphon": ("G", {"Heavy", "Regal"}),
    "Chancellor": ("C", {"Regal"}),
    "Anointed": ("A", {"Pious", "Sovereign"}),
    "Acolyte": ("Y", {"Pious"}),
    "Phantom": ("F", {"Mounted", "Regal"}),
    "Hero": ("H", {"Mounted"}),
    "Banshee": ("E", {"Regal"}),
    "Charger": ("J", {"Heavy"}),
    "Dragoon": ("D", {"Mounted", "Regal"}),
    "Immortal": ("I", {"Foot"}),
    "Monk": ("M", {"Foot", "Pious"}),
    "Nightrider": ("V", {"Mounted"}),
    "Sniper": ("Z", {"Heavy"}),
    "Sphinx": ("X", {"Pious", "Regal"}),
    "Striker": ("T", {"Foot"}),
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def moves_json(capsys, position: str, square: str) -> dict:
    status, out, err = run(capsys, "moves", position, square, "--json")
    assert status == 0, err
    assert err == ""
    return json.loads(out)


# --------------------------------------------------------------------------- units


def test_units_json(capsys) -> None:
    status, out, err = run(capsys, "units", "--json")
    assert status == 0
    assert err == ""
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 24
    for item in data:
        assert set(item) == {"name", "letter", "classes"}
        assert isinstance(item["name"], str)
        assert isinstance(item["letter"], str) and len(item["letter"]) == 1
        assert isinstance(item["classes"], list) and item["classes"]
    letters = [item["letter"] for item in data]
    assert len(set(letters)) == 24
    assert {item["name"]: (item["letter"], set(item["classes"])) for item in data} == UNITS


def test_units_text(capsys) -> None:
    status, out, err = run(capsys, "units")
    assert status == 0
    lines = out.strip().splitlines()
    assert len(lines) == 24
    for name, (letter, _) in UNITS.items():
        assert any(line.split()[:2] == [letter, name] for line in lines), name


# --------------------------------------------------------------------------- moves


def test_moves_json_schema(capsys) -> None:
    data = moves_json(capsys, "4k3/8/8/8/3C4/8/8/4K3", "d4")
    assert set(data) == {"square", "unit", "owner", "march", "attack"}
    assert data["square"] == "d4"
    assert data["unit"] == "Chancellor"
    assert data["owner"] == 0
    # Rook + Knight from d4, the Kings on e1 and e8 out of its reach.
    assert data["march"] == [
        "a4",
        "b3",
        "b4",
        "b5",
        "c2",
        "c4",
        "c6",
        "d1",
        "d2",
        "d3",
        "d5",
        "d6",
        "d7",
        "d8",
        "e2",
        "e4",
        "e6",
        "f3",
        "f4",
        "f5",
        "g4",
        "h4",
    ]
    assert data["attack"] == []


def test_moves_json_attack(capsys) -> None:
    # Rook on d4; enemy on d7 (reachable), enemy on d8 behind it, own unit on f4.
    data = moves_json(capsys, "3p4/3p4/8/8/3R1P2/8/8/8", "d4")
    assert data["march"] == ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "d6", "e4"]
    assert data["attack"] == ["d7"]


def test_moves_json_seat_1(capsys) -> None:
    # Seat 1's Pawn on d7 plays down: d6 and d5; it attacks the seat-0 Knight on e6.
    data = moves_json(capsys, "8/3p4/4N3/8/8/8/8/8 1 - -", "d7")
    assert data["owner"] == 1
    assert data["unit"] == "Pawn"
    assert data["march"] == ["d5", "d6"]
    assert data["attack"] == ["e6"]


def test_moves_json_spy_lists_swap_partners(capsys) -> None:
    # Spy on d4; own King e1, own Rook h8; enemy Pawn on d5 next to it.
    data = moves_json(capsys, "7R/8/8/3p4/3S4/8/8/4K3", "d4")
    assert data["march"] == ["e1", "h8"]
    assert data["attack"] == ["d5"]


def test_moves_json_charger_lists_every_capture(capsys) -> None:
    # Charger on d4 with enemies on d5 and d7: one charge takes both.
    data = moves_json(capsys, "8/3p4/8/3p4/3J4/8/8/8", "d4")
    assert data["attack"] == ["d5", "d7"]
    assert data["march"] == ["a4", "b4", "c4", "d1", "d2", "d3", "e4", "f4", "g4"]


def test_moves_json_oracle(capsys) -> None:
    data = moves_json(capsys, "8/8/3p4/8/3O4/8/8/8", "d4")
    assert data["march"] == ["c3", "c5", "e3", "e5"]
    assert data["attack"] == ["d6"]


def test_moves_text(capsys) -> None:
    status, out, err = run(capsys, "moves", "4k3/8/8/8/3C4/8/8/4K3", "d4")
    assert status == 0
    assert err == ""
    assert "Chancellor" in out and "d4" in out


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("position", "square"),
    [
        ("4k3/8/8/8/3C4/8/8/4K3", "a1"),  # empty square
        ("4k3/8/8", "e8"),  # wrong number of ranks
        ("4k3/8/8/8/3L4/8/8/4K3", "e8"),  # not a unit letter
        ("4k3/8/8/8/8/8/8/4K3 7", "e8"),  # bad seat
        ("4k3/8/8/8/8/8/8/4K3 0 n -", "e8"),  # wrong-case Barracks letter
        ("4k3/8/8/8/3C4/8/8/4K3", "z9"),  # not a square
        ("4k3/8/8/8/3C4/8/8/4K3", "d"),  # not a square
    ],
    ids=["empty-square", "ranks", "letter", "seat", "barracks-case", "square-z9", "square-d"],
)
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_moves_errors(capsys, position: str, square: str, as_json: bool) -> None:
    argv = ["moves", position, square] + (["--json"] if as_json else [])
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0]
    assert err.endswith("\n")


def test_empty_square_message_names_the_square(capsys) -> None:
    _, _, err = run(capsys, "moves", "4k3/8/8/8/3C4/8/8/4K3", "a1")
    assert "a1" in err
