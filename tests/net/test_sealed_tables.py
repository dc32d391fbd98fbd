"""Sealed decks at a table: Lockstep peers with their SealedCards (docs/sealed-decks.md), on
an in-memory table whose every message goes through the real codec and schema. Whole games
end with one hash and a clean audit; a cheat on the wire ends as the cheat of the seat that
did it; a seat that keeps its secret from the audit is named."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from typing import Any

import pytest
import trio
from harness import MemoryTable
from tables import Table

from crownp2p.core.record import Record, verify
from crownp2p.core.rules import Rules
from crownp2p.core.setup import NAMED_SUPPLIES, Setup
from crownp2p.net.events import Audited, Ended
from crownp2p.net.journal import load as load_session
from crownp2p.net.proof import unproven_round
from crownp2p.net.sealed_resume import rebuild
from crownp2p.net.sealed_round import BadOpening
from crownp2p.net.session import TableInfo
from crownp2p.packs import load
from crownp2p.shell.cli import main
from crownp2p.shell.replay import Replay

SETUP = Setup(piles=NAMED_SUPPLIES["tournament-4"], sealed=True)
CLEAN = "the audit is clean: every shuffle and card checks out"


def finish(table: MemoryTable) -> list[list[Any]]:
    """Run the table to its end and through the audit; each peer's audit and end events."""
    table.connect()
    return finish_started(table)


def finish_started(table: MemoryTable) -> list[list[Any]]:
    for _ in range(30):
        table.pump()
        if all(p.outcome is not None and p.audited for p in table.peers):
            break
        table.tick(5)
    return [[e for e in p.take_events() if isinstance(e, (Audited, Ended))] for p in table.peers]


def steps(peer: Any) -> list[tuple[Any, ...]]:
    return [(s.seq, s.seat, s.decision, s.hash) for s in peer.record.steps]


def test_a_sealed_two_seat_game_ends_with_one_hash_and_a_clean_audit(rules2: Rules) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=60)
    events = finish(table)
    first = table.peers[0]
    assert first.applied > 100 and len(first.sealed.shuffles) > 5  # type: ignore[union-attr]
    for peer, seen in zip(table.peers, events, strict=True):
        assert peer.outcome is not None and peer.outcome.result != "cheat"
        assert steps(peer) == steps(first)  # the same steps, the same hashes
        assert seen[-1] == Audited(None, CLEAN)
    # What travelled: the shuffles' passes and the keys, never a card's name.
    kinds = {m["t"] for _, _, m in table.log}
    assert {"seal", "pass", "keys", "open", "audit"} <= kinds and "commit" not in kinds


def test_a_sealed_four_seat_team_game_ends_with_a_clean_audit() -> None:
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    rules = catalog.rules("team")
    table = MemoryTable(rules, replace(setup, sealed=True), ["random"] * 4, seed=3, max_turns=40)
    events = finish(table)
    hashes = {p.hash_at(p.applied) for p in table.peers}
    assert len(hashes) == 1 and table.peers[0].applied > 100
    assert all(seen[-1].culprit is None for seen in events)  # type: ignore[union-attr]


def signed_wrong_key(table: MemoryTable, sender: int, receiver: int, msg: dict[str, Any]) -> Any:
    """``sender``'s `keys` message with its first key wrong, signed by the sender: a cheat's
    own program sends it so."""
    signer = table.peers[sender].sealed.signer  # type: ignore[union-attr]
    [card, key], *rest = msg["keys"]
    keys = [[card, bytes([key[0] ^ 1]) + key[1:]], *rest]
    return {**msg, "keys": keys, "sig": signer.sign(receiver, 0, keys)}


def wrong_key_once(table: MemoryTable, sender: int, receiver: int) -> list[int]:
    """Have ``sender`` send ``receiver`` one wrong key; how many it sent."""
    changed = [0]

    def tamper(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if (src, dst) == (sender, receiver) and msg["t"] == "keys" and not changed[0]:
            changed[0] += 1
            return [signed_wrong_key(table, src, dst, msg)]
        return [msg]

    table.tamper = tamper
    return changed


def test_a_wrong_key_on_the_wire_ends_the_game_as_the_cheat_of_its_sender(rules2: Rules) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=60)
    changed = wrong_key_once(table, 1, 0)
    finish(table)
    assert changed[0] == 1
    for peer in table.peers:
        assert peer.outcome is not None and peer.outcome.result == "cheat"
        assert peer.outcome.culprit == 1 and "released a wrong key" in peer.outcome.reason


