"""Tab completion drawn from the engine's legal decisions, plus the shell's own commands.

The candidates are the legal decisions in their text form (``buy Tower``), each move in one
form only (``e2e4`` on an empty line or after a square, ``march e2 e4`` once a word is typed),
``treasure all`` and the command words, each with a short note (a card's cost, what an effect
does, told apart from the card's other effect). After ``help`` come card and unit names, after
``rules`` its sections, after ``moves`` the squares that hold a unit. A line matches a candidate
that begins with it; when none does, one with a word that begins with the line's last word
(``tow`` finds ``buy Tower``). :func:`fit_menu` keeps the menu to a few rows in columns, the
note of the chosen entry on a line below it, so the board stays in sight.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.layout import Dimension, Layout
from prompt_toolkit.layout.menus import MultiColumnCompletionMenuControl

from ..core.board import square_name
from ..core.cards import Effect
from ..core.decisions import Decision, decision_text
from ..core.game import Game
from ..core.rules import Rules
from .guide import SECTIONS

SHORT_MOVES = ("march", "attack", "swap", "move")
MENU_ROWS = 5  # rows of the completion menu; more entries go into further columns
NOTE_WIDTH = 60
_BY_SQUARE = re.compile(r"^$|^[a-h][1-8]", re.IGNORECASE)  # where moves show as `e2e4`

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
        if word == "rules" and " " in text:
            return [(f"rules {name}", about) for name, (about, _) in SECTIONS.items()]
        if word == "moves" and " " in text and self.board is not None:
            game = self.board()
            return [
                (f"moves {square_name(sq)}", f"{game.seat_name(u.owner)} {u.kind.name}")
                for sq, u in game.position.units()
            ]
        legal = self.legal()
        by_square = _BY_SQUARE.match(text.strip()) is not None
        out: list[Candidate] = []
        for d in legal:
            if d[0] in SHORT_MOVES and len(d) == 3 and by_square:
                out.append((d[1] + d[2], d[0]))
            else:
                out.append((decision_text(d), note(d, self.rules)))
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
            return effect_note(rules.cards.get(decision[1]).effects, int(decision[2]) - 1)
        if verb == "train":
            card = rules.cards.get(decision[1])
            return f"trains {card.train_count} {card.trains}" if card.trains else ""
    except (ValueError, IndexError):
        return ""
    return ""


def effect_note(effects: tuple[Effect, ...], index: int) -> str:
    """An effect's text from where it parts from the card's other effect (the words both
    begin with left out, so two effects never read the same), cut to :data:`NOTE_WIDTH`."""
    words = effects[index].text.split()
    others = [e.text.split() for i, e in enumerate(effects) if i != index]
    same = max((_shared(words, other) for other in others), default=0)
    same = same if same < len(words) else 0
    text = ("..." if same else "") + " ".join(words[same:])
    return text if len(text) <= NOTE_WIDTH else text[: NOTE_WIDTH - 3].rstrip() + "..."


def _shared(a: list[str], b: list[str]) -> int:
    count = 0
    while count < min(len(a), len(b)) and a[count] == b[count]:
        count += 1
    return count


def fit_menu(layout: Layout) -> None:
    """Keep a prompt's completion menu to :data:`MENU_ROWS` rows (entries beyond flow into
    columns), so it covers no more of the board than the prompt's few lines."""
    for window in layout.find_all_windows():
        if isinstance(window.content, MultiColumnCompletionMenuControl):
            window.height = Dimension(min=1, max=MENU_ROWS)
