"""Whether the person typed ahead: input already waiting when a loop is about to read a line.

A line that was waiting before the screen was shown was typed without seeing it. The loops
tell the table so (its ``typing_ahead``), so that it can drop a line meant for a turn that
ended by itself meanwhile.
"""

from __future__ import annotations

import select
from typing import Any

__all__ = ["keys_waiting", "lines_waiting"]


def lines_waiting(stream: Any) -> bool:
    """Input waits on ``stream``. A stream without a descriptor (a StringIO) holds all of
    its input from the start; where the descriptor cannot be polled, nothing is taken to
    wait (every line counts as typed after the screen)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return True
    try:
        ready, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(ready)


def keys_waiting(keyboard: Any) -> bool:
    """Keys wait for a prompt_toolkit prompt on ``keyboard`` (its input): read by an earlier
    prompt and kept for the next (its type-ahead), or not read yet."""
    from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead

    keys = get_typeahead(keyboard)
    store_typeahead(keyboard, keys)
    return bool(keys) or lines_waiting(keyboard)
