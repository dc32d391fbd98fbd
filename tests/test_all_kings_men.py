"""The All the King's Men variant pack: one test for each of its rules.

Every expectation below was worked out by hand from the pack's rulebook
(/work/shared/rules/all-the-kings-men.txt: extended game, team game, alternative starters) and
the base rules reference; none was copied from the engine's output. Where the engine disagrees
with the rulebook the test keeps the rulebook's answer.

Team seats, which are also the turn order: 0 blue south-west, 1 gold north-east, 2 blue
south-east, 3 gold north-west. Blue (seats 0 and 2) plays up the board from rank 1. Seats 0 and
3 sit on the west wing, 1 and 2 on the east wing.

Positions are written as tokens ``<letter><owner><square>``: ``"K0e1 K1e8 P2d4"`` is the King
of seat 0 on e1, the King of seat 1 on e8 and a Pawn of seat 2 on d4. Units get uids 1, 2, 3 …
in the order listed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

from crownp2p.bots import make_bot
from crownp2p.core.board import parse_square, square_name
from crownp2p.core.decisions import decision_text, parse_decision
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.record import Record, verify
from crownp2p.core.rules import Rules
from crownp2p.core.setup import FIRST_GAME, Setup
from crownp2p.core.shuffle import SeedSource
from crownp2p.core.snapshot import ZONES
from crownp2p.packs import PackError, load

CATALOG = load()
TEAM = CATALOG.rules("team")
STANDARD = CATALOG.rules("standard")
SEED = "00" * 32

SW, NE, SE, NW = 0, 1, 2, 3  # the team seats
CORE = {"Champion": 4, "Clergy": 8, "Tower": 8, "Consort": 4}
WEST = FIRST_GAME
# Ten variable piles none of which is in the first-game Supply (for the east wing).
EAST = (
    "Academy",
    "Astrology",
    "Destiny",
    "Executive Action",
    "False Orders",
    "Fog",
    "Mourning",
    "Sacrifice",
    "Scribes",
    "Wish",
)
KINGS = "K0e1 K1e8"
ALL_SQUARES = [f + r for r in "12345678" for f in "abcdefgh"]


# ------------------------------------------------------------------------- helpers


def state(
    rules: Rules,
    units: str = KINGS,
    *,
    active: int = 0,
    phase: str = "order",
    hands: dict[int, list[str]] | None = None,
    decks: dict[int, list[str]] | None = None,
    discards: dict[int, list[str]] | None = None,
    barracks: dict[int, list[str]] | None = None,
    counters: dict[str, int] | None = None,
    last_orders: dict[int, list[str]] | None = None,
) -> Game:
    """A game at the start of ``active``'s ``phase``; ``last_orders`` lists, per seat, the
    squares of the units that seat ordered on its latest turn."""
    seats = len(rules.seating.sides)
    board = []
    uids: dict[str, int] = {}
    for uid, token in enumerate(units.split(), 1):
        letter, owner, square = token[0], int(token[1]), token[2:]
        kind = rules.units.by_letter(letter)
        assert kind is not None, token
        board.append({"square": square, "unit": kind.name, "owner": owner, "uid": uid})
        uids[square] = uid
    if seats == 4:
        setup = Setup(piles=WEST, more_piles=(EAST,), supply_count=2, variant="team")
        piles = [list(WEST), list(EAST)]
    else:
        setup, piles = Setup(piles=WEST), [list(WEST)]
    hands, decks, discards = hands or {}, decks or {}, discards or {}
    data: dict[str, Any] = {
        "setup": setup.to_json(),
        "piles": piles,
        "board": board,
        "barracks": [list((barracks or {}).get(s, [])) for s in range(seats)],
        "players": [
            {
                "hand": list(hands.get(s, [])),
                "deck": list(decks.get(s, [])),
                "discard": list(discards.get(s, [])),
            }
            for s in range(seats)
        ],
        "active": active,
        "this_turn": {"phase": phase, **(counters or {})},
    }
    if last_orders:
        orders = [[s, [uids[sq] for sq in squares]] for s, squares in last_orders.items()]
        data["packs"] = {"all_kings_men": {"last_orders": orders}}
    return Game.from_json(rules, data)


def settle(g: Game) -> Game:
    while not g.over and g.prompt().seat == CHANCE:
        g.apply(("seed", SEED))
    return g


def play(g: Game, *texts: str) -> Game:
    for text in texts:
        settle(g)
        g.apply(parse_decision(text))
    settle(g)
    return g


def legal(g: Game) -> set[str]:
    return {decision_text(d) for d in g.legal()}


def moves_from(g: Game, square: str) -> set[str]:
    """The legal marches, swaps and attacks of the unit on ``square``."""
    return {
        decision_text(d)
        for d in g.legal()
        if d[0] in ("march", "attack", "swap") and len(d) == 3 and d[1] == square
    }


def pass_until(g: Game, seat: int) -> Game:
    """End every phase until the next turn of ``seat`` begins."""
    start = g.turn
    while not g.over:
        settle(g)
        if g.over or (g.turn != start and g.active == seat):
            break
        assert ("end",) in g.legal(), g.prompt()
        g.apply(("end",))
    return g


def unit_at(g: Game, square: str):
    return g.position.board[parse_square(square)]


def at(g: Game, square: str) -> str | None:
    u = unit_at(g, square)
    return None if u is None else f"{u.kind.name}{u.owner}"


def zone(g: Game, seat: int, name: str) -> list[str]:
    return [g.cards[c] for c in getattr(g.players[seat], name)]


def all_cards(g: Game, seat: int) -> Counter[str]:
    return Counter(n for z in ZONES for n in zone(g, seat, z))


def barracks(g: Game, seat: int) -> list[str]:
    return sorted(k.name for k in g.position.barracks[seat])


def new_game(variant: str, supply: str = "first-game", options=(), seed: str = SEED) -> Game:
    g = Game(CATALOG.rules(variant), CATALOG.setup(supply, variant=variant, options=options))
    while g.prompt().seat == CHANCE:
        g.apply(("seed", seed))
    return g


def variable_piles(supply: dict[str, int]) -> list[str]:
    return [n for n in supply if n not in CORE]


# ------------------------------------------------------------------------- the pack

PROVIDES = {
    "card:Conscript",
    "card:Watchman",
    "card:Advisor",
    "option:conscript",
    "option:watchman",
    "option:advisor",
    "variant:extended-13",
    "variant:extended-16",
    "variant:team",
}


def run_cli(*args: str, packs: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CROWNP2P_PACKS"}
    if packs is not None:
        env["CROWNP2P_PACKS"] = packs
    return subprocess.run(
        [sys.executable, "-m", "crownp2p", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_the_pack_loads_through_its_entry_point() -> None:
    out = run_cli("plugins", "--json")
    assert out.returncode == 0, out.stderr
    packs = {p["name"]: p for p in json.loads(out.stdout)}
    assert "all_kings_men" in packs
    assert set(packs["all_kings_men"]["provides"]) == PROVIDES


def test_crownp2p_packs_none_leaves_the_pack_out() -> None:
    out = run_cli("plugins", "--json", packs="none")
    assert out.returncode == 0, out.stderr
    assert [p["name"] for p in json.loads(out.stdout)] == ["crownp2p"]
    named = run_cli("plugins", "--json", packs="all_kings_men")
    assert [p["name"] for p in json.loads(named.stdout)] == ["crownp2p", "all_kings_men"]


def test_without_the_pack_there_is_no_team_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROWNP2P_PACKS", "none")
    bare = load()
    assert "team" not in bare.variants and "Conscript" not in bare.cards
    with pytest.raises(PackError):
        bare.setup(variant="team")
    with pytest.raises(PackError):
        bare.setup(options=["watchman"])


def test_four_players_without_the_pack_is_one_sentence() -> None:
    out = run_cli("host", "--bot", "random", "--players", "4", packs="none")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "which variant for 4 players? none is installed" in out.stderr


def test_the_pack_loaded_here_without_problems() -> None:
    assert "all_kings_men" in [p.name for p in CATALOG.packs]
    assert not [p for p in CATALOG.problems if "all_kings_men" in p]


def test_the_new_starters_are_not_supply_piles() -> None:
    for name in ("Conscript", "Watchman", "Advisor"):
        assert CATALOG.roles[name] == "alternative starter"
        assert name not in TEAM.variable_cards and name not in STANDARD.variable_cards


# ------------------------------------------------------------------------- extended game


@pytest.mark.parametrize(
    "variant, piles, peons, guards, core",
    [
        ("extended-13", 13, 9, 6, {"Champion": 6, "Clergy": 12, "Tower": 12, "Consort": 6}),
        ("extended-16", 16, 12, 8, {"Champion": 8, "Clergy": 16, "Tower": 16, "Consort": 8}),
    ],
)
def test_extended_game_setup(variant, piles, peons, guards, core) -> None:
    g = new_game(variant)
    assert len(g.players) == 2 and len(g.supplies) == 1
    for seat in (0, 1):
        assert all_cards(g, seat) == {"Peon": peons, "Guard": guards}
        assert len(g.players[seat].hand) == 5
    supply = g.supplies[0]
    assert {n: supply[n] for n in core} == core
    extra = variable_piles(supply)
    # The named Supply's ten piles, topped up with distinct other piles, 4 cards each.
    assert len(extra) == len(set(extra)) == piles
    assert set(WEST) <= set(extra)
    assert all(supply[n] == 4 for n in extra)
    assert sorted((square_name(sq), u.kind.name) for sq, u in g.position.units()) == [
        ("e1", "King"),
        ("e8", "King"),
    ]


@pytest.mark.parametrize("variant, piles", [("extended-13", 13), ("extended-16", 16)])
def test_extended_game_random_supply(variant, piles) -> None:
    g = new_game(variant, "random")
    extra = variable_piles(g.supplies[0])
    assert len(extra) == len(set(extra)) == piles


def test_extended_game_tops_up_a_named_supply_at_random() -> None:
    tops = set()
    for n in range(8):
        g = new_game("extended-13", seed=f"{n:064x}")
        tops.add(frozenset(set(variable_piles(g.supplies[0])) - set(WEST)))
    assert all(len(t) == 3 for t in tops)
    assert len(tops) > 1  # the three extra piles are drawn at random


def test_extended_game_plays_as_normal() -> None:
    g = new_game("extended-16")
    turns = []
    for _ in range(4):
        turns.append(g.active)
        pass_until(g, 1 - g.active)
    assert turns == [0, 1, 0, 1]


# ------------------------------------------------------------------------- alternative starters

STARTER_DECKS = [
    (["conscript"], {"Peon": 5, "Conscript": 1, "Guard": 4}),
    (["watchman"], {"Peon": 6, "Guard": 3, "Watchman": 1}),
    (["advisor"], {"Peon": 6, "Guard": 3, "Advisor": 1}),
    (["watchman", "advisor"], {"Peon": 6, "Guard": 2, "Watchman": 1, "Advisor": 1}),
    (
        ["conscript", "watchman", "advisor"],
        {"Peon": 5, "Conscript": 1, "Guard": 2, "Watchman": 1, "Advisor": 1},
    ),
]


@pytest.mark.parametrize("options, deck", STARTER_DECKS)
@pytest.mark.parametrize("variant", ["standard", "team"])
def test_alternative_starters_replace_starting_cards(variant, options, deck) -> None:
    g = new_game(variant, options=options)
    # Every deck the same: in the team game both players of a wing use the same starters.
    for seat in range(len(g.players)):
        assert all_cards(g, seat) == deck


def test_alternative_starters_in_the_extended_game() -> None:
    g = new_game("extended-13", options=["conscript", "watchman"])
    assert all_cards(g, 0) == {"Peon": 8, "Conscript": 1, "Guard": 5, "Watchman": 1}


def test_alternative_starters_cost_what_they_replace() -> None:
    # Our call (docs/all-kings-men.md, call 1): the pack does not print costs.
    costs = {n: TEAM.cards.get(n).cost for n in ("Peon", "Guard", "Conscript", "Watchman")}
    assert costs == {"Peon": 0, "Guard": 1, "Conscript": 0, "Watchman": 1}
    assert TEAM.cards.get("Advisor").cost == 1


BUY_AT_TWO = {
    # What 2 gold buys: Champion, and the variable piles costing 2 in the seat's Supply.
    (0, "standard"): {"buy Champion", "buy Versatility"},
    (1, "standard"): {"buy Champion", "buy Versatility"},
    (SE, "team"): {"buy Champion", "buy Astrology"},
    (NW, "team"): {"buy Champion", "buy Versatility"},
}


@pytest.mark.parametrize("seat, variant", list(BUY_AT_TWO))
def test_conscript_earns_a_gold_and_a_pawn_and_is_not_trashed(seat, variant) -> None:
    g = state(
        CATALOG.rules(variant),
        active=seat,
        phase="action",
        hands={seat: ["Conscript", "Peon"]},
        decks={seat: ["Guard"] * 5},
    )
    assert "play Conscript 1" in legal(g)
    play(g, "play Conscript 1")
    assert g.this_turn.gold == 1
    assert barracks(g, seat) == ["Pawn"]  # from the Stock
    assert zone(g, seat, "in_play") == ["Conscript"] and zone(g, seat, "hand") == ["Peon"]
    assert [g.cards[c] for c in g.trash] == []
    assert g.this_turn.phase == "buy"  # its one action spent
    play(g, "treasure Peon")
    assert g.this_turn.gold == 2
    assert {t for t in legal(g) if t.startswith("buy")} == BUY_AT_TWO[(seat, variant)]
    play(g, "end")  # no buy; housekeeping discards Conscript like any played card
    assert sorted(zone(g, seat, "discard")) == ["Conscript", "Peon"]
    assert zone(g, seat, "hand") == ["Guard"] * 5
    assert barracks(g, seat) == ["Pawn"]


def test_watchman_and_advisor_train_a_pawn_and_conscript_does_not() -> None:
    # Our call (docs/all-kings-men.md, call 1): two effects where the pack allows; Conscript
    # is no training card, as the pack says.
    conscript = TEAM.cards.get("Conscript")
    assert len(conscript.effects) == 1 and not conscript.is_training_card
    g = state(STANDARD, phase="action", hands={0: ["Conscript"]})
    assert "train Conscript" not in legal(g)
    for name in ("Watchman", "Advisor"):
        card = TEAM.cards.get(name)
        assert len(card.effects) == 2 and card.is_training_card and card.trains == "Pawn"
        g = state(STANDARD, "K0e1 K1e8", phase="action", hands={0: [name]})
        play(g, f"train {name}")
        assert g.position.barracks[0] == [STANDARD.units.get("Pawn")]
        assert [g.cards[c] for c in g.trash] == [name]


@pytest.mark.parametrize("card, effect", [("Destiny", "2"), ("Refiner", "1")])
def test_destiny_and_refiner_cannot_trash_conscript(card, effect) -> None:
    g = state(
        STANDARD,
        "K0e1 K1e8 P0a2",
        phase="action",
        hands={0: [card, "Conscript", "Peon"]},
        decks={0: ["Executive Action"]},
        barracks={0: ["Pawn"]},
    )
    play(g, f"play {card} {effect}")
    assert g.prompt().kind == "trash"
    assert legal(g) == {"trash Peon"}


@pytest.mark.parametrize("rules, seat", [(STANDARD, 0), (TEAM, SE)])
def test_watchman_recalls_a_unit_that_counts_as_ordered(rules, seat) -> None:
    g = state(
        rules,
        f"K0e1 K1e8 P{seat}d3",
        active=seat,
        hands={seat: ["Watchman", "Guard", "Executive Action"]},
        barracks={seat: ["Knight"]},
    )
    play(g, "play Watchman 2")
    assert g.this_turn.orders == 1  # the order it used, and one more
    assert g.prompt().kind == "recall"
    assert "recall d3" in legal(g)
    play(g, "recall d3")
    assert at(g, "d3") is None
    assert barracks(g, seat) == ["Knight", "Pawn"]
    # The Pawn has had its order: no order may deploy it, neither a plain deploy nor a card.
    texts = legal(g)
    assert "deploy Knight b1" in texts
    assert not [t for t in texts if t.startswith("deploy Pawn")]
    play(g, "play Guard 2")
    # Next to the King on e1: d1, d2, e2, f1, f2; the Knight only.
    assert legal(g) == {f"deploy Knight {sq}" for sq in ("d1", "d2", "e2", "f1", "f2")}
    play(g, "deploy Knight f1")
    # Executive Action's Action is no order: it may deploy the Pawn.
    assert g.this_turn.phase == "action"
    play(g, "play 'Executive Action' 2")
    assert "deploy Pawn d2" in legal(g)
    play(g, "deploy Pawn d2")
    assert at(g, "d2") == f"Pawn{seat}" and barracks(g, seat) == []


def test_watchman_cannot_recall_a_unit_already_ordered() -> None:
    g = state(STANDARD, "K0e1 K1e8 P0d3", hands={0: ["Watchman"]}, counters={"orders": 2})
    play(g, "march d3 d4", "play Watchman 2")
    assert legal(g) == {"recall e1"}


def test_watchman_may_recall_a_shared_sovereign() -> None:
    g = state(TEAM, "K0e1 K1e8 P2d3", active=SE, hands={SE: ["Watchman"]})
    play(g, "play Watchman 2")
    assert legal(g) == {"recall d3", "recall e1"}


def test_recalling_the_only_sovereign_loses_at_the_end_of_the_turn() -> None:
    g = state(TEAM, hands={SW: ["Watchman", "Peon"]})
    play(g, "play Watchman 2", "recall e1")
    assert not g.over  # only the end of the turn counts
    play(g, "end", "end")
    assert g.over and g.winner == 1


def test_a_recalled_sovereign_redeployed_by_executive_action_saves_the_side() -> None:
    g = state(TEAM, hands={SW: ["Watchman", "Executive Action"]})
    play(g, "play Watchman 2", "recall e1")
    assert not [t for t in legal(g) if t.startswith("deploy King")]
    play(g, "end", "play 'Executive Action' 2", "deploy King d1")
    assert at(g, "d1") == "King0"
    assert not g.over and g.active == NE


@pytest.mark.parametrize("rules, seat", [(STANDARD, 1), (TEAM, NW)])
def test_advisor_moves_the_deck_to_the_discard_pile(rules, seat) -> None:
    g = state(
        rules,
        active=seat,
        phase="action",
        hands={seat: ["Advisor", "Peon"]},
        decks={seat: ["Clergy", "Tower", "Guard"]},
        discards={seat: ["Champion"]},
    )
    play(g, "play Advisor 2")
    assert g.this_turn.actions == 1  # the action it used, and one more
    assert g.this_turn.phase == "action"
    assert zone(g, seat, "deck") == []
    assert sorted(zone(g, seat, "discard")) == ["Champion", "Clergy", "Guard", "Tower"]
    assert zone(g, seat, "hand") == ["Peon"]  # the hand stays
    g.apply(("end",))
    g.apply(("end",))
    # Housekeeping draws from an empty deck: the discard pile is reshuffled.
    assert g.prompt().seat == CHANCE and g.prompt().kind == "shuffle"
    settle(g)
    assert len(zone(g, seat, "hand")) == 5 and len(zone(g, seat, "deck")) == 1
    assert all_cards(g, seat) == Counter(
        ["Advisor", "Peon", "Clergy", "Tower", "Guard", "Champion"]
    )


# ------------------------------------------------------------------------- team game: setup


def corner(seat: int) -> str:
    return TEAM.seat_name(seat).split()[-1]


def test_team_seats_sides_and_corners() -> None:
    assert TEAM.seating.sides == (0, 1, 0, 1)
    assert [corner(s) for s in range(4)] == ["south-west", "north-east", "south-east", "north-west"]
    assert [TEAM.seating.forward(s) for s in range(4)] == [1, -1, 1, -1]  # the south plays up
    assert TEAM.opponents(SW) == [NE, NW] and TEAM.opponents(NE) == [SW, SE]


def test_team_setup_four_decks_two_kings_two_supplies() -> None:
    g = new_game("team")
    assert len(g.players) == 4
    for seat in range(4):
        assert all_cards(g, seat) == {"Peon": 6, "Guard": 4}
        assert len(zone(g, seat, "hand")) == 5 and len(zone(g, seat, "deck")) == 5
    # Two Kings in all, one for each side, on their usual squares.
    kings = sorted(
        (square_name(sq), u.kind.name, TEAM.seating.sides[u.owner]) for sq, u in g.position.units()
    )
    assert kings == [("e1", "King", 0), ("e8", "King", 1)]
    # Our call 10: in the state they belong to seats 0 and 1; control is shared either way.
    assert sorted(u.owner for _, u in g.position.units()) == [SW, NE]
    assert all(b == [] for b in g.position.barracks)
    assert len(g.supplies) == 2
    for supply in g.supplies:
        assert {n: supply[n] for n in CORE} == CORE
        piles = variable_piles(supply)
        assert len(piles) == 10 and all(supply[n] == 4 for n in piles)
    west, east = (set(variable_piles(s)) for s in g.supplies)
    assert west == set(WEST)  # the named Supply is the west wing's
    assert not west & east  # different variable cards for each Supply


def test_team_random_supplies_are_different() -> None:
    easts = set()
    for n in range(4):
        g = new_game("team", "random", seed=f"{n + 1:064x}")
        west, east = (variable_piles(s) for s in g.supplies)
        assert len(set(west)) == len(set(east)) == 10
        assert not set(west) & set(east)
        easts.add(frozenset(east))
    assert len(easts) > 1


def test_hourglass_turn_order() -> None:
    g = new_game("team")
    order = []
    for _ in range(9):
        order.append(g.active)
        pass_until(g, (g.active + 1) % 4)
    assert order == [SW, NE, SE, NW, SW, NE, SE, NW, SW]
    # Play alternates between the sides, and goes diagonally first, then along a wing.
    for a, b in zip(order, order[1:], strict=False):
        assert TEAM.seating.are_enemies(a, b)
    ns = [corner(s).split("-")[0] for s in order]
    ew = [corner(s).split("-")[1] for s in order]
    diagonal = [ns[i] != ns[i + 1] and ew[i] != ew[i + 1] for i in range(len(order) - 1)]
    same_wing = [ew[i] == ew[i + 1] for i in range(len(order) - 1)]
    assert diagonal == [True, False] * 4
    assert same_wing == [False, True] * 4


@pytest.mark.parametrize("seat, wing", [(SW, 0), (NE, 1), (SE, 1), (NW, 0)])
def test_each_wing_buys_from_its_own_supply(seat, wing) -> None:
    g = state(TEAM, active=seat, phase="buy", counters={"gold": 9}, hands={seat: ["Peon"]})
    piles = WEST if wing == 0 else EAST
    # Everything of the wing's Supply costs 9 or less; nothing of the other wing's.
    assert {t for t in legal(g) if t.startswith("buy")} == {
        f"buy {n}" if " " not in n else f"buy '{n}'" for n in [*CORE, *piles]
    }
    assert g.supply_for(seat) is g.supplies[wing]
    play(g, "buy Tower")
    assert g.supplies[wing]["Tower"] == 7 and g.supplies[1 - wing]["Tower"] == 8
    assert all_cards(g, seat)["Tower"] == 1


def test_gains_come_from_the_wings_supply_east() -> None:
    g = state(TEAM, active=NE, phase="action", hands={NE: ["Sacrifice", "Peon"]})
    play(g, "play Sacrifice 2", "discard Peon")
    # Up to 6 from the east: Champion 2, Clergy 3, Tower 6, Academy 4, Astrology 2,
    # Executive Action 5, Sacrifice 4, Scribes 3 (west's Legend, Refiner, Stables are out).
    assert legal(g) == {
        "gain Champion",
        "gain Clergy",
        "gain Tower",
        "gain Academy",
        "gain Astrology",
        "gain 'Executive Action'",
        "gain Sacrifice",
        "gain Scribes",
    }
    play(g, "gain Tower")
    assert g.supplies[1]["Tower"] == 7 and g.supplies[0]["Tower"] == 8


def test_gains_come_from_the_wings_supply_west() -> None:
    g = state(
        TEAM, active=NW, phase="action", hands={NW: ["Refiner", "Peon"]}, decks={NW: ["Guard"]}
    )
    play(g, "play Refiner 2", "trash Peon")
    # Up to 0 + 2: Champion and the west's Versatility, not the east's Astrology.
    assert legal(g) == {"gain Champion", "gain Versatility"}


# ------------------------------------------------------------------------- shared Sovereigns


@pytest.mark.parametrize(
    "seat, king, steps",
    [
        (SW, "e1", {"d1", "d2", "e2", "f2", "f1"}),
        (SE, "e1", {"d1", "d2", "e2", "f2", "f1"}),
        (NE, "e8", {"d8", "d7", "e7", "f7", "f8"}),
        (NW, "e8", {"d8", "d7", "e7", "f7", "f8"}),
    ],
)
def test_either_ally_may_order_the_sides_king(seat, king, steps) -> None:
    g = state(TEAM, active=seat)
    assert moves_from(g, king) == {f"march {king} {sq}" for sq in steps}
    enemy_king = "e8" if king == "e1" else "e1"
    assert moves_from(g, enemy_king) == set()


def kings_example() -> Game:
    """The rulebook's example up to player 1's second turn (turn 5): player 1 (seat 0) marched
    the King to e2; player 3 (seat 2) could not order it, and deployed next to it with a
    Guard instead."""
    g = state(
        TEAM,
        hands={s: ["Guard"] if s == SE else ["Peon"] for s in range(4)},
        decks={s: ["Peon"] * 12 for s in range(4)},
        barracks={SE: ["Knight"]},
    )
    play(g, "march e1 e2")
    pass_until(g, SE)
    assert g.this_turn.phase == "order" and g.turn == 3
    assert moves_from(g, "e2") == set()
    play(g, "play Guard 2")
    around_e2 = ("d1", "e1", "f1", "d2", "f2", "d3", "e3", "f3")
    assert legal(g) == {f"deploy Knight {sq}" for sq in around_e2}
    play(g, "deploy Knight d3")
    pass_until(g, SW)
    assert g.turn == 5
    return g


def test_the_news_names_the_partner_who_ordered_the_shared_king() -> None:
    g = state(TEAM, active=SE)
    play(g, "march e1 d1")
    seat, owner = g.seat_name(SE), g.seat_name(SW)
    assert f"{seat}: {owner}'s King e1-d1" in g.log


def test_the_partner_may_not_order_the_king_just_ordered() -> None:
    g = kings_example()
    # The restriction binds the partner only: seat 0 may order the King again.
    assert "march e2 e3" in moves_from(g, "e2")


@pytest.mark.parametrize("again", [False, True])
def test_the_partner_may_order_the_king_once_it_rested_a_turn(again) -> None:
    g = kings_example()
    if again:
        play(g, "march e2 e3")  # player 1 orders it on his following turn too
    pass_until(g, SE)
    assert g.this_turn.phase == "order" and g.turn == 7
    king = "e3" if again else "e2"
    assert bool(moves_from(g, king)) is not again


def test_the_kings_owner_is_bound_like_any_partner() -> None:
    g = state(TEAM, "K0e1 K1e8 P0a2", last_orders={SE: ["e1"]})
    assert g.active == SW and g.this_turn.phase == "order"
    assert moves_from(g, "e1") == set()
    g = state(TEAM, "K0e1 K1e8 P0a2", last_orders={NW: ["e1"]})  # an opponent's do not count
    assert moves_from(g, "e1") != set()


def test_the_team_games_refusals_say_its_rules() -> None:
    g = state(TEAM, "K0e1 K1e8 P0a2 P2h2 P1a7", last_orders={SE: ["e1"]})
    assert g.why_illegal(("march", "e1", "e2")) == (
        "The King on e1 took your ally's order on their turn just before: you cannot order it now"
    )
    assert g.why_illegal(("march", "h2", "h3")) == (
        "The Pawn on h2 is your ally blue south-east's: allies do not command each other's units"
    )
    assert g.why_illegal(("march", "a7", "a6")) == "The Pawn on a7 is gold north-east's"


def test_the_shell_says_the_team_games_reason() -> None:
    from crownp2p.shell.parser import why_not

    g = state(TEAM, "K0e1 K1e8 P0a2", last_orders={SE: ["e1"]})
    assert why_not("e1e2", g, SW).startswith(
        "The King on e1 took your ally's order on their turn just before: "
        "you cannot order it now. Possible now:"
    )


def test_another_sovereign_may_still_take_an_order() -> None:
    g = state(TEAM, "K0e1 K2a1 K1e8", active=SE, last_orders={SW: ["e1"]}, hands={SE: ["Wish"]})
    assert moves_from(g, "e1") == set()
    assert moves_from(g, "a1") == {"march a1 a2", "march a1 b2", "march a1 b1"}
    # Choosing with a card played for its Order is an order too (Wish).
    play(g, "play Wish 2")
    assert legal(g) == {"protect a1", "done"}


def test_guard_deploys_next_to_the_shared_king() -> None:
    g = state(TEAM, active=SE, hands={SE: ["Guard"]}, barracks={SE: ["Rook"]})
    play(g, "play Guard 2")
    assert legal(g) == {f"deploy Rook {sq}" for sq in ("d1", "d2", "e2", "f2", "f1")}


# ------------------------------------------------------------------------- allied units


def test_allied_units_block_and_cannot_be_captured_or_ordered() -> None:
    g = state(TEAM, "K0e1 K1e8 R0a4 P2c4 P3a6")
    assert moves_from(g, "a4") == {
        "march a4 b4",
        "march a4 a5",
        "attack a4 a6",
        "march a4 a3",
        "march a4 a2",
        "march a4 a1",
    }
    assert moves_from(g, "c4") == set()


@pytest.mark.parametrize("ordered", [False, True])
def test_spy_swaps_with_a_shared_sovereign_not_an_allys_unit(ordered) -> None:
    g = state(
        TEAM,
        "K0e1 K1e8 S2d2 P0c3 P2h2 P1e3",
        active=SE,
        last_orders={SW: ["e1"]} if ordered else None,
    )
    # The swap orders only the Spy, so it is allowed even when the partner ordered the King.
    assert moves_from(g, "d2") == {"swap d2 e1", "swap d2 h2", "attack d2 e3"}
    assert bool(moves_from(g, "e1")) is not ordered
    play(g, "swap d2 e1")
    assert at(g, "d2") == "King0" and at(g, "e1") == "Spy2"


def test_consort_moves_only_own_units_next_to_own_regals() -> None:
    g = state(TEAM, "K0e1 K1e8 N0b1 Q2d4 P2c2", phase="action", hands={SW: ["Consort", "Peon"]})
    assert g.this_turn.phase == "action" and g.active == SW
    assert "play Consort 2" not in legal(g)  # the ally's Queen is not one of ours
    g = state(TEAM, "K0e1 K1e8 N0b1 Q2d4 P2c2 Q0h4", phase="action", hands={SW: ["Consort"]})
    play(g, "play Consort 2")
    assert legal(g) == {f"move b1 {sq}" for sq in ("g3", "g4", "g5", "h3", "h5")}


def test_subterfuge_swaps_only_own_units() -> None:
    g = state(TEAM, "K0e1 K1e8 N0b1 N2g1", phase="action", hands={SW: ["Subterfuge", "Peon"]})
    assert g.this_turn.phase == "action" and g.active == SW
    assert "play Subterfuge 2" not in legal(g)
    g = state(TEAM, "K0e1 K1e8 N0b1 N2g1 N0c3", phase="action", hands={SW: ["Subterfuge"]})
    play(g, "play Subterfuge 2")
    assert legal(g) == {"swap b1 c3"}


def test_false_orders_moves_an_enemy_of_either_opponent_never_an_ally() -> None:
    g = state(TEAM, "K0e1 K1e8 P2c2 P1f7 P3h7", hands={SW: ["False Orders"]})
    play(g, "play 'False Orders' 1")
    assert legal(g) == {"march f7 f6", "march f7 f5", "march h7 h6", "march h7 h5"}


def test_destiny_morphs_own_units_and_the_shared_king_not_an_allys() -> None:
    g = state(
        TEAM,
        "K0e1 K1e8 P2a2 P0c2",
        active=SE,
        phase="action",
        hands={SE: ["Destiny", "Peon"]},
        decks={SE: ["Guard"]},
    )
    play(g, "play Destiny 2", "trash Peon")
    assert legal(g) == {"morph a2", "morph e1"}


def test_threats_come_from_both_opponents_not_the_ally() -> None:
    # Heir marches the King to an unthreatened square: seat 1's Rook holds the d-file and
    # seat 3's the f-file; the ally's Bishop on c4 looking at e2 is no threat.
    g = state(TEAM, "K0e1 K1e8 R1d8 R3f8 B2c4", hands={SW: ["Heir"]})
    play(g, "play Heir 2")
    assert legal(g) == {"march e1 e2"}


@pytest.mark.parametrize(
    "seat",
    [
        SW,
        SE,
    ],
)
def test_sanctuary_marches_next_to_the_shared_king(seat) -> None:
    g = state(TEAM, f"K0e1 K1e8 R{seat}a2", active=seat, hands={seat: ["Sanctuary"]})
    assert "play Sanctuary 1" in legal(g)
    play(g, "play Sanctuary 1")
    assert legal(g) == {"march a2 d2", "march a2 e2", "march a2 f2"}


# ------------------------------------------------------------------------- shield counters


def false_orders_game(pawn_owner: int, extra: str = "", orders: int = 1) -> Game:
    # Seat 1 is the rulebook's player 1: player 2 is seat 2, player 3 (its ally) seat 3,
    # player 4 seat 0. Seat 3's Bishop on f7 would capture on d5.
    return state(
        TEAM,
        f"K0e1 K1e8 P{pawn_owner}d4 B3f7 {extra}",
        active=NE,
        hands={NE: ["False Orders", "Peon"]},
        counters={"orders": orders},
    )


def test_shield_the_rulebooks_example_player_4s_pawn() -> None:
    g = false_orders_game(SW)
    play(g, "play 'False Orders' 1", "march d4 d5")
    assert unit_at(g, "d5").uncapturable  # the last order moved an enemy unit
    pass_until(g, SE)
    assert unit_at(g, "d5").uncapturable
    pass_until(g, NW)
    assert g.this_turn.phase == "order"
    assert "march f7 e6" in moves_from(g, "f7")
    assert "attack f7 d5" not in moves_from(g, "f7")  # player 3 cannot capture it
    pass_until(g, SW)
    assert not unit_at(g, "d5").uncapturable  # its owner's turn removes the shield
    assert moves_from(g, "d5") == set()  # and False Orders froze it for this turn


def test_the_log_names_the_shielded_units_square() -> None:
    g = false_orders_game(SW)
    play(g, "play 'False Orders' 1", "march d4 d5")
    shield = [line for line in g.log if "shield counter" in line]
    assert shield == ["gold north-east: a shield counter goes on the Pawn on d5"]


def test_shield_the_rulebooks_example_player_2s_pawn() -> None:
    g = false_orders_game(SE)
    play(g, "play 'False Orders' 1", "march d4 d5")
    assert unit_at(g, "d5").uncapturable
    pass_until(g, SE)
    assert not unit_at(g, "d5").uncapturable  # gone before player 3's turn
    pass_until(g, NW)
    assert "attack f7 d5" in moves_from(g, "f7")


def test_shield_covers_only_the_moved_unit() -> None:
    g = state(TEAM, "K0e1 K1e8 R3a4 P0c4 N0f4", active=NE, hands={NE: ["False Orders", "Peon"]})
    play(g, "play 'False Orders' 1", "march c4 c5")
    assert unit_at(g, "c5").uncapturable and not unit_at(g, "f4").uncapturable
    pass_until(g, NW)
    # The Pawn's move opened the fourth rank: the Knight it uncovered can be taken.
    assert "attack a4 f4" in moves_from(g, "a4")


def test_shield_goes_on_both_units_an_enemy_spys_swap_moves() -> None:
    g = state(TEAM, "K0e1 K1e8 S3d5 N3h8 R2d1", active=SW, hands={SW: ["False Orders"]})
    play(g, "play 'False Orders' 1", "swap d5 h8")
    assert unit_at(g, "d5").kind.name == "Knight" and unit_at(g, "d5").uncapturable
    assert unit_at(g, "h8").kind.name == "Spy" and unit_at(g, "h8").uncapturable
    pass_until(g, SE)  # the ally plays before the owner: neither moved unit may be taken
    assert "attack d1 d5" not in moves_from(g, "d1")


def test_false_orders_captures_as_the_owner_could_even_the_players_ally() -> None:
    # Our call 12: seat 1's Rook, moved by seat 0, may take seat 2's Pawn (seat 0's ally) and
    # seat 0's own, but not seat 3's (the Rook owner's ally).
    g = state(TEAM, "K0e1 K1e8 R1d5 P2d3 P0h5 P3a5", active=SW, hands={SW: ["False Orders"]})
    play(g, "play 'False Orders' 1")
    assert {d for d in legal(g) if d.startswith("attack")} == {"attack d5 d3", "attack d5 h5"}


def test_no_shield_on_an_enemy_oracle_that_captured_without_moving() -> None:
    g = state(TEAM, "K0e1 K1e8 O3d5 P0d3 R2a5", active=SW, hands={SW: ["False Orders"]})
    play(g, "play 'False Orders' 1", "attack d5 d3")
    assert unit_at(g, "d5").kind.name == "Oracle" and not unit_at(g, "d5").uncapturable
    pass_until(g, SE)
    assert "attack a5 d5" in moves_from(g, "a5")  # only a moved unit is shielded


@pytest.mark.parametrize(
    "then, shielded",
    [
        ("march e8 e7", False),  # False Orders was not the last order
        ("end", True),  # our call 5: the last order given, even with orders left
    ],
)
def test_shield_only_after_the_last_order(then, shielded) -> None:
    g = false_orders_game(SW, orders=2)
    play(g, "play 'False Orders' 1", "march d4 d5", then)
    assert g.this_turn.phase == "action" and g.active == NE
    assert unit_at(g, "d5").uncapturable is shielded
    if then != "end":
        assert not unit_at(g, "e7").uncapturable  # an own unit is never shielded
    pass_until(g, NW)
    assert ("attack f7 d5" in moves_from(g, "f7")) is not shielded


# ------------------------------------------------------------------------- enemy cards


def test_astrology_looks_at_one_chosen_opponents_hand() -> None:
    g = state(
        TEAM,
        hands={SW: ["Astrology"], NE: ["Tower", "Peon"], SE: ["Guard"], NW: ["Clergy", "Guard"]},
    )
    play(g, "play Astrology 2")
    assert g.prompt().kind == "target"
    assert legal(g) == {"target 1", "target 3"}  # the two opponents
    play(g, "target 3")
    assert (g.this_turn.orders, g.this_turn.buys, g.this_turn.gold) == (1, 2, 1)
    assert g.view(SW)["this_turn"]["glimpses"] == [[SW, [[NW, ["Clergy", "Guard"]]]]]
    assert "hand" not in g.view(SW)["players"][NE]


def test_false_orders_reveals_one_chosen_opponents_top_card() -> None:
    g = state(
        TEAM,
        phase="action",
        hands={SW: ["False Orders"]},
        decks={NE: ["Tower", "Peon"], NW: ["Clergy"]},
    )
    play(g, "play 'False Orders' 2")
    assert legal(g) == {"target 1", "target 3"}
    play(g, "target 1")
    assert legal(g) == {"trash Tower", "keep Tower"}
    play(g, "trash Tower")
    assert zone(g, NE, "deck") == ["Peon"] and zone(g, NW, "deck") == ["Clergy"]
    assert [g.cards[c] for c in g.trash] == ["Tower"]


def test_with_one_opponent_no_target_is_chosen() -> None:
    g = state(STANDARD, phase="action", hands={0: ["False Orders"]}, decks={1: ["Tower"]})
    play(g, "play 'False Orders' 2")
    assert legal(g) == {"trash Tower", "keep Tower"}


# ------------------------------------------------------------------------- Mourning


def mourning_game() -> Game:
    # Blue's Queen d1 takes d5; next to d5: c6 (seat 1), e6 (seat 3), e4 (seat 2, the ally)
    # and c4 (seat 0, the Mourning player's own).
    g = state(
        TEAM,
        "K0e1 K1e8 Q0d1 P1d5 N1c6 B3e6 R2e4 P0c4",
        hands={SW: ["Mourning"]},
        counters={"orders": 2},
    )
    play(g, "play Mourning 2")
    assert legal(g) == {"attack d1 d5"}
    play(g, "attack d1 d5")
    return g


def test_changed_mourning_lasts_until_the_mourning_players_next_turn() -> None:
    g = mourning_game()
    assert at(g, "d5") == "Queen0"
    assert moves_from(g, "c4") == set()  # no orders until seat 0's next turn
    assert moves_from(g, "e1")  # the King was not next to d5
    pass_until(g, NE)
    assert g.this_turn.phase == "order" and moves_from(g, "c6") == set()
    pass_until(g, SE)
    assert g.this_turn.phase == "order" and moves_from(g, "e4") == set()
    pass_until(g, NW)  # the other opponent's turn too
    assert g.this_turn.phase == "order" and moves_from(g, "e6") == set()
    assert moves_from(g, "e8")
    pass_until(g, SW)
    assert moves_from(g, "c4") == {"march c4 c5"}
    pass_until(g, NE)
    assert moves_from(g, "c6")


def test_changed_mourning_survives_a_saved_state() -> None:
    g = mourning_game()
    pass_until(g, NE)
    restored = Game.from_json(TEAM, g.to_json())
    assert legal(restored) == legal(g)


def test_explicit_state_accepts_frozen_until() -> None:
    data = state(TEAM, "K0e1 K1e8 N1c6", active=NE).to_json()
    (c6,) = [entry["uid"] for entry in data["board"] if entry["square"] == "c6"]
    data["packs"]["all_kings_men"]["frozen_until"] = [[c6, SW]]
    g = Game.from_json(TEAM, data)
    assert moves_from(g, "c6") == set()


def test_wish_by_the_ally_protects_the_shared_king_until_the_wishers_next_turn() -> None:
    g = state(TEAM, "K0e1 K1e8 R1e5", active=SE, hands={SE: ["Wish"]})
    play(g, "play Wish 2", "protect e1")
    assert unit_at(g, "e1").uncapturable
    pass_until(g, NE)  # after seat 3's and seat 0's turns; seat 2's next turn is later
    assert "attack e5 e1" not in moves_from(g, "e5")


# ------------------------------------------------------------------------- hands, winning


def test_allies_see_each_others_hands() -> None:
    hands = {SW: ["Peon"], NE: ["Guard"], SE: ["Tower"], NW: ["Clergy"]}
    g = state(TEAM, hands=hands)
    sees = {SW: {SW, SE}, NE: {NE, NW}, SE: {SW, SE}, NW: {NE, NW}}
    for viewer in range(4):
        players = g.view(viewer)["players"]
        assert {s for s, p in enumerate(players) if "hand" in p} == sees[viewer]
        for s in sees[viewer]:
            assert players[s]["hand"] == hands[s]
        assert all(p["hand_size"] == 1 for p in players)


def test_a_side_wins_at_the_end_of_the_turn_its_enemies_have_no_sovereign() -> None:
    g = state(TEAM, "K0e1 K1e8 R3e5", active=NW, hands={NW: ["Peon"]}, barracks={SE: ["King"]})
    play(g, "attack e5 e1")
    assert not g.over  # the end of the turn decides
    play(g, "end", "end")
    # A King in the Barracks does not count: gold (seats 1 and 3) wins together.
    assert g.over and g.winner == 1


def test_no_player_is_eliminated_while_the_side_has_a_sovereign() -> None:
    g = state(TEAM, "K0e1 K2c1 K1e8 R3e5", active=NW, hands={NW: ["Peon"]})
    play(g, "attack e5 e1", "end", "end")
    # Seat 0 has nothing left on the board, yet plays its turn and orders the shared King.
    assert g.active == SW and not g.over
    assert moves_from(g, "c1") == {
        "march c1 b1",
        "march c1 b2",
        "march c1 c2",
        "march c1 d2",
        "march c1 d1",
    }


# ------------------------------------------------------------------------- playouts

PLAYOUT_SETUPS = [
    ("random", ()),
    ("tournament-4", ("conscript",)),  # Astrology, False Orders, Mourning, Wish
    ("tournament-2", ("watchman",)),  # False Orders, Executive Action, Wish
    ("tournament-1", ("advisor",)),  # Mourning, Subterfuge, Academy
    ("tournament-3", ("conscript", "watchman", "advisor")),  # Astrology, Destiny, Executive
]
MAX_TURNS = 48


def check_invariants(g: Game, owner: dict[int, int], start: list[dict[str, int]]) -> None:
    # Every card is in exactly one place, and no card changes seat.
    places = [c for p in g.players for z in ZONES for c in getattr(p, z)] + g.trash
    assert sorted(places) == list(range(len(g.cards)))
    for seat, p in enumerate(g.players):
        assert all(owner[c] == seat for z in ZONES for c in getattr(p, z))
    # Each Supply lost exactly what its wing's seats gained.
    starting = Counter(g.setup.deck_list())
    for wing, supply in enumerate(g.supplies):
        gained: Counter[str] = Counter()
        for seat in range(4):
            if TEAM.supply_index(g, seat) == wing:
                mine = Counter(g.cards[c] for c, s in owner.items() if s == seat)
                gained += mine - starting
        for name, left in supply.items():
            assert left >= 0
            assert start[wing][name] - left == gained.get(name, 0), (wing, name)
        assert set(gained) <= set(supply)
    # One unit per square, each unit once.
    units = [u for _, u in g.position.units()]
    assert len({id(u) for u in units}) == len(units) == len({u.uid for u in units})
    assert (
        g.this_turn.orders >= 0
        and g.this_turn.actions >= 0
        and g.this_turn.buys >= 0
        and g.this_turn.gold >= 0
    )


def check_views(g: Game) -> None:
    for viewer in range(4):
        view = g.view(viewer)
        for other, p in enumerate(view["players"]):
            assert ("hand" in p) == (not TEAM.seating.are_enemies(viewer, other))
            assert isinstance(p["deck"], int)
        assert all(x[0] == viewer for x in view["this_turn"]["glimpses"])
        assert ("legal" in view) == (g.prompt().seat == viewer)


def playout(seed: int) -> None:
    supply, options = PLAYOUT_SETUPS[seed % len(PLAYOUT_SETUPS)]
    g = Game(TEAM, CATALOG.setup(supply, variant="team", options=options))
    seeds = SeedSource(seed)
    rng = random.Random(seed)
    bots = [make_bot("random", f"{seed}:{s}") for s in range(4)]
    record = Record.begin(g)
    owner = {c: s for s, p in enumerate(g.players) for z in ZONES for c in getattr(p, z)}
    start: list[dict[str, int]] | None = None
    turn = 0
    while not g.over and g.turn <= MAX_TURNS:
        prompt = g.prompt()
        if prompt.seat == CHANCE:
            record.apply(g, ("seed", seeds.next_seed()))
            continue
        if start is None:
            start = [dict(s) for s in g.supplies]
            for s in g.supplies:
                assert set(CORE) <= set(s) and len(variable_piles(s)) == 10
            assert not set(variable_piles(g.supplies[0])) & set(variable_piles(g.supplies[1]))
        if g.turn != turn:
            turn = g.turn
            assert g.active == (turn - 1) % 4  # the hourglass: 0, 1, 2, 3, 0 …
            check_views(g)
        legal_now = g.legal()
        assert legal_now, f"seed {seed}: a prompt with no answer: {prompt}"
        assert len(set(legal_now)) == len(legal_now)
        check_invariants(g, owner, start)
        if rng.random() < 0.1:
            check_views(g)
        before, active = len(g.cards), g.active
        record.apply(g, bots[prompt.seat].decide(g, prompt.seat))
        for c in range(before, len(g.cards)):
            owner[c] = active  # gains happen on the gaining seat's own turn
    assert g.over or g.turn > MAX_TURNS
    if g.over:
        alive = {TEAM.seating.sides[u.owner] for _, u in g.position.units() if u.kind.is_sovereign}
        assert g.winner is None or alive == {g.winner}
    verdict = verify(TEAM, record)
    assert verdict.ok, f"seed {seed}: replay differs at step {verdict.seq}: {verdict.reason}"


@pytest.mark.parametrize("chunk", range(3))
def test_random_four_player_playouts(chunk: int) -> None:
    for seed in range(chunk * 10, chunk * 10 + 10):
        playout(seed)
