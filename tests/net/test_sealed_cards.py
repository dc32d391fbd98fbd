"""Sealed games between peers (crownp2p/net/sealed_cards.py): each peer has its own engine
and its own keys, and every message goes through an in-memory bus (tests/net/sealed_bus.py).
Whole games end with every engine agreeing on what every seat knows at every step and with a
clean audit; no peer holds the keys to a card the rules kept from it; each cheat is caught
and named."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sealed_bus import Bus, openable, secret_of

from crownp2p.core.decisions import IllegalDecision
from crownp2p.core.setup import NAMED_SUPPLIES, Setup
from crownp2p.core.standard import standard_rules
from crownp2p.core.steps import TrashFromHand
from crownp2p.net.sealed_cards import MAX_AHEAD, MAX_EARLY
from crownp2p.net.sealed_deck import DeckCheat, card_point
from crownp2p.net.sealed_round import BadOpening
from crownp2p.packs import load

CATALOG = load()
RULES = standard_rules()
SETUP = Setup(piles=NAMED_SUPPLIES["tournament-4"], sealed=True)
LOOKING = (("play", "Astrology", "2"), ("play", "False Orders", "2"), ("play", "Wish", "1"))


def played(bus: Bus, max_steps: int | None = None) -> None:
    """The game is over at every peer (or ``max_steps`` are played), with the same steps and
    the same public hash after each; the audit is clean, and the replay that knows every card
    agrees."""
    bus.run(max_steps or 100_000)
    first = bus.peers[0]
    assert first.game.over or len(first.steps) == max_steps
    for peer in bus.peers:
        assert peer.steps == first.steps and peer.hashes == first.hashes
    secrets = bus.audit()
    for peer in bus.peers:
        assert secrets[peer.seat] == secrets[first.seat]
        truth = peer.cards.replay(peer.record, secrets[peer.seat])
        assert truth.public_hash() == peer.game.public_hash()
        # What each engine knows is true, and it never held keys the rules kept from it.
        for player in peer.game.players:
            for card in player.deck + player.hand:
                if card not in peer.game.unknown:
                    assert peer.game.cards[card] == truth.cards[card]
        assert openable(peer) <= peer.allowed


def test_a_two_seat_game_is_played_and_audited() -> None:
    bus = Bus(RULES, SETUP, 0)
    played(bus)
    assert len(bus.peers[0].cards.shuffles) > 20


def test_astrology_wish_and_false_orders_open_what_they_should() -> None:
    bus = Bus(RULES, SETUP, 2, prefer=LOOKING + (("buy", "Astrology"), ("buy", "Wish")))
    played(bus, max_steps=1200)
    steps = [d for _, d in bus.peers[0].steps]
    assert ("play", "Astrology", "2") in steps
    # Wish turns cards over one at a time, each opened to all as it goes.
    wishes = [i for i, d in enumerate(steps) if d[0] == "name"]
    assert wishes and any(steps[i + 1][0] == "open" for i in wishes)
    assert all(len(steps[i + 1]) == 2 for i in wishes if steps[i + 1][0] == "open")


def test_a_four_seat_team_game_is_played_and_audited() -> None:
    setup = CATALOG.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    bus = Bus(CATALOG.rules("team"), replace(setup, sealed=True), 1, bot="random")
    played(bus, max_steps=500)
    # Allies see each other's hands, and only those: seat 0's partner is seat 2.
    game = bus.peers[0].game
    ally, foe = game.players[2].hand, game.players[1].hand
    assert ally and not any(c in game.unknown for c in ally)
    assert any(c in game.unknown for c in foe)


# ---------------------------------------------------------------------- cheats


def cheat_on(bus: Bus, seat: int, kind: str, change: Any, times: int = 1) -> list[int]:
    """Have ``seat`` change its next ``times`` messages of ``kind``; how many it changed."""
    done = [0]

    def tamper(sender: int, to: int, item: Any) -> list[Any]:
        if sender == seat and isinstance(item, dict) and item["t"] == kind and done[0] < times:
            done[0] += 1
            return [change(item)]
        return [item]

    bus.tamper = tamper
    return done


def wrong_key(bus: Bus, receiver: int, item: dict[str, Any]) -> dict[str, Any]:
    """A `keys` message with its first key wrong, signed by its sender as its own."""
    [card, key], *rest = item["keys"]
    keys = [[card, bytes([key[0] ^ 1]) + key[1:]], *rest]
    return {**item, "keys": keys, "sig": bus.peers[1].cards.signer.sign(receiver, 0, keys)}


def once(bus: Bus, sender: int, kind: str, change: Any) -> list[int]:
    """Have ``sender`` change its next message of ``kind`` (``change(receiver, item)``)."""
    done = [0]

    def tamper(seat: int, to: int, item: Any) -> list[Any]:
        if seat == sender and isinstance(item, dict) and item["t"] == kind and not done[0]:
            done[0] += 1
            return [change(to, item)]
        return [item]

    bus.tamper = tamper
    return done


def test_a_wrong_key_opens_no_card_and_the_audit_names_who_sent_it() -> None:
    bus = Bus(RULES, SETUP, 0)
    once(bus, 1, "keys", lambda to, item: wrong_key(bus, to, item))
    with pytest.raises(BadOpening):
        bus.run()
    bus.tamper = None
    with pytest.raises(DeckCheat, match="released a wrong key") as err:
        bus.audit()
    assert err.value.seat == 1


def test_a_key_changed_after_its_signature_is_refused_at_once() -> None:
    """What a seat's signing key did not sign is refused as it arrives, naming the sender
    (whose link it came on): so no seat can show another's key changed."""
    bus = Bus(RULES, SETUP, 0)

    def changed(to: int, item: dict[str, Any]) -> dict[str, Any]:
        return {**wrong_key(bus, to, item), "sig": item["sig"]}

    once(bus, 1, "keys", changed)
    with pytest.raises(DeckCheat, match="its signing key did not sign") as err:
        bus.run()
    assert err.value.seat == 1


