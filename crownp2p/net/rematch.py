"""Between two games of an evening: who plays again, and the next game's table, on the same
links (docs/protocol.md, "Playing again").

When a finished game's session returns with its links up, a :class:`Rematch` takes the links'
reports over and asks the player (``again``). Each joiner that says yes sends the host
``again``, committing to a fresh seating nonce; once every seat (the host too) has said yes, the
host runs the seating draw again (``draw``, ``opening``, as at the table) and sends each joiner
``next``: a fresh game id, the seats the draw gave, the setup. Every peer then moves its links
to their new seats and hands them to the next game's session, as if they had just come up. A
no, a goodbye, a refusal, a lost link or a silence past the start window ends the evening, with
one sentence for the player.

The last game's stragglers (a late ``ack``, a ``chat``) are dropped; a peer that has moved on
first (at four seats, a joiner that got its ``next`` before us) starts its link with ``sync``,
and from that ``sync`` on, what it sends is kept for our next session.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio

from ..core.game import Game
from ..core.setup import Setup
from . import crypto, draw
from .bounds import OutOfBounds, check_setup
from .draw import Draw
from .events import Outcome, Score
from .link import Link, LinkDown, LinkUp, Received
from .lockstep import Lockstep
from .messages import make
from .session import Inbound, Session, TableInfo

log = logging.getLogger("crownp2p.net")

# Asked once a game has ended: does this seat want another? (a person's answer, or a bot's yes)
Again = Callable[[Outcome], Awaitable[bool]]


async def always(outcome: Outcome) -> bool:
    """A bot seat's answer: yes."""
    return True


def numbered(record: str | Path | None, number: int) -> Path | None:
    """The record file of the evening's game ``number``: ``game.txt``, ``game-2.txt`` …"""
    if record is None:
        return None
    path = Path(record)
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def tally(score: dict[str, int], info: TableInfo, outcome: Outcome, sides: Sequence[int]) -> None:
    """Count ``outcome``'s win for each player on the winning side (by name)."""
    for seat, name in enumerate(info.names):
        score.setdefault(name, 0)
        if outcome.finished and outcome.winner is not None and sides[seat] == outcome.winner:
            score[name] += 1


def score_event(score: dict[str, int], games: int) -> Score:
    return Score(games, tuple(score.items()))


