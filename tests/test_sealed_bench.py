"""bench/sealed.py runs: it checks that the shuffle it times opens to every card of the deck."""

from __future__ import annotations

from benches import bench


def test_the_benchmark_times_an_honest_shuffle_it_has_checked() -> None:
    figures = bench("sealed").measure(seats=2, cards=6, repeat=1)
    assert set(figures) == {"seal", "draw", "audit"}
    assert all(value > 0 for value in figures.values())


def test_it_audits_the_shuffles_of_the_game_net_game_plays() -> None:
    sealed = bench("sealed")
    sizes = sealed.shuffle_sizes(0, turns_each=3)
    assert sizes[:2] == [10, 10]  # the deal: each seat's ten starting cards
    assert len(sizes) > 2 and all(size > 0 for size in sizes)
    assert sealed.game_audit_ms(sizes) > 0
