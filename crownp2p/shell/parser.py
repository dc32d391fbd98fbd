"""What the player types, turned into engine decisions.

Every legal decision's own text form is accepted (any case), plus short forms: ``e2e4``,
``e2-e4``, ``e2xd3``, ``e2 e4``; ``play Stables`` when only one of its effects fits; ``treasure
all``; card and unit names in any case. Anything else gets one sentence saying why, with a
"did you mean" when something legal is close.
"""

from __future__ import annotations

import difflib
import re
import shlex

from ..core.decisions import Decision, decision_text

MOVE_KINDS = ("march", "attack", "swap")
_SQUARES = re.compile(r"^([a-h][1-8])\s*[-x ]?\s*([a-h][1-8])$")


class InputError(ValueError):
    """A line that is no legal decision; the message is the one sentence to show."""


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def parse_input(text: str, legal: list[Decision]) -> list[Decision]:
    """The decisions ``text`` stands for (several for ``treasure all``)."""
    line = " ".join(text.strip().split())
    if not line:
        raise InputError("Type a move, or `help`.")
    lower = line.lower()
    by_text = {decision_text(d).lower(): d for d in legal}
    by_words = {" ".join(d).lower(): d for d in legal}
    if lower in by_text:
        return [by_text[lower]]
    if lower in by_words:
        return [by_words[lower]]
    if lower == "treasure all":
        treasures = [d for d in legal if d[0] == "treasure"]
        if not treasures:
            raise InputError("There is no Treasure to play now.")
        return treasures
    found = _squares(lower, legal)
    if found is not None:
        return [found]
    words = [w.lower() for w in _words(line)]
    if words and words[0] in ("play", "p") and len(words) >= 2:
        name = " ".join(words[1:])
        plays = [d for d in legal if d[0] == "play" and d[1].lower() == name]
        if len(plays) == 1:
            return plays
        if len(plays) > 1:
            options = " or ".join(f"`{decision_text(d)}`" for d in plays)
            raise InputError(f"{plays[0][1]} has two effects you can play: type {options}.")
    if words and words[0] in ("end", "done", "pass", "skip"):
        for choice in (("end",), ("done",)):
            if choice in legal:
                return [choice]
    raise InputError(_why_not(line, legal))


def _squares(lower: str, legal: list[Decision]) -> Decision | None:
    m = _SQUARES.match(lower)
    if not m:
        return None
    frm, to = m.groups()
    matches = [
        d
        for d in legal
        if len(d) == 3 and d[0] in MOVE_KINDS + ("move",) and d[1] == frm and d[2] == to
    ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:  # never happens with the engine's forms, but say so rather than guess
        options = " or ".join(f"`{decision_text(d)}`" for d in matches)
        raise InputError(f"{frm}{to} could be {options}.")
    from_here = [d for d in legal if len(d) == 3 and d[1] == frm and d[0] in MOVE_KINDS + ("move",)]
    if from_here:
        targets = " ".join(sorted({d[2] for d in from_here}))
        raise InputError(f"The unit on {frm} cannot go to {to} now; it can go to: {targets}.")
    raise InputError(f"Nothing on {frm} can move now.")


def _why_not(line: str, legal: list[Decision]) -> str:
    texts = [decision_text(d) for d in legal]
    close = difflib.get_close_matches(line, texts, n=1, cutoff=0.6)
    hint = f" Did you mean `{close[0]}`?" if close else ""
    verbs = sorted({d[0] for d in legal})
    return f"`{line}` is not possible now.{hint} Possible now: {', '.join(verbs)} (try `help`)."
