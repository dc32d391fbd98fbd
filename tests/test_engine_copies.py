"""What a search needs of a copy: ``Game.clone()`` hashes equal and plays on alone, and the legal
decisions come in the same order after a clone, a save and restore, and a replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from real_games import games, play, positions

from crownp2p.core.decisions import Decision
from crownp2p.core.game import CHANCE, Game, Passed


def choose(game: Game, pick: int) -> Decision:
    if game.prompt().seat == CHANCE:
        return ("seed", f"{pick:064x}")
    legal = game.legal()
    return legal[pick % len(legal)]


def fingerprint(game: Game) -> tuple[str, list[str], list[Decision], list[Passed]]:
    # the phases the engine passed by itself are kept beside the state: copied all the same
    return game.state_hash(), list(game.log), game.legal(), list(game.passed)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_clone_hashes_equal_and_plays_on_alone(data: st.DataObject) -> None:
    rules, state = data.draw(st.sampled_from(positions()))
    original = Game.from_json(rules, state)
    reference = Game.from_json(rules, state)  # plays the clone's decisions the slow way
    clone = original.clone()
    assert fingerprint(clone) == fingerprint(original)
    before = fingerprint(original)
    for pick in data.draw(st.lists(st.integers(0, 1000), min_size=1, max_size=8)):
        if clone.over:
            break
        decision = choose(clone, pick)
        clone.apply(decision)
        reference.apply(decision)
        assert fingerprint(clone) == fingerprint(reference)
        assert fingerprint(original) == before
    # And the other way round: the original playing on leaves the clone as it was.
    after = fingerprint(clone)
    if not original.over:
        original.apply(choose(original, data.draw(st.integers(0, 1000))))
        assert fingerprint(clone) == after


def test_legal_keeps_its_order_after_a_clone_a_restore_and_a_replay() -> None:
    for seed, (rules, setup) in enumerate(games()):
        record = play(rules, setup, 100 + seed)
        live = Game(rules, setup)
        replayed = record.replay(rules)
        next(replayed)
        for step in record.steps:
            legal = live.legal()
            assert live.clone().legal() == legal, step.seq
            assert Game.from_json(rules, live.to_json()).legal() == legal, step.seq
            unlisted = Game.from_json(rules, live.to_json())  # decides without legal()
            unlisted.apply(step.decision)
            live.apply(step.decision)
            game, _ = next(replayed)
            assert game.legal() == live.legal(), step.seq
            assert unlisted.state_hash() == live.state_hash()
            assert unlisted.legal() == live.legal(), step.seq
