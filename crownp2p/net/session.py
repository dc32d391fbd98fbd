"""Running a game between peers: the links of one peer (the Hub) and the Session that drives
its Lockstep.

One direction, one entry. Everything that reaches a session — a link's messages, ups and downs,
our own decisions, the player's requests (chat, resign, leave) — goes through one method as it
happens, in the task that brought it: the Lockstep is synchronous, so a decision read from the
wire is checked, applied and acknowledged without waiting for a task switch, and trio's one
thread leaves no races between links. That method feeds the :class:`Lockstep`, syncs the
journal, hands the outgoing messages to the links and the events to whoever follows the game.
A message's events go first when nothing waits to leave, told as soon as it has been read, so
a step is told before its state hash is computed and acknowledged (once the link has reported
all it read).
Until the session starts, the Hub keeps its links' reports; it knows where to send them, never
the Session. The session's main task only waits for deadlines (a reveal, a reconnection, the
start, the goodbyes) and for the end.

One rule says who dials whom (:meth:`TableInfo.dials`): every joiner dials the host (its join
link is the first), and of two joiners the higher seat dials the lower. When a link we dial
drops, a dial loop redials it until it is back or the reconnect window closes; a seat that dials
us will redial, so we keep listening.

What a user interface uses of a :class:`Session` (the shell's networked table codes against
this, and nothing else):

* reading, always from the trio thread: ``session.game`` and ``session.record`` (the one game,
  moved on only by the session), ``session.seat``, ``session.names``, ``session.started``,
  ``session.asked`` (the game waits for our decision), ``session.outcome`` (None while on);
* being told: the ``on_event`` function given to ``host_game``/``join_game``/``resume_game``
  receives every event of events.py, in order, once each step's news is complete;
* acting, by calls into the trio run (``trio.lowlevel.TrioToken.run_sync_soon`` from another
  loop; never from inside ``on_event``, which the session calls while it works):
  ``session.offer(decision, at_step)`` hands in our decision for the position after
  ``at_step`` steps (``len(session.record.steps)`` when the player chose it); one offered for a
  position that is gone is dropped, one offered before the game asks is kept for its position.
  ``session.chat(text)``, ``session.resign(text)``, ``session.leave(text)``.

A seat played by a bot gives the session its decider (core/play.py): the session asks it at
each of our positions and plays its answer at once; a person's seat has none.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections import deque
from collections.abc import Awaitable, Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import trio

from ..core.decisions import Decision, IllegalDecision
from ..core.game import Game
from ..core.play import Decider
from ..core.record import Record
from ..core.setup import Setup
from . import crypto
from .draw import Draw
from .errors import ConnectionLost, HandshakeError, NetError, PeerTimeout, ProtocolError
from .events import Asked, Event, Outcome, PeerError
from .handshake import Packs, first_message, peer_accept, peer_dial
from .journal import Journal
from .link import (
    Drained,
    FramedStream,
    Link,
    LinkDown,
    LinkReport,
    LinkUp,
    Received,
    Refused,
    Timeouts,
)
from .lockstep import Lockstep
from .messages import BETWEEN_GAMES, make

log = logging.getLogger("crownp2p.net")

BACKLOG_PER_LINK = 256  # messages a link may send before the game starts: far more than needed


@dataclass
class TableInfo:
    """What every peer knows about its table once the seating draw has given the seats."""

    game_id: bytes
    seat: int
    host: int  # the host's seat: it relays the join phase and starts the game
    players: int
    names: list[str]
    addrs: list[tuple[str, int]]  # where to dial each seat
    static: bytes  # our private key at this table
    statics: list[bytes]  # every seat's public key, in seat order, as the table gave them
    draw: Draw  # the seating draw the seats follow from
    setup: Setup
    start_hash: str
    max_turns: int
    reveal_timeout: float
    clock: float | None  # each decision's time limit (None: no limit)
    packs: list[tuple[str, str]]
    listen: tuple[str, int] | None = None  # our own listening address, for the seats that dial us
    extra: dict[str, Any] = field(default_factory=dict)  # bot, seeds: what resume needs

    @property
    def digest(self) -> bytes:
        """What every seat-to-seat handshake binds: this game and every seat's key."""
        return crypto.table_digest(self.game_id, self.statics)

    def dials(self, seat: int, other: int) -> bool:
        """Whether ``seat`` dials ``other`` (and redials it after a cut): a joiner dials the
        host, and of two joiners the higher seat dials the lower. The host dials no one."""
        return other == self.host or (seat != self.host and other < seat)

    @property
    def dialled(self) -> list[int]:
        """The seats we dial."""
        return [s for s in range(self.players) if s != self.seat and self.dials(self.seat, s)]

    @property
    def callers(self) -> list[int]:
        """The seats that dial us."""
        return [s for s in range(self.players) if s != self.seat and self.dials(s, self.seat)]

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id.hex(),
            "seat": self.seat,
            "host": self.host,
            "players": self.players,
            "names": self.names,
            "addrs": [list(a) for a in self.addrs],
            "static": self.static.hex(),
            "statics": [k.hex() for k in self.statics],
            "draw": self.draw.to_json(),
            "setup": self.setup.to_json(),
            "start_hash": self.start_hash,
            "max_turns": self.max_turns,
            "reveal_timeout": self.reveal_timeout,
            "clock": self.clock,
            "packs": [list(p) for p in self.packs],
            "listen": list(self.listen) if self.listen else None,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableInfo:
        return cls(
            bytes.fromhex(d["game_id"]),
            int(d["seat"]),
            int(d["host"]),
            int(d["players"]),
            [str(n) for n in d["names"]],
            [(str(h), int(p)) for h, p in d["addrs"]],
            bytes.fromhex(d["static"]),
            [bytes.fromhex(k) for k in d["statics"]],
            Draw.from_json(d["draw"]),
            Setup.from_json(d["setup"]),
            str(d["start_hash"]),
            int(d["max_turns"]),
            float(d["reveal_timeout"]),
            None if d["clock"] is None else float(d["clock"]),
            [(str(n), str(v)) for n, v in d["packs"]],
            (str(d["listen"][0]), int(d["listen"][1])) if d.get("listen") else None,
            dict(d.get("extra", {})),
        )


class SessionView(Protocol):
    """What a user interface may use of a :class:`Session` (see the module's docstring)."""

    @property
    def game(self) -> Game: ...
    @property
    def record(self) -> Record: ...
    @property
    def seat(self) -> int: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def started(self) -> bool: ...
    @property
    def asked(self) -> bool: ...
    @property
    def outcome(self) -> Outcome | None: ...
    def clock_left(self) -> tuple[int, float] | None: ...
    def offer(self, decision: Decision, at_step: int) -> None: ...
    def chat(self, text: str) -> None: ...
    def resign(self, text: str = "") -> None: ...
    def leave(self, text: str = "") -> None: ...


@dataclass(frozen=True)
class Offered:
    """Our decision, for the position after ``at_step`` steps."""

    at_step: int
    decision: Decision


@dataclass(frozen=True)
class Requested:
    """The player's request (chat, resign, leave), carried out in its turn with the rest."""

    carry_out: Callable[[], None]


# What reaches the session: a link's report, our decision, or the player's request.
Inbound = LinkReport | Offered | Requested


class Hub:
    """The connections of one peer: a listener, dialled links, and where they report."""

    def __init__(self, nursery: trio.Nursery, timeouts: Timeouts, packs: Packs) -> None:
        self.nursery = nursery
        self.timeouts = timeouts
        self.packs = list(packs)
        # The links' reports, kept until a session takes them over (report_to): at most
        # BACKLOG_PER_LINK messages a link, and none of a link that another replaced.
        self._backlog: list[Inbound] = []
        self._kept: dict[Link, int] = {}
        self._sink: Callable[[Inbound], None] | None = None
        self.links: dict[int, Link] = {}
        self.info: TableInfo | None = None
        # What to do with an incoming ``join`` or ``watch`` (the host sets this).
        self.on_join: Callable[[FramedStream, dict[str, Any]], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ links

    def adopt(self, framed: FramedStream, seat: int) -> Link:
        """Make ``framed`` the link to ``seat``, replacing an older one (not yet running)."""
        link = Link(framed, seat, self, self.timeouts)
        old = self.links.get(seat)
        self.links[seat] = link
        if old is not None:
            old.close("replaced by a new connection")
            # A session ignores what a replaced link said: it need not wait for one.
            self._backlog = [r for r in self._backlog if getattr(r, "link", None) is not old]
            self._kept.pop(old, None)
        self.deliver(LinkUp(link))
        return link

    def deliver(self, report: LinkReport) -> None:
        """A link's report: to the session that took them over, as it happens; else kept (but
        not :class:`Drained`: the session acknowledges once it has taken the backlog)."""
        if self._sink is not None:
            self._sink(report)
        elif isinstance(report, Received | Refused):
            kept = self._kept.get(report.link, 0)
            if kept < BACKLOG_PER_LINK:
                self._kept[report.link] = kept + 1
                self._backlog.append(report)
            elif not report.link.closed:
                report.link.close(
                    f"seat {report.link.seat} sent more than {BACKLOG_PER_LINK} messages "
                    "before the game started"
                )
                log.warning("%s", report.link.reason)
        elif not isinstance(report, Drained):
            self._backlog.append(report)

    def report_to(self, sink: Callable[[Inbound], None] | None) -> list[Inbound]:
        """From now on, hand every link's report to ``sink`` as it happens (None: keep them
        again); returns the reports kept so far, for the new sink to take first."""
        self._sink = sink
        backlog, self._backlog = self._backlog, []
        self._kept.clear()
        return backlog

    async def run_link(self, framed: FramedStream, seat: int) -> None:
        """Adopt ``framed`` as the link to ``seat`` and run it until it closes."""
        await self.adopt(framed, seat).run()

    def send(self, seat: int, msg: dict[str, Any]) -> None:
        link = self.links.get(seat)
        if link is not None:
            link.send(msg)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Within, what is sent to a link is written when the block ends, in one go a link."""
        links = list(self.links.values())
        for link in links:
            link.hold()
        try:
            yield
        finally:
            for link in links:
                link.release()

    def refuse(self, seat: int, code: str, text: str) -> bool:
        """Answer ``seat``'s refused message within its link's budget (see Link.refuse); False
        once past it. A seat with no link is only logged."""
        link = self.links.get(seat)
        if link is None:
            log.warning("seat %d: %s [%s]", seat, text, code)
            return True
        return link.refuse(code, text)

    def current(self, link: Link) -> bool:
        return self.links.get(link.seat) is link

    async def close_all(self, reason: str) -> None:
        """Close every link (after what is queued on it: a goodbye) and wait a moment for
        them to close."""
        links = list(self.links.values())
        for link in links:
            link.close(reason)
        with trio.move_on_after(Link.CLOSE_GRACE + 0.5):
            for link in links:
                await _wait_closed(link)

    # ------------------------------------------------------------------ listening

    async def serve(self, listeners: Sequence[trio.SocketListener]) -> None:
        await trio.serve_listeners(self._handle, list(listeners), handler_nursery=self.nursery)

    async def _handle(self, stream: trio.SocketStream) -> None:
        framed = FramedStream(stream)
        try:
            hello = await first_message(framed, self.timeouts.handshake)
            if hello["t"] in ("join", "watch"):  # a player's or a spectator's: the host's
                if self.on_join is None:
                    if self.info is not None and self.info.seat == self.info.host:
                        await framed.refuse("table-full", "this table is full")
                    else:
                        await framed.refuse(
                            "not-host",
                            "this is a seated player, not the host: join the host's address",
                        )
                    return
                await self.on_join(framed, hello)
                return
            info = self.info
            if info is None:
                await framed.refuse("not-ready", "this peer has no table yet: try again")
                return
            seat = await peer_accept(
                framed,
                hello,
                game_id=info.game_id,
                seat=info.seat,
                callers=info.callers,
                static=info.static,
                statics=info.statics,
                digest=info.digest,
                packs=self.packs,
                timeout=self.timeouts.handshake,
            )
        except (HandshakeError, PeerTimeout, ConnectionLost, ProtocolError) as err:
            log.warning("a connection from %s was refused: %s", framed.peer, err)
            await framed.aclose()
            return
        await self.run_link(framed, seat)

    # ------------------------------------------------------------------ dialling

    async def dial(self, seat: int) -> None:
        """Connect to a seat we dial, prove ourselves, and run the link until it drops."""
        info = self.info
        assert info is not None
        host, port = info.addrs[seat]
        try:
            with trio.fail_after(self.timeouts.handshake):
                stream = await trio.open_tcp_stream(host, port)
        except (OSError, trio.TooSlowError) as err:
            raise ConnectionLost(f"cannot reach seat {seat} at {host}:{port} ({err})") from None
        framed = FramedStream(stream)
        try:
            await peer_dial(
                framed,
                game_id=info.game_id,
                seat=info.seat,
                to_seat=seat,
                static=info.static,
                remote=info.statics[seat],
                digest=info.digest,
                packs=self.packs,
                timeout=self.timeouts.handshake,
            )
        except NetError:
            await framed.aclose()
            raise
        await self.run_link(framed, seat)


class Session:
    """Drives one peer's Lockstep over a Hub until the game ends (see the module)."""

    def __init__(
        self,
        hub: Hub,
        lockstep: Lockstep,
        info: TableInfo,
        decider: Decider | None,
        *,
        journal: Journal,
        record_table: dict[str, Any],
        phase: str,  # "host" waits for confirms, "join" for its mesh, "resume" plays at once
        on_event: Callable[[Event], None] | None = None,
        keep_links: bool = False,
    ) -> None:
        self.hub = hub
        self.ls = lockstep
        self.info = info
        self.decider = decider  # a bot's; None: a person offers through offer()
        self.journal = journal
        self.record_table = record_table
        self.phase = phase
        self.on_event = on_event or (lambda event: None)
        # A game that ended in agreement (not a desync) leaves its links up for the evening's
        # next (rematch.py), which takes over what came for it meanwhile (``later``).
        self.keep_links = keep_links
        self.later: list[Received] = []
        self.timeouts = hub.timeouts
        self.confirmed: set[int] = set()
        self.confirm_sent = False
        self.stopping = False
        self.start_by = trio.current_time() + self.timeouts.start
        self.offers: deque[tuple[int, Decision]] = deque()  # ours, by the steps they follow
        self._wake = trio.Event()  # set when the main task must look again before its deadline
        self._sleeping_until = math.inf  # the main task's deadline, while it waits

    # ------------------------------------------------------------------ the public side

    @property
    def game(self) -> Game:
        return self.ls.game

    @property
    def record(self) -> Record:
        return self.ls.record

    @property
    def seat(self) -> int:
        return self.ls.me

    @property
    def names(self) -> list[str]:
        return list(self.info.names)

    @property
    def started(self) -> bool:
        return self.ls.started

    @property
    def asked(self) -> bool:
        """The game waits for our decision (and none is on its way)."""
        return self.ls.my_turn

    @property
    def outcome(self) -> Outcome | None:
        return self.ls.outcome

    def clock_left(self) -> tuple[int, float] | None:
        """The seat whose decision clock runs and the seconds left on it (None: none runs)."""
        return self.ls.clock_left(trio.current_time())

    def offer(self, decision: Decision, at_step: int) -> None:
        """Our decision for the position after ``at_step`` steps (see the module)."""
        self._take(Offered(at_step, tuple(decision)))

    def chat(self, text: str) -> None:
        self._take(Requested(partial(self.ls.chat, text)))

    def resign(self, text: str = "") -> None:
        self._take(Requested(partial(self.ls.resign, text)))

    def leave(self, text: str = "") -> None:
        self._take(Requested(partial(self._leave, text)))

    # ------------------------------------------------------------------ running

    async def run(self) -> Outcome:
        """Play until the game ends; every link is closed when this returns."""
        for seat in self.info.dialled:
            self.hub.nursery.start_soon(self._dial_loop, seat)
        try:
            outcome = await self._main()
        except BaseException:
            # Cancelled or crashed: no goodbyes, so the peers wait for us to come back.
            self.stopping = True
            self.journal.close()
            raise
        finally:
            self.hub.report_to(None)
        self.stopping = True
        if self.keep_links and outcome.result != "desync":
            self.journal.close()
        else:
            await self._close()
        return outcome

    async def _dial_loop(self, seat: int) -> None:
        delay = 0.02
        while not self.stopping and seat not in self.ls.left:
            link = self.hub.links.get(seat)
            if link is not None and not link.closed:
                await _wait_closed(link)
                continue
            try:
                await self.hub.dial(seat)
                delay = 0.02
            except (NetError, OSError) as err:
                log.info("redialling seat %d: %s", seat, err)
                if (
                    isinstance(err, HandshakeError)
                    and self.phase != "resume"
                    and not self.ls.started
                ):
                    log.warning("seat %d refused us: %s", seat, err)
            if self.stopping:
                return
            await trio.sleep(delay)
            delay = min(delay * 2, self.timeouts.dial_retry)

    async def _main(self) -> Outcome:
        """Take the links' reports over, then wait for deadlines until the game ends."""
        ls = self.ls
        for item in self.hub.report_to(self._take):  # what the links said before we ran
            self._handle(item)
        ls.idle()
        if self.phase == "resume":
            # No link of this process has been up yet: each peer's reconnect window counts from
            # the start of the resume, so a partner that never returns ends the game.
            now = trio.current_time()
            for seat in ls.peers:
                if not ls.up[seat]:
                    ls.down_since[seat] = now
            self._begin()
        finish_by: float | None = None
        while True:
            self._settle()
            now = trio.current_time()
            if ls.outcome is not None:
                if finish_by is None:
                    finish_by = now + self.timeouts.finish
                if not ls.finishing() or now >= finish_by:
                    return ls.outcome
            elif not ls.started and now >= self.start_by:
                return self._abort("the table did not start in time")
            deadlines = [ls.next_deadline(), finish_by, None if ls.started else self.start_by]
            self._sleeping_until = min((d for d in deadlines if d is not None), default=math.inf)
            with trio.move_on_at(self._sleeping_until):
                await self._wake.wait()
            self._wake = trio.Event()
            self._sleeping_until = math.inf
            ls.on_tick(trio.current_time())

    def _take(self, item: Inbound) -> None:
        """Whatever reaches the session (see the module), handled at once; a link's messages
        are settled once it has reported all it read (:class:`Drained`), so a batch is
        acknowledged once and synced to disk once."""
        if self.stopping:
            return
        if isinstance(item, Drained):
            if not self.hub.current(item.link):
                return
            self.ls.idle()
        else:
            self._handle(item)
            if isinstance(item, Received):
                self._send_reveals()  # the rest waits for the batch's end
                if not self.ls.outbox:
                    # Nothing waits to leave (nor a refusal to judge): tell what the message
                    # did now, before the batch's end hashes and acknowledges the newest step.
                    self._tell()
                return
        self._settle()
        ls = self.ls
        due = ls.next_deadline()
        if ls.outcome is not None or (due is not None and due < self._sleeping_until):
            self._wake.set()  # the main task has something to wait for, or stop waiting for

    def _abort(self, reason: str) -> Outcome:
        return self.ls.abort(reason)

    def _settle(self) -> None:
        """Send and tell what the Lockstep has queued; play our decision as soon as the game
        asks for it (a bot's, made when it is asked)."""
        self._flush()
        while self._playable():
            self._play_offers()
            self._flush()

    def _playable(self) -> bool:
        """The game asks for our decision, and one is offered for this position."""
        return self.ls.my_turn and bool(self.offers) and self.offers[0][0] <= self.ls.applied

    def _send_reveals(self) -> None:
        """Reveals the peers wait for leave at once, before the step that led to them is hashed
        (see Lockstep.take_reveals)."""
        for dest, msg in self.ls.take_reveals():
            if dest is not None:
                self.hub.send(dest, msg)

    def _flush(self) -> None:
        self._send_reveals()
        self.ls.settle()  # every step applied is hashed and journalled
        self.journal.sync()  # nothing leaves before what it depends on is on disk
        unanswered: set[int] = set()  # seats whose link is past its budget of refusals
        out = self.ls.take_outbox()
        if self.decider is not None and self.ls.my_turn:
            # Our bot is asked below and decides at once: its decision tells every peer what
            # an acknowledgement of this step would, so the acks wait (Lockstep.decide drops
            # those it makes needless).
            self.ls.outbox = [(dest, msg) for dest, msg in out if msg["t"] == "ack"]
            out = [(dest, msg) for dest, msg in out if msg["t"] != "ack"]
        # Several messages to a link (a reveal, a commitment, an ack) leave in one write.
        with self.hub.held() if len(out) > 1 else contextlib.nullcontext():
            for dest, msg in out:
                if dest is not None and msg["t"] == "error":
                    if not self.hub.refuse(dest, msg["code"], msg["text"]):
                        unanswered.add(dest)
                elif dest is not None:
                    self.hub.send(dest, msg)
        self._tell(unanswered)

    def _tell(self, unanswered: Container[int] = frozenset()) -> None:
        """Hand the Lockstep's events to whoever follows the game (and the Asked ones to our
        bot), but not the errors of a seat whose link was dropped for its refusals."""
        for event in self.ls.take_events():
            if isinstance(event, PeerError) and event.seat in unanswered:
                continue  # the link was dropped for its refusals: one log line said why
            if isinstance(event, Asked) and self.decider is not None:
                decision = self.decider.decide(self.ls.game, self.ls.me)
                if decision is not None:
                    self.offers.append((event.seq - 1, tuple(decision)))
            self.on_event(event)

    # ------------------------------------------------------------------ events

    def _handle(self, item: Inbound) -> None:
        ls = self.ls
        now = trio.current_time()
        if isinstance(item, Requested):
            item.carry_out()
            return
        if isinstance(item, Offered):
            self._offered(item.at_step, item.decision)
            return
        if not self.hub.current(item.link):
            return  # an older connection of a seat that has reconnected
        seat = item.link.seat
        match item:
            case LinkUp():
                ls.on_link_up(seat, now)
            case LinkDown():
                del self.hub.links[seat]
                ls.on_link_down(seat, now)
                if seat == self.info.host and not ls.started:
                    self.confirm_sent = False  # confirm again on the next link
            case Received(msg=msg):
                t = msg["t"]
                if t in ("confirm", "start"):
                    self._phase_message(seat, msg)
                    self._progress_phase()
                    return
                if t in BETWEEN_GAMES and len(self.later) < self.info.players:
                    # For the evening's next game: a peer whose game ended before ours says
                    # yes before we are done (one a seat; the rematch refuses a second). A table
                    # of one game keeps it too: our `leave` at the end answers it.
                    self.later.append(item)
                    return
                if t == "sync" and self.phase == "host" and ls.started and not ls.synced[seat]:
                    self.hub.send(seat, make("start"))  # a joiner that missed it on a lost link
                ls.on_message(seat, msg, now)
        self._progress_phase()

    def _progress_phase(self) -> None:
        ls = self.ls
        if ls.started or ls.outcome is not None:
            return
        all_up = all(ls.up.values())
        if self.phase == "join" and all_up and not self.confirm_sent and all(ls.synced.values()):
            self.confirm_sent = True
            self.hub.send(
                self.info.host,
                make("confirm", game_id=self.info.game_id, start_hash=self.info.start_hash),
            )
        if self.phase == "host" and all_up and self.confirmed == set(ls.peers):
            for seat in ls.peers:
                self.hub.send(seat, make("start"))
            self._begin()

    def _phase_message(self, seat: int, msg: dict[str, Any]) -> None:
        ls = self.ls
        if msg["t"] == "confirm" and self.phase == "host" and not ls.started:
            if msg["game_id"] != self.info.game_id or msg["start_hash"] != self.info.start_hash:
                ls.refuse(seat, "setup", "the confirmation does not match this table's setup")
                self._abort(f"{ls.seat_name(seat)} does not agree on the setup")
                return
            self.confirmed.add(seat)
        elif msg["t"] == "start" and self.phase in ("join", "resume") and seat == self.info.host:
            if not ls.started:
                self._begin()
        else:
            ls.refuse(seat, "unexpected", f"a message `{msg['t']}` is not expected now")

    def _begin(self) -> None:
        if self.phase != "resume":
            self.journal.create(self.ls.record, self.record_table)
        self.ls.begin(trio.current_time())

    def _leave(self, text: str) -> None:
        ls = self.ls
        if ls.outcome is None and ls.started:
            ls.resign(text or "left the table")
        elif ls.outcome is None:
            self._abort("left the table before the game started")
        ls.finish_pending = set()

    # ------------------------------------------------------------------ our decisions

    def _offered(self, at_step: int, decision: Decision) -> None:
        if at_step < self.ls.applied or self.ls.outcome is not None:
            return  # for a position that is gone
        self.offers.append((at_step, decision))  # played as soon as the game asks (_settle)

    def _play_offers(self) -> None:
        """Our first decision offered for the position the game asks us about, if any."""
        ls = self.ls
        while self.offers and ls.my_turn:
            at_step, decision = self.offers[0]
            if at_step > ls.applied:
                return  # kept for the position it was meant for
            self.offers.popleft()
            if at_step < ls.applied:
                continue
            now = trio.current_time()
            try:
                ls.decide(decision, now, send_first=True)
            except IllegalDecision as err:
                log.warning("the local decision is illegal: %s", err)
                continue
            self._flush()  # our decision leaves before we apply it: the peers check it meanwhile
            ls.advance(now)

    # ------------------------------------------------------------------ closing

    async def _close(self) -> None:
        ls = self.ls
        try:
            ls.leave_messages()
            self._flush()
        except NetError:
            pass
        finally:
            self.journal.close()
        await self.hub.close_all("the game is over")


async def _wait_closed(link: Link) -> None:
    await link.done.wait()
