"""A table that makes each value the first time its key is asked for, and keeps it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V]):
    """``memo[key]`` is ``make(key)``, made once. For the engine's small, fixed vocabularies
    (a move's decision, a unit type's deploys): a look-up costs less than making the value
    again. Nothing iterates over one, so the order it fills in never shows: determinism is
    kept."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self._make(key)
        return value
