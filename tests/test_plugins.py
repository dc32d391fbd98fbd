"""The pack system: every hook works and is documented; broken packs are skipped, not fatal."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from crownp2p import hookspecs
from crownp2p.core.cards import ACTION, TREASURE, CardRegistry, CardType, Effect
from crownp2p.core.game import CHANCE, Game
from crownp2p.core.movement import KING_STEPS, Leap
from crownp2p.core.rules import Rules
from crownp2p.core.steps import Draw, Plus
from crownp2p.core.units import UnitClass, UnitType
from crownp2p.hookspecs import SetupOption, Variant, hookimpl
from crownp2p.packs import load

DOCS = Path(__file__).parent.parent / "docs" / "plugins.md"
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("crownp2p_"))
SCOUT = CardType(
    "Scout",
    3,
    (
        Effect(ACTION, "Draw two cards and get one more action.", (Draw(2), Plus(actions=1))),
        Effect(TREASURE, "Add 2 gold.", (Plus(gold=2),)),
    ),
)
WYVERN = UnitType("Wyvern", "L", (UnitClass.REGAL,), (Leap(KING_STEPS),))


class SamplePack:
    """A pack that uses every hook once."""

    @hookimpl
    def crownp2p_units(self, register: Any) -> None:
        register(WYVERN)

    @hookimpl
    def crownp2p_cards(self, register: Any) -> None:
        register(SCOUT, "variable")
        register(
            CardType(
                "Roost",
                5,
                (
                    Effect("training", "Trash this card and put a Wyvern in your Barracks."),
                    Effect(TREASURE, "Add 1 gold.", (Plus(gold=1),)),
                ),
                trains="Wyvern",
                train_count=1,
            ),
            "variable",
        )

    @hookimpl
    def crownp2p_supplies(self, register: Any) -> None:
        register("scouting", ("Scout", "Roost", "Stables"))

    @hookimpl
    def crownp2p_setup_options(self, register: Any) -> None:
        from dataclasses import replace

        register(SetupOption("small-hands", "hands of four", lambda s: replace(s, hand_size=4)))

    @hookimpl
    def crownp2p_variants(self, register: Any) -> None:
        register(Variant("gold-first", "gold moves first", GoldFirst))
        register(Variant("tally", "the rules count each seat's turns", Tally, state=TurnTally))


class GoldFirst(Rules):
    def first_seat(self) -> int:
        return 1


@dataclass
class TurnTally:
    """A variant's own state: no field of it is known to core."""

    turns: dict[int, int] = field(default_factory=dict)  # seat -> turns begun
    last: str = ""


class Tally(Rules):
    def turn_started(self, game: Game, seat: int) -> None:
        tally = game.pack_state(TurnTally)
        tally.turns[seat] = tally.turns.get(seat, 0) + 1
        tally.last = self.seat_name(seat)


def dealt(game: Game) -> Game:
    while game.prompt().seat == CHANCE:
        game.apply(("seed", "42" * 32))
    return game


@pytest.fixture
def catalog():
    return load([("test_pack", SamplePack())], entry_points=False)


# ------------------------------------------------------------------ documentation and coverage


def test_every_hook_is_documented() -> None:
    text = DOCS.read_text()
    missing = [h for h in HOOKS if f"### `{h}(register)`" not in text]
    assert not missing, f"undocumented hooks: {missing}"


def test_every_hook_has_a_test() -> None:
    names = [n for n in globals() if n.startswith("test_")]
    untested = [h for h in HOOKS if not any(h in n for n in names)]
    assert not untested, f"hooks with no test named after them: {untested}"


def test_the_base_game_is_registered_like_a_pack() -> None:
    catalog = load(entry_points=False)
    assert [p.name for p in catalog.packs] == ["crownp2p"]
    assert len(catalog.units) == 24 and len(catalog.cards) == 33
    assert catalog.roles["Peon"] == "starter" and catalog.roles["Tower"] == "core"
    assert len(catalog.cards_with("variable")) == 26


# ------------------------------------------------------------------ each hook


def test_crownp2p_units_adds_a_unit_that_moves(catalog) -> None:
    from crownp2p.core.board import parse_square
    from crownp2p.core.position import Position

    assert catalog.units.get("Wyvern") is WYVERN
    pos = Position.from_fen("4k3/8/8/8/3L4/8/8/4K3", catalog.units)
    assert len(pos.unit_moves(parse_square("d4"))) == 8


