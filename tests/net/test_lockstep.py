"""The lockstep rules, on an in-memory table: whole games, every bad input a peer can send, and
every commit-reveal failure. The honest peer's game and record must come out untouched."""

from __future__ import annotations

import pytest
from harness import MemoryTable

from crownp2p.core.game import CHANCE
from crownp2p.core.record import verify
from crownp2p.core.setup import Setup, parse_supply
from crownp2p.net import crypto
from crownp2p.net.events import Asked, Chat, Ended, Started, StepApplied
from crownp2p.net.local import play_local
from crownp2p.net.messages import make


def finished(table: MemoryTable) -> list:
    return [p.outcome for p in table.peers]


@pytest.mark.parametrize("seats, bot", [(2, "random"), (2, "greedy"), (4, "random")])
def test_a_whole_table_matches_the_same_game_in_one_process(seats, bot, rules2, rules4) -> None:
    rules = rules2 if seats == 2 else rules4
    for seed in (1, 2):
        table = MemoryTable(rules, Setup(), [bot] * seats, seed=seed, test_seed=seed, max_turns=200)
        table.connect()
        table.pump()
        local = play_local(rules, Setup(), [bot] * seats, seed=seed, test_seed=seed, max_turns=200)
        outcomes = finished(table)
        assert {o.final_hash for o in outcomes} == {local.final_hash}
        for peer in table.peers:
            assert verify(rules, peer.record).ok
            assert [s.hash for s in peer.record.steps] == [s.hash for s in local.record.steps]


def test_a_random_supply_is_a_chance_step_too(rules2) -> None:
    setup = parse_supply("random", rules2.variable_cards, rules2.cards.names())
    table = MemoryTable(rules2, setup, ["random", "random"], seed=3, test_seed=3, max_turns=50)
    table.connect()
    table.pump()
    first = table.peers[0].record.steps[0]
    assert first.seat == CHANCE
    assert table.peers[0].outcome.final_hash == table.peers[1].outcome.final_hash


# ---------------------------------------------------------------------- bad inputs


def waiting_for(rules, seat: int, *, steps: int = 12, seats: int = 2) -> MemoryTable:
    """A table played a little way in, now waiting for ``seat`` (which no bot plays)."""
    table = MemoryTable(rules, Setup(), ["random"] * seats, seed=5, test_seed=5)
    table.bot_seats = set(range(seats)) - {seat}
    table.connect()
    peer = table.peers[seat]
    for _ in range(1000):
        table.pump()
        assert peer.outcome is None
        if peer.my_turn and peer.applied >= steps:
            return table
        if peer.my_turn:
            peer.decide(table.bots[seat].decide(peer.game, seat), table.now)
    raise AssertionError("never got there")


def errors_to(table: MemoryTable, src: int, dst: int) -> list[dict]:
    table.collect(src)
    sent = [m for (s, d, m) in table.log if (s, d) == (src, dst)] + list(table.wire[(src, dst)])
    return [m for m in sent if m["t"] == "error"]


def untouched(table: MemoryTable, seat: int, applied: int) -> None:
    peer = table.peers[seat]
    assert peer.applied == applied
    assert peer.game.state_hash() == peer.hash_at(applied)
    assert verify(peer.rules, peer.record).ok


def forfeit_of(table: MemoryTable, honest: int, culprit: int, code: str) -> None:
    outcome = table.peers[honest].outcome
    assert outcome is not None and outcome.result == "forfeit", outcome
    assert outcome.culprit == culprit
    assert outcome.winner == table.rules.seating.sides[honest]
    assert code in [m["code"] for m in errors_to(table, honest, culprit)]


def test_a_decision_out_of_turn_is_a_forfeit(rules2) -> None:
    table = waiting_for(rules2, 0)
    n = table.peers[0].applied
    legal = table.peers[0].game.legal()[0]
    table.inject(1, 0, make("decision", seq=n + 1, seat=1, decision=list(legal), prev="0" * 64))
    forfeit_of(table, 0, 1, "out-of-turn")
    untouched(table, 0, n)