def test_a_wrong_key_to_one_seat_is_named_at_every_seat_at_once() -> None:
    """Four seats: seat 1 gives seat 0 a wrong key, signed. Seat 0 finds that the keys open to
    no card and shows every seat the signed releases that brought them (``proof``), then says
    so (``end``, code ``bad-opening``) before its secret. Every seat stops and reveals at once,
    with no window waited out, and every seat's audit names seat 1: the key it signed is not
    the one its seed gives."""
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    table = MemoryTable(catalog.rules("team"), replace(setup, sealed=True), ["random"] * 4)
    changed = wrong_key_once(table, 1, 0)
    table.connect()
    table.pump()
    assert changed[0] == 1 and table.now == 0  # (no time has passed: no window ran out)
    sent = [m["t"] for src, dst, m in table.log if src == 0 and dst == 2][-3:]
    assert sent == ["proof", "end", "audit"]
    for peer in table.peers:
        assert peer.outcome is not None and peer.outcome.result == "cheat", peer.me
        assert peer.outcome.culprit == 1 and "released a wrong key" in peer.outcome.reason


def test_a_bad_opening_end_lost_with_its_link_is_sent_again_when_the_link_is_back(
    rules2: Rules,
) -> None:
    """The seat whose link was down when the finder's proof and end went out hears them on
    the sync, as a resignation is heard: it ends at once, not after a window holding the
    finder's secret."""
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=60)
    changed, lost = [0], [0]

    def wrong_key_and_lost_end(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if src == 1 and msg["t"] == "keys" and not changed[0]:
            changed[0] += 1
            return [signed_wrong_key(table, src, dst, msg)]
        if src == 0 and msg["t"] in ("proof", "end"):
            lost[0] += 1  # (the link went down as they left)
            return []
        return [msg]

    table.tamper = wrong_key_and_lost_end
    table.connect()
    table.pump()
    finder, other = table.peers
    assert changed[0] == 1 and lost[0] == 2 and finder.outcome is not None
    assert other.outcome is None
    table.tamper = None
    for a, b in ((0, 1), (1, 0)):
        table.peers[a].on_link_down(b, table.now)
        table.peers[a].on_link_up(b, table.now)
    table.pump()
    assert table.now == 0  # (at once: no window ran out)
    for peer in table.peers:
        assert peer.outcome is not None and peer.outcome.result == "cheat"
        assert peer.outcome.culprit == 1


def test_a_seat_that_stops_the_game_for_keys_that_are_right_is_named() -> None:
    """Four seats: seat 0 shows every seat the signed releases of a card it drew, whose keys
    are right, and says they open to no card. Every other seat stops for the audit, which
    finds every key right and names seat 0. Without a proof nothing can be checked: the game
    ends with no result (at two seats it is the sender's forfeit: the next test)."""
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    for with_proof in (True, False):
        table = MemoryTable(catalog.rules("team"), replace(setup, sealed=True), ["random"] * 4)
        table.bot_seats = {1, 2, 3}  # (seat 0 is a person: the game waits for it, hand dealt)
        table.connect()
        table.pump()
        liar = table.peers[0]
        assert liar.sealed is not None and liar.my_turn
        card = next(c for c in liar.game.players[0].hand if c in liar.sealed.releases)
        slot = liar.sealed.slots[card]
        said = str(BadOpening(slot.shuffle, slot.position))
        for seat in (1, 2, 3):
            if with_proof:
                proof = liar.sealed.proof(BadOpening(slot.shuffle, slot.position))
                assert proof is not None
                table.inject(0, seat, {"t": "proof", **proof})
            table.inject(0, seat, {"t": "end", "seat": 0, "code": "bad-opening", "text": said})
        others = table.peers[1:]
        for peer in others:
            assert peer.outcome is not None
            assert peer.outcome.result == "aborted" and peer.outcome.culprit is None
            if not with_proof:
                assert "no other seat can check" in peer.outcome.reason
        if with_proof:
            liar.abort("it stopped")
            finish_started(table)
            for peer in others:
                assert peer.outcome is not None and peer.outcome.result == "cheat"
                assert peer.outcome.culprit == 0 and "every key is right" in peer.outcome.reason


def test_at_two_seats_a_claim_of_bad_keys_with_no_proof_is_its_sender_s_forfeit(
    rules2: Rules,
) -> None:
    """The only other seat sent every key, signed and right: no seat escapes a game it is
    losing by saying keys opened to no card."""
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=30)
    said = "the keys for position 0 of shuffle 1 open to no card of the deck"

    def false_claim(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if src == 1 and table.peers[0].applied > 60 and table.peers[0].outcome is None:
            return [msg, {"t": "end", "seat": 1, "code": "bad-opening", "text": said}]
        return [msg]

    table.tamper = false_claim
    finish(table)
    honest = table.peers[0]
    assert honest.audited and honest.record.audit is not None  # (clean: it names no one)
    assert honest.outcome is not None and honest.outcome.result == "forfeit"
    assert honest.outcome.culprit == 1 and "showed no signed keys" in honest.outcome.reason


def test_keys_their_sender_did_not_sign_stop_every_seat_at_once() -> None:
    """Four seats: seat 1 sends seat 0 keys with a broken signature. Seat 0 names seat 1 (it
    came on seat 1's own link) and stops every seat at once; the others, who cannot see what
    seat 0 was sent, end with no result, not seat 0's forfeit."""
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    table = MemoryTable(catalog.rules("team"), replace(setup, sealed=True), ["random"] * 4)
    broken = [0]

    def unsigned(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if (src, dst) == (1, 0) and msg["t"] == "keys" and not broken[0]:
            broken[0] += 1
            return [{**msg, "sig": bytes([msg["sig"][0] ^ 1]) + msg["sig"][1:]}]
        return [msg]

    table.tamper = unsigned
    table.connect()
    table.pump()
    assert broken[0] == 1 and table.now == 0
    finder, *others = table.peers
    assert finder.outcome is not None and finder.outcome.result == "forfeit"
    assert finder.outcome.culprit == 1 and "did not sign" in finder.outcome.reason
    for peer in others:
        assert peer.outcome is not None and peer.outcome.result == "aborted", peer.me
        assert peer.outcome.culprit is None


def test_a_proof_with_a_release_its_seat_did_not_sign_is_its_finder_s_cheat(
    rules2: Rules,
) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=30)
    table.bot_seats = {1}  # (seat 0 is a person: the game waits for it, hand dealt)
    table.connect()
    table.pump()
    finder, other = table.peers
    assert finder.sealed is not None and finder.my_turn
    card = next(c for c in finder.game.players[0].hand if c in finder.sealed.releases)
    slot = finder.sealed.slots[card]
    proof = finder.sealed.proof(BadOpening(slot.shuffle, slot.position))
    assert proof is not None
    sender, receiver, step, keys, sig = proof["releases"][0]
    forged = [sender, receiver, step, keys, bytes([sig[0] ^ 1]) + sig[1:]]
    table.inject(0, 1, {"t": "proof", "card": card, "releases": [forged]})
    assert other.outcome is not None and other.outcome.result == "forfeit"
    assert other.outcome.culprit == 0 and "not signed to it" in other.outcome.reason


def test_a_seat_that_keeps_its_secret_from_the_audit_is_named(rules2: Rules) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=20)

    def no_audit(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        return [] if src == 1 and msg["t"] == "audit" else [msg]

    table.tamper = no_audit
    finish(table)
    honest = table.peers[0]
    assert honest.outcome is not None and honest.outcome.result == "cheat"
    assert honest.outcome.culprit == 1
    assert "did not reveal its game secret" in honest.outcome.reason


def test_an_open_table_sends_no_sealed_message(rules2: Rules) -> None:
    table = MemoryTable(rules2, replace(SETUP, sealed=False), ["greedy", "greedy"], max_turns=10)
    finish(table)
    kinds = {m["t"] for _, _, m in table.log}
    assert "commit" in kinds and not kinds & {"seal", "pass", "keys", "open", "audit"}


def test_a_sealed_record_replays_as_its_seat_saw_the_game(rules2: Rules) -> None:
    """Each seat's record holds what its engine learnt, step by step: it replays to the same
    hashes, and its replay knows, at every step, exactly the cards that seat knew."""
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=2, max_turns=40)
    knew: list[list[frozenset[int]]] = [[], []]
    for peer in table.peers:
        observe = peer.observe

        def watch(game: Any, played: Any, peer: Any = peer, observe: Any = observe) -> None:
            knew[peer.me].append(known(peer.game))  # (what the step's news teaches comes next)
            observe(game, played)

        peer.observe = watch  # type: ignore[method-assign]
    finish(table)
    for peer in table.peers:
        record = Record.read(io.StringIO(as_text(peer.record)))
        assert any(step.seen for step in record.steps)
        assert any(step.opened for step in record.steps)
        replayed = [known(game) for game, step in record.replay(rules2) if step is not None]
        assert replayed == knew[peer.me]
        assert verify(rules2, record).ok


