"""Running a table: the links (the Hub) and the loop that drives a Lockstep (the Session).

Every link's reader puts what it receives on one memory channel; the Session's single loop
takes events off it, feeds the :class:`Lockstep`, syncs the journal and then hands the
Lockstep's outgoing messages to the links. All game state changes in that one task, so there
are no races between links.

Each peer dials only lower seats: when a link to a lower seat drops, a dial loop redials it
until it is back or the reconnect window closes; a higher seat will redial us, so we keep
listening.
"""

from __future__ import annotations

import inspect
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from ..core.decisions import Decision, IllegalDecision
from ..core.game import Game
from ..core.setup import Setup
from .errors import ConnectionLost, HandshakeError, NetError, PeerTimeout, ProtocolError
from .handshake import Packs, first_message, peer_accept, peer_dial
from .journal import Journal
from .link import FramedStream, Link, Timeouts
from .lockstep import Event, Lockstep, Outcome
from .messages import make

log = logging.getLogger("crownp2p.net")


class Decider(Protocol):
    """Chooses the local seat's decisions. ``decide`` returns a decision from
    ``game.legal()``, or an awaitable of one (a person at a terminal); it must not change
    ``game``. ``replay`` (optional) is shown each of our past decisions when a game resumes, so
    a bot can bring its random source back to where it was."""

    def decide(self, game: Game) -> Decision | Awaitable[Decision]: ...


@dataclass
class TableInfo:
    """What every peer knows about its table once the host has assigned seats."""

    game_id: bytes
    seat: int
    players: int
    names: list[str]
    addrs: list[tuple[str, int]]  # where to dial each seat
    keys: dict[int, bytes]  # other seat -> our pair key
    setup: Setup
    start_hash: str
    max_turns: int
    reveal_timeout: float
    packs: list[tuple[str, str]]
    listen: tuple[str, int] | None = None  # our own listening address, for higher seats
    extra: dict[str, Any] = field(default_factory=dict)  # bot, seeds: what resume needs

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id.hex(),
            "seat": self.seat,
            "players": self.players,
            "names": self.names,
            "addrs": [list(a) for a in self.addrs],
            "keys": {str(s): k.hex() for s, k in self.keys.items()},
            "setup": self.setup.to_json(),
            "start_hash": self.start_hash,
            "max_turns": self.max_turns,
            "reveal_timeout": self.reveal_timeout,
            "packs": [list(p) for p in self.packs],
            "listen": list(self.listen) if self.listen else None,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableInfo:
        return cls(
            bytes.fromhex(d["game_id"]),
            int(d["seat"]),
            int(d["players"]),
            [str(n) for n in d["names"]],
            [(str(h), int(p)) for h, p in d["addrs"]],
            {int(s): bytes.fromhex(k) for s, k in d["keys"].items()},
            Setup.from_json(d["setup"]),
            str(d["start_hash"]),
            int(d["max_turns"]),
            float(d["reveal_timeout"]),
            [(str(n), str(v)) for n, v in d["packs"]],
            (str(d["listen"][0]), int(d["listen"][1])) if d.get("listen") else None,
            dict(d.get("extra", {})),
        )


InboundEvent = tuple[str, Any, Any]


