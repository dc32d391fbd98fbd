"""A networked game's record proves its seeds: every chance step keeps its commit-reveal round,
and ``crownp2p verify`` names the first round whose reveal or seed does not hold."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from tables import Table

from crownp2p.bots.selfplay import play_game
from crownp2p.core.game import CHANCE
from crownp2p.core.record import Record, Step
from crownp2p.core.setup import Setup
from crownp2p.net.journal import JournalError, load, session_path
from crownp2p.net.proof import unproven_round
from crownp2p.shell.cli import main


@pytest.fixture(scope="module")
def played(tmp_path_factory, rules2) -> dict[int, Path]:
    """The records of a real two-peer game over loopback sockets."""
    where = tmp_path_factory.mktemp("proof")
    table = Table(rules2, bot="random", seed=3)
    table.records = {0: where / "host.jsonl", 1: where / "join.jsonl"}

    async def play() -> None:
        with trio.fail_after(30):
            await table.play()

    trio.run(play)
    return table.records


def verify_out(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["verify", str(path)])
    return status, capsys.readouterr().out.strip()


def ok_line(path: Path) -> str:
    """What verify says of the record at ``path`` when it holds, written out by hand: the
    steps and chance seeds counted from the file, and how the seeds are known to be fair."""
    record = Record.load(path)
    seeds = sum(1 for step in record.steps if step.seat == CHANCE)
    if record.game_id is not None:
        how = "each proven by its commit-reveal round, and the seats by the seating draw"
    else:
        how = "drawn in one process (no commit-reveal rounds to check)"
    return (
        f"OK: {len(record.steps)} steps replayed, the start's and every step's state hash"
        f" matched; {seeds} chance seeds, {how}."
    )


def chance_step(record: Record, round_: int) -> Step:
    return [step for step in record.steps if step.seat == CHANCE][round_ - 1]


def test_both_peers_records_prove_every_seed(played, rules2, capsys) -> None:
    for path in played.values():
        record = Record.load(path)
        rounds = [step for step in record.steps if step.seat == CHANCE]
        assert len(rounds) >= 3 and all(step.proof is not None for step in rounds)
        assert unproven_round(record, [0, 1]) is None
        assert verify_out(path, capsys) == (0, ok_line(path))
        assert "commit-reveal round, and the seats by the seating draw." in ok_line(path)
    host, join = (Record.load(p) for p in played.values())
    assert [s.proof for s in host.steps] == [s.proof for s in join.steps]  # the same rounds


def tampered(played: dict[int, Path], tmp_path: Path, change) -> Path:
    record = Record.load(played[0])
    step = chance_step(record, 2)
    change(step)
    path = tmp_path / "tampered.jsonl"
    record.save(path)
    return path


def flip(data: bytes) -> bytes:
    return bytes([data[0] ^ 1]) + data[1:]


def test_a_forged_seed_fails_verify_naming_its_round(played, tmp_path, capsys) -> None:
    def forge(step: Step) -> None:
        step.decision = ("seed", "ab" * 32)

    status, out = verify_out(tampered(played, tmp_path, forge), capsys)
    assert (status, out) == (1, "round 2: the seed is not the hash of the reveals")


def test_a_changed_reveal_fails_verify_naming_its_round_and_seat(played, tmp_path, capsys):
    def change(step: Step) -> None:
        assert step.proof is not None
        reveals = (step.proof.reveals[0], flip(step.proof.reveals[1]))
        step.proof = replace(step.proof, reveals=reveals)

    status, out = verify_out(tampered(played, tmp_path, change), capsys)
    assert (status, out) == (1, "round 2: seat 1's reveal does not open its commitment")


def test_a_changed_commitment_fails_verify_naming_its_round_and_seat(played, tmp_path, capsys):
    def change(step: Step) -> None:
        assert step.proof is not None
        commits = (flip(step.proof.commits[0]), step.proof.commits[1])
        step.proof = replace(step.proof, commits=commits)

    status, out = verify_out(tampered(played, tmp_path, change), capsys)
    assert (status, out) == (1, "round 2: seat 0's reveal does not open its commitment")


def test_a_missing_round_fails_verify(played, tmp_path, capsys) -> None:
    def drop(step: Step) -> None:
        step.proof = None

    status, out = verify_out(tampered(played, tmp_path, drop), capsys)
    assert status == 1 and out.startswith("round 2: the record does not hold")


def test_a_solo_record_says_its_seeds_were_drawn_in_one_process(rules2, tmp_path, capsys):
    result = play_game(rules2, Setup(), ["random", "random"], 5, max_turns=20, record=True)
    assert result.record is not None
    path = tmp_path / "solo.jsonl"
    result.record.save(path)
    head = json.loads(path.read_text().splitlines()[0])
    assert head["seeds"] == "local" and "game_id" not in head
    assert verify_out(path, capsys) == (0, ok_line(path))
    assert "drawn in one process" in ok_line(path)


def test_a_version_1_record_is_verified_but_not_resumed(played, tmp_path, capsys) -> None:
    lines = [json.loads(line) for line in played[0].read_text().splitlines()]
    head = {k: v for k, v in lines[0].items() if k not in ("seeds", "game_id")}
    steps = [{k: v for k, v in s.items() if k not in ("commits", "reveals")} for s in lines[1:]]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [{**head, "version": 1}, *steps]))
    assert Record.load(path).game_id is None
    assert verify_out(path, capsys) == (0, ok_line(path))
    session_path(path).write_bytes(session_path(played[0]).read_bytes())
    with pytest.raises(JournalError, match="keeps no commit-reveal rounds"):
        load(path)
