"""The values the steps of one effect share, declared once.

A step keeps what a later step needs in its frame (``Frame.vars``, plain data, hashed and saved);
it reads and writes it only through a :class:`Key` constant, never a string typed at the call, so
a misspelled key is a ``NameError`` at import. Each step also declares the keys it reads and
writes (``EffectStep.reads``/``EffectStep.writes``), and an effect whose step reads a key no
earlier step writes is refused when the card is defined (``cards.Effect``): a card cannot
silently do less.

The key's ``name`` is the key of the frame's serialised ``vars``: renaming one changes every
state hash taken while a card waits on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Key(Generic[T]):
    """A value of type ``T`` kept in a frame under ``name``. ``given``: the game puts it in the
    frame when the effect starts, so no step need write it first."""

    name: str
    given: bool = False


# What the game itself gives a frame.
TREASURES_BEFORE = Key[int]("treasures_before", given=True)  # a Treasure effect: Legend
PROMOTING = Key[int]("square", given=True)  # the square of the unit to promote
