"""bench/sealed.py runs: it checks the shuffle it times opens to every card of the deck."""

from __future__ import annotations

from benches import bench


def test_the_benchmark_times_an_honest_shuffle_it_has_checked() -> None:
    seal, draw, checked = bench("sealed").measure(seats=2, cards=6, repeat=1)
    assert seal > 0 and draw > 0 and checked > 0