def test_a_decision_not_in_the_legal_list_is_a_forfeit(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    prev = table.peers[0].hash_at(n)  # the right state: the decision itself is what is wrong
    bad = make("decision", seq=n + 1, seat=1, decision=["march", "a1", "h8"], prev=prev)
    table.inject(1, 0, bad)
    forfeit_of(table, 0, 1, "illegal-decision")
    assert "march a1 h8" in table.peers[0].outcome.reason
    untouched(table, 0, n)


def test_an_illegal_decision_is_refused_with_the_engines_reason(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    game = table.peers[0].game
    prev = table.peers[0].hash_at(n)
    bad = make("decision", seq=n + 1, seat=1, decision=["play", "Wombat", "1"], prev=prev)
    reason = game.why_illegal(("play", "Wombat", "1"))
    assert reason == "There is no card called 'Wombat'"  # not a generic "not possible"
    table.inject(1, 0, bad)
    forfeit_of(table, 0, 1, "illegal-decision")
    assert table.peers[0].outcome.reason.endswith(f"which is not legal: {reason}")


def test_a_decision_that_skips_a_seq_is_a_forfeit(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    legal = list(table.peers[1].game.legal()[0])
    table.inject(1, 0, make("decision", seq=n + 3, seat=1, decision=legal, prev="0" * 64))
    forfeit_of(table, 0, 1, "bad-seq")
    untouched(table, 0, n)


def test_a_decision_rewriting_an_applied_seq_is_a_forfeit(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    table.inject(1, 0, make("decision", seq=2, seat=1, decision=["end"], prev="0" * 64))
    forfeit_of(table, 0, 1, "bad-seq")
    untouched(table, 0, n)


def test_a_forged_hash_stops_the_game_as_a_desync_naming_the_seq(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    legal = list(table.peers[1].game.legal()[0])
    table.inject(1, 0, make("decision", seq=n + 1, seat=1, decision=legal, prev="0" * 64))
    outcome = table.peers[0].outcome
    assert outcome.result == "desync" and outcome.seq == n  # "the state after seq n differs"
    assert "hash-mismatch" in [m["code"] for m in errors_to(table, 0, 1)]
    assert verify(rules2, table.peers[0].record).ok  # the record is kept, and still true


def test_a_replayed_decision_is_refused_and_ignored(rules2) -> None:
    table = waiting_for(rules2, 1)
    peer1 = table.peers[1]
    peer1.decide(table.bots[1].decide(peer1.game, 1), table.now)
    table.collect(1)
    (frame,) = [m for m in table.wire[(1, 0)] if m["t"] == "decision"]
    table.pump()
    n = table.peers[0].applied
    table.inject(1, 0, frame)  # the same frame again
    assert table.peers[0].outcome is None
    assert "replayed" in [m["code"] for m in errors_to(table, 0, 1)]
    untouched(table, 0, n)


def test_a_seat_impersonating_another_is_a_forfeit(rules4) -> None:
    table = waiting_for(rules4, 2, seats=4)
    n = table.peers[0].applied
    legal = list(table.peers[2].game.legal()[0])
    # seat 3 signs a decision as seat 2, whose turn it is
    table.inject(3, 0, make("decision", seq=n + 1, seat=2, decision=legal, prev="0" * 64))
    forfeit_of(table, 0, 3, "impersonation")
    untouched(table, 0, n)


def test_an_unexpected_message_mid_game_is_refused(rules2) -> None:
    table = waiting_for(rules2, 1)
    table.inject(1, 0, make("welcome", players=2))
    assert table.peers[0].outcome is None
    assert "unexpected" in [m["code"] for m in errors_to(table, 0, 1)]


def test_an_equivocating_peer_is_caught_at_the_first_differing_seq(rules4) -> None:
    """Seat 3 tells seat 0 one thing and everyone else another; the desync names that seq."""
    table = waiting_for(rules4, 3, seats=4)
    liar = table.peers[3]
    legal = liar.game.legal()
    assert len(legal) > 1
    honest_choice, lie = legal[0], legal[-1]
    seq = liar.applied + 1
    liar.decide(honest_choice, table.now)
    table.collect(3)
    for m in table.wire[(3, 0)]:
        if m["t"] == "decision":
            m["decision"] = list(lie)
    table.bot_seats = {0, 1, 2, 3}
    table.pump()
    outcomes = finished(table)
    assert all(o is not None and o.result == "desync" for o in outcomes)
    assert {o.seq for o in outcomes} == {seq}
    for peer in table.peers:
        assert verify(rules4, peer.record).ok


# ---------------------------------------------------------------------- commit-reveal


def at_a_round(rules) -> tuple[MemoryTable, int]:
    """A table stopped where a chance round has begun and seat 1's commitment is in flight."""
    table = MemoryTable(rules, Setup(), ["random", "random"], seed=6, test_seed=6)
    held = []

    def hold(src, dst, msg):
        if src == 1 and msg["t"] in ("commit", "reveal") and msg["round"] > 20:
            held.append((dst, msg))
            return []
        return [msg]

    table.tamper = hold
    table.connect()
    table.pump()
    assert held, "no chance round after seq 20"
    return table, held


def test_all_commitments_come_before_any_reveal(rules2) -> None:
    table, held = at_a_round(rules2)
    round_ = held[0][1]["round"]
    # seat 0 committed, but holds its reveal until seat 1's commitment is in
    sent = [m for (src, dst, m) in table.log if src == 0 and m.get("round") == round_]
    assert [m["t"] for m in sent] == ["commit"]
    table.tamper = None
    for dst, msg in held:
        table.peers[dst].on_message(1, msg, table.now)
    table.pump()
    order = [m["t"] for (src, dst, m) in table.log if src == 0 and m.get("round") == round_]
    assert order == ["commit", "reveal"]


def test_a_reveal_that_does_not_open_its_commitment_is_a_forfeit(rules2) -> None:
    table, held = at_a_round(rules2)
    (dst, commit), *_ = held
    n = table.peers[0].applied
    table.peers[0].on_message(1, commit, table.now)
    table.collect(0)
    table.inject(1, 0, make("reveal", round=commit["round"], nonce=b"\x00" * 32))
    forfeit_of(table, 0, 1, "bad-reveal")
    assert "does not open its commitment" in table.peers[0].outcome.reason
    untouched(table, 0, n)


def test_a_late_reveal_is_a_forfeit(rules2) -> None:
    table, held = at_a_round(rules2)
    (dst, commit), *_ = held
    table.peers[0].on_message(1, commit, table.now)
    table.pump()  # seat 0 reveals; seat 1's reveal is held back from now on
    assert table.peers[0].outcome is None
    table.tick(table.peers[0].reveal_timeout + 1)
    forfeit_of(table, 0, 1, "late-reveal")
    assert "did not reveal" in table.peers[0].outcome.reason


def test_a_late_commitment_is_a_forfeit(rules2) -> None:
    table, held = at_a_round(rules2)
    table.tick(table.peers[0].reveal_timeout + 1)
    forfeit_of(table, 0, 1, "late-commit")


def test_a_changed_commitment_is_a_forfeit(rules2) -> None:
    table, held = at_a_round(rules2)
    (dst, commit), *_ = held
    table.peers[0].on_message(1, commit, table.now)
    table.inject(1, 0, make("commit", round=commit["round"], commit=b"\x07" * 32))
    forfeit_of(table, 0, 1, "bad-commit")


def test_a_reveal_before_its_commitment_is_a_forfeit(rules2) -> None:
    table, held = at_a_round(rules2)
    round_ = held[0][1]["round"]
    nonce = crypto.insecure_nonce(6, 1, round_)
    table.inject(1, 0, make("reveal", round=round_, nonce=nonce))
    forfeit_of(table, 0, 1, "bad-reveal")


def test_the_seed_is_the_hash_of_the_reveals_in_seat_order(rules2) -> None:
    table = MemoryTable(rules2, Setup(), ["random", "random"], seed=2, test_seed=2, max_turns=5)
    table.connect()
    table.pump()
    step = table.peers[0].record.steps[0]
    nonces = [crypto.insecure_nonce(2, s, 1) for s in (0, 1)]
    assert step.decision == ("seed", crypto.chance_seed(table.game_id, 1, nonces))
    commit = crypto.commitment(table.game_id, 1, 1, nonces[1])
    assert (
        commit
        == __import__("hashlib")
        .sha256(table.game_id + (1).to_bytes(8, "big") + bytes([1]) + nonces[1])
        .digest()
    )


# ---------------------------------------------------------------------- resign, leave, chat


def test_resigning_ends_the_game_for_everyone(rules4) -> None:
    table = waiting_for(rules4, 2, seats=4)
    table.peers[2].resign("enough")
    table.pump()
    for peer in table.peers:
        assert peer.outcome.result == "forfeit" and peer.outcome.culprit == 2
        assert peer.outcome.winner == 1  # seat 2 plays for side 0
        assert "resigned" in peer.outcome.reason


def test_a_peer_that_leaves_after_hearing_of_the_end_is_not_taken_for_resigning(rules4) -> None:
    """Links are not ordered with each other: seat 3 may hear seat 0 resign, end its game and
    say goodbye to seat 1 before seat 0's own word reaches seat 1. A goodbye is no verdict:
    seat 3 owes nothing yet, so seat 1 plays on until seat 0's word arrives, and concludes the
    same game (seat 0's forfeit), not seat 3's leaving."""
    table = waiting_for(rules4, 2, seats=4)
    table.peers[0].resign("enough")
    table.collect(0)
    table.peers[3].on_message(0, table.wire[(0, 3)].popleft(), table.now)
    assert table.peers[3].outcome.culprit == 0
    table.peers[3].leave_messages()
    table.collect(3)
    while table.wire[(3, 1)]:  # all of seat 3's words to seat 1, before seat 0's arrive
        table.peers[1].on_message(3, table.wire[(3, 1)].popleft(), table.now)
    assert table.peers[1].outcome is None
    while table.wire[(0, 1)]:
        table.peers[1].on_message(0, table.wire[(0, 1)].popleft(), table.now)
    outcome = table.peers[1].outcome
    assert outcome.result == "forfeit" and outcome.culprit == 0 and outcome.winner == 1
    assert "resigned" in outcome.reason


def test_no_peer_makes_another_lose_by_saying_it_forfeits(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    table.inject(1, 0, make("end", seat=0, code="forfeit", text="you were too slow"))
    assert table.peers[0].outcome is None  # no verdict: the game goes on
    assert "not-yours" in [m["code"] for m in errors_to(table, 0, 1)]
    table.collect(0)
    assert not [m for m in table.wire[(0, 1)] if m["t"] == "end"]  # not passed on
    untouched(table, 0, n)


@pytest.mark.parametrize("seat", [2, 5, 7])
def test_an_end_naming_a_seat_that_does_not_exist_is_refused_not_a_crash(seat, rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    table.inject(1, 0, make("end", seat=seat, code="forfeit", text=""))
    assert table.peers[0].outcome is None
    errors = errors_to(table, 0, 1)
    assert [m["code"] for m in errors] == ["not-yours"]
    assert f"an end about seat {seat}" in errors[0]["text"]
    untouched(table, 0, n)


def test_an_end_blaming_another_seat_is_no_verdict_for_third_parties(rules4) -> None:
    """At four seats seat 1 (side 1) blames seat 0 (side 0): neither seat 0 nor the third
    parties record side 1 as the winner; the game goes on, and seat 1 still owes its moves."""
    table = waiting_for(rules4, 1, seats=4)
    for dst in (0, 2, 3):
        table.inject(1, dst, make("end", seat=0, code="forfeit", text="seat 0 cheated"))
    for dst in (0, 2, 3):
        assert table.peers[dst].outcome is None
        assert "not-yours" in [m["code"] for m in errors_to(table, dst, 1)]
    table.peers[1].leave_messages()  # and now it leaves, owing its decision
    table.pump()
    for dst in (0, 2, 3):
        outcome = table.peers[dst].outcome
        assert outcome.result == "forfeit" and outcome.culprit == 1 and outcome.winner == 0


def test_an_end_naming_the_opponent_then_silence_is_the_senders_forfeit(rules2) -> None:
    table = MemoryTable(rules2, Setup(), ["random", "random"], seed=5, test_seed=5, clock=30)
    table.bot_seats = {0}
    table.connect()
    table.pump()
    assert table.peers[0].waiting == 1
    table.inject(1, 0, make("end", seat=0, code="forfeit", text="I win"))
    table.tick(40)
    forfeit_of(table, 0, 1, "late-decision")


def test_leaving_mid_game_counts_as_resigning(rules2) -> None:
    table = waiting_for(rules2, 1)
    table.inject(1, 0, make("leave", text="dinner"))
    outcome = table.peers[0].outcome
    assert outcome.result == "forfeit" and outcome.winner == 0 and "dinner" in outcome.reason


def test_chat_reaches_every_peer(rules4) -> None:
    table = waiting_for(rules4, 1, seats=4)
    table.peers[1].chat("nice move")
    table.pump()
    for seat in (0, 2, 3):
        texts = [e.text for e in table.peers[seat].take_events() if isinstance(e, Chat)]
        assert texts == ["nice move"]


# ---------------------------------------------------------------------- dropped links


def drop_link(table: MemoryTable, a: int, b: int) -> None:
    """Both ends see the link fail; whatever was in flight is lost."""
    table.peers[a].on_link_down(b, table.now)
    table.peers[b].on_link_down(a, table.now)
    table.wire[(a, b)].clear()
    table.wire[(b, a)].clear()


def restore_link(table: MemoryTable, a: int, b: int) -> None:
    table.peers[a].on_link_up(b, table.now)
    table.peers[b].on_link_up(a, table.now)


@pytest.mark.parametrize("seats", [2, 4])
def test_a_dropped_link_loses_nothing_once_it_is_back(seats, rules2, rules4) -> None:
    rules = rules2 if seats == 2 else rules4
    table = MemoryTable(rules, Setup(), ["random"] * seats, seed=2, test_seed=2)
    table.connect()
    dropped = False
    for _ in range(50):  # drop and restore the 0-1 link every few steps, messages lost each time
        for _ in range(7):
            table.collect(0)
            table.collect(1)
            if not any(table.wire.values()):
                break
            for (src, dst), q in table.wire.items():
                if q:
                    table.peers[dst].on_message(src, q.popleft(), table.now)
        if table.peers[0].outcome is not None:
            break
        drop_link(table, 0, 1)
        dropped = True
        table.pump()  # the others play on as far as they can without that link
        restore_link(table, 0, 1)
    table.pump()
    assert dropped
    local = play_local(rules, Setup(), ["random"] * seats, seed=2, test_seed=2)
    assert {p.outcome.final_hash for p in table.peers} == {local.final_hash}
    for peer in table.peers:
        assert [s.hash for s in peer.record.steps] == [s.hash for s in local.record.steps]


def test_without_a_clock_a_silent_seat_never_forfeits(rules2) -> None:
    table = waiting_for(rules2, 1)  # no clock: a friendly table
    table.tick(10**6)
    assert table.peers[0].outcome is None and table.peers[0].next_deadline() is None


def test_a_silent_seat_forfeits_past_its_clock_though_its_link_is_up(rules2) -> None:
    """A peer that only keeps its link alive (pings) holds the table only until its clock
    runs out; every peer judges it from its own clock."""
    table = MemoryTable(rules2, Setup(), ["random", "random"], seed=5, test_seed=5, clock=20)
    table.bot_seats = {0}
    table.connect()
    table.pump()
    honest = table.peers[0]
    seat, left = honest.clock_left(table.now)
    assert seat == 1 and left == 20
    table.peers[1].clock = None  # a rogue that does not judge itself
    table.tick(24)
    assert honest.outcome is None  # a peer's clock gets a little grace for its link's delay
    table.tick(2)
    forfeit_of(table, 0, 1, "late-decision")
    assert honest.outcome.reason.endswith("did not decide seq 6 within 20 s")


def test_our_own_clock_running_out_is_our_own_resignation(rules2) -> None:
    table = MemoryTable(rules2, Setup(), ["random", "random"], seed=5, test_seed=5, clock=20)
    table.bot_seats = {0}
    table.connect()
    table.pump()
    table.tick(21)
    for peer in table.peers:  # seat 1 said so itself: everyone ends with its reason
        assert peer.outcome.result == "forfeit" and peer.outcome.culprit == 1
        assert peer.outcome.reason.endswith("did not decide seq 6 within 20 s")


def test_a_peer_gone_longer_than_the_reconnect_window_aborts_the_game(rules2) -> None:
    table = waiting_for(rules2, 0)  # seat 1, gone, owes nothing: we cannot judge it
    drop_link(table, 0, 1)
    table.tick(table.peers[0].reconnect_timeout - 1)
    assert table.peers[0].outcome is None
    table.tick(2)
    outcome = table.peers[0].outcome
    assert outcome.result == "aborted" and "lost contact with seat 1" in outcome.reason


def test_a_peer_gone_longer_than_the_reconnect_window_owing_a_decision_forfeits(rules2) -> None:
    table = waiting_for(rules2, 1)
    drop_link(table, 0, 1)
    table.tick(table.peers[0].reconnect_timeout - 1)
    assert table.peers[0].outcome is None
    table.tick(2)
    forfeit_of(table, 0, 1, "gone")
    assert "owed the decision for seq" in table.peers[0].outcome.reason


def test_holding_a_reveal_and_dropping_the_link_is_a_forfeit(rules2) -> None:
    """The reveal window runs on while the link is down: dropping it buys no time."""
    table, held = at_a_round(rules2)
    (dst, commit), *_ = held
    table.peers[0].on_message(1, commit, table.now)
    table.pump()  # seat 0 reveals; seat 1 holds its reveal
    drop_link(table, 0, 1)
    table.tick(table.peers[0].reveal_timeout + 1)
    forfeit_of(table, 0, 1, "late-reveal")
    assert table.peers[0].reveal_timeout < table.peers[0].reconnect_timeout  # not an abort


def test_a_reconnect_inside_the_reveal_window_is_in_time(rules2) -> None:
    table, held = at_a_round(rules2)
    drop_link(table, 0, 1)
    table.tick(table.peers[0].reveal_timeout / 2)
    table.tamper = None
    restore_link(table, 0, 1)
    table.pump()  # the round goes through, and the game plays on to its end
    assert all(p.outcome.result in ("win", "loss", "draw") for p in table.peers)


def test_a_seq_far_ahead_is_refused(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    legal = list(table.peers[1].game.legal()[0])
    table.inject(1, 0, make("decision", seq=n + 10_000, seat=1, decision=legal, prev="0" * 64))
    forfeit_of(table, 0, 1, "bad-seq")
    untouched(table, 0, n)


def test_a_forged_hash_in_an_acknowledgement_is_a_desync(rules2) -> None:
    table = waiting_for(rules2, 1)
    n = table.peers[0].applied
    table.inject(1, 0, make("ack", seq=n - 2, hash="1" * 64))
    outcome = table.peers[0].outcome
    assert outcome.result == "desync" and outcome.seq == n - 2
    assert "hash-mismatch" in [m["code"] for m in errors_to(table, 0, 1)]
    untouched(table, 0, n)


def test_a_desync_report_names_the_first_differing_seq(rules2) -> None:
    table = waiting_for(rules2, 1)
    honest = table.peers[0]
    n = honest.applied
    theirs = [[q, honest.hash_at(q)] for q in range(n - 5, n + 1)]
    theirs[3][1] = "2" * 64  # they differ from seq n - 2 on
    theirs[4][1] = theirs[5][1] = "3" * 64
    table.inject(1, 0, make("desync", seq=n, hashes=theirs))
    assert honest.outcome.result == "desync" and honest.outcome.seq == n - 2


def test_a_forged_desync_is_refused_and_the_game_goes_on(rules2) -> None:
    table = waiting_for(rules2, 1)
    honest = table.peers[0]
    n = honest.applied
    ours = [[q, honest.hash_at(q)] for q in range(n - 5, n + 1)]
    table.inject(1, 0, make("desync", seq=n, hashes=ours))
    table.inject(1, 0, make("desync", seq=n + 3, hashes=[[n + 3, "4" * 64]]))  # not ours yet
    assert honest.outcome is None
    assert errors_to(table, 0, 1)[-1]["code"] == "no-desync"
    untouched(table, 0, n)


def test_every_step_is_told_once_in_order_with_its_news(rules2) -> None:
    table = MemoryTable(rules2, Setup(), ["random", "random"], seed=1, test_seed=1, max_turns=30)
    peer = table.peers[1]
    table.connect()
    table.pump()
    events = peer.take_events()
    told = [e for e in events if isinstance(e, StepApplied)]
    assert [e.step for e in told] == peer.record.steps
    assert [line for e in told for line in e.news] == peer.game.log
    assert isinstance(events[1], Started) and isinstance(events[-1], Ended)  # after the link
    assert events[-1].outcome is peer.outcome
    asked = [e.seq for e in events if isinstance(e, Asked)]
    assert asked == [s.seq for s in peer.record.steps if s.seat == 1]  # once per decision


def test_a_step_is_told_before_it_is_hashed_and_acknowledged(rules2) -> None:
    table = waiting_for(rules2, 1)
    honest = table.peers[0]
    n = honest.applied
    honest.take_events()
    table.collect(0)
    decision = list(honest.game.legal()[0])
    table.inject(
        1, 0, make("decision", seq=n + 1, seat=1, decision=decision, prev=honest.hash_at(n))
    )
    told = [e for e in honest.take_events() if isinstance(e, StepApplied)]
    assert [e.step.seq for e in told] == [n + 1] and told[0].step.hash == ""  # not hashed yet
    assert not [m for m in honest.take_outbox() if m[1]["t"] == "ack"]
    honest.idle()
    assert told[0].step.hash == honest.game.state_hash() == honest.hash_at(n + 1)
    acks = [m for _, m in honest.take_outbox() if m["t"] == "ack"]
    assert acks == [make("ack", seq=n + 1, hash=honest.game.state_hash())]


def test_a_forged_hash_waiting_for_a_step_is_caught_when_the_step_is_hashed(rules2) -> None:
    table = waiting_for(rules2, 1)
    honest = table.peers[0]
    n = honest.applied
    table.inject(1, 0, make("ack", seq=n + 1, hash="5" * 64))  # ahead: it waits for seq n + 1
    decision = list(honest.game.legal()[0])
    table.inject(
        1, 0, make("decision", seq=n + 1, seat=1, decision=decision, prev=honest.hash_at(n))
    )
    honest.resign()  # the hash is compared before any verdict
    outcome = honest.outcome
    assert outcome.result == "desync" and outcome.seq == n + 1
    assert "hash-mismatch" in [m["code"] for m in errors_to(table, 0, 1)]
