"""Whole tables over real loopback sockets: two and four peers, the handshake's refusals,
garbage on the wire, a cut link that reconnects, and a peer that crashes and resumes."""

from __future__ import annotations

import dataclasses
import itertools
import struct
from functools import partial

import pytest
import trio
from proxy import Proxy
from tables import (
    CODE,
    FAST,
    PACKS,
    Table,
    crash_one_of_two,
    crash_the_middle_joiner,
    offer_table,
    wait_until,
)

from crownp2p.core.record import Record, verify
from crownp2p.net import crypto
from crownp2p.net.errors import NetError
from crownp2p.net.events import Chat
from crownp2p.net.frames import encode_frame
from crownp2p.net.handshake import ENGINE
from crownp2p.net.link import FramedStream
from crownp2p.net.local import play_local
from crownp2p.net.messages import PROTOCOL_VERSION, make
from crownp2p.net.proof import unproven_round
from crownp2p.net.seating import resume_game


def twin(table: Table):
    return play_local(
        table.rules,
        table.setup,
        [table.bot] * table.players,
        seed=table.seed,
        test_seed=table.seed,
        max_turns=table.max_turns,
    )


def same_as_one_process(table: Table) -> None:
    local = twin(table)
    hashes = {o.final_hash for o in table.outcomes.values()}
    assert hashes == {local.final_hash}, [o.to_json() for o in table.outcomes.values()]
    assert len(table.outcomes) == table.players


@pytest.mark.parametrize("bot, seed", [("random", 1), ("greedy", 2)])
async def test_two_peers_play_a_whole_game(rules2, tmp_path, bot, seed) -> None:
    with trio.fail_after(30):
        table = Table(rules2, bot=bot, seed=seed)
        table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
        await table.play()
    same_as_one_process(table)
    assert {o.result for o in table.outcomes.values()} <= {"win", "loss", "draw", "aborted"}
    for path in table.records.values():
        record = Record.load(path)
        assert verify(rules2, record).ok
        assert record.steps[-1].hash == table.outcomes[0].final_hash


async def test_four_peers_play_a_whole_game_over_a_full_mesh(rules4) -> None:
    with trio.fail_after(60):
        table = Table(rules4, bot="random", seed=1)
        await table.play()
    same_as_one_process(table)
    results = {seat: o.result for seat, o in table.outcomes.items()}
    winner = table.outcomes[0].winner
    for seat, result in results.items():
        assert result == ("win" if rules4.seating.sides[seat] == winner else "loss")
    # every pair of seats had its own link: nobody relayed
    for seat, session in table.sessions.items():
        assert set(session.ls.acked) == set(range(4)) - {seat}
        assert all(session.ls.acked[s] == session.ls.applied for s in session.ls.acked)


# ---------------------------------------------------------------------- the handshake


async def raw_join(port: int, **fields) -> dict:
    """Open a connection and send a join message by hand; return what comes back."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    framed = FramedStream(stream)
    hello = dict(
        proto=PROTOCOL_VERSION,
        engine=ENGINE,
        packs=[list(p) for p in PACKS],
        pake=crypto.pake(CODE, host=False).start(),
    )
    hello.update(fields)
    await framed.send(make("join", **hello))
    reply = await framed.receive()
    await framed.aclose()
    return reply


async def stranger_guesses(port: int, guess: str) -> dict:
    """Join by hand with a guessed code, as far as the host lets us; return its last word."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    framed = FramedStream(stream)
    pake = crypto.pake(guess, host=False)
    hello = make(
        "join",
        proto=PROTOCOL_VERSION,
        engine=ENGINE,
        packs=[list(p) for p in PACKS],
        pake=pake.start(),
    )
    await framed.send(hello)
    sent = framed.last_body
    reply = await framed.receive()
    if reply["t"] == "pake":
        psk = crypto.pake_key(pake, reply["pake"])
        noise = crypto.join_noise(
            initiator=True, psk=psk, prologue=sent + framed.last_body, private=crypto.new_static()
        )
        await framed.send(make("noise", msg=bytes(noise.write_message())))
        reply = await framed.receive()
    await framed.aclose()
    return reply


async def host_only(rules, nursery) -> Table:
    table = Table(rules)
    table.ready = await nursery.start(table.host)
    return table


