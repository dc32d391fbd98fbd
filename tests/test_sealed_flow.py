"""In a sealed game (Setup.sealed) the engine decides nothing by itself from a card one seat
alone has seen: who is asked next never depends on a hidden card, so every peer's engine can
follow the game (docs/sealed-decks.md; the calls are in docs/rulings.md, 32 to 34). With open
decks it does: a phase passes by itself when nothing in the hand can be played, which a peer
without that hand could not follow."""

from __future__ import annotations

from scenario import greedy_decisions, hidden_ids, renamed

from crownp2p.core.game import Game
from crownp2p.core.setup import Setup

# decisions whose card is opened to every seat as they are taken (docs/sealed-decks.md)
OPENING = {"play", "train", "treasure", "discard", "trash", "topdeck"}


def asked(game: Game) -> tuple[int, str]:
    """Who the game asks next, for what kind of decision."""
    prompt = game.prompt()
    return prompt.seat, prompt.kind


def twins_parted(sealed: bool, seeds: range = range(10), steps: int = 1500) -> tuple[int, int]:
    """Over greedy games: before each decision that opens no card, the game and a twin whose
    deciding seat holds other hidden cards take it; how many times they then asked different
    seats or for different things, or (within the turn) differed in what every seat knows, out
    of how many tries."""
    parted = tried = 0
    for seed in seeds:
        setup = Setup(sealed=sealed)
        for game, seat, decision in greedy_decisions(setup, seed, (seed, seed + 50), steps):
            names = [game.cards[c] for c in hidden_ids(game, seat)]
            if decision[0] in OPENING or len(set(names)) < 2:
                continue
            twin = renamed(game, seat, names[1:] + names[:1])
            if twin.is_legal(decision):  # ("done" claims a hand without a fitting card)
                ahead = game.clone()
                ahead.apply(decision)
                twin.apply(decision)
                tried += 1
                parted += asked(ahead) != asked(twin)
                # What every seat knows stays the same too, but for the end of a turn,
                # which opens the hand to all (its discard pile is face up).
                if ahead.turn == game.turn and ahead.this_turn.phase != "housekeeping":
                    parted += ahead.public_hash() != twin.public_hash()
    return parted, tried


def test_in_a_sealed_game_no_hidden_card_decides_who_is_asked_next() -> None:
    parted, tried = twins_parted(sealed=True)
    assert tried > 1000
    assert parted == 0


def test_with_open_decks_the_engine_passes_phases_on_what_the_hand_holds() -> None:
    parted, tried = twins_parted(sealed=False)
    assert parted > 0 and tried > 1000


def test_the_sealed_flag_leaves_open_games_hashes_alone() -> None:
    assert "sealed" not in Setup().to_json()
    assert Setup.from_json(Setup(sealed=True).to_json()).sealed
