"""Sealed decks in the engine: each seat's engine knows only the cards the rules open to its
seat, and follows the game all the same (docs/sealed-decks.md, "What the engine must change").

A :class:`SealedTable` plays whole games with one engine per seat beside one that knows every
card. At every step each seat's engine must agree with the all-knowing one on what every seat
knows (the public hash) and on what its own seat sees (its view, with its legal decisions)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from scenario import RULES
from sealed_table import SealedTable

from crownp2p.core.decisions import IllegalDecision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import NAMED_SUPPLIES, Setup
from crownp2p.packs import load

CATALOG = load()
WISHING = (
    ("play", "Wish", "1"),
    ("play", "False Orders", "2"),
    ("buy", "False Orders"),
    ("buy", "Wish"),
)


def places(game: Game) -> list[list[int]]:
    """Which card is where, by id: the same in every engine, whatever names it knows."""
    zones = [z for p in game.players for z in (p.deck, p.hand, p.discard, p.in_play)]
    return [*zones, game.trash]


def agree(table: SealedTable) -> None:
    public, where = table.truth.public_hash(), places(table.truth)
    for seat, engine in enumerate(table.seats):
        assert engine.public_hash() == public, (table.steps, seat)
        assert engine.view(seat) == table.truth.view(seat), (table.steps, seat)
        assert places(engine) == where, (table.steps, seat)


def tally(table: SealedTable, max_steps: int) -> Counter[str]:
    """Play ``table`` on, checking :func:`agree` at every step; what happened, by kind."""
    seen: Counter[str] = Counter()
    while not table.truth.over and table.steps < max_steps:
        seat = table.truth.to_decide
        if seat == CHANCE:
            decision = table.chance()
            where = table.truth.stack[-1].card if table.truth.stack else ""
            seen[decision[0]] += 1
            seen[f"{decision[0]} {where}"] += 1
            table.apply_chance(decision)
        else:
            decision = table._preferred(seat) or table.bots[seat].decide(table.seats[seat], seat)
            for _card, to in table.decide(seat, decision):
                seen["opened to all" if to is None else "opened to one"] += 1
                assert to is None or to == seat  # (only Astrology opens to one seat)
            seen[decision[0]] += 1
            seen[" ".join(decision[:2])] += 1
        table.deal_knowledge()
        table.steps += 1
        agree(table)
    return seen


def test_each_seat_follows_two_seat_games_knowing_only_its_own_cards() -> None:
    seen: Counter[str] = Counter()
    for seed in range(2):
        setup = Setup(piles=NAMED_SUPPLIES["tournament-4"], sealed=True)
        seen += tally(SealedTable(RULES, setup, seed, prefer=WISHING), 1200)
    # The cards that need care were played: Astrology's look, False Orders' reveal, Wish's
    # cards turned over one at a time, cards put back face down, discards, trashes, and the
    # hand opened at every cleanup.
    assert seen["open Wish"] > 5 and seen["open False Orders"] > 0
    assert seen["open #housekeeping"] > 50 and seen["sealed"] > 20
    assert seen["opened to one"] > 10 and seen["play Astrology"] > 0
    assert seen["topdeck"] > 10 and seen["discard"] > 10 and seen["trash"] > 0


def test_each_seat_follows_the_team_game_and_the_alternative_starters() -> None:
    setup = CATALOG.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    looking = (("play", "Astrology", "1"), ("buy", "Astrology"))
    table = SealedTable(
        CATALOG.rules("team"), replace(setup, sealed=True), 1, bot="random", prefer=looking
    )
    seen = tally(table, 700)
    assert seen["open Advisor"] > 0 and seen["play Astrology"] > 0 and seen["target"] > 0


def sealed_table(seed: int = 0, **extra: object) -> SealedTable:
    setup = Setup(piles=NAMED_SUPPLIES["tournament-4"], sealed=True)
    return SealedTable(RULES, setup, seed, **extra)  # type: ignore[arg-type]


def dealt() -> SealedTable:
    table = sealed_table()
    for _ in table.play(check=agree):
        if table.truth.to_decide != CHANCE:
            return table
    raise AssertionError("the game never started")


def test_no_engine_knows_a_deck_s_order_not_even_its_owner_s() -> None:
    table = dealt()
    for seat, engine in enumerate(table.seats):
        mine = engine.players[seat]
        assert mine.deck and all(c in engine.unknown for c in mine.deck)
        assert mine.hand and not any(c in engine.unknown for c in mine.hand)
        other = engine.players[1 - seat]
        assert all(c in engine.unknown for c in other.deck + other.hand)
    assert not table.truth.unknown


def test_an_opening_that_contradicts_what_is_public_is_refused() -> None:
    table = dealt()
    engine = table.seats[0]
    hidden = engine.players[1].hand[0]
    before = engine.to_json(), sorted(engine.unknown)
    with pytest.raises(IllegalDecision, match="no Wish left unseen"):
        engine.learn(hidden, "Wish")  # no Wish is in that seat's deck or hand
    known = engine.players[0].hand[0]
    with pytest.raises(IllegalDecision, match="not Tower"):
        engine.learn(known, "Tower")
    assert (engine.to_json(), sorted(engine.unknown)) == before


def test_a_wrong_name_at_a_face_up_prompt_is_refused_and_changes_nothing() -> None:
    table = sealed_table()
    for _ in table.play(check=agree):
        chance = table.truth.chance
        if chance is not None and chance["kind"] == "open" and len(chance["cards"]) > 1:
            break
    right = table.chance()
    wrong = (*right[:-1], "Wish")  # the last card named as a card that seat does not hold
    engine = table.seats[1 - table.truth.active]
    before = engine.to_json()
    for bad in (wrong, right[:-1], ("seed", "00" * 32)):
        with pytest.raises(IllegalDecision):
            engine.apply(bad)
        assert engine.to_json() == before
    engine.apply(right)


def test_a_card_taken_from_a_hidden_hand_must_be_opened_first() -> None:
    table = sealed_table()
    for seat, _ in table.play(check=agree):
        seat = table.truth.to_decide
        if seat == CHANCE:
            continue
        decision = table.bots[seat].decide(table.seats[seat], seat)
        opened = table.seats[seat].openings(decision)
        if decision[0] == "play" and opened:
            break
    other = table.seats[1 - seat]
    assert not other.is_legal(decision)
    with pytest.raises(IllegalDecision):
        other.apply(decision)
    # The play opens exactly the card it takes, to every seat.
    [(card, to)] = opened
    assert to is None and table.truth.cards[card] == decision[1]
    other.learn(card, decision[1], to_all=True)
    assert other.is_legal(decision)


def test_a_claim_that_no_training_card_fits_is_taken_on_trust_then_checked() -> None:
    """Refiner and Destiny trash a training card, or nothing when the hand holds none. Another
    seat's engine cannot see that hand, so it accepts `done`; the engine that knows every card,
    as the audit's replay will, refuses a false one."""
    trusted = 0
    for seed in range(3):
        table = sealed_table(seed, prefer=(("buy", "Refiner"), ("play", "Refiner", "1")))
        for _ in table.play(max_steps=900, check=agree):
            prompt = table.truth.prompt()
            if prompt.kind != "trash" or table.truth.stack[-1].card != "Refiner":
                continue
            seat = prompt.seat
            others = [e for s, e in enumerate(table.seats) if s != seat]
            if ("done",) in table.truth.legal():
                continue
            # The hand holds a training card: the seat's own engine, like the truth, refuses
            # `done`; an engine that sees none of them in it takes `done` on trust.
            assert not table.seats[seat].is_legal(("done",))
            for engine in others:
                known_fit = any(d[0] == "trash" for d in engine.legal())
                assert engine.is_legal(("done",)) != known_fit
                trusted += not known_fit
    assert trusted > 0


def test_a_card_put_back_face_down_is_named_by_its_place_in_the_hand() -> None:
    table = sealed_table(prefer=(("buy", "Vigilance"), ("play", "Vigilance", "2")))
    for _ in table.play(check=agree):
        prompt = table.truth.prompt()
        if prompt.kind == "topdeck":
            break
    seat, engine = prompt.seat, table.seats[prompt.seat]
    size = len(engine.players[seat].hand)
    assert [d for d in engine.legal() if d[0] == "topdeck"] == [
        ("topdeck", str(i)) for i in range(1, size + 1)
    ]
    name = engine.cards[engine.players[seat].hand[-1]]
    assert f"`topdeck 1` to `topdeck {size}`" in engine.why_illegal(("topdeck", name))
    card = engine.players[seat].hand[-1]
    assert table.decide(seat, ("topdeck", str(size))) == []  # it opens nothing
    for other, e in enumerate(table.seats):
        assert e.players[seat].deck[0] == card
        assert (card in e.unknown) == (other != seat)