@pytest.mark.parametrize(
    "fields, code, words",
    [
        ({"proto": 99}, "version", "protocol"),
        ({"engine": "0.0.1/state9/shuffle9"}, "version", "engine"),
        ({"packs": [["crownp2p", "9.9"]]}, "packs", "crownp2p is"),
        (
            {"packs": [["crownp2p", PACKS[0][1]], ["all-kings-men", "1.0"]]},
            "packs",
            "all-kings-men",
        ),
        # a SPAKE2 message that is not a point of the curve
        ({"pake": b"A" + b"\xff" * 32}, "bad-message", "not valid"),
    ],
)
async def test_a_peer_with_other_versions_or_packs_is_refused_clearly(
    rules2, fields, code, words
) -> None:
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            table = await host_only(rules2, nursery)
            reply = await raw_join(table.ready.port, **fields)
            assert reply["t"] == "error" and reply["code"] == code
            assert words in reply["text"]
            nursery.cancel_scope.cancel()


async def first_reply(rules, data: bytes) -> dict:
    """What a host answers a stranger that opens with ``data``."""
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            table = await host_only(rules, nursery)
            stream = await trio.open_tcp_stream("127.0.0.1", table.ready.port)
            await stream.send_all(data)
            framed = FramedStream(stream)
            reply = await framed.receive()
            await framed.aclose()
            nursery.cancel_scope.cancel()
    return reply


async def test_a_protocol_2_joiner_hears_it_must_update(rules2, caplog) -> None:
    """Protocol 2's join had other fields (name, nonce, listen, dh; no pake): its peer is told
    its protocol is old, not which field it lacks."""
    old_join = encode_frame(
        {
            "t": "join",
            "proto": 2,
            "engine": ENGINE,
            "packs": [list(p) for p in PACKS],
            "name": "old",
            "nonce": b"n" * 16,
            "listen": 0,
            "dh": b"\x02" * 256,
        }
    )
    reply = await first_reply(rules2, old_join)
    assert reply["t"] == "error" and reply["code"] == "version"
    assert reply["text"] == (
        f"this table speaks protocol {PROTOCOL_VERSION}; you have protocol 2: update crownp2p"
    )
    assert "[version]" in caplog.text


async def test_a_wrong_join_code_never_takes_a_seat(rules2, caplog) -> None:
    with trio.fail_after(20):
        table = Table(rules2)
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            with pytest.raises(NetError, match="check the code"):
                await table.join(1, table.ready.port, code="wrong-code")
            # a stranger who keys its first Noise message with a guess is refused
            reply = await stranger_guesses(table.ready.port, "wrong-guess")
            assert reply["t"] == "error" and reply["code"] == "bad-code"
            # the seat is still free for the right code
            await nursery.start(table.join, 1, table.ready.port)
        assert "wrong join code" in caplog.text
        same_as_one_process(table)


async def test_a_full_table_refuses_more_players(rules2) -> None:
    with trio.fail_after(20):
        table = Table(rules2)
        table.timeouts = FAST
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            await nursery.start(table.join, 1, table.ready.port)
            reply = await raw_join(table.ready.port)
            assert reply["t"] == "error" and reply["code"] == "table-full"


@pytest.mark.parametrize(
    "data, code",
    [
        (b"\x00\x00\x00\x03\xc1\xc1\xc1", "bad-frame"),
        (struct.pack(">I", 50_000_000), "oversized"),
        (encode_frame({"t": "teleport"}), "unknown-message"),
        (encode_frame({"t": "join", "proto": "one"}), "bad-message"),
    ],
)
async def test_garbage_from_a_stranger_gets_an_error_frame(rules2, data, code, caplog) -> None:
    reply = await first_reply(rules2, data)
    assert reply["t"] == "error" and reply["code"] == code
    assert code in caplog.text


# ---------------------------------------------------------------------- links that fail


async def play_through_proxy(rules, action, *, seed=1, bot="random") -> tuple[Table, Proxy]:
    """A two-seat table whose joiner reaches the host through a proxy; ``action(table, proxy)``
    runs once the game is 40 steps in."""
    table = Table(rules, bot=bot, seed=seed)
    async with trio.open_nursery() as nursery:
        table.ready = await nursery.start(table.host)
        proxy = Proxy(table.ready.port)
        await nursery.start(proxy.run)

        async def meddle() -> None:
            await wait_until(lambda: 0 in table.sessions and table.sessions[0].ls.applied >= 40)
            await action(table, proxy)

        nursery.start_soon(meddle)
        await nursery.start(table.join, 1, proxy.port)
        await wait_until(lambda: len(table.outcomes) == 2)
        nursery.cancel_scope.cancel()
    return table, proxy