def test_crownp2p_cards_adds_a_card_that_plays(catalog) -> None:
    rules = catalog.rules()
    game = dealt(Game(rules, catalog.setup("Scout")))
    assert "Scout" in game.supply
    data = game.to_json()
    data["players"][0]["hand"] = ["Scout", "Peon"]
    data["players"][0]["deck"] = ["Guard", "Peon", "Peon"]
    data["this_turn"]["phase"] = "action"
    game = Game.from_json(rules, data)
    game.apply(("play", "Scout", "1"))
    hand = sorted(game.cards[c] for c in game.players[0].hand)
    assert hand == ["Guard", "Peon", "Peon"] and game.this_turn.actions == 1


def test_crownp2p_cards_training_a_new_unit(catalog) -> None:
    rules = catalog.rules()
    data = dealt(Game(rules, catalog.setup("Roost"))).to_json()
    data["players"][0]["hand"] = ["Roost"]
    data["this_turn"]["phase"] = "action"
    game = Game.from_json(rules, data)
    game.apply(("train", "Roost"))
    assert [k.name for k in game.position.barracks[0]] == ["Wyvern"]


def test_crownp2p_supplies_names_a_supply(catalog) -> None:
    assert catalog.setup("scouting").piles == ("Scout", "Roost", "Stables")


def test_crownp2p_setup_options_change_the_setup(catalog) -> None:
    setup = catalog.setup("first-game", options=["small-hands"])
    assert setup.hand_size == 4 and setup.options == ("small-hands",)
    game = dealt(Game(catalog.rules(), setup))
    assert len(game.players[0].hand) == 4


def test_crownp2p_variants_bring_their_rule_policies(catalog) -> None:
    game = dealt(Game(catalog.rules("gold-first"), catalog.setup(variant="gold-first")))
    assert game.active == 1 and game.prompt().seat == 1


# ------------------------------------------------------------------ broken packs


class Misspelled:
    @hookimpl
    def crownp2p_card(self, register: Any) -> None:  # not a hook: the spec is crownp2p_cards
        raise AssertionError("never called")


class Raises:
    @hookimpl
    def crownp2p_cards(self, register: Any) -> None:
        register(SCOUT, "variable")
        raise RuntimeError("the pack is broken")


class TakenLetter:
    @hookimpl
    def crownp2p_units(self, register: Any) -> None:
        register(UnitType("Kingfisher", "K", (UnitClass.MOUNTED,), (Leap(KING_STEPS),)))


class BadRole:
    @hookimpl
    def crownp2p_cards(self, register: Any) -> None:
        register(SCOUT, "treasure")


@pytest.mark.parametrize(
    ("pack", "reason"),
    [
        (Misspelled(), "crownp2p_card"),
        (Raises(), "the pack is broken"),
        (TakenLetter(), "letter 'K'"),
        (BadRole(), "role 'treasure'"),
    ],
)
def test_a_broken_pack_is_skipped_with_one_line(pack: object, reason: str) -> None:
    catalog = load([("broken", pack), ("test_pack", SamplePack())], entry_points=False)
    assert [p.name for p in catalog.packs] == ["crownp2p", "test_pack"]
    assert len(catalog.problems) == 1
    assert catalog.problems[0].startswith("variant pack 'broken' was skipped: ")
    assert reason in catalog.problems[0] and "\n" not in catalog.problems[0]
    assert "Kingfisher" not in catalog.units and "Scout" in catalog.cards  # from test_pack


class FakeEntryPoint:
    def __init__(self, name: str, target: Any) -> None:
        self.name = name
        self._target = target
        self.dist = None

    def load(self) -> Any:
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


def test_a_pack_that_fails_to_import_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [
        FakeEntryPoint("ghost", ImportError("No module named 'ghost'")),
        FakeEntryPoint("test_pack", SamplePack()),
    ]
    monkeypatch.setattr(metadata, "entry_points", lambda group: points)
    catalog = load()
    assert [p.name for p in catalog.packs] == ["crownp2p", "test_pack"]
    assert catalog.problems == [
        "variant pack 'ghost' was skipped: ImportError: No module named 'ghost'"
    ]


