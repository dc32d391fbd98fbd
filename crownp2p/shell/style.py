"""Colours for the prompt and the toolbar. The board never depends on them (NO_COLOR)."""

from __future__ import annotations

from prompt_toolkit.styles import Style


def prompt_style() -> Style:
    return Style.from_dict(
        {
            "bottom-toolbar": "noreverse bg:#222222 #dddddd",
            "prompt": "bold",
        }
    )