async def test_a_cut_link_reconnects_and_the_game_finishes_unharmed(rules2) -> None:
    with trio.fail_after(30):
        table, proxy = await play_through_proxy(rules2, lambda t, p: p.cut())
    assert proxy.connections >= 2  # the joiner dialled again
    same_as_one_process(table)
    assert table.outcomes[0].finished


async def test_a_link_cut_twice_still_finishes(rules2) -> None:
    async def twice(table, proxy):
        await proxy.cut()
        await wait_until(lambda: proxy.pairs and table.sessions[0].ls.applied >= 80)
        await proxy.cut()

    with trio.fail_after(30):
        table, proxy = await play_through_proxy(rules2, twice)
    assert proxy.connections >= 3
    same_as_one_process(table)


@pytest.mark.parametrize(
    "garbage, code",
    [
        (b"\x00\x00\x00\x02\xc1\xc1", "bad-seal"),  # on a sealed link, garbage does not open
        (struct.pack(">I", 2_000_000), "oversized"),
    ],
)
async def test_garbage_mid_game_is_refused_and_the_game_goes_on(rules2, garbage, code, caplog):
    async def inject(table, proxy):
        await proxy.inject(garbage)

    with trio.fail_after(30):
        table, proxy = await play_through_proxy(rules2, inject)
    assert f"[{code}]; disconnecting" in caplog.text
    same_as_one_process(table)


async def test_a_well_formed_frame_injected_mid_game_never_reaches_the_game(rules2, caplog) -> None:
    """In protocol 2 a third party's frame was read (and an unknown one refused and ignored);
    now it does not open, the link is dropped and redialled, and the game is unharmed."""

    async def inject(table, proxy):
        await proxy.inject(encode_frame({"t": "teleport", "to": "e8"}))

    with trio.fail_after(30):
        table, proxy = await play_through_proxy(rules2, inject)
    assert "[bad-seal]; disconnecting" in caplog.text and "unknown-message" not in caplog.text
    assert proxy.connections >= 2
    same_as_one_process(table)


async def test_a_silent_link_is_declared_dead_and_redialled(rules2) -> None:
    async def freeze(table, proxy):
        proxy.frozen = True
        await trio.sleep(FAST.idle + 0.5)
        proxy.frozen = False

    with trio.fail_after(30):
        table, proxy = await play_through_proxy(rules2, freeze)
    assert proxy.connections >= 2
    same_as_one_process(table)


@pytest.mark.parametrize("players", [2, 4])
async def test_a_joiner_cut_off_before_its_table_rejoins_its_seat(rules2, rules4, players) -> None:
    table = Table(rules2 if players == 2 else rules4, bot="random", seed=1)
    with trio.fail_after(40):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            proxy = Proxy(table.ready.port)
            await nursery.start(proxy.run)
            for order in range(1, players - 1):
                await nursery.start(table.join, order, table.ready.port)
            proxy.cut_after = 3  # pake, noise, welcome: the table never comes on that link
            await nursery.start(table.join, players - 1, proxy.port)
            await wait_until(lambda: len(table.outcomes) == players)
            nursery.cancel_scope.cancel()
    # it came back to its place: the table seats it, and no one else came
    assert f"joiner{players - 1}" in table.sessions[0].names and proxy.connections == 2
    same_as_one_process(table)


# ---------------------------------------------------------------------- crash and resume


@pytest.mark.parametrize("victim", ["joiner", "host"])
async def test_a_crashed_peer_resumes_from_its_record(rules2, tmp_path, victim) -> None:
    table = Table(rules2, bot="random", seed=1)
    table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
    with trio.fail_after(40):
        await crash_one_of_two(table, rules2, victim, 50)
    same_as_one_process(table)
    for path in table.records.values():
        assert verify(rules2, Record.load(path)).ok
        assert unproven_round(Record.load(path), [0, 1]) is None  # rounds across the resume


