"""``crownp2p replay``: stepping through a saved game; bad records are one line and status 2."""

from __future__ import annotations

import io
import json

import pytest
from scenario import RULES

from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.shell.cli import main
from crownp2p.shell.render import plain
from crownp2p.shell.replay import Replay, ReplayError
from crownp2p.shell.solo import solo_table
from crownp2p.shell.terminal import run_lines


@pytest.fixture
def saved(tmp_path):
    table = solo_table(RULES, Setup(), seat=1, bot="greedy", seed=4)
    for line in ("end", "end", "treasure all", "buy Champion", "e8d8"):
        table.handle(line)
    path = tmp_path / "game.jsonl"
    table.handle(f"save {path}")
    return path


def test_stepping_on_and_back_and_to_a_turn(saved):
    replay = Replay(RULES, Record.load(saved))
    assert replay.at == 2  # past the deal's two shuffles: blue is to decide
    assert replay.step_number() == 0 and replay.game.turn == 1
    reply = replay.handle("next")
    assert plain(reply.news) == "blue: ends the order phase"
    assert reply.lines == [f"At step 1 of {replay.total}, turn 1."]
    assert replay.handle("").lines[-1].startswith("At step 2 of")  # Enter alone steps on
    replay.handle("back 2")
    assert replay.step_number() == 0
    replay.handle("turn 2")
    assert replay.game.turn == 2 and replay.game.active == 1
    assert replay.status().startswith("Turn 2, gold to decide: Order 1 of 1:")
    replay.handle("turn -1")
    assert replay.game.turn == 1
    before = replay.game.state_hash()
    replay.handle("end")
    assert "The record ends here" in replay.status()
    replay.handle("start")
    assert replay.game.state_hash() == before


def test_every_position_is_the_one_the_record_hashed(saved):
    record = Record.load(saved)
    replay = Replay(RULES, record)
    for position in reversed(replay.stops[1:]):  # backwards: from the turn snapshots
        replay.go(position)
        assert replay.game.state_hash() == record.steps[position - 1].hash


def test_the_board_is_drawn_from_the_recorded_players_side(saved, capsys):
    out = io.StringIO()
    replay = Replay(RULES, Record.load(saved), seat=1)
    assert run_lines(replay, io.StringIO("next\nturn 2\nmoves e8\nfoo\nquit\n"), out) == 0
    text = out.getvalue()
    assert text.splitlines()[1].strip() == "h g f e d c b a"
    assert "gold · lower case · you" in text and "blue · UPPER case · greedy bot" in text
    assert "Hand: " in text.split("blue · UPPER")[1]  # every hand is shown
    assert "gold King on e8: Sovereign" in text
    assert "`foo` is not a replay command." in text
    assert "replay> quit\nGoodbye." in text


def test_the_cli_takes_the_seat_from_the_record(saved, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["replay", str(saved)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Replaying {saved}: ")
    assert out.splitlines()[1].strip() == "h g f e d c b a"  # the solo player was gold
    assert main(["replay", str(saved), "--seat", "blue"]) == 0
    assert capsys.readouterr().out.splitlines()[1].strip() == "a b c d e f g h"


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "crownp2p replay: the record is empty"),
        ("not json\n", "crownp2p replay: line 1 is not JSON"),
        ('{"format": "other"}\n', "crownp2p replay: this is not a crownp2p record"),
    ],
)
def test_a_bad_record_file_is_one_line_and_status_2(tmp_path, capsys, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1


def test_a_missing_file_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nowhere.jsonl")]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"crownp2p replay: cannot read {tmp_path / 'nowhere.jsonl'}: No such file or directory\n"
    )


def _edit(path, seq, **changes):
    lines = path.read_text().splitlines()
    step = json.loads(lines[seq])
    step.update(changes)
    lines[seq] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")


def test_an_illegal_step_stops_the_replay_with_its_number(saved, capsys):
    _edit(saved, 3, decision="buy Consort")
    with pytest.raises(ReplayError, match="step 3: `buy Consort` is not legal there"):
        Replay(RULES, Record.load(saved))
    assert main(["replay", str(saved)]) == 2
    assert capsys.readouterr().err.startswith("crownp2p replay: step 3: `buy Consort` is not legal")


def test_a_wrong_seat_stops_the_replay(saved):
    _edit(saved, 3, seat=1)
    with pytest.raises(ReplayError, match="step 3: the record has seat 1 deciding, but blue"):
        Replay(RULES, Record.load(saved))


def test_differing_hashes_are_a_warning_and_the_game_still_replays(saved):
    _edit(saved, 5, hash="0" * 64)
    replay = Replay(RULES, Record.load(saved))
    assert replay.warnings == [
        "From step 5 on, the states differ from the record's hashes "
        "(it was made by another version?)."
    ]
    assert replay.opening().lines[1] == replay.warnings[0]
    replay.handle("end")
    assert replay.game.turn == 4
