"""Decisions: plain tuples of strings with a stable text form.

A decision is what a seat (or chance) answers to the game's prompt: ``("march", "e2", "e4")``,
``("play", "Stables", "1")``, ``("buy", "Tower")``, ``("end",)``. Its text form joins the words
with spaces and quotes the ones that hold a space, so ``play 'Executive Action' 2`` parses back
to the same tuple.
"""

from __future__ import annotations

import shlex

Decision = tuple[str, ...]


class IllegalDecision(ValueError):
    """A decision that is not in the current legal list; the message says why."""


def decision_text(decision: Decision) -> str:
    return " ".join(shlex.quote(word) for word in decision)


def not_possible(decision: Decision) -> str:
    """The reason given when there is nothing more particular to say."""
    return f"`{decision_text(decision)}` is not possible now"


def parse_decision(text: str) -> Decision:
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ValueError(f"cannot read {text!r}: {err}") from None
    if not words:
        raise ValueError("an empty line is not a decision")
    return tuple(words)