async def test_a_resumed_peer_whose_partner_never_returns_ends_when_its_window_runs_out(
    rules2, tmp_path
) -> None:
    # No decision clock, a long reveal window: only the reconnect window can end it.
    table = Table(rules2, bot="random", seed=1, timeouts=dataclasses.replace(FAST, reveal=60))
    table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:  # both peers crash mid-game
            table.ready = await nursery.start(partial(table.host, clock=None))
            await nursery.start(table.join, 1, table.ready.port)
            await wait_until(lambda: len(table.seats) == 2)
            await wait_until(lambda: table.sessions[table.seats[1]].ls.applied >= 30)
            nursery.cancel_scope.cancel()
        lonely = dataclasses.replace(FAST, reconnect=1.0)
        began = trio.current_time()
        outcome = await resume_game(
            rules2, table.records[1], decider=table.decider(), packs=PACKS, timeouts=lonely
        )
    host = f"seat {table.seats[0]} (host)"
    assert outcome.result in ("aborted", "forfeit") and host in outcome.reason
    assert 1.0 <= trio.current_time() - began < 5


async def test_resuming_a_finished_game_reports_its_result(rules2, tmp_path) -> None:
    with trio.fail_after(30):
        table = Table(rules2, bot="random", seed=1)
        table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
        await table.play()
        for order in (0, 1):  # the records go by join order
            again = await resume_game(
                rules2, table.records[order], decider=table.decider(), packs=PACKS
            )
            assert again.to_json() == table.outcomes[table.seats[order]].to_json()


# ---------------------------------------------------------------------- chat and resign


async def test_chat_and_resign_over_sockets(rules2) -> None:
    table = Table(rules2, bot="random", seed=1)
    heard = []
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(
                lambda task_status: table.host(
                    task_status=task_status,
                    on_event=lambda e: heard.append(e.text) if isinstance(e, Chat) else None,
                )
            )
            await nursery.start(table.join, 1, table.ready.port)
            await wait_until(lambda: 1 in table.seats)
            joiner = table.sessions[table.seats[1]]
            await wait_until(lambda: joiner.ls.applied > 10)
            joiner.chat("good game")
            await wait_until(lambda: heard)
            joiner.resign("it is late")
    assert heard == ["good game"]
    for outcome in table.outcomes.values():
        assert outcome.result == "forfeit" and outcome.winner == table.seats[0]  # the host
        assert "it is late" in outcome.reason


async def test_a_joiner_who_leaves_early_frees_its_seat(rules4) -> None:
    from crownp2p.net.handshake import join_dial

    table = Table(rules4, bot="random", seed=1)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            stream = await trio.open_tcp_stream("127.0.0.1", table.ready.port)
            framed = FramedStream(stream)
            joined = await join_dial(
                framed,
                code=CODE,
                name="flaky",
                packs=PACKS,
                listen_port=0,
                commit=b"c" * 32,
                timeout=2,
            )
            assert joined.players == 4
            await framed.aclose()  # gone before the others arrive
            await trio.sleep(0.1)
            for order in range(1, 4):
                await nursery.start(table.join, order, table.ready.port)
    assert sorted(table.outcomes) == [0, 1, 2, 3]
    # its place went to the next to come: the three joiners are all seated, flaky is not
    assert sorted(table.sessions[0].info.names) == ["host", "joiner1", "joiner2", "joiner3"]
    same_as_one_process(table)


async def test_a_table_for_other_rules_is_refused_by_the_joiner(rules2, rules4) -> None:
    from dataclasses import replace

    table = Table(rules2, timeouts=replace(FAST, start=1))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            four = Table(rules4)
            with pytest.raises(NetError, match="the table is for 2 players; these rules seat 4"):
                await four.join(1, table.ready.port)
    assert table.outcomes[table.seats[0]].result == "aborted"  # the host's


class SlowThinker:
    """A seat with no decider, as a person's: when the game asks, a bot's choice is offered to
    the session a moment later, as the terminal offers what the person types."""

    def __init__(self, table: Table, nursery: trio.Nursery) -> None:
        self.table, self.nursery = table, nursery
        self.asked = 0

    def event(self, event) -> None:
        from crownp2p.net.deciders import seat_bot
        from crownp2p.net.events import Asked, Seated

        if isinstance(event, Seated):  # the seating draw tells us our seat
            self.seat = event.seat
            self.bot = seat_bot("random", self.table.seed, event.seat)
        if isinstance(event, Asked):
            self.asked += 1
            self.nursery.start_soon(self.think, event.seq - 1)

    async def think(self, at_step: int) -> None:
        await trio.sleep(0)
        session = self.table.sessions[self.seat]
        session.offer(self.bot.decide(session.game, self.seat), at_step)


