"""The host, join and resume commands: one-sentence errors with exit status 2, JSON output, and
a peer process killed mid-game that comes back with ``resume``."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio
from tables import Table

from crownp2p.core.record import Record, verify
from crownp2p.core.setup import Setup
from crownp2p.net.local import play_local
from crownp2p.net.proof import unproven_round
from crownp2p.net.sealed_cards import audit_fault
from crownp2p.shell import cli, net_commands
from crownp2p.shell.cli import CommandError

ENTRY = [sys.executable, "-m", "crownp2p"]


def parse(command: str, *argv: str) -> argparse.Namespace:
    return cli.build_parser().parse_args([command, *argv])


def run_main(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["host"], "needs --bot"),
        (["join", "127.0.0.1:1", "--code", "abcd-efgh"], "needs --bot"),
        (
            ["host", "--bot", "random", "--players", "4", "--variant", "standard"],
            "the standard variant is for 2 players, not 4",
        ),
        (["host", "--bot", "random", "--players", "2", "--variant", "team"], "for 4 players"),
        (["host", "--bot", "clever"], "no bot called 'clever'"),
        (["host", "--bot", "random", "--supply", "Dragons"], "'Dragons' is not a card"),
        (["host", "--bot", "random", "--code", "x"], "at least 4 letters"),
        (["host", "--bot", "random", "--port", "70000"], "--port must be"),
        (["join", "nowhere", "--code", "abcd-efgh", "--bot", "random"], "not HOST:PORT"),
        (["join", "127.0.0.1:http", "--code", "abcd-efgh", "--bot", "random"], "not a port"),
        (["resume", "/nonexistent/game.jsonl"], "there is no record"),
        (["host", "--bot", "random", "--spectators", "-1"], "--spectators must be 0 to 64"),
        (["watch", "nowhere", "--code", "abcd-efgh"], "not HOST:PORT"),
        (["watch", "127.0.0.1:1", "--code", "x"], "at least 4 letters"),
    ],
)
def test_bad_arguments_are_one_sentence_and_status_2(capsys, argv, words) -> None:
    status, out, err = run_main(capsys, *argv)
    assert status == 2
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_joining_a_closed_port_is_one_sentence(capsys) -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    status, out, err = run_main(
        capsys, "join", f"127.0.0.1:{port}", "--code", "abcd-efgh", "--bot", "random"
    )
    assert status == 2 and "cannot reach the host" in err and "Traceback" not in err


def test_resume_needs_the_session_file(tmp_path, capsys) -> None:
    from crownp2p.bots.selfplay import play_game
    from crownp2p.core.standard import standard_rules

    path = tmp_path / "solo.jsonl"
    play_game(standard_rules(), Setup(), ["random", "random"], 1, record=True).record.save(path)
    status, out, err = run_main(capsys, "resume", str(path))
    assert status == 2 and "no session file" in err


def test_resuming_a_finished_game_prints_its_result(tmp_path, rules2, capsys) -> None:
    """A peer killed just as its game ended, resumed: the result line, status 0, no terminal
    needed (the record's seat was a person's: it names no bot)."""
    table = Table(rules2, bot="random", seed=1)
    table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
    trio.run(table.play)
    status, out, err = run_main(capsys, "resume", str(table.records[1]), "--json")
    assert status == 0, err
    assert last_json(out) == table.outcomes[table.seats[1]].to_json()  # records by join order


def test_building_the_arguments_imports_nothing_heavy() -> None:
    code = (
        "import sys\n"
        "from crownp2p.shell import cli\n"
        "cli.build_parser()\n"
        "print([m for m in sys.modules if m.startswith(('crownp2p.core', 'crownp2p.net'))])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_players_alone_chooses_the_one_variant_for_that_many() -> None:
    assert net_commands._setup(parse("host", "--players", "4")).variant == "team"
    assert net_commands._setup(parse("host", "--players", "2")).variant == "standard"
    assert net_commands._setup(parse("host")).variant == "standard"


def test_the_command_functions_take_a_namespace() -> None:
    args = parse("host")
    with pytest.raises(CommandError, match="needs --bot"):
        net_commands.host_command(args)
    assert parse("join", "h:1", "--code", "c0de").address == "h:1"
    assert parse("resume", "r.jsonl").record == "r.jsonl"


def test_a_person_keeps_a_record_unless_told_not_to(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    # (one second for both games: the clock must not tick between them)
    monkeypatch.setattr(time, "strftime", lambda form, *when: "2026-12-06-120000")
    args = parse("join", "h:1", "--code", "c0de")
    net_commands._record_for(args, True, "join")
    path = Path(args.record)
    assert path.parent == tmp_path / "state" / "crownp2p" / "games" and path.parent.is_dir()
    assert path.name.endswith("-join.jsonl") and not path.exists()  # the table creates it
    path.write_text("")  # a second game in the same second gets a file of its own
    again = parse("join", "h:1", "--code", "c0de")
    net_commands._record_for(again, True, "join")
    assert again.record != args.record and again.record.endswith("-join-2.jsonl")
    for argv, human in ((["--no-record"], True), ([], False)):
        kept = parse("join", "h:1", "--code", "c0de", *argv)
        net_commands._record_for(kept, human, "join")
        assert kept.record is None  # asked for none, or a bot plays the seat
    given = parse("host", "--record", "mine.jsonl")
    net_commands._record_for(given, True, "host")
    assert given.record == "mine.jsonl"
    with pytest.raises(SystemExit):
        parse("host", "--record", "mine.jsonl", "--no-record")


def test_an_interruption_points_to_resume_only_once_there_is_a_record(tmp_path) -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    path = tmp_path / "game.jsonl"
    args = parse("host", "--record", str(path))
    printer = net_commands.Printer(False)
    with pytest.raises(CommandError) as before:  # stopped while waiting for players
        net_commands._finish(interrupted, args, printer, {})
    assert str(before.value) == "interrupted"
    path.write_text("")
    with pytest.raises(CommandError, match=f"continue with `crownp2p resume {path}`"):
        net_commands._finish(interrupted, args, printer, {})


def test_an_unwritable_record_folder_is_one_sentence(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    with pytest.raises(CommandError, match="give --record FILE or --no-record"):
        net_commands._record_for(parse("host"), True, "host")


# ---------------------------------------------------------------------- real processes


def interruptible() -> None:
    """In a child process: SIGINT stops it, as Ctrl-C does, even when the tests run with SIGINT
    ignored (a shell ignores it for a job it starts in the background, and children inherit
    that: such a host never heard the test's SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_host(*argv: str) -> tuple[subprocess.Popen, dict]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    host = subprocess.Popen(
        [*ENTRY, "host", "--bind", "127.0.0.1", "--port", "0", "--json", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=interruptible,
    )
    line = host.stdout.readline()
    assert line, host.stderr.read()
    return host, json.loads(line)


def last_json(text: str) -> dict:
    return json.loads(text.strip().splitlines()[-1])


def test_two_processes_play_and_print_the_result_as_json(tmp_path, rules2) -> None:
    seed = ["--bot", "random", "--seed", "4", "--test-seed", "4"]
    host, listening = start_host(*seed, "--open-decks", "--record", str(tmp_path / "h.jsonl"))
    assert set(listening) >= {"address", "port", "code"} and listening["port"] > 0
    join = subprocess.run(
        [
            *ENTRY,
            "join",
            f"127.0.0.1:{listening['port']}",
            "--code",
            listening["code"],
            *seed,
            "--json",
            "--record",
            str(tmp_path / "j.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    host_out, host_err = host.communicate(timeout=30)
    assert join.returncode == 0 and host.returncode == 0, (join.stderr, host_err)
    results = [last_json(host_out), last_json(join.stdout)]
    local = play_local(rules2, Setup(), ["random", "random"], seed=4, test_seed=4, max_turns=300)
    for r in results:
        assert set(r) >= {"result", "winner", "turns", "final_hash"}
        assert r["final_hash"] == local.final_hash and r["turns"] == local.turns
        assert r["winner"] == local.winner
    assert {r["result"] for r in results} == {"win", "loss"}
    for name in ("h.jsonl", "j.jsonl"):
        assert verify(rules2, Record.load(tmp_path / name)).ok


def test_a_wrong_code_from_the_command_line_is_refused(tmp_path) -> None:
    host, listening = start_host("--bot", "random")
    try:
        join = subprocess.run(
            [
                *ENTRY,
                "join",
                f"127.0.0.1:{listening['port']}",
                "--code",
                "wrong-code",
                "--bot",
                "random",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert join.returncode == 2
        assert "the join code is wrong" in join.stderr
        assert "Traceback" not in join.stderr
    finally:
        host.send_signal(signal.SIGINT)
        _, err = host.communicate(timeout=10)
    assert "was not admitted" in err and "Traceback" not in err
    assert host.returncode == 2 and "interrupted" in err


def steps_in(path: Path) -> int:
    try:
        return max(0, len(path.read_text().splitlines()) - 1)
    except FileNotFoundError:
        return 0


def kill_and_resume(
    tmp_path, victim: str, decks: str
) -> tuple[list[dict], dict, int, list[list[dict]]]:
    """Bots' seed 4 between two processes; ``victim`` is killed (SIGKILL: no goodbye, no flush
    beyond what was fsync'd) 100 steps in and resumed from its files. Both last lines, the
    records by role, the step the victim's record had reached, and every line the resumed
    peer and the other printed."""
    seed = ["--bot", "greedy", "--seed", "4", "--test-seed", "1", "--reconnect", "30"]
    records = {"host": tmp_path / "host.jsonl", "joiner": tmp_path / "join.jsonl"}
    host, listening = start_host(*seed, decks, "--record", str(records["host"]))
    join = subprocess.Popen(
        [
            *ENTRY,
            "join",
            f"127.0.0.1:{listening['port']}",
            "--code",
            listening["code"],
            *seed,
            "--json",
            "--record",
            str(records["joiner"]),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    procs = {"host": host, "joiner": join}
    deadline = time.monotonic() + 30
    while steps_in(records[victim]) < 100:
        assert time.monotonic() < deadline, "the game never got going"
        time.sleep(0.005)
    procs[victim].kill()
    procs[victim].wait(timeout=10)
    killed_at = steps_in(records[victim])
    resumed = subprocess.run(
        [*ENTRY, "resume", str(records[victim]), "--json"],
        capture_output=True,
        text=True,
        timeout=90,
    )
    survivor = procs["joiner" if victim == "host" else "host"]
    out, err = survivor.communicate(timeout=30)
    assert resumed.returncode == 0, resumed.stderr
    assert survivor.returncode == 0, err
    printed = [[json.loads(line) for line in text.splitlines()] for text in (resumed.stdout, out)]
    return [lines[-1] for lines in printed], records, killed_at, printed


@pytest.mark.parametrize("victim", ["joiner", "host"])
def test_a_killed_peer_resumes_and_the_game_ends_as_if_uninterrupted(tmp_path, rules2, victim):
    # Bots' seed 4: a game the greedy bots win in 131 turns (seed 1 now runs to the turn cap).
    results, records, killed_at, _ = kill_and_resume(tmp_path, victim, "--open-decks")
    local = play_local(rules2, Setup(), ["greedy", "greedy"], seed=4, test_seed=1, max_turns=300)
    assert killed_at < len(local.record.steps)  # it really was mid-game
    for result in results:
        assert result["final_hash"] == local.final_hash
    for path in records.values():
        record = Record.load(path)
        assert verify(rules2, record).ok and len(record.steps) == len(local.record.steps)
        assert unproven_round(record, [0, 1]) is None  # rounds across the kill and resume


@pytest.mark.parametrize("victim", ["joiner", "host"])
def test_a_killed_peer_of_a_sealed_game_resumes_and_the_audit_is_clean(
    tmp_path, rules2, victim
) -> None:
    results, records, killed_at, printed = kill_and_resume(tmp_path, victim, "--sealed-decks")
    assert len({r["final_hash"] for r in results}) == 1 and results[0]["seq"] > killed_at
    said = "the audit is clean: every shuffle and card checks out"
    clean = {"event": "audited", "culprit": None, "text": said}
    assert all(clean in lines for lines in printed)  # (each peer tells its user the audit)
    assert all(r["result"] in ("win", "loss", "draw", "aborted") for r in results)
    for path in records.values():
        record = Record.load(path)
        assert record.audit is not None and verify(rules2, record).ok
        assert audit_fault(rules2, record) is None


def test_a_spectator_process_watches_a_bot_game_to_its_end(tmp_path) -> None:
    host, listening = start_host("--bot", "random", "--max-turns", "6", "--spectators", "1")
    address = f"127.0.0.1:{listening['port']}"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    watch = subprocess.Popen(
        [*ENTRY, "watch", address, "--code", listening["code"], "--name", "eve"],
        stdin=subprocess.PIPE,  # kept open: the end of input would leave
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert "watching the table" in watch.stdout.readline()
        second = subprocess.run(  # the gallery holds one
            [*ENTRY, "watch", address, "--code", listening["code"]],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert second.returncode == 2 and "the gallery is full" in second.stderr
        join = subprocess.run(
            [*ENTRY, "join", address, "--code", listening["code"], "--bot", "random"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert join.returncode == 1, join.stderr  # 1: unfinished, at the turn limit
        out, err = watch.communicate(timeout=30)
    finally:
        watch.kill()
        host.communicate(timeout=30)
    assert watch.returncode == 0, err
    assert "a b c d e f g h" in out  # the board
    assert "hand 5" in out and "Supply" in out and "to decide" in out
    assert "the game is over" in out.splitlines()[-1]
    assert "Traceback" not in err
