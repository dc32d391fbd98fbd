"""Whole sessions through the real prompt_toolkit loop, with a pipe for the keyboard
(pgcli's way): a scripted game to its end, and the keys that ask before leaving."""

from __future__ import annotations

import io
import random
import re

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output
from scenario import RULES

from crownp2p.core.decisions import decision_text
from crownp2p.core.setup import Setup
from crownp2p.shell.reply import Reply
from crownp2p.shell.solo import solo_table
from crownp2p.shell.terminal import Screen, run_terminal

ENTER = "\r"
CTRL_C, CTRL_D = "\x03", "\x04"


class Player:
    """Types the next line whenever the prompt is about to be shown."""

    def __init__(self, pipe, lines=(), *, seed=0, then_play=True):
        self.pipe = pipe
        self.lines = list(lines)
        self.rng = random.Random(seed)
        self.then_play = then_play
        self.prompts = 0

    def __call__(self, table):
        self.prompts += 1
        assert self.prompts < 3000, "the game should have ended"
        if self.lines:
            text = self.lines.pop(0)
        elif table.over or not self.then_play:
            text = "quit" + ENTER
        else:
            text = decision_text(self.rng.choice(table.legal())) + ENTER
        self.pipe.send_text(text)


class RecordingOutput(Vt100_Output):
    """A 110 x 40 terminal whose bytes land in a StringIO; it knows how many rows are below
    the cursor, as a terminal answering prompt_toolkit's cursor position request does (the
    bottom toolbar is drawn only then)."""

    def get_rows_below_cursor_position(self) -> int:
        return 40


def recording_output():
    out = io.StringIO()
    return out, RecordingOutput(out, lambda: Size(rows=40, columns=110), term="xterm")


def screen_text(raw: str) -> str:
    """What was printed, without the escapes."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r", "", raw)


def test_a_whole_game_through_the_prompt_to_its_end():
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=11)
    with create_pipe_input() as pipe:
        player = Player(pipe, seed=11)
        status = run_terminal(table, input=pipe, output=DummyOutput(), before_prompt=player)
    assert status == 0
    assert table.over and table.game.winner is not None
    assert player.prompts > 10


def test_what_the_terminal_shows_mistakes_help_and_ctrl_d(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=4)
    out, output = recording_output()
    lines = [
        "end" + ENTER,
        "fly away" + ENTER,
        "help" + ENTER,
        CTRL_D + "n" + ENTER,  # asks, and carries on
        "end" + ENTER,
        "treasure all" + ENTER,
        "buy Tower" + ENTER,
        "buy Champion" + ENTER,
        CTRL_C + "y" + ENTER,
    ]
    with create_pipe_input() as pipe:
        player = Player(pipe, lines, then_play=False)
        status = run_terminal(table, input=pipe, output=output, before_prompt=player)
    assert status == 0
    shown = screen_text(out.getvalue())
    assert "You play blue (UPPER case) against gold (greedy bot)." in shown
    assert " 8 · · · · k · · · 8" in shown and "Order 1 of 1: march or end orders" in shown
    assert "blue> end" in shown and "blue: ends the order phase" in shown
    assert (
        "`fly away` is not possible now. Possible now: `train Peon`, `train Guard`, `end`." in shown
    )
    assert "Type a decision, or a short form of one:" in shown
    assert "Leave the game (it is not saved: `save FILE` keeps it)? [y/N] n" in shown
    assert "Leave the game (it is not saved: `save FILE` keeps it)? [y/N] y" in shown
    assert "Tower costs 6 and you have 3 gold. Possible now: `buy Champion`" in shown
    assert "blue: buys Champion" in shown and "—— turn 1: gold ——" in shown
    assert "turn 2: your turn · order phase" in shown  # the toolbar
    assert shown.rstrip().endswith("Leaving the game.")
    assert table.game.turn == 3


def test_leaving_a_finished_game_asks_nothing():
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=11)
    rng = random.Random(11)
    while not table.over:
        table.handle(decision_text(rng.choice(table.legal())))
    with create_pipe_input() as pipe:
        pipe.send_text(CTRL_D)
        assert run_terminal(table, input=pipe, output=DummyOutput()) == 0


def test_an_unexpected_error_is_one_sentence_and_a_saved_record(monkeypatch, capsys):
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=4)

    def broken(line):
        raise KeyError("boom")

    monkeypatch.setattr(table, "handle", broken)
    with create_pipe_input() as pipe:
        pipe.send_text("end" + ENTER)
        status = run_terminal(table, input=pipe, output=DummyOutput())
    assert status == 70
    said = capsys.readouterr().out.strip().splitlines()
    assert len(said) == 1
    assert said[0].startswith(
        "crownp2p: something went wrong inside the program (KeyError: 'boom')."
    )
    path = re.search(r"record is in (\S+);", said[0]).group(1)
    with open(path, encoding="utf-8") as f:
        assert f.readline().startswith('{"engine"')


@pytest.mark.parametrize("seat", ["blue", "gold"])
def test_replay_a_saved_game_in_the_prompt(tmp_path, seat):
    from crownp2p.core.record import Record
    from crownp2p.shell.replay import Replay

    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=4)
    for line in ("end", "end", "treasure all", "buy Champion", "end"):
        table.handle(line)
    path = tmp_path / "game.jsonl"
    table.record.save(path)
    replay = Replay(RULES, Record.load(path), seat=0 if seat == "blue" else 1)
    out, output = recording_output()
    right, left = "\x1b[C", "\x1b[D"
    with create_pipe_input() as pipe:
        pipe.send_text(right + right + left + "turn 2" + ENTER + "end" + ENTER + "quit" + ENTER)
        assert run_terminal(replay, input=pipe, output=output) == 0
    shown = screen_text(out.getvalue())
    assert "replay> next" in shown and "replay> back" in shown
    assert "blue: ends the action phase" in shown
    assert "At step 6 of 12, turn 2." in shown  # after blue's six decisions of turn 1
    assert "At the end of the record" in shown


def test_the_terminal_rings_the_bell_a_reply_asks_for():
    out = io.StringIO()
    screen = Screen(Vt100_Output(out, lambda: Size(rows=24, columns=80), term="xterm"))
    screen.reply(Reply(["news"]))
    assert "\a" not in out.getvalue()
    screen.reply(Reply(["your turn"], bell=True))
    assert "\a" in out.getvalue()


def test_the_full_screen_layout_plays_asks_and_says_an_error_in_one_sentence(monkeypatch, capsys):
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=4)
    with create_pipe_input() as pipe:
        pipe.send_text("end" + ENTER + "end" + ENTER + CTRL_D + "n" + ENTER + CTRL_C + CTRL_C)
        assert run_terminal(table, input=pipe, output=DummyOutput(), full_screen=True) == 0
    assert table.game.this_turn.phase == "buy"  # both lines played; `n` stayed; Ctrl-C twice left

    def broken(line):
        raise KeyError("boom")

    monkeypatch.setattr(table, "handle", broken)
    with create_pipe_input() as pipe:
        pipe.send_text("end" + ENTER)
        status = run_terminal(table, input=pipe, output=DummyOutput(), full_screen=True)
    assert status == 70
    said = capsys.readouterr().out.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("crownp2p: something went wrong")
