"""The bot thinks beside the prompt (shell/thinking.py): the prompt stays live while it
thinks, a seeded game plays the same moves with or without the thread, and leaving while
it thinks ends cleanly."""

from __future__ import annotations

import random
import threading

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from scenario import RULES

from crownp2p.core.decisions import decision_text
from crownp2p.core.setup import Setup
from crownp2p.shell.solo import solo_table
from crownp2p.shell.terminal import run_terminal

ENTER, CTRL_C = "\r", "\x03"


def bot_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("bot")]


def play_seeded(aside: bool, full_screen: bool = False) -> tuple[list[tuple], bool]:
    """A seeded game to turn 8, the person's lines typed whenever they are asked (also when
    the bot's answer comes in after the prompt is up); the steps, and whether a prompt was
    ever up while the bot thought."""
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=5)
    rng = random.Random(5)
    typed: set[int] = set()
    seen_thinking = []

    with create_pipe_input() as pipe:

        def player(*_: object) -> None:
            if "thinking" in table.status():
                seen_thinking.append(True)
            steps = len(table.record.steps)
            if steps in typed:
                return
            if table.over or table.game.turn > 8:
                typed.add(steps)
                pipe.send_text("quit" + ENTER)
                return
            legal = table.legal()
            if legal:
                typed.add(steps)
                pipe.send_text(decision_text(rng.choice(legal)) + ENTER)

        table.listen(player)
        player()
        status = run_terminal(
            table,
            input=pipe,
            output=DummyOutput(),
            before_prompt=player,
            think_aside=aside,
            full_screen=full_screen,
        )
    assert status == 0
    return [(s.seat, s.decision, s.hash) for s in table.record.steps], bool(seen_thinking)


def test_a_seeded_game_plays_the_same_with_the_bot_thinking_aside():
    steps, _ = play_seeded(aside=False)
    aside, thought_aside = play_seeded(aside=True)
    assert thought_aside  # the prompt was up while the bot thought
    assert aside == steps and len(steps) > 40
    assert not bot_threads()


@pytest.mark.parametrize("full_screen", [False, True])
def test_the_prompt_answers_while_the_bot_thinks_and_leaving_ends_its_thread(full_screen):
    table = solo_table(RULES, Setup(), seat=0, bot="greedy", seed=3)
    released = threading.Event()
    bot = table.driver.bot
    decide = bot.decide

    def slow(game, seat):  # thinks until the person asks to leave (at most 5 s)
        assert released.wait(5), "the prompt blocked while the bot thought"
        return decide(game, seat)

    bot.decide = slow
    handle = table.handle
    answered = []
    asked = []

    def handled(line):
        reply = handle(line)
        answered.append((line, table.driver.thinking.busy, reply.lines[:1]))
        return reply

    def leave_question():
        asked.append(table.status())
        released.set()  # Ctrl-C came while the bot thought: let the thought end
        return question()

    table.handle = handled
    question = table.leave_question
    table.leave_question = leave_question
    with create_pipe_input() as pipe:
        pipe.send_text("end" + ENTER + "end" + ENTER + "end" + ENTER + "help" + ENTER)
        pipe.send_text("log" + ENTER)
        pipe.send_text(CTRL_C + "y" + ENTER)
        status = run_terminal(
            table, input=pipe, output=DummyOutput(), think_aside=True, full_screen=full_screen
        )
    assert status == 0
    said = {line: (busy, lines) for line, busy, lines in answered}
    assert said["help"][0] and said["help"][1] == ["Type a decision, or a short form of one:"]
    assert said["log"][0]
    assert asked and asked[0].startswith("Gold is thinking")  # Ctrl-C came while it thought
    assert not bot_threads()


def test_a_game_the_bot_opens_is_on_the_screen_before_the_bot_thinks():
    table = solo_table(RULES, Setup(), seat=1, bot="greedy", seed=6, think_aside=True)
    assert all(step.seat != 0 for step in table.record.steps)  # blue's first turn waits
    assert table.status() == "Blue is thinking…"
    with create_pipe_input() as pipe:

        def player(*_: object) -> None:
            if table.legal():  # blue's turn is over: the person is asked
                pipe.send_text("quit" + ENTER)

        table.listen(player)
        assert run_terminal(table, input=pipe, output=DummyOutput(), think_aside=True) == 0
    assert any(step.seat == 0 for step in table.record.steps)
    assert table.game.active == 1 and not bot_threads()


def test_a_bot_that_breaks_while_thinking_is_one_sentence(capsys):
    table = solo_table(RULES, Setup(), seat=1, bot="greedy", seed=6, think_aside=True)

    def broken(game, seat):
        raise KeyError("boom")

    table.driver.bot.decide = broken
    with create_pipe_input() as pipe:
        later = threading.Timer(5, pipe.send_text, ["quit" + ENTER])  # unless it stops first
        later.start()
        status = run_terminal(table, input=pipe, output=DummyOutput(), think_aside=True)
        later.cancel()
    assert status == 70
    said = capsys.readouterr().out.strip().splitlines()
    assert said[-1].startswith("crownp2p: something went wrong inside the program (KeyError")
    assert not bot_threads()
