"""bench/sealed.py runs: it checks that the shuffle it times opens to every card of the deck."""

from __future__ import annotations

from benches import bench


def test_the_benchmark_times_an_honest_shuffle_it_has_checked() -> None:
    figures = bench("sealed").measure(seats=2, cards=6, repeat=1)
    assert set(figures) == {"seal", "draw", "audit"}
    assert all(value > 0 for value in figures.values())
