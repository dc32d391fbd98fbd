"""Tab completion drawn from the engine's legal decisions, plus the shell's own commands."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..core.decisions import Decision, decision_text

SHORT_MOVES = ("march", "attack", "swap", "move")


class DecisionCompleter(Completer):
    """Completes the line from the decisions legal now (in their text form) and from the
    shell's command words; ``legal`` is called at each keystroke, so it is always current."""

    def __init__(self, legal: Callable[[], list[Decision]], commands: Iterable[str]) -> None:
        self.legal = legal
        self.commands = list(commands)

    def candidates(self) -> list[str]:
        legal = self.legal()
        texts = [decision_text(d) for d in legal]
        # Short forms: e2e4 for a unit's move.
        texts += [d[1] + d[2] for d in legal if d[0] in SHORT_MOVES and len(d) == 3]
        if any(d[0] == "treasure" for d in legal):
            texts.append("treasure all")
        return texts + self.commands

    def get_completions(self, document: Document, complete_event: CompleteEvent):  # type: ignore[override]
        typed = document.text_before_cursor.lstrip()
        lower = typed.lower()
        seen: set[str] = set()
        for text in self.candidates():
            if text.lower().startswith(lower) and text not in seen:
                seen.add(text)
                yield Completion(text, start_position=-len(typed))
