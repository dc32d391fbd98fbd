"""A dataclass of plain values as plain data, and back: how the explicit state writes the turn
and the packs' own state without listing their fields by hand.

Fields are written in the order the dataclass declares them; a dict becomes a list of
``[key, value]`` pairs sorted by key (its keys need not be strings, and the hash must never see
insertion order). Reading goes by the fields' annotations, so a field missing from the data
keeps its default.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar, cast

T = TypeVar("T")

# Only these scalar types may sit in a plain dataclass: what JSON and msgpack carry as they are.
SCALARS = (int, str, bool, float, type(None))


def plain(value: Any) -> Any:
    if isinstance(value, SCALARS):
        return value
    names = _fields(type(value))
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return [[plain(k), plain(v)] for k, v in sorted(value.items())]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    raise TypeError(f"{type(value).__name__} is not plain data")


_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _fields(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, in order (None: not one), found once per class: the
    state hash writes the turn's dataclasses at every step."""
    try:
        return _FIELDS[cls]
    except KeyError:
        names = (
            tuple(f.name for f in dataclasses.fields(cls))
            if dataclasses.is_dataclass(cls)
            else None
        )
        _FIELDS[cls] = names
        return names


def copied(value: T) -> T:
    """An independent copy of plain data or a dataclass of it (what ``plain`` writes, kept in
    its own types): cheaper than a round trip, and nothing of it is shared."""
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, list):
        return cast(T, [copied(v) for v in value])
    if isinstance(value, dict):
        return cast(T, {k: copied(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return cast(T, tuple(copied(v) for v in value))
    names = _fields(type(value))
    if names is not None:
        return type(value)(**{name: copied(getattr(value, name)) for name in names})
    raise TypeError(f"{type(value).__name__} is not plain data")


def from_plain(cls: type[T], data: dict[str, Any]) -> T:
    """An instance of the dataclass ``cls`` from ``plain`` data; absent fields keep defaults."""
    hints = _hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    return cls(**{name: _read(hints[name], data[name]) for name in names if name in data})


def _read(kind: Any, value: Any) -> Any:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is list:
        return [_read(args[0], v) for v in value]
    if origin is dict:
        return {_read(args[0], k): _read(args[1], v) for k, v in value}
    if origin in (types.UnionType, typing.Union):  # X | None
        if value is None:
            return None
        return _read(next(a for a in args if a is not type(None)), value)
    if dataclasses.is_dataclass(kind):
        return from_plain(kind, value)  # type: ignore[arg-type]
    if kind in SCALARS:
        return kind(value)
    raise TypeError(f"{kind!r} is not a plain type")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The dataclass's field types, resolved once per class (its annotations are strings)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints
