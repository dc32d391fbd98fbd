"""A sealed shuffle at a table (crownp2p.net.sealed_round): every seat runs its own
SealedShuffle, they exchange only what each hands back, and all end with the same sealed deck,
which opens position by position and passes the audit; a pass out of turn, out of stage, before
the commitments, for no stage, or in a name not another seat's is refused by name."""

from __future__ import annotations

import hashlib

import pytest
from nacl import bindings as sodium

from crownp2p.net.sealed_deck import (
    KEYED,
    REKEY,
    SHUFFLE,
    DeckCheat,
    audit,
    card_point,
    card_table,
    open_card,
)
from crownp2p.net.sealed_round import BadOpening, SealedShuffle

GAME = bytes(16)
CARDS = list(range(10))


def seed(seat: int, number: int) -> bytes:
    return hashlib.sha256(f"round test {seat} {number}".encode()).digest()


def table_of(seats, number=1):
    start = [card_point(GAME, i) for i in CARDS]
    return {me: SealedShuffle(GAME, number, seats, me, start, seed(me, number)) for me in seats}


def run(peers):
    """Deliver every commitment, then every pass as its seat makes it, to every other seat."""
    for me, peer in peers.items():
        for other in peers.values():
            if other is not peer:
                other.on_commitment(me, peer.commitment())
    while True:
        nxt = next(iter(peers.values())).waiting_for
        if nxt is None:
            break
        stage, seat = nxt
        sent_stage, cards = peers[seat].my_pass()
        assert sent_stage == stage
        for me, peer in peers.items():
            if me != seat:
                peer.on_pass(seat, stage, cards)


def open_everything(peers, cards=CARDS):
    table = card_table(GAME, cards)
    final = next(iter(peers.values())).final
    return [
        open_card(point, [p.position_key(j) for p in peers.values()], table)
        for j, point in enumerate(final)
    ]


@pytest.mark.parametrize("seats", [[0, 1], [3, 1, 0, 2]])
def test_the_seats_end_with_one_sealed_deck_that_opens_to_every_card(seats):
    peers = table_of(seats)
    run(peers)
    finals = {b"".join(p.final) for p in peers.values()}
    assert len(finals) == 1
    assert sorted(open_everything(peers)) == CARDS
    for peer in peers.values():  # each seat's own log passes the audit
        audit([peer.log], {(1, s): seed(s, 1) for s in seats})


def test_a_pass_before_every_commitment_is_held_until_they_are_in():
    """At more than two seats a pass may outrun a commitment on another link: it waits."""
    peers = table_of([0, 1, 2])
    for me, peer in peers.items():  # seat 2 has not yet heard seat 1's commitment
        for other in peers.values():
            if other is not peer and (me, other.me) != (1, 2):
                other.on_commitment(me, peer.commitment())
    stage, cards = peers[0].my_pass()
    late = peers[2]
    late.on_pass(0, stage, cards)
    assert late.waiting_for is None and late.log.passes == []
    late.on_commitment(1, peers[1].commitment())
    assert late.log.passes == [cards] and late.waiting_for == (SHUFFLE, 1)