class Hub:
    """The connections of one peer: a listener, dialled links, and the channel they feed."""

    def __init__(self, nursery: trio.Nursery, timeouts: Timeouts, packs: Packs) -> None:
        self.nursery = nursery
        self.timeouts = timeouts
        self.packs = list(packs)
        self.send_channel, self.receive_channel = trio.open_memory_channel[InboundEvent](math.inf)
        self.links: dict[int, Link] = {}
        self.info: TableInfo | None = None
        self.session: Session | None = None
        # What to do with an incoming ``join`` (the host sets this while seating players).
        self.on_join: Callable[[FramedStream, dict[str, Any]], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ links

    def adopt(self, framed: FramedStream, seat: int) -> Link:
        """Make ``framed`` the link to ``seat``, replacing an older one (not yet running)."""
        link = Link(framed, seat, self, self.timeouts)
        old = self.links.get(seat)
        self.links[seat] = link
        if old is not None:
            old.close("replaced by a new connection")
        self.deliver("up", link, None)
        return link

    def deliver(self, kind: str, link: Link, payload: Any) -> None:
        """A link's report: straight to the running session, or queued until it runs."""
        if self.session is not None:
            self.session.on_link_event(kind, link, payload)
        elif kind != "idle":
            self.send_channel.send_nowait((kind, link, payload))

    async def run_link(self, framed: FramedStream, seat: int) -> None:
        """Adopt ``framed`` as the link to ``seat`` and run it until it closes."""
        await self.adopt(framed, seat).run()

    def send(self, seat: int, msg: dict[str, Any]) -> None:
        link = self.links.get(seat)
        if link is not None:
            link.send(msg)

    def current(self, link: Link) -> bool:
        return self.links.get(link.seat) is link

    # ------------------------------------------------------------------ listening

    async def serve(self, listeners: Sequence[trio.SocketListener]) -> None:
        await trio.serve_listeners(self._handle, list(listeners), handler_nursery=self.nursery)

    async def _handle(self, stream: trio.SocketStream) -> None:
        framed = FramedStream(stream)
        try:
            hello = await first_message(framed, self.timeouts.handshake)
            if hello["t"] == "join":
                if self.on_join is None:
                    await framed.refuse(
                        "table-full"
                        if self.info is not None and self.info.seat == 0
                        else "not-host",
                        "this table is full"
                        if self.info is not None and self.info.seat == 0
                        else "this is a seated player, not the host: join the host's address",
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
                players=info.players,
                keys=info.keys,
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
        """Connect to a lower seat, prove ourselves, and run the link until it drops."""
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
                key=info.keys[seat],
                packs=self.packs,
                timeout=self.timeouts.handshake,
            )
        except NetError:
            await framed.aclose()
            raise
        await self.run_link(framed, seat)


def _is_async(value: Any) -> bool:
    return inspect.isawaitable(value)


class Session:
    """Drives one peer's Lockstep over a Hub until the game ends."""

    def __init__(
        self,
        hub: Hub,
        lockstep: Lockstep,
        info: TableInfo,
        decider: Decider,
        *,
        journal: Journal,
        record_table: dict[str, Any],
        phase: str,  # "host" waits for confirms, "join" for its mesh, "resume" plays at once
        on_event: Callable[[Event], None] | None = None,
    ) -> None:
        self.hub = hub
        self.ls = lockstep
        lockstep.send_now = hub.send
        self.info = info
        self.decider = decider
        self.journal = journal
        self.record_table = record_table
        self.phase = phase
        self.on_event = on_event or (lambda event: None)
        self.timeouts = hub.timeouts
        self.confirmed: set[int] = set()
        self.confirm_sent = False
        self.stopping = False
        self.start_by = trio.current_time() + self.timeouts.start
        self._decider_scope: trio.CancelScope | None = None
        self._decider_token: int | None = None
        self.game_started = trio.Event()
        self._waiting_until = math.inf
        self._woken = False
        self.started_at: float | None = None
        self.ended_at: float | None = None

    # ------------------------------------------------------------------ the public side

    def chat(self, text: str) -> None:
        self.hub.send_channel.send_nowait(("local", None, ("chat", text)))

    def resign(self, text: str = "") -> None:
        self.hub.send_channel.send_nowait(("local", None, ("resign", text)))

    def leave(self, text: str = "") -> None:
        self.hub.send_channel.send_nowait(("local", None, ("leave", text)))

    # ------------------------------------------------------------------ running

    async def run(self) -> Outcome:
        """Play until the game ends; every link is closed when this returns."""
        for seat in range(self.info.seat):
            self.hub.nursery.start_soon(self._dial_loop, seat)
        try:
            outcome = await self._main()
        except BaseException:
            # Cancelled or crashed: no goodbyes, so the peers wait for us to come back.
            self.stopping = True
            self.hub.session = None
            self.journal.close()
            raise
        self.stopping = True
        await self._close()
        self.hub.session = None
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

    def on_link_event(self, kind: str, link: Link, payload: Any) -> None:
        """Called by a link's reader as things arrive: the Lockstep is synchronous, so the
        game changes here atomically, without a hop through the main loop's channel."""
        if kind == "idle":
            if self.hub.current(link):
                self.ls.idle()
        else:
            self._handle((kind, link, payload))
            if kind == "msg":
                return  # flushed once the link has delivered everything it has read
        self._flush()
        ls = self.ls
        due = ls.next_deadline()
        if (
            (ls.my_turn and self._decider_scope is None)
            or ls.outcome is not None
            or not ls.started
            or (due is not None and due < self._waiting_until)
        ):
            self._wake()

    def _wake(self) -> None:
        if not self._woken:
            self._woken = True
            self.hub.send_channel.send_nowait(("wake", None, None))

    async def _main(self) -> Outcome:
        ls = self.ls
        receive = self.hub.receive_channel
        finish_by: float | None = None
        # What the links reported before we ran, then they report to us directly.
        while True:
            try:
                self._handle(receive.receive_nowait())
            except trio.WouldBlock:
                break
        self.hub.session = self
        ls.idle()
        if self.phase == "resume":
            self._begin()
        while True:
            self._flush()
            await self._local_turn()
            self._flush()
            now = trio.current_time()
            if ls.outcome is not None:
                if finish_by is None:
                    finish_by = now + self.timeouts.finish
                    self._cancel_decider()
                    if self.ended_at is None:
                        self.ended_at = now
                if not ls.finish_pending or now >= finish_by:
                    return ls.outcome
            deadlines = [ls.next_deadline(), finish_by]
            if not ls.started:
                deadlines.append(self.start_by)
            due = min((d for d in deadlines if d is not None), default=math.inf)
            event = None
            self._waiting_until = due
            with trio.move_on_at(due):
                event = await receive.receive()
            self._waiting_until = math.inf
            self._woken = False
            if event is None:
                now = trio.current_time()
                if not ls.started and now >= self.start_by:
                    return self._abort("the table did not start in time")
                ls.on_tick(now)
                continue
            self._handle(event)
            for _ in range(256):
                try:
                    event = receive.receive_nowait()
                except trio.WouldBlock:
                    break
                self._handle(event)
            ls.idle()

    def _abort(self, reason: str) -> Outcome:
        return self.ls.abort(reason)

    def _flush(self) -> None:
        self.journal.sync()  # nothing leaves before what it depends on is on disk
        for dest, msg in self.ls.take_outbox():
            if dest is not None:
                self.hub.send(dest, msg)
        for event in self.ls.take_events():
            self.on_event(event)

    # ------------------------------------------------------------------ events

    def _handle(self, event: InboundEvent) -> None:
        kind, link, payload = event
        ls = self.ls
        now = trio.current_time()
        if kind == "wake":
            return
        if kind == "local":
            self._local_action(*payload)
            return
        if kind == "decided":
            self._decided(link, payload, now)
            return
        if not self.hub.current(link):
            return  # an older connection of a seat that has reconnected
        seat = link.seat
        if kind == "up":
            ls.on_link_up(seat, now)
        elif kind == "down":
            del self.hub.links[seat]
            ls.on_link_down(seat, now)
            if seat == 0 and not ls.started:
                self.confirm_sent = False  # confirm again on the next link
        elif kind == "msg":
            t = payload["t"]
            if t in ("confirm", "start"):
                self._phase_message(seat, payload)
                self._progress_phase()
                return
            if t == "sync" and self.phase == "host" and ls.started:
                self.hub.send(seat, make("start"))  # a joiner that missed it on a lost link
            ls.on_message(seat, payload, now)
        self._progress_phase()

    def _progress_phase(self) -> None:
        ls = self.ls
        if ls.started or ls.outcome is not None:
            return
        all_up = all(ls.up.values())
        if self.phase == "join" and all_up and not self.confirm_sent and all(ls.synced.values()):
            self.confirm_sent = True
            self.hub.send(
                0, make("confirm", game_id=self.info.game_id, start_hash=self.info.start_hash)
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
        elif msg["t"] == "start" and self.phase in ("join", "resume") and seat == 0:
            if not ls.started:
                self._begin()
        else:
            ls.refuse(seat, "unexpected", f"a {msg['t']} message is not expected now")

    def _begin(self) -> None:
        if self.phase != "resume":
            self.journal.create(self.ls.record, self.record_table)
        self.started_at = trio.current_time()
        self.ls.begin(self.started_at)
        self.game_started.set()

    def _local_action(self, action: str, text: str) -> None:
        ls = self.ls
        if action == "chat":
            ls.chat(text)
        elif action == "resign":
            ls.resign(text)
        elif action == "leave":
            if ls.outcome is None and ls.started:
                ls.resign(text or "left the table")
            elif ls.outcome is None:
                self._abort("left the table before the game started")
            ls.finish_pending = set()

    # ------------------------------------------------------------------ our decisions

    async def _local_turn(self) -> None:
        ls = self.ls
        while ls.my_turn and ls.outcome is None and self._decider_scope is None:
            choice = self.decider.decide(ls.game)
            if _is_async(choice):
                self._start_decider(choice)  # type: ignore[arg-type]
                return
            try:
                ls.decide(choice, trio.current_time())  # type: ignore[arg-type]
            except IllegalDecision as err:
                raise NetError(f"the local player chose an illegal decision: {err}") from None
            if not self.journal.durable:
                self._flush()  # our decision itself already left (Lockstep.decide sends early)

    def _start_decider(self, awaitable: Awaitable[Decision]) -> None:
        token = self.ls.applied
        scope = trio.CancelScope()
        self._decider_scope = scope
        self._decider_token = token

        async def wait() -> None:
            with scope:
                decision = await awaitable
                await self.hub.send_channel.send(("decided", token, decision))

        self.hub.nursery.start_soon(wait)

    def _cancel_decider(self) -> None:
        if self._decider_scope is not None:
            self._decider_scope.cancel()
            self._decider_scope = None

    def _decided(self, token: int, decision: Decision, now: float) -> None:
        if token != self._decider_token:
            return
        self._decider_scope = None
        self._decider_token = None
        if not self.ls.my_turn or self.ls.outcome is not None:
            return
        try:
            self.ls.decide(tuple(decision), now)
        except IllegalDecision as err:
            log.warning("the local decision is illegal: %s", err)  # the decider is asked again

    # ------------------------------------------------------------------ closing

    async def _close(self) -> None:
        ls = self.ls
        self._cancel_decider()
        try:
            ls.leave_messages()
            self._flush()
        except NetError:
            pass
        finally:
            self.journal.close()
        links = list(self.hub.links.values())
        for link in links:
            link.close("the game is over")
        with trio.move_on_after(Link.CLOSE_GRACE + 0.5):
            for link in links:
                await _wait_closed(link)


async def _wait_closed(link: Link) -> None:
    await link.done.wait()
