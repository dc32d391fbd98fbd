"""What a peer keeps on disk: its game record, and beside it the session file resume needs.

``RECORD`` is a plain game record (docs/records.md): the header, then one line per step, each
chance step with the commit-reveal round its seed came from.
``RECORD.net`` is the peer's session: the table (game id, seats, addresses, this seat's pair
keys), then one line per chance round holding this peer's nonce, written *before* its
commitment is sent, so a restarted peer reveals the same nonce it committed to; and a last line
with how the game ended. It holds keys, so it is created readable by its owner only.

Writes are grouped: lines are appended as steps happen and :meth:`Journal.sync` flushes and
fsyncs both files once, before anything that depends on them (an acknowledgement, a commitment,
our own decision) leaves the machine.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgpack  # type: ignore[import-untyped]

from ..core.record import Record, RecordError, Step, audit_line

SESSION_FORMAT = "crownp2p-net-session"
SESSION_VERSION = 1


class JournalError(ValueError):
    """A record or session file that cannot be written or read; the message says why."""


def session_path(record_path: str | Path) -> Path:
    p = Path(record_path)
    return p.with_name(p.name + ".net")


@dataclass
class SessionFile:
    """The parsed ``RECORD.net``."""

    table: dict[str, Any]
    nonces: dict[int, bytes] = field(default_factory=dict)
    end: dict[str, Any] | None = None
    secret: bytes | None = None  # a sealed game's: every shuffle seed of this seat's
    signing: bytes | None = None  # a sealed game's: the seed of this seat's signing key
    # A sealed game's messages as they came: (seat, steps applied then, the message).
    sealed_in: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)


class Journal:
    """Appends to the record and session files; ``Journal(None)`` keeps nothing on disk."""

    def __init__(self, record_path: str | Path | None) -> None:
        self.path = Path(record_path) if record_path is not None else None
        self._record: IO[str] | None = None
        self._session: IO[str] | None = None
        self._dirty = False

    @property
    def durable(self) -> bool:
        return self.path is not None

    # ---------------------------------------------------------------- opening

    def create(self, record: Record, table: dict[str, Any]) -> None:
        """Start both files for a new game; refuses to overwrite an existing record."""
        if self.path is None:
            return
        try:
            self._record = open(self.path, "x", encoding="utf-8")  # noqa: SIM115 (kept open)
            fd = os.open(session_path(self.path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            self._session = open(fd, "w", encoding="utf-8")  # noqa: SIM115
        except FileExistsError:
            raise JournalError(
                f"{self.path} already exists: choose another record file or remove it"
            ) from None
        except OSError as err:
            raise JournalError(f"cannot write {self.path}: {err.strerror}") from None
        self._line(self._record, record.header())
        head = {"format": SESSION_FORMAT, "version": SESSION_VERSION, **table}
        self._line(self._session, head)
        self.sync()

    def reopen(self) -> None:
        """Append to the files of a game being resumed (see :func:`load`)."""
        if self.path is None:
            return
        try:
            self._record = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
            self._session = open(session_path(self.path), "a", encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            raise JournalError(f"cannot append to {self.path}: {err.strerror}") from None

    # ---------------------------------------------------------------- writing

    def _line(self, out: IO[str] | None, data: dict[str, Any]) -> None:
        if out is None:
            return
        try:
            out.write(json.dumps(data, sort_keys=True) + "\n")
        except OSError as err:
            raise JournalError(f"cannot write {self.path}: {err.strerror}") from None
        self._dirty = True

    def step(self, step: Step) -> None:
        if self._record is not None:  # no record: not even the line is made
            self._line(self._record, step.to_json())

    def nonce(self, round_: int, nonce: bytes) -> None:
        self._line(self._session, {"round": round_, "nonce": nonce.hex()})

    def secret(self, secret: bytes, signing: bytes) -> None:
        """A sealed game's secret (every shuffle seed of ours comes from it) and the seed of
        our signing key (for the keys we release), before any commitment made with them
        leaves."""
        self._line(self._session, {"secret": secret.hex(), "signing": signing.hex()})

    def sealed_in(self, seat: int, applied: int, message: dict[str, Any]) -> None:
        """A sealed decks' message from ``seat``, which came when our game had applied
        ``applied`` steps: a resumed peer feeds it again there (the passes and keys of the
        other seats cannot be made again from our secret). msgpack, in hex."""
        if self._session is not None:
            line = {"in": seat, "at": applied, "msg": msgpack.packb(message).hex()}
            self._line(self._session, line)

    def audit(self, secrets: dict[int, bytes]) -> None:
        """A sealed game's clean audit: every seat's game secret, the record's last line."""
        if self._record is not None:
            self._line(self._record, audit_line(secrets))

    def end(self, outcome: dict[str, Any]) -> None:
        self._line(self._session, {"end": outcome})

    def sync(self) -> None:
        """Flush and fsync whatever was appended since the last sync."""
        if not self._dirty:
            return
        try:
            for out in (self._record, self._session):
                if out is not None:
                    out.flush()
                    os.fsync(out.fileno())
        except OSError as err:
            raise JournalError(f"cannot write {self.path}: {err.strerror}") from None
        self._dirty = False

    def close(self) -> None:
        try:
            self.sync()
        finally:
            for out in (self._record, self._session):
                if out is not None:
                    out.close()
            self._record = self._session = None


