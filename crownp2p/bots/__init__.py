"""Bots choose among the engine's legal decisions; they import core only."""

from __future__ import annotations

from .base import BOT_NAMES, Bot, make_bot

__all__ = ["Bot", "make_bot", "BOT_NAMES"]