def test_a_pass_that_duplicates_a_card_is_refused_at_once() -> None:
    bus = Bus(RULES, SETUP, 0)

    def duplicate(item: dict[str, Any]) -> dict[str, Any]:
        cards = list(item["cards"])
        return {**item, "cards": [cards[0], *cards[:-1]]}

    cheat_on(bus, 1, "pass", duplicate)
    with pytest.raises(DeckCheat, match="same card twice") as err:
        bus.run()
    assert err.value.seat == 1


def test_a_pass_that_swaps_in_another_card_is_caught() -> None:
    bus = Bus(RULES, SETUP, 0)

    def swap_in(item: dict[str, Any]) -> dict[str, Any]:
        cards = list(item["cards"])
        cards[0] = card_point(b"another game....", 7)  # a valid point, not of this deck
        return {**item, "cards": cards}

    cheat_on(bus, 1, "pass", swap_in)
    with pytest.raises((BadOpening, DeckCheat)):
        bus.run(max_steps=400)
        bus.audit()


def test_a_false_claim_that_no_training_card_fits_is_caught_by_the_audit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat answers `done` to Refiner's "trash a training card" with one in its hand: the
    other seat cannot see it and plays on; the audit's replay names the seat and step."""
    refining = (("buy", "Refiner"), ("play", "Refiner", "1"))
    bus = Bus(RULES, Setup(sealed=True), 0, prefer=refining)  # (no Astrology to see the hand)
    liar = 0
    told = {"lied": 0}
    # The liar's engine (and its copies) offers `done` where it should not.
    bus.peers[liar].game.__dict__["lies"] = True
    options = TrashFromHand.options

    def lying(step: TrashFromHand, g: Any, f: Any) -> Any:
        opts = options(step, g, f)
        return {**opts, ("done",): ("done",)} if g.__dict__.get("lies") else opts

    monkeypatch.setattr(TrashFromHand, "options", lying)
    bot = bus.peers[liar].bot
    decide = bot.decide

    def lie(game: Any, seat: int) -> Any:
        if game.prompt().kind == "trash" and game.stack[-1].card == "Refiner":
            # A training card fits, and the other seat has not seen any that does.
            hand = game.players[seat].hand
            fits = [c for c in hand if game.card_type(game.cards[c]).is_training_card]
            if fits and not any(c in game.shown for c in fits):
                told["lied"] += 1
                return ("done",)
        return decide(game, seat)

    bot.decide = lie  # type: ignore[method-assign]
    bus.run(max_steps=1500)
    assert told["lied"] > 0
    secrets = bus.audit()
    honest = bus.peers[1 - liar]
    with pytest.raises(DeckCheat, match="does not hold with every card known") as err:
        honest.cards.replay(honest.record, secrets[honest.seat])
    assert err.value.seat == liar


def test_a_card_played_that_is_not_in_the_hand_is_refused() -> None:
    bus = Bus(RULES, SETUP, 0)
    bus.run(max_steps=40)
    peer, other = bus.peers
    seat = peer.game.to_decide
    if seat != other.seat:
        peer, other = other, peer
    # The seat to move claims a Wish it does not hold: its opening cannot name one, and
    # without an opening no engine takes a card it does not know.
    with pytest.raises(IllegalDecision):
        peer.game.apply(("play", "Wish", "1"))


def test_a_seat_that_reveals_no_secret_or_a_false_one_is_named() -> None:
    bus = Bus(RULES, SETUP, 1)
    bus.run()
    peer, liar = bus.peers
    with pytest.raises(DeckCheat, match="did not reveal its seed") as err:
        peer.cards.audit({})
    assert err.value.seat == liar.seat
    with pytest.raises(DeckCheat, match="does not open its commitment") as err:
        peer.cards.audit({liar.seat: secret_of(liar.seat, "forged")})
    assert err.value.seat == liar.seat


def test_what_a_seat_sends_ahead_of_the_game_is_bounded() -> None:
    """Openings, keys and shuffle messages may come before our engine needs them (the sender
    is ahead), but only so far ahead, and only so many: a flood is a cheat, not a cost."""
    bus = Bus(RULES, SETUP, 0)
    cards, signer = bus.peers[0].cards, bus.peers[1].cards.signer
    cards.verify_keys[1] = signer.verify_key  # (as seat 1's first commitment brings it)
    key = bytes(32)

    def opening(step: int, keys: list[Any]) -> dict[str, Any]:
        return {"t": "open", "step": step, "keys": keys, "sig": signer.sign(255, step, keys)}

    with pytest.raises(DeckCheat, match="cannot decide now") as err:
        cards.on_message(1, opening(cards.steps + MAX_AHEAD + 1, [[5, key]]))
    assert err.value.seat == 1
    cards.on_message(1, opening(cards.steps + 3, [[5, key]]))
    with pytest.raises(DeckCheat, match="cannot decide now"):
        cards.on_message(1, opening(cards.steps + 3, [[6, key]]))
    with pytest.raises(DeckCheat, match="not the next"):
        cards.on_message(1, {"t": "seal", "shuffle": 2, "commit": key, "signer": signer.verify_key})
    made = len(bus.peers[0].game.cards)
    with pytest.raises(DeckCheat, match="which no shuffle sealed"):
        for card in range(made, made + MAX_EARLY + 1):
            keys = [[card, key]]
            cards.on_message(1, {"t": "keys", "keys": keys, "sig": signer.sign(0, 0, keys)})
    assert len(cards.early_keys) == MAX_EARLY
