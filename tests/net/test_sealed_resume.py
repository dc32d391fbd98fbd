"""A sealed game whose peer stops mid-game and is taken up again (crownp2p.net.sealed_resume):
its engine and sealed decks are rebuilt from its record, its secret and the sealed messages it
had received, and the game goes on to one hash and a clean audit."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import trio
from harness import MemoryTable
from tables import Table, crash_one_of_two, crash_the_middle_joiner
from test_sealed_tables import CLEAN, SETUP, finish_started

from crownp2p.core.record import Record, verify
from crownp2p.core.rules import Rules
from crownp2p.core.setup import Setup
from crownp2p.net import crypto
from crownp2p.net.events import Audited
from crownp2p.net.lockstep import Lockstep
from crownp2p.net.sealed_cards import audit_fault
from crownp2p.net.sealed_resume import rebuild
from crownp2p.packs import load

SEALED = ("seal", "pass", "keys", "open")


def play_until(table: MemoryTable, deliveries: int) -> None:
    """As MemoryTable.pump, but stop after ``deliveries`` messages."""
    for _ in range(deliveries):
        for seat, peer in enumerate(table.peers):
            while peer.my_turn and peer.outcome is None:
                peer.decide(table.bots[seat].decide(peer.game, seat), table.now)
            table.collect(seat)
        queue = next(((k, q) for k, q in table.wire.items() if q), None)
        if queue is None:
            for peer in table.peers:
                peer.idle()
            continue
        (src, dst), messages = queue
        message = messages.popleft()
        for out in [message] if table.tamper is None else table.tamper(src, dst, message):
            table.peers[dst].on_message(src, out, table.now)


def kept_table(
    rules: Rules, setup: Setup = SETUP, bot: str = "greedy"
) -> tuple[MemoryTable, dict[int, list[Any]]]:
    """A sealed table whose peers keep each sealed message as their session file would."""
    seats = len(rules.seating.sides)
    table = MemoryTable(rules, setup, [bot] * seats, seed=1, max_turns=60)
    inbound: dict[int, list[Any]] = {s: [] for s in range(seats)}

    def keep(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if msg["t"] in SEALED and table.peers[dst]._playing():
            inbound[dst].append((src, table.peers[dst].applied, msg))
        return [msg]

    table.tamper = keep
    return table, inbound


def resumed(table: MemoryTable, seat: int, inbound: list[Any]) -> Lockstep:
    """Seat ``seat``'s peer as `crownp2p resume` builds it from what it kept."""
    old = table.peers[seat]
    old.settle()  # (what is on disk: a step is journalled once it is hashed)
    record = Record(old.record.setup, old.record.start_hash, steps=list(old.record.steps))
    assert old.sealed is not None
    game, cards, sent, steps = rebuild(
        table.rules,
        record,
        seat=seat,
        game_id=table.game_id,
        secret=old.sealed.secret,
        signing_seed=old.sealed.signing_seed,
        inbound=inbound,
    )
    record.steps = record.steps[:steps]  # (as resume cuts the file)
    peer = Lockstep(
        game,
        record,
        seat=seat,
        game_id=table.game_id,
        names=[f"p{s}" for s in range(table.n)],
        nonces=lambda r: crypto.insecure_nonce(0, seat, r),
        secret=old.sealed.secret,
        max_turns=60,
        reveal_timeout=10.0,
    )
    peer.sealed, peer.sealed_sent = cards, sent
    assert game.table_hash() == old.hash_at(steps)
    return peer


@pytest.mark.parametrize("stop_after", [60, 300, 700, 900, 1050])
def test_a_sealed_peer_taken_up_again_finishes_the_game_with_a_clean_audit(
    rules2: Rules, stop_after: int
) -> None:
    table, inbound = kept_table(rules2)
    stop_and_resume(table, inbound, 1, stop_after)
    events = finish_started(table)
    assert all(p.outcome is not None and p.outcome.result != "cheat" for p in table.peers)
    assert len({p.hash_at(p.applied) for p in table.peers}) == 1
    assert all(seen[-1] == Audited(None, CLEAN) for seen in events)


