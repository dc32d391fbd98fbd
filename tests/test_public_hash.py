"""Game.public_hash: the hash of what every seat knows, the one sealed decks will compare
(docs/sealed-decks.md). Guessing a hidden card against it teaches nothing, where the full
state hash gives a hand away; every public card changes it; a card every seat has seen in a deck
or a hand counts as public until that deck is shuffled."""

from __future__ import annotations

from itertools import combinations

from scenario import fen, greedy_decisions, hidden_ids, play, renamed, settle
from scenario import game as scenario_game

from crownp2p.core.game import CHANCE, Game
from crownp2p.core.setup import FIRST_GAME, Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.snapshot import public
from crownp2p.core.standard import standard_rules


def dealt() -> Game:
    game, seeds = Game(standard_rules(), Setup()), SeedSource(7)
    while game.prompt().seat == CHANCE:
        game.apply(("seed", seeds.next_seed()))
    return game


def test_after_the_deal_the_full_hash_gives_a_hand_away_and_the_public_hash_does_not() -> None:
    game = dealt()
    assert sorted(game.cards[c] for c in hidden_ids(game, 1)) == ["Guard"] * 4 + ["Peon"] * 6
    full, public_hashes = set(), set()
    for guards in combinations(range(10), 4):  # every way the opponent's cards may lie
        names = ["Guard" if i in guards else "Peon" for i in range(10)]
        twin = renamed(game, 1, names)
        full.add(twin.state_hash())
        public_hashes.add(twin.public_hash())
    assert len(full) == 210  # each guess is told apart: the true one is found
    assert public_hashes == {game.public_hash()}  # no guess is told from another


def test_through_a_game_no_hidden_card_moves_the_public_hash_and_a_public_one_does() -> None:
    hidden_checked = public_checked = 0
    for step, (game, _, _) in enumerate(greedy_decisions(Setup(), 3, (1, 2), 600)):
        if step % 20:
            continue
        for seat in (0, 1):
            names = [game.cards[c] for c in hidden_ids(game, seat)]
            if len(set(names)) > 1:
                twin = renamed(game, seat, names[1:] + names[:1])
                assert twin.state_hash() != game.state_hash()
                assert twin.public_hash() == game.public_hash()
                hidden_checked += 1
            if game.players[seat].discard:
                twin = game.clone()
                card = twin.players[seat].discard[0]
                twin.cards[card] = "Tower" if twin.cards[card] != "Tower" else "Peon"
                assert twin.public_hash() != game.public_hash()
                public_checked += 1
    assert hidden_checked > 20 and public_checked > 20


def test_a_revealed_top_card_kept_is_known_to_all() -> None:
    game = scenario_game(
        fen("Ke1 ke8"),
        hand=["False Orders"],
        phase="action",
        opp_deck=["Tower", "Peon"],
        piles=FIRST_GAME,
    )
    before = game.public_hash()
    play(game, "play 'False Orders' 2", "keep Tower")
    assert public(game, game.rules)["players"][1]["shown"] == {"deck": [[0, "Tower"]], "hand": []}
    deck = game.players[1].deck
    twin = game.clone()
    twin.cards[deck[0]], twin.cards[deck[1]] = "Peon", "Tower"  # the kept Tower moved down
    assert twin.public_hash() not in (game.public_hash(), before)


def test_the_card_wish_found_is_known_to_all_until_its_deck_is_shuffled() -> None:
    game = scenario_game(
        fen("Ke1 ke8"), hand=["Wish"], deck=["Peon", "Guard", "Tower", "Clergy"], piles=FIRST_GAME
    )
    play(game, "play Wish 1", "name Tower")
    tower = game.players[0].hand[0]
    assert public(game, game.rules)["players"][0]["shown"]["hand"] == [[0, "Tower"]]
    play(game, "end", "end", "end")  # cleanup discards it; drawing five shuffles the discards
    settle(game)
    assert any(line.endswith("blue: shuffles") for line in game.log)
    assert tower in game.players[0].deck + game.players[0].hand
    assert tower not in game.shown
    assert public(game, game.rules)["players"][0]["shown"] == {"deck": [], "hand": []}