def test_an_environment_variable_limits_the_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [FakeEntryPoint("test_pack", SamplePack()), FakeEntryPoint("other", Raises())]
    monkeypatch.setattr(metadata, "entry_points", lambda group: points)
    monkeypatch.setenv("CROWNP2P_PACKS", "test_pack")
    assert [p.name for p in load().packs] == ["crownp2p", "test_pack"]
    monkeypatch.setenv("CROWNP2P_PACKS", "none")
    catalog = load()
    assert [p.name for p in catalog.packs] == ["crownp2p"] and not catalog.problems


def test_unknown_variant_and_option_are_one_sentence(catalog) -> None:
    from crownp2p.packs import PackError

    with pytest.raises(PackError, match="no variant called 'chaos'"):
        catalog.rules("chaos")
    with pytest.raises(PackError, match="no setup option called 'giant'"):
        catalog.setup(options=["giant"])
    with pytest.raises(PackError, match="the squire option is given twice"):
        catalog.setup(options=["squire", "Squire"])  # would replace two Guards


# ------------------------------------------------------------------ the command


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "crownp2p", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_plugins_json_lists_the_loaded_packs() -> None:
    out = run("plugins", "--json", env={"CROWNP2P_PACKS": "none"})
    assert out.returncode == 0
    packs = json.loads(out.stdout)
    assert packs[0]["name"] == "crownp2p" and set(packs[0]) == {"name", "version", "provides"}
    assert "card:Stables" in packs[0]["provides"] and "unit:Sphinx" in packs[0]["provides"]


def test_plugins_text_lists_what_each_pack_adds() -> None:
    out = run("plugins", env={"CROWNP2P_PACKS": "none"})
    assert out.returncode == 0
    assert re.search(r"^crownp2p \S+$", out.stdout, re.M)
    assert "Variants: standard" in out.stdout


# ------------------------------------------------------------------ a variant's own state


def test_a_variant_keeps_its_own_state_without_touching_core(catalog) -> None:
    game = dealt(Game(catalog.rules("tally"), catalog.setup(variant="tally")))
    game.apply(("end",))
    while game.prompt().seat == CHANCE or game.active == 0:
        game.apply(("seed", "42" * 32) if game.prompt().seat == CHANCE else ("end",))
    assert game.pack_state(TurnTally) == TurnTally(turns={0: 1, 1: 1}, last="gold")
    # Saved under the pack's name, as plain data.
    assert game.to_json()["packs"] == {"test_pack": {"turns": [[0, 1], [1, 1]], "last": "gold"}}


def test_a_variants_state_round_trips_and_is_hashed(catalog) -> None:
    rules = catalog.rules("tally")
    game = dealt(Game(rules, catalog.setup(variant="tally")))
    game.pack_state(TurnTally).turns[1] = 7
    restored = Game.from_json(rules, json.loads(json.dumps(game.to_json())))
    assert restored.pack_state(TurnTally) == TurnTally(turns={0: 1, 1: 7}, last="blue")
    assert restored.state_hash() == game.state_hash()
    before = game.state_hash()
    game.pack_state(TurnTally).last = "somebody else"
    assert game.state_hash() != before


def test_a_missing_variant_state_starts_fresh(catalog) -> None:
    rules = catalog.rules("tally")
    data = dealt(Game(rules, catalog.setup(variant="tally"))).to_json()
    del data["packs"]
    assert Game.from_json(rules, data).pack_state(TurnTally) == TurnTally()


def test_a_game_carries_no_state_of_variants_it_does_not_play(catalog) -> None:
    # The base game's state (and hash) does not depend on which packs are installed.
    game = dealt(Game(catalog.rules(), catalog.setup()))
    assert game.to_json()["packs"] == {}
    plain = dealt(Game(load(entry_points=False).rules(), catalog.setup()))
    assert plain.state_hash() == game.state_hash()
    with pytest.raises(KeyError, match="no TurnTally"):
        game.pack_state(TurnTally)


def test_prices_take_the_discount_off_and_count_a_card_registered_later() -> None:
    registry = CardRegistry([SCOUT])
    assert registry.prices(1) == {"Scout": 2}
    registry.register(CardType("Lance", 5, (Effect(TREASURE, "Add 1 gold.", (Plus(gold=1),)),)))
    assert registry.prices(1) == {"Scout": 2, "Lance": 4}
    assert registry.prices(4) == {"Scout": 0, "Lance": 1}  # never below nothing