def test_a_pass_out_of_turn_is_held_and_a_false_one_refused():
    peers = table_of([0, 1, 2])
    for me, peer in peers.items():
        for other in peers.values():
            if other is not peer:
                other.on_commitment(me, peer.commitment())
    start = [card_point(GAME, i) for i in CARDS]
    watcher = peers[2]
    with pytest.raises(DeckCheat, match="no keyed shuffle pass") as err:
        watcher.on_pass(1, KEYED, start)  # seat 2, the last, keys the shuffle
    assert err.value.seat == 1
    with pytest.raises(DeckCheat, match="not another seat"):
        watcher.on_pass(7, SHUFFLE, start)
    with pytest.raises(DeckCheat, match="not another seat"):
        watcher.on_pass(2, SHUFFLE, start)  # our own seat, sent by someone else
    with pytest.raises(DeckCheat, match="no stage we know") as err:
        watcher.on_pass(0, "x" * 10_000, start)
    assert len(str(err.value)) < 100
    # Seat 1's shuffle pass comes before seat 0's (whose link to us is slower): it waits.
    stage0, cards0 = peers[0].my_pass()
    peers[1].on_pass(0, stage0, cards0)
    stage1, cards1 = peers[1].my_pass()
    watcher.on_pass(1, stage1, cards1)
    assert watcher.log.passes == [] and watcher.waiting_for == (SHUFFLE, 0)
    with pytest.raises(DeckCheat, match="second, other shuffle pass") as err:
        watcher.on_pass(1, stage1, cards1[::-1])  # another pass for a stage it has sent
    assert err.value.seat == 1
    watcher.on_pass(0, stage0, cards0)
    assert watcher.log.passes == [cards0, cards1] and watcher.waiting_for == (KEYED, 2)
    watcher.on_pass(0, stage0, cards0)  # the same again (its link came back): nothing changes
    assert len(watcher.log.passes) == 2
    with pytest.raises(DeckCheat, match="second, other shuffle pass"):
        watcher.on_pass(0, stage0, cards0[::-1])


def test_a_short_pass_is_refused_when_its_turn_comes():
    peers = table_of([0, 1])
    for me, peer in peers.items():
        peers[1 - me].on_commitment(me, peer.commitment())
    stage, cards = peers[0].my_pass()
    with pytest.raises(DeckCheat, match="returned 9 cards") as err:
        peers[1].on_pass(0, stage, cards[:-1])
    assert err.value.seat == 0


def test_a_second_commitment_or_one_from_outside_is_refused():
    peers = table_of([0, 1])
    peers[1].on_commitment(0, peers[0].commitment())
    peers[1].on_commitment(0, peers[0].commitment())  # the same again: a link came back
    with pytest.raises(DeckCheat, match="second commitment"):
        peers[1].on_commitment(0, bytes(32))
    with pytest.raises(DeckCheat, match="not another seat"):
        peers[1].on_commitment(5, bytes(32))
    with pytest.raises(DeckCheat, match="32 bytes"):
        table_of([0, 1])[1].on_commitment(0, b"short")


def test_keys_are_given_only_once_the_deck_is_sealed():
    peers = table_of([0, 1])
    with pytest.raises(RuntimeError):
        peers[0].position_key(0)
    run(peers)
    assert peers[0].position_key(3) == peers[0].mine.position_keys[3]


# ---------------------------------------------------------------------- openings


def sealed_table(seats):
    peers = table_of(seats)
    run(peers)
    return peers, card_table(GAME, CARDS)


@pytest.mark.parametrize("seats", [[0, 1], [2, 0, 3, 1]])
def test_a_position_opens_to_the_seat_given_every_other_seats_key(seats):
    peers, table = sealed_table(seats)
    truth = open_everything(peers)
    drawer = seats[-1]
    for position in (0, 5):
        assert peers[drawer].expect(position, table) is None  # no key yet
        others = [s for s in seats if s != drawer]
        for i, seat in enumerate(others):
            got = peers[drawer].on_key(seat, position, peers[seat].position_key(position), table)
            assert got == (truth[position] if i == len(others) - 1 else None)
        # a seat given no keys opens nothing
        bystander = peers[others[0]]
        assert bystander.expect(position, table) is None


def test_keys_may_come_before_our_game_asks_for_the_position():
    peers, table = sealed_table([0, 1, 2])
    truth = open_everything(peers)
    for seat in (0, 1):
        assert peers[2].on_key(seat, 3, peers[seat].position_key(3), table) is None
    assert peers[2].expect(3, table) == truth[3]


def test_a_wrong_key_stops_the_opening_and_the_audit_names_its_sender():
    seats = [0, 1, 2]
    peers, table = sealed_table(seats)
    drawer = peers[2]
    drawer.expect(4, table)
    drawer.on_key(0, 4, peers[0].position_key(4), table)
    with pytest.raises(BadOpening, match="position 4 of shuffle 1 open to no card"):
        drawer.on_key(1, 4, peers[1].position_key(5), table)  # seat 1 sends another position's
    with pytest.raises(DeckCheat, match="wrong key for position 4") as err:
        audit([drawer.log], {(1, s): seed(s, 1) for s in seats})
    assert err.value.seat == 1


