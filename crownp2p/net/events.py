"""What a networked game tells whoever follows it: small frozen values, dispatched by type.

The :class:`~.lockstep.Lockstep` emits the game's events (:class:`Started`,
:class:`StepApplied`, :class:`Asked`, :class:`Chat`, :class:`LinkChanged`, :class:`PeerError`,
:class:`Ended`);
the services in ``seating`` add the seating's own (:class:`Waiting`, :class:`LobbyChanged`,
:class:`Seated`, :class:`Joined`, :class:`Left`); the host's gallery and a spectator's side
theirs (:class:`Watching`, :class:`Heard`, :class:`Scene`, :class:`News`); and an evening of
several games its own (:class:`Score`, :class:`EveningOver`). A follower reads them with
``match`` or ``isinstance``; none of them is a callback into the protocol, and none carries a
clock: a benchmark that wants times stamps the events as it receives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.game import Moment
from ..core.record import Step


@dataclass
class Outcome:
    """How the game ended, from this peer's side."""

    result: str  # win, loss, draw, forfeit, cheat (a sealed game's audit), desync, aborted
    winner: int | None  # the winning side (the seat, in two-seat games)
    turns: int
    final_hash: str
    seq: int  # the last step applied; for a desync, the first step that differs
    reason: str
    seat: int  # this peer's seat
    culprit: int | None = None  # the seat that forfeited or left, if any

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "winner": self.winner,
            "turns": self.turns,
            "final_hash": self.final_hash,
            "seat": self.seat,
            "seq": self.seq,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Outcome:
        """An outcome as :meth:`to_json` wrote it (the seat to blame is not kept)."""
        return cls(
            d["result"], d["winner"], d["turns"], d["final_hash"], d["seq"], d["reason"], d["seat"]
        )

    @property
    def finished(self) -> bool:
        return self.result in ("win", "loss", "draw", "forfeit", "cheat")


# ---------------------------------------------------------------------- the game's events


@dataclass(frozen=True)
class Started:
    """Every peer is connected and agrees: the game begins (or, resumed, goes on)."""


@dataclass(frozen=True)
class StepApplied:
    """``step`` (anyone's: ours, a peer's, chance's) was applied. ``news`` are the log lines
    it added; ``where`` says where it was decided (the game may have moved on since). The
    step's ``hash`` may still be empty: the lockstep hashes after telling (Lockstep.settle)."""

    step: Step
    news: tuple[str, ...]
    where: Moment


@dataclass(frozen=True)
class Asked:
    """The game waits for our own decision, the step numbered ``seq``."""

    seq: int


@dataclass(frozen=True)
class Chat:
    seat: int
    text: str


@dataclass(frozen=True)
class LinkChanged:
    """The link to ``seat`` went up or down (a link down waits for the peer to return)."""

    seat: int
    up: bool


@dataclass(frozen=True)
class PeerError:
    """``seat`` sent what we refused, or reports that it refused what we sent (``text`` says
    which)."""

    seat: int
    text: str


@dataclass(frozen=True)
class Ended:
    outcome: Outcome


@dataclass(frozen=True)
class Audited:
    """A sealed game's audit is over (docs/sealed-decks.md): ``culprit`` None when every
    shuffle and card checked out, else the seat it names; ``text`` says so."""

    culprit: int | None
    text: str


# ---------------------------------------------------------------------- the seating's events


@dataclass(frozen=True)
class Waiting:
    """The host took us in at its table of ``players``: we wait for the others and the
    seating draw (a joiner's first news)."""

    players: int


@dataclass(frozen=True)
class Seated:
    """The seating draw gave the seats: ``names`` in seat order, ``sides`` each seat's side
    (seat 0 moves first), ``host`` the host's seat and ``seat`` ours. Every peer hears it
    before it confirms the table."""

    seat: int
    names: tuple[str, ...]
    sides: tuple[int, ...]
    host: int
    sealed: bool = False  # the table plays with sealed decks (docs/sealed-decks.md)

    def partners(self, seat: int) -> list[int]:
        """The other seats on ``seat``'s side."""
        return [s for s, side in enumerate(self.sides) if side == self.sides[seat] and s != seat]


@dataclass(frozen=True)
class LobbyChanged:
    """Who is in before the draw: ``names``, the host first, then the joiners in the order
    they came, of ``players`` places; ``teams`` the host's chosen partners as places in
    ``names`` (empty: the seating draw decides, or the table is not full yet)."""

    names: tuple[str, ...]
    players: int
    teams: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Joined:
    """A player called ``name`` took a place at our table: ``present`` of ``players`` are in,
    the host included (the host's news)."""

    name: str
    present: int
    players: int


@dataclass(frozen=True)
class Left:
    """The player called ``name`` left before every place was taken: its place is free again."""

    name: str


# ---------------------------------------------------------------------- spectators' events


@dataclass(frozen=True)
class Watching:
    """A spectator called ``name`` came to watch (``here``) or went (the host's news)."""

    name: str
    here: bool


@dataclass(frozen=True)
class Heard:
    """``name`` said ``text`` in chat: a spectator (at the host), or anyone (to a spectator)."""

    name: str
    text: str


@dataclass(frozen=True)
class Scene:
    """The public view of the game after step ``seq`` (what a spectator is shown), and the
    players' names in seat order."""

    seq: int
    view: dict[str, Any]
    names: tuple[str, ...]


@dataclass(frozen=True)
class News:
    """Public log lines of the game, in order (what a spectator reads)."""

    lines: tuple[str, ...]


# ---------------------------------------------------------------------- an evening's events


@dataclass(frozen=True)
class Score:
    """The evening so far: ``games`` played and each player's wins, by name, in the order of
    the first table's seats."""

    games: int
    wins: tuple[tuple[str, int], ...]

    def line(self) -> str:
        each = ", ".join(f"{name} {won}" for name, won in self.wins)
        played = "1 game" if self.games == 1 else f"{self.games} games"
        return f"The evening so far ({played}): {each}."


@dataclass(frozen=True)
class EveningOver:
    """No next game: ``reason`` says why, in one sentence."""

    reason: str


Event = (
    Started
    | StepApplied
    | Asked
    | Chat
    | LinkChanged
    | PeerError
    | Ended
    | Audited
    | Waiting
    | LobbyChanged
    | Seated
    | Joined
    | Left
    | Watching
    | Heard
    | Scene
    | News
    | Score
    | EveningOver
)
