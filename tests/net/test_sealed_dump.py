"""A peer that dumps everything it holds learns no card the rules hid from it (issue 12).

Each seat of a sealed game on the in-memory table is, in turn, the dumping peer. At many points
of real games (every few messages it is sent) it takes: its game secret, from which it derives
every key of its own; every frame it was sent, as raw bytes, parsed here with msgpack alone,
every ``[card, 32 bytes]`` pair anywhere in them taken as a key from the frame's sender; and
its memory (the sealed decks and their card points). With that it opens every card it can.
Each card it names is checked against the other seats' own records: no card another seat
learnt alone (a draw into a hand it does not see) may be named before that card was opened to
all (by a decision, as that seat's record says, or by chance turning it face up, as every
engine's zones show); and every name must be the card's true name, from the audit's replay.
Two seats and four. A leaky peer, one that gives its keys to every seat, is caught by the same
check."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack
import pytest
from harness import MemoryTable

from crownp2p.core.rules import Rules
from crownp2p.core.setup import NAMED_SUPPLIES, Setup
from crownp2p.net import sealed_cards
from crownp2p.net.frames import encode_frame
from crownp2p.net.sealed_deck import ShuffleSecrets, open_card, shuffle_seed
from crownp2p.packs import load

SETUP = Setup(piles=NAMED_SUPPLIES["tournament-4"], sealed=True)
EVERY = 5  # a dump every this many frames sent to the dumping seat
OPENED: dict[tuple[bytes, ...], int | None] = {}  # (sealed point, keys) -> instance


def keys_in(obj: Any) -> list[tuple[int, bytes]]:
    """Every [card, 32 bytes] pair anywhere in a decoded frame."""
    if isinstance(obj, dict):
        return [pair for value in obj.values() for pair in keys_in(value)]
    if isinstance(obj, list):
        if len(obj) == 2 and isinstance(obj[0], int) and isinstance(obj[1], bytes):
            return [(obj[0], obj[1])] if len(obj[1]) == 32 else []
        return [pair for item in obj for pair in keys_in(item)]
    return []


def dump_names(peer: Any, frames: list[tuple[int, bytes]]) -> dict[int, str]:
    """Every card the dumping peer can name: card id -> name."""
    cards = peer.sealed
    received: dict[tuple[int, int], set[bytes]] = {}  # (card, sender) -> keys
    for sender, raw in frames:
        body = msgpack.unpackb(raw[4:], raw=False)  # (after the 4-byte length)
        for card, key in keys_in(body):
            received.setdefault((card, sender), set()).add(key)
    mine: dict[int, ShuffleSecrets] = {}
    named = {}
    for card, slot in cards.slots.items():
        round_ = cards.shuffles[slot.shuffle]
        final = round_.final
        if slot.shuffle not in mine:
            seed = shuffle_seed(cards.secret, cards.game_id, slot.shuffle)
            size = len(round_.log.start)
            mine[slot.shuffle] = ShuffleSecrets.derive(
                cards.game_id, slot.shuffle, peer.me, seed, size
            )
        keys = [mine[slot.shuffle].position_keys[slot.position]]
        for seat in cards.seats:
            if seat != peer.me:
                theirs = received.get((card, seat))
                if not theirs:
                    break
                keys.append(next(iter(theirs)))
        else:
            point = final[slot.position]
            sealed_as = (point, *keys)  # (the same opening is done once, not at every dump)
            if sealed_as not in OPENED:
                OPENED[sealed_as] = open_card(point, keys, cards.tables[slot.shuffle])
            instance = OPENED[sealed_as]
            if instance is not None:
                named[card] = cards.game.cards[instance]
    return named


def play_dumping(table: MemoryTable) -> list[tuple[int, dict[int, str], set[int]]]:
    """The game to its end, with a dump of every seat every EVERY frames sent to it: (seat,
    what it names, what was hidden from it then)."""
    frames: dict[int, list[tuple[int, bytes]]] = {p.me: [] for p in table.peers}
    taken: list[tuple[int, dict[int, str], set[int]]] = []
    pending: list[tuple[int, dict[int, str]]] = []
    hidden_now: list[set[int]] = []
    # Every card some seat's engine has shown to all so far (what chance turned face up is in
    # no record's openings, only in the zones).
    public: set[int] = set()

    def tap(src: int, dst: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
        frames[dst].append((src, encode_frame(msg)))
        note_public()  # (at every frame: a card public now may be shuffled away before a dump)
        peer = table.peers[dst]
        if len(frames[dst]) % EVERY == 0 and peer.outcome is None:
            pending.append((dst, dump_names(peer, frames[dst])))
            hidden_now.append(snapshot_hidden(dst))
        return [msg]

    def note_public() -> None:
        for other in table.peers:  # (each seat's engine may be ahead of the others)
            game = other.game
            for player in game.players:
                public.update(player.discard, player.in_play)
                public.update(c for c in player.deck + player.hand if c in game.shown)
            public.update(game.trash)

    def snapshot_hidden(seat: int) -> set[int]:
        alone: set[int] = set()
        opened: set[int] = set()  # (a card a seat opens with its decision: its record says so)
        for other in table.peers:
            for step in other.record.steps:
                opened.update(card for card, _ in step.opened)
                if other.me != seat:
                    alone.update(card for card, _ in step.seen)
        return alone - opened - public

    table.tamper = tap
    table.connect()
    table.pump()
    # Every card each seat learns by the rules, at any time: its own records' openings to it.
    final_seen = {p.me: {c for s in p.record.steps for c, _ in s.seen} for p in table.peers}
    for (seat, names), hidden in zip(pending, hidden_now, strict=True):
        taken.append((seat, names, hidden - final_seen[seat]))
    return taken


def truth_of(table: MemoryTable) -> dict[int, str]:
    """Every sealed card's name, from the audit's replay (every secret revealed)."""
    for _ in range(5):
        table.tick(5)
    peer = table.peers[0]
    secrets = {p.me: p.sealed.secret for p in table.peers}
    everyone = peer.sealed.audit(secrets)
    return dict(enumerate(peer.sealed.replay(peer.record.steps, everyone).cards))


def check(table: MemoryTable) -> tuple[int, int]:
    """Play and dump; how many dumps had hidden cards, and how many cards were named."""
    dumps = play_dumping(table)
    truth = truth_of(table)
    assert len(dumps) > 50
    hiding = named = 0
    for seat, names, hidden in dumps:
        assert not set(names) & hidden, f"seat {seat} named hidden cards {set(names) & hidden}"
        for card, name in names.items():
            assert truth[card] == name
        hiding += bool(hidden)
        named += len(names)
    return hiding, named


def test_a_dumping_peer_learns_no_hidden_card_at_two_seats(rules2: Rules) -> None:
    for seed in (0, 1):
        table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=seed, max_turns=60)
        hiding, named = check(table)
        assert hiding > 60 and named > 10_000  # (the check had hidden cards to find, and works)


def test_a_dumping_peer_learns_no_hidden_card_at_four_seats() -> None:
    catalog = load()
    setup = catalog.setup("tournament-3", variant="team", options=("conscript", "advisor"))
    rules = catalog.rules("team")
    table = MemoryTable(rules, replace(setup, sealed=True), ["random"] * 4, seed=3, max_turns=40)
    hiding, named = check(table)
    assert hiding > 60 and named > 10_000


def test_the_dump_catches_a_peer_that_gives_its_keys_to_every_seat(
    rules2: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above can fail: a peer whose keys for a draw go to every seat lets the other
    seat name the drawn cards."""
    give = sealed_cards.SealedCards._give

    def leaky(self: Any, card: int, seats: Any) -> None:
        give(self, card, self.seats)

    monkeypatch.setattr(sealed_cards.SealedCards, "_give", leaky)
    table = MemoryTable(rules2, SETUP, ["greedy", "greedy"], seed=0, max_turns=20)
    with pytest.raises(AssertionError, match="named hidden cards"):
        check(table)
