"""Where a person's games are kept, and ``crownp2p games``, which lists them.

The folder is the system's own place for an application's state (platformdirs: under
$XDG_STATE_HOME on Linux, Application Support on macOS, AppData on Windows). A networked seat's
record goes there by default, and so does a solo game's ``save`` without a file name.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ..core.record import Record, RecordError

__all__ = ["GameFile", "games_command", "games_dir", "list_games", "new_game_path"]


def games_dir() -> Path:
    """Where a person's game records go unless they name a file."""
    return platformdirs.user_state_path("crownp2p", appauthor=False) / "games"


def new_game_path(kind: str) -> Path:
    """A new file in games_dir() (made if need be), named by the local time and ``kind``
    (solo, host, join). Raises OSError when the folder cannot be made."""
    folder = games_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{stamp}-{kind}.jsonl"
    for n in range(2, 100):
        if not path.exists() and not Path(f"{path}.net").exists():
            break
        path = folder / f"{stamp}-{kind}-{n}.jsonl"
    return path


@dataclass(frozen=True)
class GameFile:
    """One kept game: its file, when it was last written, and what the record says."""

    path: Path
    modified: float
    kind: str  # "solo" (seeds drawn in one process) or "networked"
    variant: str
    steps: int

    def to_json(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "modified": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.modified)),
            "kind": self.kind,
            "variant": self.variant,
            "steps": self.steps,
        }


def list_games(folder: Path) -> list[GameFile]:
    """The records in ``folder``, newest first; files that are not records are passed over."""
    found = []
    for path in folder.glob("*.jsonl"):
        try:
            record = Record.load(path)
            modified = path.stat().st_mtime
        except (RecordError, OSError):
            continue
        kind = "solo" if record.game_id is None else "networked"
        found.append(GameFile(path, modified, kind, record.variant, len(record.steps)))
    return sorted(found, key=lambda g: (-g.modified, g.path.name))


def games_command(args: argparse.Namespace) -> int:
    folder = games_dir()
    games = list_games(folder) if folder.is_dir() else []
    if args.json:
        print(json.dumps([g.to_json() for g in games]))
        return 0
    if not games:
        print(f"No games kept yet in {folder}.")
        return 0
    print(f"Games in {folder}, newest first:")
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.modified))
        print(f"  {when}  {g.kind:<9} {g.variant:<9} {g.steps:>4} steps  {g.path}")
    print("`crownp2p resume FILE` continues one that is not over.")
    return 0
