"""Colours for the board, the news, the prompt and the toolbar.

Nothing depends on them: owners read by case, and prompt_toolkit drops every colour when
``NO_COLOR`` is set (its 1-bit colour depth keeps only bold and the like).
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = {
    "unit.blue": "ansibrightblue bold",
    "unit.gold": "ansiyellow bold",
    "empty": "ansibrightblack",
    "label": "ansibrightblack",
    "last": "bg:ansibrightblack",
    "threat": "ansired bold",
    "legend": "",
    "supply": "",
    "hand": "bold",
    "player.blue": "ansibrightblue",
    "player.gold": "ansiyellow",
    "status": "bold",
    "news.turn": "bold",
    "news.mine": "ansibrightblue",
    "news.other": "ansiyellow",
    "news.outcome": "bold reverse",
    "error": "ansired",
    "echo": "",
    "prompt": "bold",
    "bottom-toolbar": "noreverse bg:#262626 #d0d0d0",
    "bottom-toolbar.key": "bold",
    "bottom-toolbar.turn": "bold",
    "bottom-toolbar.clock": "bold reverse",
}


def prompt_style() -> Style:
    return Style.from_dict(STYLE)
