"""The sealed deck's cryptography (crownp2p.net.sealed_deck): shuffles that every seat takes part
in and no seat can read, openings one position at a time, and an audit that names each cheat."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from nacl import bindings as sodium
from sealed_vectors import render

from crownp2p.net.sealed_deck import (
    KEYED,
    REKEY,
    SHUFFLE,
    DeckCheat,
    ShuffleLog,
    ShuffleSecrets,
    audit,
    card_point,
    card_table,
    check_pass,
    commitment,
    deck_order,
    honest_passes,
    open_card,
    pass_order,
    run_pass,
)

GAME = bytes(range(16))
DECK = list(range(100, 112))  # twelve card instances


def seed_of(seat: int, shuffle: int = 1) -> bytes:
    return hashlib.sha256(f"test seed {seat} {shuffle}".encode()).digest()


def run_shuffle(seats, number, start):
    """An honest shuffle of the points ``start`` by ``seats``: its log and each seat's secrets."""
    seeds = {s: seed_of(s, number) for s in seats}
    mine = {s: ShuffleSecrets.derive(GAME, number, s, seeds[s], len(start)) for s in seats}
    log = ShuffleLog(
        GAME,
        number,
        seats=list(seats),
        commitments={s: commitment(GAME, number, s, seeds[s]) for s in seats},
        start=start,
    )
    for _, s, deck in honest_passes(start, seats, mine):
        log.passes.append(check_pass(s, log.passes[-1] if log.passes else start, deck))
    return log, mine


def play_shuffle(seats: list[int], deck: list[int] = DECK, number: int = 1):
    """An honest shuffle of ``deck`` by ``seats``: its log, each seat's secrets and seeds."""
    log, mine = run_shuffle(seats, number, [card_point(GAME, i) for i in deck])
    return log, mine, {s: seed_of(s, number) for s in seats}


def by_shuffle(seeds, number=1):
    return {(number, s): seed for s, seed in seeds.items()}


def open_all(log: ShuffleLog, mine: dict[int, ShuffleSecrets], deck: list[int] = DECK):
    table = card_table(GAME, deck)
    final = log.final
    return [
        open_card(point, [mine[s].position_keys[j] for s in log.seats], table)
        for j, point in enumerate(final)
    ]


@pytest.mark.parametrize("seats", [[0, 1], [2, 0, 3, 1], [1, 0]])
def test_the_seeds_alone_give_the_order_that_every_opening_finds(seats):
    """What a record's audit does with the seeds (the orders composed, no group arithmetic)
    names every position as lifting every lock from it does."""
    log, mine, seeds = play_shuffle(seats)
    order = deck_order(GAME, 1, seats, seeds, len(DECK))
    assert [DECK[i] for i in order] == open_all(log, mine)
    assert order != sorted(order)


@pytest.mark.parametrize("seats", [[0, 1], [2, 0, 3, 1]])
def test_every_position_opens_to_the_card_the_seats_orders_put_there(seats):
    log, mine, _ = play_shuffle(seats)
    expected = list(DECK)
    for s in seats:
        expected = [expected[i] for i in mine[s].order]
    opened = open_all(log, mine)
    assert opened == expected
    assert sorted(opened) == DECK
    audit([log], by_shuffle({s: seed_of(s) for s in seats}))  # an honest shuffle passes its audit


@pytest.mark.parametrize("seats", [[0, 1], [0, 1, 2, 3]])
def test_no_seat_short_of_one_key_opens_a_position(seats):
    log, mine, _ = play_shuffle(seats)
    table = card_table(GAME, DECK)
    for j, point in enumerate(log.final):
        for missing in seats:
            keys = [mine[s].position_keys[j] for s in seats if s != missing]
            assert open_card(point, keys, table) is None
        # nor does any other position's full set of keys
        other = (j + 1) % len(DECK)
        assert open_card(point, [mine[s].position_keys[other] for s in seats], table) is None


def test_no_list_sent_can_be_lined_up_with_another_or_with_the_cards():
    """Every pass locks every card anew: no point appears in two lists sent, and none is a
    card's own point, so no one can follow a card through a pass by comparing bytes."""
    log, _, _ = play_shuffle([0, 1, 2])
    lists = [log.start, *log.passes]
    seen: set[bytes] = set()
    for points in lists:
        assert not seen & set(points)
        seen |= set(points)


def test_secrets_follow_from_the_seed_alone_and_differ_by_seat_shuffle_and_game():
    a = ShuffleSecrets.derive(GAME, 1, 0, seed_of(0), 40)
    assert a == ShuffleSecrets.derive(GAME, 1, 0, seed_of(0), 40)
    assert sorted(a.order) == list(range(40))
    assert len(set(a.position_keys)) == 40 and a.pass_key not in a.position_keys
    others = [
        ShuffleSecrets.derive(GAME, 1, 1, seed_of(0), 40),
        ShuffleSecrets.derive(GAME, 2, 0, seed_of(0), 40),
        ShuffleSecrets.derive(bytes(16), 1, 0, seed_of(0), 40),
    ]
    for other in others:
        assert other.pass_key != a.pass_key and other.order != a.order


def test_a_wrong_key_opens_to_no_card():
    log, mine, _ = play_shuffle([0, 1])
    table = card_table(GAME, DECK)
    point = log.final[3]
    right = [mine[0].position_keys[3], mine[1].position_keys[3]]
    assert open_card(point, right, table) is not None
    flipped = bytes([right[1][0] ^ 1]) + right[1][1:]
    for keys in ([right[0], flipped], [right[0], bytes(32)], [right[0], b"short"], [right[0]]):
        assert open_card(point, keys, table) is None


