"""What the player types, turned into engine decisions, and the one sentence when it isn't one.

Every legal decision's own text form is accepted in any case (``march e2 e4``, ``buy Tower``),
plus short forms: ``e2e4``, ``e2-e4``, ``e2xd3``, ``e2 e4``, ``march e2e4``; ``play Stables``
when only one of its effects can be played; ``deploy Knight`` when there is one square for it;
``treasure all``; ``end`` for ``done`` and the other way round; a unique beginning of a
decision (``buy Cham``); and at a card's step the prompt's own words (``put Peon on top``), a
name alone (``Peon``) and names cut short (``morph kn``), a unit's name for its square. Two
decisions that fit are named in a question, never guessed. :func:`parse_input` needs only the
legal list (and the units' names by square), so every table (solo, networked) shares it;
:func:`why_not` asks the engine why a line is not possible (``Game.why_illegal``) and adds a
"did you mean" and what is possible instead.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Iterable, Mapping

from ..core.board import square_name
from ..core.cards import TREASURE
from ..core.decisions import Decision, decision_text, not_possible
from ..core.game import Game

MOVE_KINDS = ("march", "attack", "swap", "move")
END_WORDS = ("end", "done", "pass", "skip", "stop")
_SQUARES = re.compile(r"^(?:(march|attack|swap|move) )?([a-h][1-8]) ?[-x–×:]? ?([a-h][1-8])$")
_SQUARE = re.compile(r"\b([a-h][1-8])\b")


class InputError(ValueError):
    """A line that stands for no legal decision; the message is the reason, one sentence."""


class AmbiguousInput(InputError):
    """A line that stands for more than one legal decision; the message lists them."""


def normal(text: str) -> str:
    return " ".join(text.strip().split()).lower()


def words_of(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def find_name(text: str, names: Iterable[str], what: str) -> str:
    """The one name ``text`` stands for: a name in any case, or a unique beginning of one
    (two letters at least, as for ``buy stab``). ``what`` names the kind, for the sentence."""
    key = normal(text)
    names = list(names)
    for name in names:
        if name.lower() == key:
            return name
    starts = [name for name in names if name.lower().startswith(key)] if len(key) >= 2 else []
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise which_one(text, starts)
    raise InputError(f"There is no {what} called {' '.join(text.split())!r}")


def sentence(err: InputError) -> str:
    """The error as a sentence: a reason gets its full stop, a question keeps its mark."""
    text = str(err)
    return text if text.endswith("?") else f"{text}."


def which_one(text: str, meanings: list[str]) -> AmbiguousInput:
    """The question asked when ``text`` stands for more than one thing: it lists them."""
    listed = ", ".join(f"`{m}`" for m in meanings[:-1]) + f" or `{meanings[-1]}`"
    return AmbiguousInput(f"`{' '.join(text.split())}` could be {listed}: which one?")


# -------------------------------------------------------------------- text -> decisions


def parse_input(
    text: str, legal: list[Decision], units: Mapping[str, str] | None = None
) -> list[Decision]:
    """The decisions ``text`` stands for: one, or every Treasure for ``treasure all``.
    ``units`` (square -> the name of the unit on it, from :func:`unit_names`) lets a unit's
    name stand for its square (``morph pawn``)."""
    line = normal(text)
    if not line:
        raise InputError("Type a decision, or `help`.")
    for d in legal:
        if line in (decision_text(d).lower(), " ".join(d).lower()):
            return [d]
    if line == "treasure all":
        treasures = [d for d in legal if d[0] == "treasure"]
        if not treasures:
            raise InputError("There is no Treasure to play now")
        return treasures
    found = _squares(line, legal)
    if found is not None:
        return [found]
    words = words_of(line)
    verb, rest = words[0], " ".join(words[1:])
    if verb in END_WORDS and not rest:
        for choice in (("end",), ("done",)):
            if choice in legal:
                return [choice]
    if verb in ("play", "deploy") and rest:
        matches = [d for d in legal if d[0] == verb and _names(rest, d[1], {})]
        if len(matches) == 1:
            return matches
        if len(matches) > 1:
            options = " or ".join(f"`{decision_text(d)}`" for d in matches)
            what = "two effects you can play" if verb == "play" else "more than one square"
            raise AmbiguousInput(f"{matches[0][1]} has {what}: type {options}")
    if len(words) >= 2 and len(rest) >= 2:  # a unique beginning: "buy cham"
        starts = [d for d in legal if decision_text(d).lower().startswith(line)]
        if len(starts) == 1:
            return starts
    meant = _forgiven(line, legal, units or {})
    if len(meant) == 1:
        return meant
    if meant:
        raise which_one(text, [decision_text(d) for d in meant])
    raise InputError(f"`{' '.join(text.split())}` is not possible now")


# -------------------------------------------------------------------- forgiving words

# The words a card's prompt uses, for the decision's own verb ("put a card on top" is
# `topdeck`, "put it back" is `keep`); "choose" and "pick" add nothing to the names after them.
PROMPT_WORDS = (
    ("put it back", "keep"),
    ("put back", "keep"),
    ("put", "topdeck"),
    ("choose", ""),
    ("pick", ""),
)
FILLERS = (" on top of my deck", " on top of your deck", " on top")
# Verbs of the turn itself: typed alone they name no one decision (`buy` is no purchase).
TURN_VERBS = ("march", "attack", "deploy", "play", "train", "treasure", "buy")


def unit_names(game: Game) -> dict[str, str]:
    """Square -> the name of the unit on it, for :func:`parse_input`."""
    return {square_name(sq): unit.kind.name for sq, unit in game.position.units()}


def _forgiven(line: str, legal: list[Decision], units: Mapping[str, str]) -> list[Decision]:
    """The decisions a line in the prompt's words or with names cut short stands for:
    `put Peon` (topdeck), `Peon` alone, `morph pawn` (its square or the Barracks), `trash`
    when one card can be trashed."""
    for phrase, verb in PROMPT_WORDS:
        if line == phrase or line.startswith(phrase + " "):
            line = (verb + line[len(phrase) :]).strip()
            break
    for filler in FILLERS:
        line = line.removesuffix(filler)
    words = words_of(line)
    if not words:
        return []
    verb, names = words[0], words[1:]
    if verb in {d[0] for d in legal}:
        same = [d for d in legal if d[0] == verb]
        if not names and verb not in TURN_VERBS:
            return same
        return [d for d in same if _fits(names, list(d[1:]), units)]
    return [d for d in legal if d[0] not in END_WORDS and _fits(words, list(d[1:]), units)]


def _fits(typed: list[str], words: list[str], units: Mapping[str, str]) -> bool:
    """Do the typed words name ``words`` in order, each whole or by a beginning, a square by
    the unit on it, with "barracks" understood?"""
    if not words:
        return not typed
    word = words[0]
    if word == "barracks" and _fits(typed, words[1:], units):
        return True
    for count in range(1, len(typed) + 1):
        if _names(" ".join(typed[:count]), word, units) and _fits(typed[count:], words[1:], units):
            return True
    return False


def _names(typed: str, word: str, units: Mapping[str, str]) -> bool:
    if typed == word.lower():
        return True
    if _SQUARE.fullmatch(word):  # a square is named by the unit on it, not cut short
        word = units.get(word, "")
    return len(typed) >= 2 and word.lower().startswith(typed)


def _squares(line: str, legal: list[Decision]) -> Decision | None:
    m = _SQUARES.match(line)
    if not m:
        return None
    verb, frm, to = m.groups()
    kinds = (verb,) if verb else MOVE_KINDS
    matches = [d for d in legal if len(d) == 3 and d[0] in kinds and d[1:] == (frm, to)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:  # the engine's forms never collide, but say so rather than guess
        options = " or ".join(f"`{decision_text(d)}`" for d in matches)
        raise AmbiguousInput(f"{frm}{to} could be {options}")
    return None


# -------------------------------------------------------------------- why not

_UNKNOWN = ("There is no card called", "There is no unit called")  # a misspelt name


def why_not(text: str, game: Game, seat: int, extra_words: Iterable[str] = ()) -> str:
    """One line: why ``text`` is not possible (the engine's reason), a "did you mean", and
    what is possible now. ``extra_words`` are the shell's command names, for the "did you
    mean"."""
    line = " ".join(text.split())
    if game.over:
        return "The game is over: `log` reads it, `save FILE` keeps it, `quit` leaves."
    legal = game.legal() if game.prompt().seat == seat else []
    generic = f"`{line}` is not possible now"
    try:
        parse_input(line, legal, unit_names(game))
        reason = generic
    except AmbiguousInput as err:
        return f"{sentence(err)} {possible_now(legal)}"
    except InputError as err:
        reason = str(err)
    decision = as_decision(normal(line), game, seat)
    if decision is not None:
        engine = game.why_illegal(decision, seat)
        reason = reason if engine == not_possible(decision) else engine
    close = None
    if reason == generic or reason.startswith(_UNKNOWN):  # else the reason says enough
        close = did_you_mean(line, legal, extra_words)
    hint = f" Did you mean `{close}`?" if close else ""
    return f"{reason.rstrip('.')}.{hint} {possible_now(legal)}"


def as_decision(line: str, game: Game, seat: int) -> Decision | None:
    """The decision a typed line that is no legal one stands for, to ask the engine why it is
    not possible: short forms written out (``e2e4``, ``deploy e2 Pawn``, ``treasure all``)."""
    words = words_of(line)
    if not words:
        return None
    m = _SQUARES.match(line)
    if m:
        verb, frm, to = m.groups()
        return (verb or ("attack" if "x" in line else "march"), frm, to)
    verb, args = words[0], words[1:]
    if verb == "treasure" and args == ["all"]:
        hand = game.hand_names(seat)
        treasures = [n for n in hand if game.card_type(n).effect_numbers(TREASURE)]
        return ("treasure", treasures[0]) if treasures else None
    if verb == "deploy":
        squares = [a for a in args if _SQUARE.fullmatch(a)]
        kind = " ".join(a for a in args if not _SQUARE.fullmatch(a))
        return ("deploy", kind, *squares) if kind else ("deploy", *squares)
    if verb in ("play", "train", "treasure", "buy") and args:
        number = [args.pop()] if verb == "play" and len(args) > 1 and args[-1].isdigit() else []
        return (verb, " ".join(args), *number)
    return tuple(words)


def did_you_mean(line: str, legal: list[Decision], extra_words: Iterable[str] = ()) -> str | None:
    texts = [decision_text(d) for d in legal]
    texts += [d[1] + d[2] for d in legal if d[0] in MOVE_KINDS and len(d) == 3]
    texts += list(extra_words)
    by_lower = {t.lower(): t for t in texts}
    close = difflib.get_close_matches(normal(line), list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else None


def possible_now(legal: list[Decision]) -> str:
    if not legal:
        return "Nothing is yours to decide now (try `help`)."
    texts = [decision_text(d) for d in legal]
    if len(texts) <= 6:
        return "Possible now: " + ", ".join(f"`{t}`" for t in texts) + "."
    verbs = []
    for d in legal:
        if d[0] not in verbs:
            verbs.append(d[0])
    return f"Possible now: {', '.join(verbs)} (Tab lists all {len(texts)})."
