"""Key bindings beyond prompt_toolkit's Emacs defaults (Tab, history, Ctrl-L clears).

In a replay, with nothing typed, the Right and Left arrow keys step on and back (PageDown and
PageUp by a turn), so a game can be read without typing at all.
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent


def _submit(event: KeyPressEvent, text: str) -> None:
    buffer = event.app.current_buffer
    buffer.text = text
    buffer.validate_and_handle()


def replay_bindings() -> KeyBindings:
    bindings = KeyBindings()
    empty = Condition(lambda: _buffer_empty())

    @bindings.add("right", filter=empty)
    def _next(event: KeyPressEvent) -> None:
        _submit(event, "next")

    @bindings.add("left", filter=empty)
    def _back(event: KeyPressEvent) -> None:
        _submit(event, "back")

    @bindings.add("pagedown", filter=empty)
    def _next_turn(event: KeyPressEvent) -> None:
        _submit(event, "turn +1")

    @bindings.add("pageup", filter=empty)
    def _back_turn(event: KeyPressEvent) -> None:
        _submit(event, "turn -1")

    return bindings


def _buffer_empty() -> bool:
    from prompt_toolkit.application.current import get_app

    return not get_app().current_buffer.text