async def test_decisions_offered_later_play_like_a_bot(rules2) -> None:
    from functools import partial

    table = Table(rules2, bot="random", seed=1)
    table.decider = lambda: None  # every seat's decisions come as offers
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            thinkers = [SlowThinker(table, nursery) for _ in range(2)]
            table.ready = await nursery.start(partial(table.host, on_event=thinkers[0].event))
            await nursery.start(
                partial(table.join, 1, table.ready.port, on_event=thinkers[1].event)
            )
    assert all(t.asked > 10 for t in thinkers)
    same_as_one_process(table)


async def test_a_decision_is_applied_as_it_is_read_and_a_bot_answers_at_once(rules2) -> None:
    """No hop to the session's main task: a peer's decision (or the reveal that completes a
    seed) is checked and applied in the task of the link that read it, and a bot's answer is
    applied there too, so no step waits for a task switch."""
    from functools import partial

    table = Table(rules2, bot="random", seed=3, max_turns=20)
    main_tasks: dict[int, trio.lowlevel.Task] = {}
    applied_in: dict[int, list[trio.lowlevel.Task]] = {0: [], 1: []}

    def heard(seat: int, event) -> None:
        from crownp2p.net.events import StepApplied

        if isinstance(event, StepApplied):
            applied_in[seat].append(trio.lowlevel.current_task())

    async def seat(run, seat: int, task_status=trio.TASK_STATUS_IGNORED) -> None:
        main_tasks[seat] = trio.lowlevel.current_task()  # the session's main task runs here
        await run(task_status=task_status, on_event=partial(heard, seat))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(seat, table.host, 0)
            await nursery.start(seat, partial(table.join, 1, table.ready.port), 1)
    same_as_one_process(table)
    for s in (0, 1):
        assert len(applied_in[s]) > 20
        assert main_tasks[s] not in applied_in[s]


class PacedThinker(SlowThinker):
    """A SlowThinker that waits a little longer, so each decision reaches the peer alone."""

    async def think(self, at_step: int) -> None:
        await trio.sleep(0.005)
        await super().think(at_step)


async def test_a_peers_decision_is_told_before_it_is_hashed_and_acknowledged(rules2) -> None:
    """A follower hears of a peer's decision as soon as it is checked and applied: its state
    hash (for the acknowledgement) is computed after, unless something else waits to leave."""
    from functools import partial

    from crownp2p.net.events import StepApplied

    table = Table(rules2, bot="random", seed=3, max_turns=10)
    table.decider = lambda: None  # every seat's decisions come as offers
    told: dict[int, list[tuple[int, bool]]] = {0: [], 1: []}  # by join order: seat, unhashed

    def heard(order: int, thinker: PacedThinker, event) -> None:
        thinker.event(event)
        if isinstance(event, StepApplied):
            told[order].append((event.step.seat, event.step.hash == ""))

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            hear = [partial(heard, order, PacedThinker(table, nursery)) for order in (0, 1)]
            table.ready = await nursery.start(partial(table.host, on_event=hear[0]))
            await nursery.start(partial(table.join, 1, table.ready.port, on_event=hear[1]))
    same_as_one_process(table)
    for order, seat in table.seats.items():
        theirs = [unhashed for who, unhashed in told[order] if who == 1 - seat]
        assert len(theirs) > 10 and sum(theirs) > len(theirs) // 2, theirs
        assert all(step.hash for step in table.sessions[seat].record.steps)


async def test_a_bot_that_decides_at_once_sends_its_decision_in_place_of_an_ack(
    rules2, monkeypatch
) -> None:
    """A bot asked by a peer's decision answers at once: its decision (whose prev is the hash
    an ack would carry) goes out alone, with no ack of that step just before it; the game is
    still checked step by step and ends as the one-process twin."""
    from crownp2p.net.link import Link

    sent: dict[int, list[dict]] = {}  # by link: what went out on it, in order
    send = Link.send
    monkeypatch.setattr(
        Link, "send", lambda link, msg: sent.setdefault(id(link), []).append(msg) or send(link, msg)
    )
    table = Table(rules2, bot="greedy", seed=2, max_turns=30)
    with trio.fail_after(30):
        await table.play()
    same_as_one_process(table)
    handoffs = redundant = 0  # decisions that start a run (a peer's or chance's step before)
    for msgs in sent.values():
        for before, after in itertools.pairwise(msgs):
            ours_before = before["t"] == "decision" and before["seq"] == after.get("seq", 0) - 1
            if after["t"] == "decision" and not ours_before:
                handoffs += 1
                redundant += before["t"] == "ack" and before["seq"] == after["seq"] - 1
    assert handoffs > 20 and redundant == 0


