"""Tab completion drawn from the engine's legal decisions, plus the shell's own commands.

The candidates are the legal decisions in their text form (``march e2 e4``, ``buy Tower``),
the short forms the parser reads (``e2e4``, ``treasure all``) and the command words, each with
a short note (a card's cost, a unit's name). After ``help`` come card and unit names, after
``moves`` the squares that hold a unit. A line matches a candidate that begins with it; when
none does, one with a word that begins with the line's last word (``tow`` finds ``buy Tower``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..core.board import square_name
from ..core.decisions import Decision, decision_text
from ..core.game import Game
from ..core.rules import Rules

SHORT_MOVES = ("march", "attack", "swap", "move")

Candidate = tuple[str, str]  # (text, note)


class DecisionCompleter(Completer):
    """``legal`` is called at each completion, so the list is always the current one."""

    def __init__(
        self,
        legal: Callable[[], list[Decision]],
        commands: Iterable[str],
        rules: Rules | None = None,
        board: Callable[[], Game] | None = None,
    ) -> None:
        self.legal = legal
        self.commands = list(commands)
        self.rules = rules
        self.board = board  # a callable giving the game, for `moves SQUARE`

    # ---------------------------------------------------------------- what may be typed

    def candidates(self, text: str) -> list[Candidate]:
        word = text.split(" ", 1)[0].lower()
        if word == "help" and " " in text and self.rules is not None:
            names = [c.name for c in self.rules.cards] + [u.name for u in self.rules.units]
            return [(f"help {n}", "") for n in names]
        if word == "moves" and " " in text and self.board is not None:
            game = self.board()
            return [
                (f"moves {square_name(sq)}", f"{game.seat_name(u.owner)} {u.kind.name}")
                for sq, u in game.position.units()
            ]
        legal = self.legal()
        out: list[Candidate] = [(decision_text(d), note(d, self.rules)) for d in legal]
        out += [(d[1] + d[2], d[0]) for d in legal if d[0] in SHORT_MOVES and len(d) == 3]
        treasures = [d for d in legal if d[0] == "treasure"]
        if len(treasures) > 1:
            out.append(("treasure all", f"{len(treasures)} treasures"))
        out += [(c, "command") for c in self.commands]
        return out

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        typed = document.text_before_cursor.lstrip()
        lower = typed.lower()
        candidates = self.candidates(typed)
        seen: set[str] = set()
        hits = [c for c in candidates if c[0].lower().startswith(lower)]
        if not hits and lower.strip():
            last = lower.split()[-1]
            hits = [c for c in candidates if any(w.startswith(last) for w in c[0].lower().split())]
        for text, meta in hits:
            if text not in seen:
                seen.add(text)
                yield Completion(text, start_position=-len(typed), display_meta=meta)


def note(decision: Decision, rules: Rules | None) -> str:
    """A few words beside a candidate: the cost of a card to buy, what a card's effect is."""
    if rules is None:
        return ""
    verb = decision[0]
    try:
        if verb == "buy":
            return f"costs {rules.cards.get(decision[1]).cost}"
        if verb == "play" and len(decision) == 3 and decision[2].isdigit():
            effect = rules.cards.get(decision[1]).effects[int(decision[2]) - 1]
            return effect.text if len(effect.text) <= 40 else effect.text[:37] + "..."
        if verb == "train":
            card = rules.cards.get(decision[1])
            return f"trains {card.train_count} {card.trains}" if card.trains else ""
    except (ValueError, IndexError):
        return ""
    return ""
