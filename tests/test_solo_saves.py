"""Solo games saved and continued: `save` (never over a file unasked), `solo --resume FILE` and
`resume FILE`, and `crownp2p games`, which lists the kept games newest first."""

from __future__ import annotations

import io
import json
import os
import random

import pytest
from scenario import RULES

from crownp2p.bots.selfplay import play_game
from crownp2p.core.decisions import decision_text
from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.shell.cli import main
from crownp2p.shell.solo import resumed_table, solo_table


def play_lines(table, rng, count):
    """``count`` of the person's lines, each a legal decision ``rng`` picks."""
    for _ in range(count):
        if table.over:
            return
        reply = table.handle(decision_text(rng.choice(table.legal())))
        assert not any("cannot" in line.lower() for line in reply.lines), reply.lines


def hashes(record):
    return [step.hash for step in record.steps]


@pytest.mark.parametrize(
    "bot, think", [("greedy", None), ("random", None), ("easy", None), ("normal", 0.02)]
)
def test_a_resumed_game_goes_on_as_if_never_left(tmp_path, bot, think):
    """Same bot (a level with its think budget too), same seeds: after `save` and `--resume`,
    the bot's replies and the deals are the ones the game would have had without the break."""
    whole = solo_table(RULES, Setup(), seat=1, bot=bot, seed=23, think=think)
    play_lines(whole, random.Random(5), 70)

    first = solo_table(RULES, Setup(), seat=1, bot=bot, seed=23, think=think)
    rng = random.Random(5)
    play_lines(first, rng, 30)
    path = tmp_path / "half way.jsonl"
    assert first.handle(f'save "{path}"').lines[0].startswith(f"Saved the record to {path}")
    steps_saved = len(first.record.steps)

    again = resumed_table(str(path))
    assert again.seat == 1 and again.saved
    assert hashes(again.record)[:steps_saved] == hashes(first.record)
    play_lines(again, rng, 40)
    assert hashes(again.record) == hashes(whole.record)


def test_save_never_overwrites_unasked(tmp_path):
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=3)
    path = tmp_path / "with space.jsonl"
    path.write_text("precious\n")
    said = table.handle(f"save '{path}'").lines
    assert said == [f"{path} is there already: `save! '{path}'` replaces it."]
    assert path.read_text() == "precious\n"
    assert table.handle(f"save! '{path}'").lines[0].startswith("Saved the record")
    assert Record.load(path).start_hash == table.record.start_hash
    assert table.handle('save "unclosed').lines == [
        'A quote is not closed: `save "my game.jsonl"`.'
    ]


def test_save_without_a_file_keeps_the_game_in_the_games_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # platformdirs reads it
    folder = tmp_path / "state" / "crownp2p" / "games"
    older = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=3)
    older.handle("save")
    newer = solo_table(RULES, Setup(), seat=0, bot="random", seed=4)
    play_lines(newer, random.Random(1), 3)
    newer.handle("save")
    files = sorted(folder.glob("*.jsonl"), key=lambda f: len(Record.load(f).steps))
    assert len(files) == 2 and len(Record.load(files[1]).steps) == len(newer.record.steps)
    (folder / "notes.jsonl").write_text("not a record\n")  # passed over
    os.utime(files[0], (1_000_000, 1_000_000))
    os.utime(files[1], (2_000_000, 2_000_000))

    assert main(["games", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [g["path"] for g in listed] == [str(files[1]), str(files[0])]
    assert [g["kind"] for g in listed] == ["solo", "solo"]
    assert main(["games"]) == 0
    text = capsys.readouterr().out
    assert text.index(str(files[1])) < text.index(str(files[0]))


def test_resume_takes_a_solo_save_through_the_pipe(tmp_path, monkeypatch, capsys):
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=8)
    play_lines(table, random.Random(2), 12)
    path = tmp_path / "solo.jsonl"
    table.handle(f"save {path}")
    for argv in (["resume", str(path)], ["solo", "--resume", str(path)]):
        monkeypatch.setattr("sys.stdin", io.StringIO("log 1\nquit\n"))
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert table.game.log[-1] in out and "Goodbye." in out


def test_resume_says_in_one_sentence_what_it_cannot_take(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("nothing\n")
    assert main(["solo", "--resume", str(bad)]) == 2
    assert capsys.readouterr().err == "crownp2p solo: line 1 is not JSON\n"
    assert main(["solo", "--resume", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=8)
    play_lines(table, random.Random(2), 4)
    tampered = tmp_path / "tampered.jsonl"
    table.record.steps[-1].hash = "0" * 64
    table.record.save(tampered)
    assert main(["resume", str(tampered)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"crownp2p resume: {tampered} does not replay: ") and err.count("\n") == 1
    selfplay = tmp_path / "selfplay.jsonl"
    play_game(RULES, Setup(), ["random", "random"], 1, record=True).record.save(selfplay)
    assert main(["solo", "--resume", str(selfplay)]) == 2
    assert capsys.readouterr().err == (
        f"crownp2p solo: {selfplay} is not a solo game's record (from `save` in `crownp2p solo`)\n"
    )