async def test_a_reveal_leaves_before_the_step_that_led_to_it_is_hashed(
    rules2, monkeypatch
) -> None:
    """A peer waits for our reveal to play on: it leaves as soon as we reach the chance step,
    before the step that led there is hashed, and never before its commitment (a reveal
    before it would be the sender's forfeit): the game ends as the one-process twin."""
    from crownp2p.net.lockstep import Lockstep

    early: list[int] = []  # rounds revealed while the step before was still unhashed
    take = Lockstep.take_reveals

    def watched(ls: Lockstep) -> list:
        unhashed = ls._unhashed is not None
        out = take(ls)
        early.extend(msg["round"] for _, msg in out if unhashed)
        return out

    monkeypatch.setattr(Lockstep, "take_reveals", watched)
    table = Table(rules2, bot="greedy", seed=2, max_turns=30)
    with trio.fail_after(30):
        await table.play()
    same_as_one_process(table)
    assert len(set(early)) > 5


async def test_a_crashed_peer_of_a_four_seat_mesh_resumes(rules4, tmp_path) -> None:
    """The middle of the three joiners by seat listens for the joiner above it and dials the
    one below and the host: after its crash it must take up both roles again, on the same
    port."""
    table = Table(rules4, bot="random", seed=1)
    table.records = {order: tmp_path / f"seat{order}.jsonl" for order in range(4)}
    with trio.fail_after(60):
        await crash_the_middle_joiner(table, rules4, 60)
    same_as_one_process(table)
    for path in table.records.values():
        assert verify(rules4, Record.load(path)).ok


async def test_four_peers_play_the_team_game_of_an_installed_pack() -> None:
    """The real four-seat variant, when a pack provides one (All the King's Men's team game)."""
    from crownp2p import packs

    catalog = packs.load()
    four = [name for name, v in catalog.variants.items() if v.seats == 4]
    if not four:
        pytest.skip("no four-seat variant is installed")
    table = Table(catalog.rules(four[0]), bot="random", seed=3)
    table.setup = catalog.setup("first-game", variant=four[0])
    with trio.fail_after(60):
        await table.play()
    same_as_one_process(table)


@pytest.mark.parametrize("tamper", ["swap-ours", "unusable-other"])
async def test_a_host_cannot_hand_a_joiner_keys_it_did_not_send(rules2, tamper) -> None:
    """The links between seats are keyed by every seat's static key: a host that replaces a
    joiner's own key (to stand between it and the others) or hands out one that forces a
    known secret is refused before the game starts."""

    def rogue(ours: bytes, theirs: bytes) -> list[bytes]:
        return [ours, ours] if tamper == "swap-ours" else [bytes(32), theirs]

    said, reply = await offer_table(rules2, statics=rogue, clock=0.0)
    assert "key" in said
    assert reply["t"] == "error" and reply["code"] == "bad-message"


async def test_a_host_that_tells_two_seats_different_tables_never_starts_a_game(
    rules4, monkeypatch, caplog
) -> None:
    """A host that hands one joiner a key of its own for another joiner's seat (so as to pose
    as that seat to it) leaves the two with different tables: their link is refused, the mesh
    never completes, and the table is aborted for everyone without a single move."""
    from dataclasses import replace

    from crownp2p.net import seating as table_module

    real_make = table_module.make
    lied: list[int] = []

    def lying_make(kind: str, **fields):
        if kind == "table" and not lied:  # the first joiner's table
            lied.append(fields["seat"])
            other = next(s for s in range(4) if s not in (fields["seat"], fields["host"]))
            fields["statics"] = list(fields["statics"])
            fields["statics"][other] = crypto.static_public(crypto.new_static())
        return real_make(kind, **fields)

    monkeypatch.setattr(table_module, "make", lying_make)
    # and one that found a seating draw its lie follows from: the links alone must catch it
    monkeypatch.setattr(table_module.draw, "seats_fault", lambda *args: None)
    table = Table(rules4, timeouts=replace(FAST, start=2))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            table.ready = await nursery.start(table.host)
            for order in range(1, 4):
                nursery.start_soon(table.join, order, table.ready.port)
    assert {seat: o.result for seat, o in table.outcomes.items()} == dict.fromkeys(
        range(4), "aborted"
    )
    assert all(session.ls.applied == 0 for session in table.sessions.values())
    assert "could not prove it is seat" in caplog.text  # the links were refused for their keys