class Rematch:
    """One peer between the games ``number - 1`` and ``number`` (see the module)."""

    def __init__(
        self, session: Session, number: int, test_seed: int | str | None, text: str
    ) -> None:
        info = session.info
        self.hub = session.hub
        self.old = info
        self.rules = session.game.rules
        self.number = number
        self.test_seed = test_seed
        self.hosting = info.seat == info.host
        self.peers = [s for s in range(info.players) if s != info.seat]
        self.key = crypto.static_public(info.static)
        self.nonce = draw.new_nonce(test_seed, f"{info.names[info.seat]} game {number}")
        self.commit = draw.commitment(self.key, self.nonce)
        self.goodbye = text  # what we tell the others if we say no
        self.willing = False  # our own yes
        self.yes: dict[int, bytes] = {}  # the host's: each joiner's commitment, by old seat
        self.commits: tuple[tuple[bytes, bytes], ...] | None = None  # the draw sent or answered
        self.openings: dict[bytes, bytes] = {}  # the host's: each key's nonce
        self.held: dict[Link, list[Received]] = {}  # links that have moved on: for the next game
        self.info: TableInfo | None = None  # the next table, once it is settled
        self.game: Game | None = None
        self.over: str | None = None
        self.settled = trio.Event()  # the next table is settled, or the evening is over
        for item in self.hub.report_to(self.take) + list(session.later):
            self.take(item)
        for seat in self.peers:  # a goodbye or a lost link the last game's session heard
            if seat in session.ls.left:
                self._on_leave(seat, {"text": session.ls.leave_text.get(seat, "")})
            elif seat not in self.hub.links:
                self._end(f"the link to {self._name(seat)} was lost")

    # ------------------------------------------------------------------ the player's side

    async def run(self, again: Again, outcome: Outcome, wait: float) -> bool:
        """Ask the player, then wait for the next table (at most ``wait`` seconds after our
        answer). Whether the next game is settled; the links are closed if not."""
        if self.over is None and outcome.result == "desync":
            self._end("the last game ended in a desync", say=True)
        if self.over is None:
            yes = await again(outcome)
            if self.over is None and not yes:
                self._end(self.goodbye, say=True)
            elif self.over is None:
                self.willing = True
                if self.hosting:
                    self._maybe_draw()
                else:
                    self.hub.send(self.old.host, make("again", commit=self.commit))
        with trio.move_on_after(wait):
            await self.settled.wait()
        if not self.settled.is_set():
            self._end(f"not everyone answered within {wait:g} s")
        if self.over is not None:
            self.hub.report_to(None)
            await self.hub.close_all("the evening is over")
            return False
        return True

    def _end(self, reason: str, *, say: bool = False) -> None:
        """The evening is over: tell the others why if ``say`` (our own no), and stop."""
        if self.over is not None or self.info is not None:
            return
        self.over = reason
        for link in self.hub.links.values():
            link.send(make("leave", text=reason[:500] if say else ""))
        self.settled.set()

    def _name(self, seat: int) -> str:
        return self.old.names[seat]

    # ------------------------------------------------------------------ the links' side

    def take(self, item: Inbound) -> None:
        if self.settled.is_set():
            return
        if isinstance(item, LinkDown) and self.hub.current(item.link):
            self._end(f"the link to {self._name(item.link.seat)} was lost")
        elif isinstance(item, Received):
            link, msg = item.link, item.msg
            if link in self.held or msg["t"] == "sync":
                self.held.setdefault(link, []).append(item)  # that peer has moved on
                return
            handler = getattr(self, f"_on_{msg['t']}", None)
            if handler is not None:
                handler(link.seat, msg)
            elif not hasattr(Lockstep, f"_on_{msg['t']}"):
                self._refuse(link.seat, "unexpected", f"a {msg['t']} message between games")
            # else: a straggler of the game that has ended

    def _refuse(self, seat: int, code: str, text: str) -> None:
        """Refuse within the link's budget: past it, the link is dropped (and the evening
        ends with its LinkDown)."""
        self.hub.refuse(seat, code, text)

    def _on_leave(self, seat: int, msg: dict[str, Any]) -> None:
        said = f": {msg['text']}" if msg["text"] else ""
        self._end(f"{self._name(seat)} has left{said}")

    def _on_error(self, seat: int, msg: dict[str, Any]) -> None:
        self._end(f"{self._name(seat)} refused what we sent: {msg['text']}")

    # ------------------------------------------------------------------ the host

    def _on_again(self, seat: int, msg: dict[str, Any]) -> None:
        if not self.hosting or seat in self.yes or self.commits is not None:
            self._refuse(seat, "unexpected", "an again message that is not expected now")
            return
        self.yes[seat] = msg["commit"]
        self._maybe_draw()

    def _maybe_draw(self) -> None:
        """Every seat has said yes: send every joiner the draw's commitments."""
        if not self.willing or set(self.yes) != set(self.peers) or self.commits is not None:
            return
        mine = [(self.key, self.commit)]
        self.commits = tuple(sorted([(self.old.statics[s], c) for s, c in self.yes.items()] + mine))
        self.openings[self.key] = self.nonce
        for seat in self.peers:
            self.hub.send(seat, make("draw", commits=[list(c) for c in self.commits]))

    def _on_opening(self, seat: int, msg: dict[str, Any]) -> None:
        key = self.old.statics[seat]
        if not self.hosting or self.commits is None or key in self.openings:
            self._refuse(seat, "unexpected", "an opening that is not expected now")
            return
        if draw.commitment(key, msg["nonce"]) != self.yes[seat]:
            text = f"{self._name(seat)}'s nonce does not open its commitment"
            self._refuse(seat, "draw", f"the seating draw: {text}")
            self._end(f"the seating draw failed: {text}")
            return
        self.openings[key] = msg["nonce"]
        if len(self.openings) < len(self.commits):
            return
        assert self.commits is not None
        drawn = Draw(
            self.commits, tuple(self.openings[k] for k, _ in self.commits), self.old.draw.teams
        )
        statics = drawn.seats(self.rules.seating.sides)
        seed = None if self.test_seed is None else f"{self.test_seed}#{self.number}"
        game_id = crypto.new_game_id(seed)
        game = Game(self.rules, self.old.setup)
        for seat_ in self.peers:
            self.hub.send(
                seat_,
                make(
                    "next",
                    game_id=game_id,
                    statics=statics,
                    nonces=list(drawn.nonces),
                    setup=self.old.setup.to_json(),
                    start_hash=game.state_hash(),
                ),
            )
        self._settle(drawn, statics, game_id, game)

    # ------------------------------------------------------------------ a joiner

    def _on_draw(self, seat: int, msg: dict[str, Any]) -> None:
        if self.hosting or seat != self.old.host or not self.willing or self.commits is not None:
            self._refuse(seat, "unexpected", "a draw that is not expected now")
            return
        commits = tuple(msg["commits"])
        if (self.key, self.commit) not in commits or [k for k, _ in commits] != sorted(
            self.old.statics
        ):
            self._refuse(seat, "draw", "the seating draw does not hold this table's players")
            self._end("the host's seating draw does not hold this table's players")
            return
        self.commits = commits
        self.hub.send(seat, make("opening", nonce=self.nonce))

    def _on_next(self, seat: int, msg: dict[str, Any]) -> None:
        if self.hosting or seat != self.old.host or self.commits is None:
            self._refuse(seat, "unexpected", "a next message that is not expected now")
            return
        drawn = Draw(self.commits, tuple(msg["nonces"]), self.old.draw.teams)
        statics: list[bytes] = msg["statics"]
        fault = draw.seats_fault(drawn, statics, self._names(statics), self.rules.seating.sides)
        if fault is not None:
            self._refuse(seat, "draw", fault)
            self._end(f"the host's next game cannot be played here: {fault}")
            return
        try:
            setup = Setup.from_json(msg["setup"])
            check_setup(setup, self.rules)
            game = Game(self.rules, setup)
            if game.state_hash() != msg["start_hash"]:
                raise ValueError("it starts from a different state here")
        except (OutOfBounds, ValueError, KeyError, TypeError) as err:
            self._refuse(seat, "setup", f"the setup cannot start a game here: {err}")
            self._end(f"the host's next game cannot be played here: {err}")
            return
        self._settle(drawn, statics, msg["game_id"], game)

    # ------------------------------------------------------------------ both

    def _names(self, statics: list[bytes]) -> list[str]:
        by_key = dict(zip(self.old.statics, self.old.names, strict=True))
        return [by_key.get(k, "?") for k in statics]

    def _settle(self, drawn: Draw, statics: list[bytes], game_id: bytes, game: Game) -> None:
        """The next table: move every link to its new seat and hand them, as if just up, with
        what the peers that moved on first have sent, to the next session."""
        old = self.old
        seat_of = {k: s for s, k in enumerate(statics)}
        addr_of = dict(zip(old.statics, old.addrs, strict=True))
        self.info = replace(
            old,
            game_id=game_id,
            seat=seat_of[self.key],
            host=seat_of[old.statics[old.host]],
            names=self._names(statics),
            addrs=[addr_of[k] for k in statics],
            statics=list(statics),
            draw=drawn,
            setup=game.setup,
            start_hash=game.state_hash(),
        )
        self.game = game
        links = list(self.hub.links.values())
        for link in links:
            link.seat = seat_of[old.statics[link.seat]]
        self.hub.links = {link.seat: link for link in links}
        self.hub.report_to(None)
        for link in links:
            self.hub.deliver(LinkUp(link))
            for item in self.held.get(link, []):
                self.hub.deliver(item)
        self.settled.set()


async def between(
    session: Session,
    outcome: Outcome,
    number: int,
    again: Again,
    wait: float,
    test_seed: int | str | None,
) -> tuple[TableInfo, Game] | str:
    """After game ``number - 1``: the next game's table and game, or why the evening is over."""
    name = session.info.names[session.info.seat]
    rematch = Rematch(session, number, test_seed, f"{name} does not want another game")
    if not await rematch.run(again, outcome, wait):
        assert rematch.over is not None
        return rematch.over
    assert rematch.info is not None and rematch.game is not None
    return rematch.info, rematch.game
