"""The shell at a networked table: ``host``/``join`` without ``--bot``.

In process, the person is scripted through the table's own seam (``handle``, the listeners)
against a bot peer over 127.0.0.1; end to end, the real ``crownp2p join`` runs in a
pseudo-terminal against a ``crownp2p host --bot`` process. Every wait is bounded.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import trio
from scenario import game

from crownp2p import __version__
from crownp2p.core.decisions import decision_text
from crownp2p.core.record import Record
from crownp2p.core.setup import Setup
from crownp2p.core.standard import standard_rules
from crownp2p.net.deciders import LateBot
from crownp2p.net.events import Chat, Ended, EveningOver, Seated, StepApplied
from crownp2p.net.link import Timeouts
from crownp2p.net.rematch import always
from crownp2p.net.seating import host_game, join_game
from crownp2p.shell.net_table import PersonsAnswer, net_table
from crownp2p.shell.render import plain
from crownp2p.shell.reply import Reply
from crownp2p.shell.table import Table

PACKS = [("crownp2p", __version__)]
CODE = "test-code-1"
FAST = Timeouts(
    handshake=3, keepalive=0.3, idle=3, reveal=5, reconnect=6, dial_retry=0.05, start=10, finish=2
)


async def wait_until(condition: Any, what: str) -> None:
    with trio.move_on_after(15) as scope:
        while not condition():
            await trio.sleep(0.01)
    assert not scope.cancelled_caught, f"timed out waiting for {what}"


async def seat_a_person(
    nursery: trio.Nursery,
    seed: int,
    listen: Any,
    *,
    bell: bool = True,
    answer: PersonsAnswer | None = None,
    **host_options: Any,
) -> tuple[Table, dict[str, Any]]:
    """Host a random bot and join it as a person; the person's table once it is our turn.
    ``listen`` gets every reply the terminal is told unprompted; the dict gets the host's
    session, what the host heard and the joiner's events, and, as they end, what the host's
    and the joiner's table services returned. With ``answer`` the person may play again
    (`again`), and the same table follows the next game."""
    rules = standard_rules()
    tables: list[Table] = []
    results: dict[str, Any] = {"heard": [], "events": []}

    def seated(session: Any) -> None:
        if tables:  # the evening's next game
            tables[0].driver.next_game(session)
            return
        table = net_table(session, unicode=False, bell=bell, answer=answer)
        table.listen(listen)
        tables.append(table)

    def on_event(event: Any) -> None:
        results["events"].append(event)
        if tables:
            tables[0].driver.on_event(event)

    async def host(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        results["host"] = await host_game(
            rules,
            Setup(),
            decider=LateBot("random", seed),  # seated by the draw
            packs=PACKS,
            bind="127.0.0.1",
            code=CODE,
            timeouts=FAST,
            test_seed=seed,
            on_event=results["heard"].append,
            session_ready=lambda s: results.update(host_session=s),  # the latest game's
            task_status=task_status,
            **host_options,
        )

    async def join(port: int) -> None:
        results["join"] = await join_game(
            rules,
            "127.0.0.1",
            port,
            code=CODE,
            decider=None,  # a person: the table offers what is typed
            packs=PACKS,
            timeouts=FAST,
            test_seed=seed,
            on_event=on_event,
            session_ready=seated,
            again=answer,
        )

    ready = await nursery.start(host)
    nursery.start_soon(join, ready.port)
    await wait_until(lambda: tables and tables[0].legal(), "our turn")
    return tables[0], results


async def test_a_person_plays_chats_and_leaves_against_a_bot_peer() -> None:
    replies: list[Any] = []  # what the terminal would have been told, unprompted
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, results = await seat_a_person(nursery, 1, replies.append)
            heard, events = results["heard"], results["events"]
            # test seed 1 fixes the draw (tests/net/test_draw.py): the host moves first
            assert table.seat == 1 and table.who[0] == "host"
            seated = next(e for e in events if isinstance(e, Seated))
            assert (seated.seat, seated.names, seated.host) == (1, ("host", "player"), 0)
            assert Seated(0, ("host", "player"), (0, 1), 0) in heard  # the host hears it too
            assert "chat TEXT" in plain(table.opening().news).splitlines()[1]  # after who is who
            for _ in range(3):  # three of our decisions, each typed as a line
                await wait_until(lambda: table.legal(), "our turn")
                before = len(table.record.steps)
                reply = table.handle(decision_text(table.legal()[0]))
                assert not reply.lines, reply.lines  # accepted: the session applies it
                assert table.legal() == []  # nothing more until it is applied
                await wait_until(lambda n=before: len(table.record.steps) > n, "our step")
            for _ in range(40):  # on to a buy phase with Treasures in hand: `treasure all`
                await wait_until(lambda: table.legal(), "our turn")
                treasures = [d for d in table.legal() if d[0] == "treasure"]
                if treasures:
                    break
                table.handle("end" if ("end",) in table.legal() else "done")
                await wait_until(lambda: not table.driver.pending, "our step")
            else:
                raise AssertionError("no buy phase with a Treasure in hand")
            before = len(table.record.steps)
            assert not table.handle("treasure all").lines
            await wait_until(
                lambda: table.legal() and not any(d[0] == "treasure" for d in table.legal()),
                "every Treasure played",
            )
            played = [s for s in table.record.steps[before:] if s.decision[0] == "treasure"]
            assert len(played) > 1  # each Treasure in hand, one by one
            assert table.handle("e9e4").lines  # not a decision: one sentence, nothing sent
            assert "no `undo` at a networked table" in table.handle("undo").lines[0]
            long = "x" * 501
            assert table.handle(f"chat {long}").lines == [
                "Not sent: a chat line holds 500 characters at most, this one 501."
            ]
            assert table.handle("chat hello").lines == ["[you] hello"]
            await wait_until(lambda: Chat(1, "hello") in heard, "the host hears us")
            assert not [c for c in heard if isinstance(c, Chat) and c.text.startswith("xxx")]
            assert table.leave_question() is not None  # the game is on: leaving asks
            table.leave()
    host_outcome, join_outcome = results["host"], results["join"]
    assert host_outcome.result == join_outcome.result == "forfeit"
    assert host_outcome.winner == join_outcome.winner == 0
    assert host_outcome.culprit == 1 and "resigned" in host_outcome.reason
    assert host_outcome.final_hash == join_outcome.final_hash
    # The bot's moves and ours were told as they happened, with the board to redraw.
    told = "".join(text for reply in replies for _, text in (reply.news or []))
    assert "blue:" in told and "gold:" in told
    assert all(reply.redraw for reply in replies)
    assert table.over and table.legal() == []
    assert any(isinstance(e, Ended) for e in events)


@pytest.mark.parametrize("bell", [True, False])
async def test_our_turn_rings_the_bell_and_says_so_in_the_toolbar(bell: bool) -> None:
    replies: list[Reply] = []
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, _ = await seat_a_person(nursery, 2, replies.append, bell=bell)
            await wait_until(lambda: table.your_turn_note, "the note")
            assert "".join(text for _, text in table.toolbar()).startswith(" your turn now ")
            assert [r.bell for r in replies].count(True) == (1 if bell else 0)
            table.handle("end")  # the person has seen it
            assert "your turn now" not in "".join(text for _, text in table.toolbar())
            table.leave()


async def test_a_peers_chat_and_resignation_are_told_to_the_person() -> None:
    lines: list[str] = []
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, results = await seat_a_person(nursery, 2, lambda r: lines.extend(r.lines))
            results["host_session"].chat("good luck")
            await wait_until(lambda: "[host] good luck" in lines, "the chat")
            results["host_session"].resign("it is late")
            await wait_until(lambda: table.over, "the end")
    assert results["join"].result == "forfeit" and results["join"].winner == 1
    assert any(line.startswith("The game is over: ") for line in lines)
    assert table.leave_question() is None  # over: leaving asks nothing
    assert table.status().startswith("The game is over: seat 0 (host) resigned")
    assert "game over" in "".join(text for _, text in table.toolbar())
    assert "The game is over" in "".join(text for _, text in table.screen(120))


async def test_a_person_plays_again_on_the_same_table_and_then_leaves_the_evening() -> None:
    lines: list[str] = []
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, results = await seat_a_person(
                nursery, 2, lambda r: lines.extend(r.lines), answer=PersonsAnswer(), again=always
            )
            assert table.handle("again").lines == [
                "The game is still on: `again` offers another once it is over."
            ]
            first = table.record
            results["host_session"].resign("one more?")
            await wait_until(lambda: table.over, "the end")
            await wait_until(lambda: "`again` offers the table another game." in lines, "offer")
            assert "The evening so far (1 game): host 0, player 1." in lines
            assert table.handle("again").lines == [
                "You want another game: waiting for the others to say yes."
            ]
            await wait_until(lambda: table.record is not first, "the next game")
            assert any(line.startswith("The next game begins: you are seat ") for line in lines)
            assert not table.over
            await wait_until(lambda: table.seat in (0, 1) and table.driver.session.started, "go")
            results["host_session"].resign("last one")
            await wait_until(lambda: table.over, "the second end")
            table.leave()  # between games: no
    # both return the second game's outcome (a resignation: their last states may differ by a
    # chance step in flight)
    assert results["join"].result == results["host"].result == "forfeit"
    assert results["join"].reason == results["host"].reason
    assert results["host"].reason.endswith(" (host) resigned: last one")
    assert "The evening so far (2 games): host 0, player 2." in lines
    host_heard = [e.reason for e in results["heard"] if isinstance(e, EveningOver)]
    assert host_heard == ["player has left: player does not want another game"]


async def test_a_short_clock_shows_in_the_toolbar_and_forfeits_a_silent_person() -> None:
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, results = await seat_a_person(nursery, 3, lambda r: None, clock=2.0)
            assert " s left " in "".join(text for _, text in table.toolbar())
            await wait_until(lambda: table.over, "the clock runs out")
    person, host = table.seat, results["host_session"].seat  # test seed 3: the person is seat 0
    for outcome in (results["host"], results["join"]):
        assert outcome.result == "forfeit" and outcome.culprit == person and outcome.winner == host
        assert "did not decide seq" in outcome.reason and "within 2 s" in outcome.reason


async def test_lines_typed_ahead_are_played_in_turn_and_dropped_when_it_passes() -> None:
    lines: list[str] = []
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, _ = await seat_a_person(nursery, 2, lambda r: lines.extend(r.lines), max_turns=3)
            assert table.game.this_turn.phase == "order"
            before = len(table.record.steps)
            for _ in range(4):  # typed at once: the last one after our turn is over
                assert not table.handle("end").lines
            await wait_until(lambda: "Dropped 1 line typed for turn 1: `end`." in lines, "drop")
            await wait_until(lambda: table.over, "the end")
    ours = [s.decision for s in table.record.steps[before:] if s.seat == 1]
    assert ours[:3] == [("end",)] * 3  # orders, actions, buys: each read in its own position
    assert table.game.turn > 2


async def test_a_line_typed_during_treasure_all_waits_for_every_treasure() -> None:
    lines: list[str] = []
    later: list[Any] = []  # what the table leaves to the terminal's loop, run when we say
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, _ = await seat_a_person(nursery, 1, lambda r: lines.extend(r.lines))
            for _ in range(60):  # on to a buy phase with two Peons or more in hand
                await wait_until(lambda: table.legal(), "our turn")
                hand = [table.game.cards[c] for c in table.game.players[table.seat].hand]
                if table.game.this_turn.phase == "buy" and hand.count("Peon") >= 2:
                    break  # two gold at least: enough for a Champion
                table.handle("end")
                await wait_until(lambda: not table.driver.pending, "our step")
            else:
                raise AssertionError("no buy phase with two Peons in hand")
            table.schedule = later.append
            before = len(table.record.steps)
            assert not table.handle("treasure all").lines
            # The first Treasure is applied and the table asked again; the next one waits in
            # the terminal's loop: a line typed now must wait for every Treasure.
            await wait_until(lambda: not table.driver.pending and later, "the first Treasure")
            assert not table.handle("buy Champion").lines
            while not any(s.decision == ("buy", "Champion") for s in table.record.steps):
                for callback in later[:]:
                    later.remove(callback)
                    callback()
                await trio.sleep(0.01)
            table.leave()
    ours = [s.decision[0] for s in table.record.steps[before:] if s.seat == table.seat]
    assert ours[-1] == "buy" and ours.count("treasure") >= 2 and set(ours[:-1]) == {"treasure"}
    assert not [line for line in lines if "costs" in line]  # never read too early


async def test_a_typed_ahead_line_that_cannot_be_played_drops_the_lines_after_it() -> None:
    lines: list[str] = []
    with trio.fail_after(25):
        async with trio.open_nursery() as nursery:
            table, _ = await seat_a_person(nursery, 2, lambda r: lines.extend(r.lines))
            assert table.game.this_turn.phase == "order"
            for line in ("end", "buy Tower", "end"):  # no Tower to buy in the action phase
                assert not table.handle(line).lines
            await wait_until(lambda: "Not played: `end`." in lines, "the drop")
            assert table.game.this_turn.phase == "action" and table.legal()  # still ours to decide
            table.leave()
    said = lines[: lines.index("Not played: `end`.")]
    assert any("buys come in the buy phase" in line for line in said), lines  # why not


def test_order_n_of_m_counts_each_step_where_the_session_says_it_was_decided() -> None:
    """The session tells its steps once it has applied a batch of them, when the game may have
    moved past them: the tally counts each where its event says it was decided."""
    g = game(
        "4k3/8/8/8/8/8/4P3/R3K3",  # a Heavy Rook for Sanctuary
        hand=["Sanctuary", "Peon"],
        deck=["Peon", "Guard", "Peon"],
        piles=["Sanctuary"],
    )
    session = SimpleNamespace(
        game=g,
        record=Record.begin(g, state=g.to_json()),
        seat=1,  # we watch blue play
        names=["blue", "gold"],
        started=True,
        asked=False,
        outcome=None,
        clock_left=lambda: None,
    )
    table = net_table(session, token=object(), unicode=False)  # no trio run: nothing is sent
    batch = []
    for text in ("play Sanctuary 2", "discard Peon", "discard Guard"):
        where = g.moment()
        decision = next(d for d in g.legal() if decision_text(d) == text)
        batch.append(StepApplied(session.record.apply(g, decision), (), where))
    assert not g.stack and g.this_turn.phase == "order"  # where the game stands when told
    for event in batch:
        table.driver.on_event(event)
    assert table.tally.used(g)["order"] == 1  # Sanctuary itself; its discards are its own


# ---------------------------------------------------------------- end to end, in a terminal


pytest.importorskip("pexpect")

from terminal import WAIT, Terminal  # noqa: E402 (only once pexpect is known to be there)


def random_bot_host() -> subprocess.Popen:
    """A host on 127.0.0.1 whose seat the random bot plays (seed 3), telling in JSON lines."""
    return subprocess.Popen(
        [sys.executable, "-m", "crownp2p", "host", "--port", "0", "--bind", "127.0.0.1"]
        + ["--json", "--bot", "random", "--seed", "3", "--test-seed", "3", "--name", "host"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_join_without_a_bot_plays_in_the_terminal_and_leaving_resigns() -> None:
    host = random_bot_host()
    t = None
    try:
        listening = json.loads(host.stdout.readline())  # type: ignore[union-attr]
        assert listening["event"] == "listening"
        address = f"127.0.0.1:{listening['port']}"
        # these test seeds fix the seating draw: the host moves first
        t = Terminal(
            "join",
            address,
            "--code",
            listening["code"],
            "--name",
            "ann",
            "--test-seed",
            "1",
            "--plain",
        )
        t.shows("you are seat 1 of 2, gold; host (blue) moves first")
        first = t.shows("—— turn 1: gold ——")  # after the host's first turn
        assert "You play gold (lower case) against blue (host)." in first
        assert "`chat TEXT` talks to the table" in first
        assert "blue: " in first  # the host's bot moved first, told as it happened
        kept = Path(t.state.name, "crownp2p", "games")  # the seat's record, not in ~/.local
        assert [path.name for path in kept.glob("*-join.jsonl")]
        t.type("end")  # our orders
        t.shows("gold: ends the order phase")
        t.type("help")
        assert "chat TEXT" in t.shows("Ctrl-D or Ctrl-C leaves.")
        t.type("chat hello there")
        t.shows("[you] hello there")
        t.type("quit")
        t.shows("You resign if you leave. [y/N]")
        t.type("n")  # not yet
        t.shows("gold>")
        t.child.send("\x03")  # Ctrl-C asks
        t.shows("You resign if you leave. [y/N]")
        t.type("")  # no
        t.shows("gold>")
        t.child.send("\x04")  # Ctrl-D asks too
        t.shows("You resign if you leave. [y/N]")
        t.type("y")
        after = t.shows("the game ended by forfeit")
        assert "Leaving the game." in after
        assert t.exit_status() == 0
        assert "Traceback" not in t.screen()
        out, err = host.communicate(timeout=WAIT)
    finally:
        if t is not None and t.child.isalive():
            t.child.terminate(force=True)
        if host.poll() is None:
            host.kill()
            host.communicate()
    lines = [json.loads(line) for line in out.splitlines()]
    assert {"event": "chat", "seat": 1, "text": "hello there"} in lines
    result = lines[-1]
    assert result["result"] == "forfeit" and result["winner"] == 0
    assert "resigned" in result["reason"]
    assert host.returncode == 0 and "Traceback" not in err


def test_a_person_keeps_a_record_by_default_and_resumes_after_a_crash(tmp_path) -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "crownp2p", "host", "--port", "0", "--bind", "127.0.0.1"]
        + ["--json", "--bot", "random", "--seed", "3", "--test-seed", "3", "--reconnect", "30"]
        + ["--name", "host"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    state = {"XDG_STATE_HOME": str(tmp_path)}
    terminals: list[Terminal] = []
    try:
        listening = json.loads(host.stdout.readline())  # type: ignore[union-attr]
        address = f"127.0.0.1:{listening['port']}"
        t = Terminal(
            "join", address, "--code", listening["code"], "--test-seed", "1", "--plain", **state
        )
        terminals.append(t)
        said = t.shows("your turn now  turn 1 · order phase")
        (path,) = (tmp_path / "crownp2p" / "games").glob("*-join.jsonl")
        assert f"this seat's record: {path}" in said.replace("\n", "")
        t.type("end")
        t.shows("gold: ends the order phase")
        t.child.kill(9)  # the terminal and the program die at once
        t.child.close()
        again = Terminal("resume", str(path), "--plain")  # no --bot: the person comes back
        terminals.append(again)
        back = again.shows("gold>")
        assert f"resuming seat 1 of {path}" in back and "Action 1 of 1" in back
        again.type("quit")
        again.shows("You resign if you leave. [y/N]")
        again.type("y")
        again.shows("the game ended by forfeit")
        assert again.exit_status() == 0
        out, err = host.communicate(timeout=WAIT)
    finally:
        for term in terminals:
            if term.child.isalive():
                term.child.terminate(force=True)
        if host.poll() is None:
            host.kill()
            host.communicate()
    result = json.loads(out.splitlines()[-1])
    assert result["result"] == "forfeit" and result["winner"] == 0 and result["turns"] == 2
    assert host.returncode == 0 and "Traceback" not in err


def test_a_person_hosts_the_team_game_in_the_terminal() -> None:
    t = Terminal(
        "host",
        "--variant",
        "team",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--no-record",
        "--code",
        "team-code",
        "--teams",
        "bot2",
        "--test-seed",
        "5",  # with the bots' test seeds, the draw seats us first, bot1, bot2, bot3
        "--plain",
    )
    bots: list[subprocess.Popen] = []
    try:
        address = re.search(r"at (127\.0\.0\.1:\d+);", t.shows("join code team-code")).group(1)
        for n in (1, 2, 3):
            bots.append(
                subprocess.Popen(
                    [sys.executable, "-m", "crownp2p", "join", address, "--code", "team-code"]
                    + ["--bot", "greedy", "--seed", str(n), "--name", f"bot{n}", "--json"]
                    + ["--test-seed", str(n)],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
            t.shows(f"bot{n} joined ({n + 1} of 4 in)")
        t.shows("you are seat 0 of 4, blue; you move first; your partner is bot2")
        first = t.shows("Order 1 of 1")
        assert (
            "You play blue south-west (UPPER case) with blue south-east (bot2) against "
            "gold north-east (bot1) and gold north-west (bot3)." in first.replace("\n", "")
        )
        t.shows("blue south-west>")
        for phase in ("order", "action", "buy"):  # nothing to do on the first turn
            t.type("end")
            t.shows(f"blue south-west: ends the {phase} phase")
        back = t.shows("—— turn 2: blue south-west ——")
        for seat in ("gold north-east", "blue south-east", "gold north-west"):
            assert f"turn 1: {seat}" in back  # the others played their first turns
        t.shows("blue south-west>")
        t.type("quit")
        t.shows("You resign if you leave. [y/N]")
        t.type("y")
        t.shows("the game ended by forfeit")
        assert t.exit_status() == 0
        assert "Traceback" not in t.screen() and "went wrong" not in t.screen()
        assert "Supply 1: " in t.screen() and "Supply 2: " in t.screen()  # a Supply per wing
        results = [json.loads(b.communicate(timeout=WAIT)[0].splitlines()[-1]) for b in bots]
    finally:
        if t.child.isalive():
            t.child.terminate(force=True)
        for b in bots:
            if b.poll() is None:
                b.kill()
                b.communicate()
    # the host's side lost by its resignation; its partner (seat 2) lost with it
    brief = [(r["seat"], r["result"], r["winner"], r["reason"]) for r in results]
    assert [r["result"] for r in results] == ["forfeit"] * 3, brief
    assert {r["winner"] for r in results} == {1}, brief
    assert len({r["final_hash"] for r in results}) == 1


def test_a_name_at_the_table_defaults_to_the_login_name(monkeypatch) -> None:
    from crownp2p.shell import net_args
    from crownp2p.shell.cli import build_parser

    monkeypatch.setattr(net_args.getpass, "getuser", lambda: "zoë")
    for argv in (["host"], ["join", "127.0.0.1:1", "--code", "abc"]):
        assert build_parser().parse_args(argv).name == "zoë"
    assert build_parser().parse_args(["host", "--name", "ann"]).name == "ann"
    # what a name at the table may hold: printable, at most 32 characters
    monkeypatch.setattr(net_args.getpass, "getuser", lambda: "a\x07" + "b" * 40)
    assert net_args.login_name() == "a" + "b" * 31

    def nobody() -> str:
        raise OSError("no login name")

    monkeypatch.setattr(net_args.getpass, "getuser", nobody)
    assert net_args.login_name() == "player"


def test_without_a_bot_or_a_terminal_it_is_one_sentence() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crownp2p", "join", "127.0.0.1:1", "--code", "abcd-efgh"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 2
    assert "needs --bot random or --bot greedy" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# ---------------------------------------------------------------- the bridge, in process


def test_the_shell_runs_trio_as_a_guest_of_its_loop() -> None:
    """run_shell: the prompt on asyncio, both peers' tables on trio in guest mode; the person
    types through a pipe, leaves with `quit` and a yes."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from crownp2p.shell.net_table import run_shell

    rules = standard_rules()
    outcomes: dict[str, Any] = {}
    heard: list[str] = []
    script = ["help", "chat hi from the pipe", "quit", "y"]

    async def start(session_ready: Any, on_event: Any) -> Any:
        async def host(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            outcomes["host"] = await host_game(
                rules,
                Setup(),
                decider=LateBot("random", 4),
                packs=PACKS,
                bind="127.0.0.1",
                code=CODE,
                timeouts=FAST,
                test_seed=4,
                on_event=lambda e: heard.append(e.text) if isinstance(e, Chat) else None,
                task_status=task_status,
            )

        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                ready = await nursery.start(host)
                return await join_game(
                    rules,
                    "127.0.0.1",
                    ready.port,
                    code=CODE,
                    decider=None,
                    packs=PACKS,
                    timeouts=FAST,
                    test_seed=4,
                    on_event=on_event,
                    session_ready=session_ready,
                )

    with create_pipe_input() as pipe:

        def before_prompt(table: Any) -> None:
            if not table.legal():  # until it is our turn: empty lines, which do nothing
                time.sleep(0.005)
                pipe.send_text("\r")
            elif script:
                line = script.pop(0)
                pipe.send_text(line + "\r" + ("y\r" if line == "quit" else ""))

        result, table = run_shell(
            start,
            on_event=lambda e: None,
            unicode=False,
            input=pipe,
            output=DummyOutput(),
            before_prompt=before_prompt,
        )
    outcome = result.unwrap()
    assert outcome.result == "forfeit" and outcome.winner == 0 and outcome.culprit == 1
    assert outcomes["host"].result == "forfeit" and outcomes["host"].culprit == 1
    assert heard == ["hi from the pipe"]
    assert table is not None and table.leaving and table.over


def test_join_in_the_full_screen_layout_at_80_by_24() -> None:
    host = random_bot_host()
    t = None
    try:
        listening = json.loads(host.stdout.readline())  # type: ignore[union-attr]
        address = f"127.0.0.1:{listening['port']}"
        t = Terminal(  # with these test seeds the seating draw puts the host first
            "join",
            address,
            "--code",
            listening["code"],
            "--no-record",
            "--test-seed",
            "1",
            size=(24, 80),
        )
        rows = t.showing(" your turn now  turn 1 · order phase")  # the toolbar, at 80 columns
        assert rows[0] == "   h g f e d c b a" and rows[-2] == "gold>"  # gold's side at the bottom
        assert "blue: King e1–d2" in rows  # the host's move, in the log pane
        assert rows[2].startswith(" 2 · · · ·*K")  # and marked on the board
        for _ in range(3):
            t.type("end")
        rows = t.showing(" your turn now  turn 2 · order phase")
        assert rows[0] == "   h g f e d c b a" and rows[-2] == "gold>"  # the screen stayed put
        t.type("quit")
        t.showing("Leave the game? You resign if you leave. [y/N]")
        t.type("y")
        assert t.exit_status() == 0
        assert "Leaving the game." in t.screen() and "Traceback" not in t.screen()
        host.communicate(timeout=WAIT)
    finally:
        if t is not None:
            t.kill()
        if host.poll() is None:
            host.kill()
            host.communicate()
