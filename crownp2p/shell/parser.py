"""What the player types, turned into engine decisions, and the one sentence when it isn't one.

Every legal decision's own text form is accepted in any case (``march e2 e4``, ``buy Tower``),
plus short forms: ``e2e4``, ``e2-e4``, ``e2xd3``, ``e2 e4``, ``march e2e4``; ``play Stables``
when only one of its effects can be played; ``deploy Knight`` when there is one square for it;
``treasure all``; ``end`` for ``done`` and the other way round; and a unique beginning of a
decision (``buy Cham``). :func:`parse_input` needs only the legal list, so every table (solo,
networked) and the completer share it; :func:`why_not` looks at the game to say why a line is
not possible, with a "did you mean" and what is possible instead.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Iterable

from ..core.board import parse_square, square_name
from ..core.decisions import Decision, decision_text
from ..core.game import CHANCE, Game

MOVE_KINDS = ("march", "attack", "swap", "move")
END_WORDS = ("end", "done", "pass", "skip", "stop")
_SQUARES = re.compile(r"^(?:(march|attack|swap|move) )?([a-h][1-8]) ?[-x–×:]? ?([a-h][1-8])$")
_SQUARE = re.compile(r"\b([a-h][1-8])\b")


class InputError(ValueError):
    """A line that stands for no legal decision; the message is the reason, one sentence."""


def normal(text: str) -> str:
    return " ".join(text.strip().split()).lower()


def words_of(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


# -------------------------------------------------------------------- text -> decisions


def parse_input(text: str, legal: list[Decision]) -> list[Decision]:
    """The decisions ``text`` stands for: one, or every Treasure for ``treasure all``."""
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
        matches = [d for d in legal if d[0] == verb and d[1].lower() == rest]
        if len(matches) == 1:
            return matches
        if len(matches) > 1:
            options = " or ".join(f"`{decision_text(d)}`" for d in matches)
            what = "two effects you can play" if verb == "play" else "more than one square"
            raise InputError(f"{matches[0][1]} has {what}: type {options}")
    if len(words) >= 2 and len(rest) >= 2:  # a unique beginning: "buy cham"
        starts = [d for d in legal if decision_text(d).lower().startswith(line)]
        if len(starts) == 1:
            return starts
    raise InputError(f"`{' '.join(text.split())}` is not possible now")


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
        raise InputError(f"{frm}{to} could be {options}")
    return None


# -------------------------------------------------------------------- why not


def why_not(text: str, game: Game, seat: int, extra_words: Iterable[str] = ()) -> str:
    """One line: why ``text`` is not possible, a "did you mean", and what is possible now.
    ``extra_words`` are the shell's command names, for the "did you mean"."""
    line = " ".join(text.split())
    if game.over:
        return "The game is over: `log` reads it, `save FILE` keeps it, `quit` leaves."
    legal = game.legal() if game.prompt().seat == seat else []
    try:
        parse_input(line, legal)
        reason = f"`{line}` is not possible now"
    except InputError as err:
        reason = str(err)
    specific = _reason(normal(line), game, seat, legal)
    close = None
    if specific is None or specific.startswith("There is no card"):  # else it says enough
        close = did_you_mean(line, legal, extra_words)
    reason = specific or reason
    hint = f" Did you mean `{close}`?" if close else ""
    return f"{reason.rstrip('.')}.{hint} {possible_now(legal)}"


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


