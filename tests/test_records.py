"""Records, replay and verify; hashes that agree across processes; the selfplay command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crownp2p.bots.selfplay import play_game
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Record, verify
from crownp2p.core.setup import Setup
from crownp2p.core.shuffle import SeedSource, shuffle
from crownp2p.core.standard import standard_rules
from crownp2p.shell.cli import main

RULES = standard_rules()


def recorded_game(seed: int = 3) -> Record:
    result = play_game(RULES, Setup(), ["greedy", "random"], seed, max_turns=40, record=True)
    assert result.record is not None
    return result.record


def test_a_saved_record_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    record = recorded_game()
    record.save(path)
    assert main(["verify", str(path)]) == 0
    seeds = sum(1 for step in record.steps if step.seat == CHANCE)
    assert seeds >= 2
    assert capsys.readouterr().out.strip() == (
        f"OK: {len(record.steps)} steps replayed, the start's and every step's state hash"
        f" matched; {seeds} chance seeds, drawn in one process (no commit-reveal rounds to check)."
    )


def test_verify_names_the_first_step_whose_hash_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = recorded_game()
    record.steps[41].hash = "0" * 64
    record.steps[60].hash = "0" * 64
    path = tmp_path / "bad.jsonl"
    record.save(path)
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.strip() == "step 42: the state hash differs"


def test_verify_reports_an_illegal_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = recorded_game()
    index = next(i for i, s in enumerate(record.steps) if s.decision[0] == "buy")
    record.steps[index].decision = ("buy", "Wish")  # not in the first game's Supply
    path = tmp_path / "bad.jsonl"
    record.save(path)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"step {index + 1}: `buy Wish` is illegal")


def test_verify_refuses_a_file_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text("not json\n")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert main(["verify", str(tmp_path / "missing.jsonl")]) == 2


def test_a_record_round_trips_through_its_file(tmp_path: Path) -> None:
    record = recorded_game()
    path = tmp_path / "g.jsonl"
    record.save(path)
    again = Record.load(path)
    assert [s.to_json() for s in again.steps] == [s.to_json() for s in record.steps]
    assert verify(RULES, again).ok


def test_a_record_from_an_explicit_state_replays() -> None:
    game = Game(RULES, Setup())
    seeds = SeedSource(1)
    while game.prompt().seat == -1:
        game.apply(("seed", seeds.next_seed()))
    state = game.to_json()
    start = Game.from_json(RULES, state)
    record = Record.begin(start, state=state)
    for _ in range(5):
        record.apply(start, start.legal()[0])
    assert verify(RULES, record).ok


def test_the_shuffle_is_our_own_and_fixed() -> None:
    items = list(range(10))
    shuffle(items, bytes(32))
    # A fixed vector: if this changes, the shuffle changed and needs a new version number.
    assert items == FIXED_SHUFFLE


# Shuffle version 1 of range(10) with the all-zero seed, frozen when version 1 was made.
FIXED_SHUFFLE = [7, 6, 9, 5, 4, 2, 3, 1, 0, 8]


def test_hashes_agree_across_processes() -> None:
    script = (
        "from crownp2p.bots.selfplay import play_game;"
        "from crownp2p.core.setup import Setup;"
        "from crownp2p.core.standard import standard_rules;"
        "print(play_game(standard_rules(), Setup(), ['greedy','random'], 11, max_turns=30)"
        ".final_hash)"
    )
    hashes = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        hashes.add(out.stdout.strip())
    local = play_game(RULES, Setup(), ["greedy", "random"], 11, max_turns=30).final_hash
    assert hashes == {local}


def test_selfplay_json_lines_repeat_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--bots", "greedy,random", "--games", "3", "--seed", "7", "--json"]
    assert main(args) == 0
    first = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(args) == 0
    second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first == second
    assert [g["game"] for g in first] == [1, 2, 3]
    assert [g["seed"] for g in first] == [7, 8, 9]
    for g in first:
        assert set(g) == {"game", "seed", "winner", "turns", "decisions", "finished", "final_hash"}
        assert len(g["final_hash"]) == 64


def test_selfplay_turn_cap_leaves_a_game_unfinished(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--bots", "random,random", "--max-turns", "2", "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["finished"] is False and line["winner"] is None


@pytest.mark.parametrize("supply", ["Tower,Nonsense", "Peon", "nowhere", "Stables,Stables"])
def test_selfplay_refuses_unknown_supplies(supply: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--supply", supply]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_selfplay_refuses_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--bots", "greedy,clever"]) == 2
    assert "clever" in capsys.readouterr().err


def test_selfplay_writes_records_that_verify(tmp_path: Path) -> None:
    assert main(["selfplay", "--games", "2", "--record", str(tmp_path), "--max-turns", "20"]) == 0
    files = sorted(tmp_path.iterdir())
    assert len(files) == 2
    for f in files:
        assert verify(RULES, Record.load(f)).ok