def test_a_pass_that_returns_too_few_or_too_many_cards_is_refused_at_once():
    log, _, _ = play_shuffle([0, 1])
    before = log.passes[0]
    with pytest.raises(DeckCheat, match="returned 11 cards for 12") as err:
        check_pass(1, before, log.passes[1][:-1])
    assert err.value.seat == 1
    with pytest.raises(DeckCheat, match="returned 13 cards"):
        check_pass(1, before, [*log.passes[1], log.passes[1][0]])


def test_a_pass_that_duplicates_a_card_is_refused_at_once():
    log, _, _ = play_shuffle([0, 1])
    cheat = list(log.passes[1])
    cheat[5] = cheat[4]  # a card dropped for a second copy of another
    with pytest.raises(DeckCheat, match="the same card twice") as err:
        check_pass(1, log.passes[0], cheat)
    assert err.value.seat == 1


@pytest.mark.parametrize("bad", [b"\x01" * 31, "a string"])
def test_a_pass_holding_anything_but_32_byte_strings_is_refused_at_once(bad):
    """(Points outside the group are refused by the first multiplication that uses them:
    tests/net/test_sealed_round.py.)"""
    log, _, _ = play_shuffle([0, 1])
    cheat = list(log.passes[1])
    cheat[0] = bad
    with pytest.raises(DeckCheat) as err:
        check_pass(1, log.passes[0], cheat)
    assert err.value.seat == 1


# ---------------------------------------------------------------------- the audit names cheats


def test_a_card_swapped_in_passes_the_checks_on_arrival_but_not_the_audit():
    """Seat 1, the last to shuffle, replaces a card by another it locks itself (a card from
    outside this deck): the list still holds twelve distinct subgroup points, but the position
    opens to no card of the deck, and the audit names seat 1's keyed shuffle pass."""
    seats = [0, 1]
    log, mine, seeds = play_shuffle(seats)
    forged = list(log.passes[1])
    outsider = card_point(GAME, 999)
    forged[7] = sodium.crypto_scalarmult_ed25519_noclamp(mine[1].position_keys[7], outsider)
    check_pass(1, log.passes[0], forged)  # nothing shows yet
    log.passes[1:] = [forged, run_pass(REKEY, forged, mine[0])]
    assert open_all(log, mine).count(None) == 1
    with pytest.raises(DeckCheat, match="keyed shuffle pass of shuffle 1 does not follow") as err:
        audit([log], by_shuffle(seeds))
    assert err.value.seat == 1


def test_a_pass_in_an_order_other_than_the_committed_seeds_is_named():
    seats = [0, 1, 2]
    log, mine, seeds = play_shuffle(seats)
    other = ShuffleSecrets.derive(GAME, 1, 1, seed_of(9), len(DECK))  # seat 1 used another seed
    log.passes[1] = run_pass(SHUFFLE, log.passes[0], other)
    with pytest.raises(DeckCheat, match="its shuffle pass") as err:
        audit([log], by_shuffle(seeds))
    assert err.value.seat == 1


def test_a_re_key_pass_that_is_not_the_seeds_is_named():
    log, mine, seeds = play_shuffle([0, 1])
    assert pass_order([0, 1]) == [(SHUFFLE, 0), (KEYED, 1), (REKEY, 0)]
    log.passes[2] = list(reversed(log.passes[2]))
    with pytest.raises(DeckCheat, match="re-key pass") as err:
        audit([log], by_shuffle(seeds))
    assert err.value.seat == 0


def test_a_wrong_key_released_is_named_at_the_audit():
    log, mine, seeds = play_shuffle([0, 1])
    log.released = [(0, 2, mine[0].position_keys[2]), (1, 2, mine[1].position_keys[3])]
    with pytest.raises(DeckCheat, match="wrong key for position 2") as err:
        audit([log], by_shuffle(seeds))
    assert err.value.seat == 1
    log.released = [(0, 12, mine[0].position_keys[0])]
    with pytest.raises(DeckCheat, match="no position"):
        audit([log], by_shuffle(seeds))


def test_a_seed_withheld_or_other_than_committed_is_named():
    log, _, seeds = play_shuffle([0, 1])
    with pytest.raises(DeckCheat, match="did not reveal") as err:
        audit([log], by_shuffle({0: seeds[0]}))
    assert err.value.seat == 1
    with pytest.raises(DeckCheat, match="does not open its commitment") as err:
        audit([log], by_shuffle({0: seed_of(7), 1: seeds[1]}))
    assert err.value.seat == 0


def test_a_withheld_seed_of_an_earlier_shuffle_stops_the_audit_there():
    seats = [0, 1]
    first, _, _ = play_shuffle(seats)
    second, _, _ = play_shuffle(seats, number=2)
    seeds = {(n, s): seed_of(s, n) for n in (1, 2) for s in seats}
    audit([first, second], seeds)
    del seeds[(1, 0)]
    with pytest.raises(DeckCheat, match="did not reveal its seed for shuffle 1") as err:
        audit([first, second], seeds)
    assert err.value.seat == 0


def test_the_document_carries_the_sealed_vectors():
    doc = (Path(__file__).parents[2] / "docs" / "sealed-decks.md").read_text(encoding="utf-8")
    assert render() in doc