def _reason(line: str, game: Game, seat: int, legal: list[Decision]) -> str | None:
    """A more helpful reason for the common mistakes, from the game itself."""
    if game.over:
        return "The game is over"
    prompt = game.prompt()
    if prompt.seat not in (seat, CHANCE):
        return f"It is {game.seat_name(prompt.seat)}'s decision now"
    words = words_of(line)
    if not words:
        return None
    verb, rest = words[0], " ".join(words[1:])
    top = not game.stack  # in the phase itself, not inside a card
    phase = game.this_turn.phase
    m = _SQUARES.match(line)
    if m:
        return _why_not_move(game, seat, m.group(2), m.group(3), top)
    if verb in ("treasure", "buy") and top and phase in ("order", "action"):
        return f"Treasures and buys come in the buy phase: `end` ends the {phase} phase"
    if verb in ("train", "play") and top and phase == "buy":
        return "It is the buy phase: cards are played for Orders and Actions earlier in the turn"
    if verb == "train" and top and phase == "order":
        return "Training is an action: `end` ends the order phase first"
    if verb in ("play", "train", "treasure") and rest and rest != "all":
        name = re.sub(r" \d$", "", rest)
        if name not in game.rules.cards:
            return f"There is no card called {name!r}"
        card = game.rules.cards.get(name)
        if card.name not in game.hand_names(seat):
            return f"There is no {card.name} in your hand"
        if verb == "train" and not card.trains:
            return f"{card.name} has no Training effect"
        if verb == "play" and top and phase == "action" and game.this_turn.actions == 0:
            return "You have no actions left"
        if verb == "play" and top and phase == "order" and game.this_turn.orders == 0:
            return "You have no orders left"
        if verb == "play" and top and not card.effect_numbers(phase):
            return f"{card.name} has no {phase.capitalize()} effect to play in the {phase} phase"
    if verb == "treasure" and rest == "all" and top and phase == "buy" and game.this_turn.bought:
        return "Treasures cannot be played once you have bought a card"
    if verb == "buy" and rest and top and phase == "buy":
        return _why_not_buy(game, rest)
    if verb == "deploy":
        return _why_not_deploy(game, seat, words[1:], legal)
    return None


def _why_not_move(game: Game, seat: int, frm: str, to: str, top: bool) -> str:
    sq = parse_square(frm)
    unit = game.position.board[sq]
    if unit is None:
        return f"There is no unit on {frm}"
    name = f"The {unit.kind.name} on {frm}"
    if not game.rules.may_command(game, seat, unit):
        return f"{name} is {game.seat_name(unit.owner)}'s"
    legal = game.legal()
    here = [d for d in legal if len(d) == 3 and d[0] in MOVE_KINDS and d[1] == frm]
    if here:
        targets = ", ".join(sorted({d[2] for d in here}))
        return f"{name} cannot go to {to} now; it can go to {targets}"
    if top and game.this_turn.phase != "order":
        return f"Units take orders in the order phase, and it is the {game.this_turn.phase} phase"
    if top and game.this_turn.orders == 0:
        return "You have no orders left"
    if unit.uid in game.this_turn.ordered:
        return f"{name} has already had an order this turn"
    if unit.frozen_now:
        return f"{name} cannot take orders this turn"
    if any(len(d) == 3 and d[0] in MOVE_KINDS for d in legal):
        return f"{name} cannot move now"
    if top:
        return f"{name} has nowhere to go"
    return f"{name} cannot move for this card"


def _why_not_buy(game: Game, name: str) -> str | None:
    if name not in game.rules.cards:
        return f"There is no card called {name!r}"
    card = game.rules.cards.get(name)
    if card.name not in game.supply:
        return f"{card.name} is not in this game's Supply"
    if game.supply[card.name] == 0:
        return f"The {card.name} pile is empty"
    if game.this_turn.buys == 0:
        return "You have no buys left"
    cost = game.cost(card.name)
    if cost > game.this_turn.gold:
        treasures = any(d[0] == "treasure" for d in game.legal())
        more = " (play treasures first: `treasure all`)" if treasures else ""
        return f"{card.name} costs {cost} and you have {game.this_turn.gold} gold{more}"
    return None


def _why_not_deploy(game: Game, seat: int, args: list[str], legal: list[Decision]) -> str | None:
    if not args:
        return "Deploy what, and where? Like `deploy Pawn e2`"
    if (
        not any(d[0] == "deploy" for d in legal)
        and not game.stack
        and game.this_turn.phase != "order"
    ):
        return f"Units are deployed in the order phase, and it is the {game.this_turn.phase} phase"
    kind_name = " ".join(a for a in args if not _SQUARE.fullmatch(a))
    if kind_name not in game.rules.units:
        return f"There is no unit called {kind_name!r}"
    kind = game.rules.units.get(kind_name)
    if kind not in game.position.barracks[seat]:
        return f"Your Barracks has no {kind.name}"
    squares = sorted({d[2] for d in legal if d[0] == "deploy" and d[1] == kind.name})
    if squares:
        return f"A {kind.name} can be deployed on {', '.join(squares)}"
    where = [square_name(s) for s in game.position.deploy_squares(seat, kind)]
    if not where:
        return f"There is no square to deploy a {kind.name} on"
    return None