def _cut_torn_line(path: Path) -> None:
    """A crash can leave half a line at the end; it was never synced, so it never counted."""
    with open(path, "rb+") as f:
        data = f.read()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            f.truncate(end)


def load(record_path: str | Path) -> tuple[Record, SessionFile]:
    """Read a record and its session file for ``resume``."""
    path = Path(record_path)
    spath = session_path(path)
    if not path.exists():
        raise JournalError(f"there is no record {path}")
    if not spath.exists():
        raise JournalError(
            f"{path} has no session file {spath.name} beside it: only a record written by "
            "`host` or `join` with --record can be resumed"
        )
    try:
        _cut_torn_line(path)
        _cut_torn_line(spath)
        record = Record.load(path)
    except RecordError as err:
        raise JournalError(f"{path}: {err}") from None
    except OSError as err:
        raise JournalError(f"cannot read {path}: {err.strerror}") from None
    if record.game_id is None:
        raise JournalError(
            f"{path} keeps no commit-reveal rounds (it is a solo game's record, or older than "
            "record version 2): it cannot be resumed as a networked game"
        )
    session: SessionFile | None = None
    try:
        with open(spath, encoding="utf-8") as src:
            for number, line in enumerate(src, 1):
                if not line.strip():
                    continue
                data = json.loads(line)
                if session is None:
                    if data.get("format") != SESSION_FORMAT:
                        raise JournalError(f"{spath} is not a crownp2p session file")
                    if data.get("version") != SESSION_VERSION:
                        raise JournalError(
                            f"{spath} has session version {data.get('version')}, "
                            "which this version cannot resume"
                        )
                    session = SessionFile(data)
                elif "nonce" in data:
                    session.nonces[int(data["round"])] = bytes.fromhex(data["nonce"])
                elif "end" in data:
                    session.end = data["end"]
                elif "secret" in data:
                    session.secret = bytes.fromhex(data["secret"])
                    if "signing" in data:
                        session.signing = bytes.fromhex(data["signing"])
                elif "in" in data:
                    message = msgpack.unpackb(bytes.fromhex(data["msg"]), raw=False)
                    session.sealed_in.append((int(data["in"]), int(data["at"]), message))
                else:
                    raise JournalError(f"{spath} line {number} is not a session entry")
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        if isinstance(err, JournalError):
            raise
        raise JournalError(f"{spath} cannot be read ({err})") from None
    if session is None:
        raise JournalError(f"{spath} is empty")
    return record, session