def known(game: Any) -> frozenset[int]:
    """The cards of decks and hands this engine knows."""
    return frozenset(c for p in game.players for c in p.deck + p.hand if c not in game.unknown)


def as_text(record: Record) -> str:
    out = io.StringIO()
    record.write(out)
    return out.getvalue()


async def test_two_peers_play_a_sealed_game_over_loopback(
    rules2: Rules, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real sockets, sealed links, the seating draw and a sealed setup: the game ends with one
    hash and a clean audit, each record replays as its seat saw the game and keeps the audit
    (`crownp2p verify` replays the whole game with every card known, and names a forged
    secret), and a sealed game is not resumed."""
    with trio.fail_after(60):
        table = Table(rules2, bot="greedy", seed=2, setup=SETUP, max_turns=40)
        table.records = {0: tmp_path / "host.jsonl", 1: tmp_path / "join.jsonl"}
        await table.play()
    outcomes = list(table.outcomes.values())
    assert len({o.final_hash for o in outcomes}) == 1 and len(outcomes) == 2
    assert {o.result for o in outcomes} <= {"win", "loss", "draw", "aborted"}
    for path in table.records.values():
        record = Record.load(path)
        assert record.setup is not None and record.setup.sealed
        assert verify(rules2, record).ok and unproven_round(record, [0, 1]) is None
        assert any(step.seen for step in record.steps)
        assert record.audit is not None and sorted(record.audit) == [0, 1]
        assert main(["verify", str(path)]) == 0
        assert "Its audit holds" in capsys.readouterr().out
        # `crownp2p replay` walks it as its seat saw the game: its own hand, no other; after
        # the audit, every hand, and each card as the other seat's own record saw it.
        audit, record.audit = record.audit, None
        for hands in (1, 2):
            replay = Replay(rules2, record, seat=record.meta["seat"], unicode=False)
            for stop in replay.stops:
                replay.go(stop)
                text = "".join(t for _, t in replay.screen())
                assert text.count("Hand:") == hands
            record.audit = audit
        other = Record.load(next(p for p in table.records.values() if p != path))
        assert other.meta["seat"] != record.meta["seat"]
        theirs = {card: name for step in other.steps for card, name in step.seen}
        assert theirs and all(replay.final.cards[c] == name for c, name in theirs.items())
    # A secret forged in the audit line does not name the cards the seats' records saw.
    path = table.records[0]
    *steps, audit = path.read_text().splitlines()
    secret = json.loads(audit)["audit"]["secrets"]["1"]
    forged = audit.replace(secret, bytes(32).hex())
    path.write_text("".join(f"{line}\n" for line in [*steps, forged]))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("the audit: step ")
    # Had the joiner stopped at the end, its files would take the game up again: its secret
    # and the sealed messages it received rebuild its engine to the record's last hash.
    record, session = load_session(table.records[1])
    info = TableInfo.from_json(session.table)
    assert session.secret is not None and session.signing is not None and session.sealed_in
    game, _, sent, steps = rebuild(
        rules2,
        record,
        seat=info.seat,
        game_id=info.game_id,
        secret=session.secret,
        signing_seed=session.signing,
        inbound=session.sealed_in,
    )
    assert steps == len(record.steps) and game.table_hash() == record.steps[-1].hash and sent


def test_a_sealed_game_survives_dropped_links(rules2: Rules) -> None:
    """The link drops again and again, losing what was in flight (passes, keys, openings):
    each side sends its sealed messages again once the link is back, and the game still ends
    with one hash and a clean audit."""
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=1, max_turns=30)
    table.connect()
    drops = 0
    for _ in range(300):
        for _ in range(5):
            for seat in (0, 1):
                table.collect(seat)
            for (src, dst), queue in table.wire.items():
                if queue:
                    table.peers[dst].on_message(src, queue.popleft(), table.now)
        if all(p.outcome is not None for p in table.peers):
            break
        for a, b in ((0, 1), (1, 0)):
            table.peers[a].on_link_down(b, table.now)
        table.wire[(0, 1)].clear()
        table.wire[(1, 0)].clear()
        drops += 1
        for a, b in ((0, 1), (1, 0)):
            table.peers[a].on_link_up(b, table.now)
    events = finish_started(table)
    assert drops > 20
    assert len({p.hash_at(p.applied) for p in table.peers}) == 1
    assert all(seen[-1] == Audited(None, CLEAN) for seen in events)


def test_a_seat_that_withholds_its_pass_forfeits_once_the_window_passes(rules2: Rules) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=30)
    held = [0]

    def hold_passes(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        if src == 1 and msg["t"] == "pass" and table.peers[0].applied > 50:
            held[0] += 1
            return []
        return [msg]

    table.tamper = hold_passes
    table.connect()
    table.pump()
    honest = table.peers[0]
    assert held[0] and honest.outcome is None  # waiting, within its window
    table.tick(table.peers[0].reveal_timeout + 1)
    assert honest.outcome is not None and honest.outcome.result == "forfeit"
    assert honest.outcome.culprit == 1 and "sealed shuffle" in honest.outcome.reason


def test_crownp2p_state_prints_what_the_records_seat_knew(
    rules2: Rules, tmp_path: Any, capsys: Any
) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=2, max_turns=10)
    finish(table)
    peer = table.peers[1]
    path = tmp_path / "seat1.jsonl"
    peer.record.meta["seat"] = 1
    peer.record.save(path)
    games = [(i, g.clone()) for i, (g, _) in enumerate(peer.record.replay(rules2))]
    step, replayed = next(
        (i, g) for i, g in games[len(games) // 2 :] if set(g.players[0].hand) & g.unknown
    )
    assert main(["state", str(path), "--step", str(step), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    mine, theirs = state["players"][1], state["players"][0]
    # Its own hand by name; the other hand's cards it never saw, and every deck card it does
    # not know, as null; the public piles as they are.
    assert mine["hand"] and None not in mine["hand"]
    assert None in theirs["hand"] and None in theirs["deck"] + mine["deck"]
    for player, zones in zip(replayed.players, state["players"], strict=True):
        for zone in ("deck", "hand"):
            hidden = [c in replayed.unknown for c in getattr(player, zone)]
            assert [name is None for name in zones[zone]] == hidden
        assert None not in zones["discard"] + zones["in_play"]
    assert main(["state", str(path), "--step", "100000"]) == 2


def test_a_secret_that_outruns_the_end_of_the_game_is_no_forfeit() -> None:
    """Four seats: seat 0 resigns; seat 2 hears it first, ends its game and sends its secret,
    which reaches seat 1 before seat 0's word does (another link, faster). Seat 1 keeps the
    secret and ends its game on seat 0's word: seat 0's forfeit, as at every other seat."""
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    table = MemoryTable(catalog.rules("team"), replace(setup, sealed=True), ["random"] * 4)
    table.bot_seats = {1, 2, 3}  # (seat 0 is a person: the game waits for it)
    table.connect()
    resigner, first, late = table.peers[0], table.peers[2], table.peers[1]
    assert resigner.outcome is None and late.outcome is None
    resigner.resign("left the table")
    table.collect(0)
    for message in list(table.wire[(0, 2)]):
        first.on_message(0, message, table.now)
    table.wire[(0, 2)].clear()
    table.collect(2)
    secret = next(m for m in table.wire[(2, 1)] if m["t"] == "audit")
    late.on_message(2, secret, table.now)
    assert late.outcome is None  # (held: its game has not ended yet)
    table.pump()
    table.tick(1)
    assert all(p.outcome is not None and p.outcome.culprit == 0 for p in table.peers)


def test_a_secret_sent_while_the_game_is_on_is_its_seats_forfeit(rules2: Rules) -> None:
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=30)
    table.bot_seats = {0}  # (seat 1 is a person: the game waits for it)
    table.connect()
    assert table.peers[0].outcome is None
    table.inject(1, 0, {"t": "audit", "secret": table.peers[1].sealed.secret})  # type: ignore[union-attr]
    assert table.peers[0].outcome is None
    table.tick(5)
    assert table.peers[0].outcome is None  # (its game may end an instant later)
    table.tick(10)
    outcome = table.peers[0].outcome
    assert outcome is not None and outcome.result == "forfeit" and outcome.culprit == 1
    assert "stopped the game for an audit" in outcome.reason