def test_a_sealed_peer_of_a_four_seat_team_game_is_taken_up_again() -> None:
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    table, inbound = kept_table(catalog.rules("team"), replace(setup, sealed=True), "random")
    stop_and_resume(table, inbound, 2, 900)
    events = finish_started(table)
    assert len({p.hash_at(p.applied) for p in table.peers}) == 1
    assert all(seen[-1] == Audited(None, CLEAN) for seen in events)


def stop_and_resume(table: MemoryTable, inbound: dict[int, list[Any]], seat: int, at: int) -> None:
    """Play ``at`` messages; then ``seat``'s process stops (whatever was on the wire to or from
    it is lost) and is taken up again from what it kept."""
    table.connect()
    play_until(table, at)
    stopped = table.peers[seat]
    assert stopped.outcome is None and stopped.sealed is not None and stopped.sealed.shuffles
    others = [s for s in range(table.n) if s != seat]
    for other in others:
        table.wire[(other, seat)].clear()
        table.wire[(seat, other)].clear()
        table.peers[other].on_link_down(seat, table.now)
    table.peers[seat] = resumed(table, seat, inbound[seat])
    table.peers[seat].begin(table.now)
    for other in others:
        table.peers[other].on_link_up(seat, table.now)
        table.peers[seat].on_link_up(other, table.now)


def test_a_step_whose_messages_never_reached_the_file_is_cut(rules2: Rules) -> None:
    """A process killed outright may have written a step's line but not the messages it
    needed (the two files are written apart, synced together): the rebuild stops before that
    step, as the game stood then, for the record to be cut there. (Such a step never left the
    machine: our decisions leave only once what they depend on is synced.)"""
    table, inbound = kept_table(rules2)
    table.connect()
    play_until(table, 700)
    stopped = table.peers[1]
    # The file lost its last messages, from a key that came 20 steps before the end.
    kept = [i for i, (_, at, m) in enumerate(inbound[1]) if m["t"] == "keys"]
    lost = max(i for i in kept if inbound[1][i][1] <= stopped.applied - 20)
    at = inbound[1][lost][1]
    peer = resumed(table, 1, inbound[1][:lost])
    assert at <= peer.applied < stopped.applied
    assert peer.hash_at(peer.applied) == stopped.hash_at(peer.applied)


@pytest.mark.parametrize("victim", ["joiner", "host"])
async def test_a_crashed_sealed_peer_resumes_over_loopback(
    rules2: Rules, tmp_path: Any, victim: str
) -> None:
    """Real sockets: a peer of a sealed game is cancelled mid-game and `resume`d from its
    files; the game ends with one hash and a clean audit, and both records verify, the audit
    line included."""
    table = Table(rules2, bot="greedy", seed=1, setup=SETUP, max_turns=40)
    table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
    with trio.fail_after(60):
        await crash_one_of_two(table, rules2, victim, 80)
    outcomes = list(table.outcomes.values())
    assert len({o.final_hash for o in outcomes}) == 1
    assert all(o.result in ("win", "loss", "draw", "aborted") for o in outcomes)
    for path in table.records.values():
        record = Record.load(path)
        assert record.audit is not None and verify(rules2, record).ok
        assert audit_fault(rules2, record) is None


async def test_a_crashed_peer_of_a_sealed_four_seat_mesh_resumes(
    rules4: Rules, tmp_path: Any
) -> None:
    """Four peers over loopback, sealed: the middle joiner (which both listens and dials) is
    cancelled mid-game and resumed; every seat's game ends with one hash and a clean audit,
    and every record verifies, its audit line included."""
    table = Table(rules4, bot="random", seed=1, setup=Setup(sealed=True), max_turns=30)
    table.records = {order: tmp_path / f"seat{order}.jsonl" for order in range(4)}
    with trio.fail_after(90):
        await crash_the_middle_joiner(table, rules4, 60)
    assert len({o.final_hash for o in table.outcomes.values()}) == 1
    assert all(o.result != "cheat" for o in table.outcomes.values())
    for path in table.records.values():
        record = Record.load(path)
        assert record.audit is not None and verify(rules4, record).ok
        assert audit_fault(rules4, record) is None
