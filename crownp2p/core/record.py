"""Game records: the setup, then every decision (chance seeds included) with the state hash
after it. A record replays to the same hashes on any machine; see docs/records.md. A networked
game's record also keeps each chance step's commit-reveal round, so its seeds can be proven.

On disk a record is JSON Lines: a header object, then one object per step, so a peer can append
and fsync one line per decision.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .. import __version__
from .decisions import Decision, IllegalDecision, decision_text, parse_decision
from .game import CHANCE, Game
from .rules import Rules
from .setup import Setup
from .shuffle import SHUFFLE_VERSION
from .snapshot import STATE_VERSION

FORMAT = "crownp2p-record"
RECORD_VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1 had no `seeds`: its seeds cannot be proven


class RecordError(ValueError):
    """A record file that cannot be read; the message says where and why."""


@dataclass(frozen=True)
class CommitReveal:
    """The commit-reveal round a networked game's chance step came from: every seat's
    commitment and reveal, in seat order (docs/protocol.md, "Chance")."""

    commits: tuple[bytes, ...]
    reveals: tuple[bytes, ...]


Opened = tuple[tuple[int, str], ...]  # (card id, name) pairs


@dataclass
class Step:
    seq: int
    seat: int  # CHANCE (-1) for a seed
    decision: Decision
    hash: str
    proof: CommitReveal | None = None  # a networked game's chance step: the round behind it
    # A sealed game's record (docs/sealed-decks.md): the cards opened, before this step, to
    # every seat, and to the record's own seat alone, as its engine learnt them.
    opened: Opened = ()
    seen: Opened = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.seq,
            "seat": self.seat,
            "decision": decision_text(self.decision),
            "hash": self.hash,
        }
        if self.proof is not None:
            out["commits"] = [c.hex() for c in self.proof.commits]
            out["reveals"] = [r.hex() for r in self.proof.reveals]
        if self.opened:
            out["opened"] = [list(pair) for pair in self.opened]
        if self.seen:
            out["seen"] = [list(pair) for pair in self.seen]
        return out

    def open_in(self, game: Game) -> None:
        """Teach ``game`` the cards opened before this step (a sealed game's record), as the
        record's seat learnt them; an opening that does not hold raises IllegalDecision."""
        for card, name in self.opened:
            game.learn(card, name, to_all=True)
        for card, name in self.seen:
            game.learn(card, name)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        proof = None
        if "commits" in data or "reveals" in data:
            proof = CommitReveal(
                tuple(bytes.fromhex(str(c)) for c in data["commits"]),
                tuple(bytes.fromhex(str(r)) for r in data["reveals"]),
            )
        return cls(
            int(data["seq"]),
            int(data["seat"]),
            parse_decision(str(data["decision"])),
            str(data["hash"]),
            proof,
            _cards(data.get("opened", [])),
            _cards(data.get("seen", [])),
        )


def _cards(pairs: Any) -> Opened:
    return tuple((int(card), str(name)) for card, name in pairs)


@dataclass
class Record:
    setup: Setup | None
    start_hash: str
    state: dict[str, Any] | None = None  # an explicit start state instead of a setup
    steps: list[Step] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    # A networked game's id, which its commit-reveal rounds are bound to; None: the seeds were
    # drawn in one process (solo, selfplay) or the record predates proofs (version 1).
    game_id: bytes | None = None
    # A sealed game's audit, once every seat revealed its game secret and it was clean: the
    # secrets, by seat, from which every sealed deck's order follows (docs/records.md).
    audit: dict[int, bytes] | None = None

    @classmethod
    def begin(
        cls,
        game: Game,
        *,
        state: dict[str, Any] | None = None,
        game_id: bytes | None = None,
        **meta: Any,
    ) -> Record:
        """A record of ``game`` from now on: ``game`` must be new, or ``state`` its start. A
        networked game gives its ``game_id``: its chance steps then carry their rounds."""
        setup = None if state else game.setup
        return cls(setup, game.table_hash(), state, [], dict(meta), game_id)

    def apply(self, game: Game, decision: Decision) -> Step:
        """Apply ``decision`` to ``game`` and record it with the hash after it."""
        seat = game.to_decide
        game.apply(decision)
        step = Step(len(self.steps) + 1, seat, tuple(decision), game.table_hash())
        self.steps.append(step)
        return step

    @property
    def variant(self) -> str:
        """The variant the record's game was played under."""
        if self.setup is not None:
            return self.setup.variant
        setup = (self.state or {}).get("setup", {})
        return str(setup.get("variant", "standard")) if isinstance(setup, dict) else "standard"

    def new_game(self, rules: Rules) -> Game:
        if self.state is not None:
            return Game.from_json(rules, self.state)
        return Game(rules, self.setup)

    def replay(
        self, rules: Rules, until: int | None = None, *, check: bool = True
    ) -> Iterator[tuple[Game, Step | None]]:
        """Play the record again: yields the game at its start (with ``None``), then after each
        step (with that step), up to ``until`` steps. It is one game advanced in place: take a
        :meth:`Game.clone` to keep a position. With ``check``, each step's seat and hash are
        compared with the record's, and the first that differs raises :class:`ReplayError`."""
        try:
            game = self.new_game(rules)
        except (ValueError, KeyError) as err:
            raise ReplayError(0, f"the start cannot be set up: {err}") from None
        if check and game.table_hash() != self.start_hash:
            raise ReplayError(0, "the starting state's hash differs")
        yield game, None
        for step in self.steps[:until]:
            seat = game.to_decide
            if check and seat != step.seat:
                who = "chance" if seat == CHANCE else f"seat {seat}"
                raise ReplayError(
                    step.seq, f"the record has seat {step.seat} deciding, but {who} was to decide"
                )
            try:
                step.open_in(game)
            except IllegalDecision as err:
                raise ReplayError(step.seq, f"an opening before it does not hold: {err}") from None
            try:
                game.apply(step.decision)
            except IllegalDecision as err:
                text = decision_text(step.decision)
                raise ReplayError(step.seq, f"`{text}` is illegal: {err}") from None
            if check and game.table_hash() != step.hash:
                raise ReplayError(step.seq, "the state hash differs")
            yield game, step

    # ------------------------------------------------------------------ files

    def header(self) -> dict[str, Any]:
        head: dict[str, Any] = {
            "format": FORMAT,
            "version": RECORD_VERSION,
            "engine": __version__,
            "state_version": STATE_VERSION,
            "shuffle": SHUFFLE_VERSION,
            "start_hash": self.start_hash,
            "seeds": "local" if self.game_id is None else "commit-reveal",
        }
        if self.game_id is not None:
            head["game_id"] = self.game_id.hex()
        if self.state is not None:
            head["state"] = self.state
        else:
            assert self.setup is not None
            head["setup"] = self.setup.to_json()
        if self.meta:
            head["meta"] = self.meta
        return head

    def write(self, out: IO[str]) -> None:
        out.write(json.dumps(self.header(), sort_keys=True) + "\n")
        for step in self.steps:
            out.write(json.dumps(step.to_json(), sort_keys=True) + "\n")
        if self.audit is not None:
            out.write(json.dumps(audit_line(self.audit), sort_keys=True) + "\n")

    def save(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as out:
            self.write(out)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            with open(path, encoding="utf-8") as src:
                return cls.read(src)
        except OSError as err:
            raise RecordError(f"cannot read {path}: {err.strerror}") from None

    @classmethod
    def read(cls, lines: Iterable[str]) -> Record:
        record: Record | None = None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError:
                raise RecordError(f"line {number} is not JSON") from None
            if not isinstance(data, dict):
                raise RecordError(f"line {number} is not a JSON object")
            try:
                if record is None:
                    record = cls._from_header(data)
                elif "audit" in data:
                    secrets = data["audit"]["secrets"]
                    record.audit = {int(seat): bytes.fromhex(str(s)) for seat, s in secrets.items()}
                else:
                    record.steps.append(Step.from_json(data))
            except RecordError:
                raise
            except (KeyError, TypeError, ValueError) as err:
                raise RecordError(f"line {number} is not a record entry ({err})") from None
        if record is None:
            raise RecordError("the record is empty")
        return record

    @classmethod
    def _from_header(cls, data: dict[str, Any]) -> Record:
        if data.get("format") != FORMAT:
            raise RecordError("this is not a crownp2p record (no crownp2p-record header)")
        if data.get("version") not in READABLE_VERSIONS:
            raise RecordError(f"record version {data.get('version')} is not supported")
        if data.get("shuffle") != SHUFFLE_VERSION:
            raise RecordError(f"the record uses shuffle version {data.get('shuffle')}")
        setup = Setup.from_json(data["setup"]) if "setup" in data else None
        seeds = data.get("seeds", "local")
        if seeds not in ("local", "commit-reveal"):
            raise RecordError(f"the record's seeds are {seeds!r}, neither local nor commit-reveal")
        game_id = bytes.fromhex(str(data["game_id"])) if seeds == "commit-reveal" else None
        start = str(data["start_hash"])
        return cls(setup, start, data.get("state"), [], data.get("meta", {}), game_id)


def audit_line(secrets: dict[int, bytes]) -> dict[str, Any]:
    """The record's last line after a sealed game's clean audit."""
    return {"audit": {"secrets": {str(seat): s.hex() for seat, s in sorted(secrets.items())}}}


class ReplayError(RecordError):
    """A step of a record that does not replay: the wrong seat, an illegal decision, or a
    state hash that differs. ``seq`` is that step (0: the start)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


@dataclass
class Verdict:
    ok: bool
    seq: int = 0  # the first step that went wrong
    reason: str = ""


def verify(rules: Rules, record: Record) -> Verdict:
    """Replay ``record`` and compare every hash."""
    try:
        for _ in record.replay(rules):
            pass
    except ReplayError as err:
        return Verdict(False, err.seq, err.reason)
    return Verdict(True)