def test_bad_keys_are_refused_by_name():
    peers = table_of([0, 1])
    table = card_table(GAME, CARDS)
    with pytest.raises(DeckCheat, match="no sealed position") as err:
        peers[1].on_key(0, 0, bytes(32), table)  # before the deck is sealed
    assert err.value.seat == 0
    run(peers)
    key = peers[0].position_key(2)
    with pytest.raises(DeckCheat, match="no sealed position"):
        peers[1].on_key(0, len(CARDS), key, table)
    with pytest.raises(DeckCheat, match="is no key"):
        peers[1].on_key(0, 2, key[:31], table)
    with pytest.raises(DeckCheat, match="not another seat"):
        peers[1].on_key(4, 2, key, table)
    peers[1].on_key(0, 2, key, table)
    peers[1].on_key(0, 2, key, table)  # the same key again (seen by one seat, then by all)
    with pytest.raises(DeckCheat, match="another key for position 2"):
        peers[1].on_key(0, 2, peers[0].position_key(3), table)


# ---------------------------------------------------------------------- points outside the group

TORSION = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
NOT_IN_THE_GROUP = {
    "the identity": (1).to_bytes(32, "little"),
    "a point of order 4": bytes(32),
    "no point at all": b"\xff" * 32,
    "a point of mixed order": None,  # (a card of the pass plus a point of order 8)
}


def spoil(cards, what):
    bad = NOT_IN_THE_GROUP[what] or sodium.crypto_core_ed25519_add(cards[3], TORSION)
    return [*cards[:3], bad, *cards[4:]]


@pytest.mark.parametrize("what", NOT_IN_THE_GROUP)
def test_a_point_outside_the_group_is_refused_by_the_pass_that_would_lock_it(what):
    """Seat 0's shuffle pass carries a point outside the prime-order group: seat 1 takes the
    pass (only its length and distinct cards are checked as it arrives), and its own pass,
    which would multiply the point by its keys, refuses it and names seat 0."""
    peers = table_of([0, 1])
    for me, peer in peers.items():
        peers[1 - me].on_commitment(me, peer.commitment())
    stage, cards = peers[0].my_pass()
    peers[1].on_pass(0, stage, spoil(cards, what))
    with pytest.raises(DeckCheat, match="shuffle pass of shuffle 1 holds a point outside") as err:
        peers[1].my_pass()
    assert err.value.seat == 0


@pytest.mark.parametrize("what", NOT_IN_THE_GROUP)
def test_a_point_outside_the_group_in_the_sealed_deck_is_refused_when_its_position_opens(what):
    """The last pass (seat 0's re-key, at two seats) is never multiplied by a pass: a point
    outside the group in it is refused when its position is opened, naming seat 0; the
    positions around it open as usual."""
    peers = table_of([0, 1])
    for me, peer in peers.items():
        peers[1 - me].on_commitment(me, peer.commitment())
    for seat in (0, 1):
        stage, cards = peers[seat].my_pass()
        peers[1 - seat].on_pass(seat, stage, cards)
    stage, cards = peers[0].my_pass()
    assert (stage, peers[1].waiting_for) == (REKEY, (REKEY, 0))
    peers[1].on_pass(0, stage, spoil(cards, what))
    table = card_table(GAME, CARDS)
    peers[1].expect(2, table)
    assert peers[1].on_key(0, 2, peers[0].position_key(2), table) is not None
    peers[1].expect(3, table)
    with pytest.raises(DeckCheat, match="re-key pass of shuffle 1 holds a point outside") as err:
        peers[1].on_key(0, 3, peers[0].position_key(3), table)
    assert err.value.seat == 0
    with pytest.raises(DeckCheat, match="re-key pass of shuffle 1 does not follow") as err:
        audit([peers[1].log], {(1, s): seed(s, 1) for s in (0, 1)})
    assert err.value.seat == 0
