"""The three ways to a seat in a networked game: host one, join one, resume one from its record.

Each is a trio service: ``async def ...(..., task_status=trio.TASK_STATUS_IGNORED)`` that
reports once it is ready (the host's address and join code; the joiner's seat; the resumed
seat) and returns the game's :class:`Outcome`. Everything that can go wrong for a reason the
user can act on is a :class:`NetError` with one sentence.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import socket
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import trio

from ..core.game import Game
from ..core.play import Decider
from ..core.record import Record, ReplayError
from ..core.rules import Rules
from ..core.setup import Setup
from . import crypto, draw
from .bounds import (
    CLOCK,
    DEFAULT_CLOCK,
    REVEAL,
    OutOfBounds,
    check_seat,
    check_setup,
    check_timeout,
)
from .discovery import BEACON_PORT, INTERVAL, Announcement, announce, encode
from .draw import Draw
from .errors import ConnectionLost, HandshakeError, NetError, PeerTimeout, ProtocolError
from .events import EveningOver, Event, LobbyChanged, Outcome, Seated, Waiting
from .gallery import SPECTATORS, Gallery
from .handshake import Admitted, Packs, join_accept, join_dial, watch_accept
from .journal import Journal, JournalError, load, session_path
from .link import FramedStream, Timeouts
from .lobby import Lobby
from .lockstep import Lockstep, NonceSource
from .messages import make
from .rematch import Again, between, numbered, score_event, tally
from .sealed_cards import SealedCards
from .sealed_resume import rebuild
from .session import Hub, Session, TableInfo
from .throttle import Throttle

log = logging.getLogger("crownp2p.net")

EventSink = Callable[[Event], None]
# A joiner (or a resumed peer) learns the setup only from the host (or its record): it may pass
# the rules, or a function choosing them from the setup (its variant).
RulesSource = Rules | Callable[[Setup], Rules]
P = ParamSpec("P")
R = TypeVar("R")


@dataclass
class HostReady:
    """What ``host_game`` reports once it listens."""

    address: str  # the address to share (this machine's LAN address when bound to all)
    port: int
    code: str


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


@contextmanager
def boundary() -> Iterator[None]:
    """Trio wraps what a nursery raises in exception groups; callers of this module see our
    own error (or a KeyboardInterrupt) instead."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        for kind in (KeyboardInterrupt, NetError, JournalError):
            for exc in leaves:
                if isinstance(exc, kind):
                    if isinstance(exc, JournalError):
                        raise NetError(str(exc)) from None
                    raise exc from None
        raise
    except JournalError as err:
        raise NetError(str(err)) from None


def at_boundary(service: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(service)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with boundary():
            return await service(*args, **kwargs)

    return wrapper


def nonce_source(test_seed: int | str | None, seat: int) -> NonceSource:
    if test_seed is None:
        return lambda round_: crypto.new_nonce()
    return lambda round_: crypto.insecure_nonce(test_seed, seat, round_)


def lan_address() -> str:
    """This machine's address on its default route (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _rules_for(source: RulesSource, setup: Setup) -> Rules:
    return source if isinstance(source, Rules) else source(setup)


def _check_players(rules: Rules, players: int) -> None:
    seats = len(rules.seating.sides)
    if players != seats:
        raise NetError(f"these rules seat {seats} players, not {players}")


def _check_record_path(record: str | Path | None) -> None:
    if record is None:
        return
    path = Path(record)
    if path.exists() or session_path(path).exists():
        raise NetError(f"{path} already exists: choose another record file or remove it")
    if not path.parent.is_dir():
        raise NetError(f"cannot write {path}: there is no directory {path.parent}")


async def _listen(host: str, port: int) -> list[trio.SocketListener]:
    try:
        return await trio.open_tcp_listeners(port, host=host or None)
    except OSError as err:
        why = err.strerror or str(err)
        raise NetError(f"cannot listen on {host or '*'}:{port}: {why}") from None


def _meta(info: TableInfo) -> dict[str, Any]:
    return {
        "seat": info.seat,
        "host": info.host,
        "players": info.names,
        "statics": [k.hex() for k in info.statics],
        "draw": info.draw.to_json(),
        "packs": [list(p) for p in info.packs],
    }


@dataclass
class _SeatRun:
    """How this seat's session runs: what host, join and resume were all given alike."""

    decider: Decider | None
    timeouts: Timeouts
    test_seed: int | str | None
    on_event: EventSink | None
    ready: Callable[[Session], None] | None
    again: Again | None = None  # asked after each game: another? (None: one game only)
    record: str | Path | None = None  # the first game's record file; the next are numbered

    def session(
        self,
        hub: Hub,
        info: TableInfo,
        game: Game,
        record: Record,
        journal: Journal,
        phase: str,
        known_nonces: dict[int, bytes] | None = None,
    ) -> Session:
        lockstep = Lockstep(
            game,
            record,
            seat=info.seat,
            game_id=info.game_id,
            names=info.names,
            journal=journal,
            nonces=nonce_source(self.test_seed, info.seat),
            secret=None if self.test_seed is None else nonce_source(self.test_seed, info.seat)(0),
            max_turns=info.max_turns,
            reveal_timeout=info.reveal_timeout,
            reconnect_timeout=self.timeouts.reconnect,
            clock=info.clock,
            known_nonces=known_nonces,
        )
        hub.info = info
        return Session(
            hub,
            lockstep,
            info,
            self.decider,
            journal=journal,
            record_table=info.to_json(),
            phase=phase,
            on_event=self.on_event,
            keep_links=self.again is not None,
        )

    async def play(self, session: Session, nursery: trio.Nursery) -> Outcome:
        """Run the session to its end, and the evening's next games on the same links while
        everyone wants another (``again``); then stop the table's other tasks (links,
        listeners). The last game's outcome."""
        score: dict[str, int] = {}
        number = 1
        while True:
            if self.ready:
                self.ready(session)
            try:
                outcome = await session.run()
            except JournalError as err:
                raise NetError(str(err)) from None
            if self.again is None:
                break
            tally(score, session.info, outcome, session.game.rules.seating.sides)
            self._tell(score_event(score, number))
            number += 1
            path = numbered(self.record, number)
            again = self.again
            if path is not None and path.exists():
                again = _no_room(path)
            table = await between(
                session, outcome, number, again, session.timeouts.start, self.test_seed
            )
            if isinstance(table, str):
                self._tell(EveningOver(table))
                break
            info, game = table
            self._tell(_seated(info, game.rules))
            record = Record.begin(game, game_id=info.game_id, **_meta(info))
            phase = "host" if info.seat == info.host else "join"
            session = self.session(session.hub, info, game, record, Journal(path), phase)
        nursery.cancel_scope.cancel()
        return outcome

    def _tell(self, event: Event) -> None:
        if self.on_event:
            self.on_event(event)


def _no_room(path: Path) -> Again:
    """Our answer when the next game's record file is taken: no (with a log line why)."""

    async def no(outcome: Outcome) -> bool:
        log.warning("%s already exists: no next game here", path)
        return False

    return no


# ====================================================================== host


@at_boundary
async def host_game(
    rules: Rules,
    setup: Setup,
    *,
    decider: Decider | None,
    packs: Packs,
    name: str = "host",
    teams: str | None = None,
    spectators: int = SPECTATORS,
    bind: str = "0.0.0.0",
    port: int = 0,
    code: str | None = None,
    record: str | Path | None = None,
    max_turns: int = 0,
    clock: float | None = DEFAULT_CLOCK,
    timeouts: Timeouts | None = None,
    test_seed: int | str | None = None,
    extra: dict[str, Any] | None = None,
    announced: Announced | None = None,
    on_event: EventSink | None = None,
    session_ready: Callable[[Session], None] | None = None,
    hold: bool = False,
    lobby_ready: Callable[[Lobby], None] | None = None,
    again: Again | None = None,
    task_status: trio.TaskStatus[HostReady] = trio.TASK_STATUS_IGNORED,
) -> Outcome:
    """Host a game for ``len(rules.seating.sides)`` players and play it to the end. A seat with
    no ``decider`` is a person's: its decisions come through :meth:`Session.offer`. ``clock``
    is each decision's time limit in seconds (None: no limit). ``teams`` names the player who
    partners the host at a table of two sides of two (None: the seating draw decides, unless
    the host chooses in the lobby). ``hold``: the draw waits for :meth:`Lobby.start` once every
    place is taken (a person who may still choose partners); ``lobby_ready(lobby)`` hands the
    lobby to the user interface that chooses and starts. ``announced``: how the table announces
    itself on the LAN until it is seated (None: it is silent); ``spectators`` is how many may
    watch at once (0: none); ``again`` is asked after each finished game whether to play
    another on the same links (None: one game); the last game's outcome is returned."""
    timeouts = timeouts or Timeouts()
    players = len(rules.seating.sides)
    sides = rules.seating.sides
    if teams is not None and sorted(sides.count(side) for side in set(sides)) != [2, 2]:
        raise NetError("--teams is for a table of two sides of two players")
    try:
        code = crypto.check_code(code) if code is not None else crypto.new_join_code()
    except ValueError as err:
        raise NetError(str(err)) from None
    _check_record_path(record)
    try:  # what every joiner would refuse
        check_setup(setup, rules)
        check_timeout("reveal timeout", timeouts.reveal, REVEAL)
        if clock is not None:
            check_timeout("decision clock", clock, CLOCK)
        game = Game(rules, setup)
    except (ValueError, KeyError) as err:
        raise NetError(f"the setup cannot start a game: {err}") from None
    beacon = _beacon(announced, name, setup, players)
    listeners = await _listen(bind, port)
    bound = listeners[0].socket.getsockname()
    address = lan_address() if bind in ("", "0.0.0.0", "::") else bound[0]
    port = bound[1]
    static = crypto.new_static()
    key, nonce = crypto.static_public(static), draw.new_nonce(test_seed, name)
    lobby = Lobby(
        players,
        timeouts,
        (key, draw.commitment(key, nonce)),
        on_event,
        name=name,
        partner=teams,
        hold=hold,
    )
    throttle = Throttle()
    session: Session | None = None
    gallery = Gallery(spectators, players, timeouts, on_event)

    def tell(event: Event) -> None:
        if session is not None:
            gallery.observe(event, session.game, len(session.record.steps))
        if on_event:
            on_event(event)

    async with trio.open_nursery() as nursery:
        hub = Hub(nursery, timeouts, packs)

        async def on_join(framed: FramedStream, hello: dict[str, Any]) -> None:
            if hello["t"] == "watch":
                await _take_spectator(framed, hello, gallery, throttle, code, hub.packs, timeouts)
                return
            if not lobby.room or (session is not None and session.started):
                await framed.refuse("table-full", "this table is full")
                return
            player = await _proven(
                framed,
                throttle,
                "player",
                join_accept(framed, hello, code=code, packs=hub.packs, timeout=timeouts.handshake),
            )
            if player is None:
                return
            peer_ip = _peer_ip(framed)
            if _is_loopback(peer_ip) and not _is_loopback(address):
                peer_ip = address  # a player on this very machine: others reach it here
            # A joiner whose link was cut before its table comes back with its key.
            guest = lobby.admit(framed, player, (peer_ip, player.listen))
            if guest is None:
                await framed.refuse("table-full", "this table is full")
                return
            try:
                await framed.send(make("welcome", players=players))
                if await lobby.attend(guest, framed):
                    assert guest.table is not None
                    await framed.send(guest.table)
                    await hub.run_link(framed, guest.seat)
                    return
            except ConnectionLost:
                lobby.lost(guest, framed)
            await framed.aclose()

        hub.on_join = on_join
        nursery.start_soon(hub.serve, listeners)
        task_status.started(HostReady(address, port, code))
        if announced is not None and beacon is not None:
            nursery.start_soon(
                announce,
                replace(beacon, address=address, port=port),
                lambda: None if lobby.seated else 1 + len(lobby.guests),
                announced.beacon_port,
                announced.interval,
            )
        if lobby_ready:
            lobby_ready(lobby)
        lobby.announce()
        while True:
            await lobby.full()
            if await lobby.openings():
                break
        nonces = lobby.nonces(nonce)
        assert lobby.draw is not None
        commits = lobby.draw.commits
        drawn = Draw(commits, tuple(nonces[k] for k, _ in commits), lobby.teams())
        statics = drawn.seats(rules.seating.sides)
        seat_of = {k: seat for seat, k in enumerate(statics)}
        guests = lobby.guests
        names = [name if k == key else guests[k].player.name for k in statics]
        addrs = [(address, port) if k == key else guests[k].addr for k in statics]
        game_id = crypto.new_game_id(test_seed)
        table_extra = dict(extra or {})
        if test_seed is not None:
            table_extra["test_seed"] = test_seed
        info = TableInfo(
            game_id,
            seat_of[key],
            seat_of[key],
            players,
            names,
            addrs,
            static,
            statics,
            drawn,
            setup,
            game.state_hash(),
            max_turns,
            timeouts.reveal,
            clock,
            list(packs),
            (bind, port),
            table_extra,
        )
        lobby.seat(
            {
                k: (
                    seat_of[k],
                    make(
                        "table",
                        game_id=game_id,
                        seat=seat_of[k],
                        host=info.host,
                        players=players,
                        names=names,
                        addrs=[list(a) for a in addrs],
                        setup=setup.to_json(),
                        start_hash=info.start_hash,
                        max_turns=max_turns,
                        reveal_timeout=float(timeouts.reveal),
                        clock=float(clock or 0),
                        statics=statics,
                        commits=[list(c) for c in drawn.commits],
                        nonces=list(drawn.nonces),
                        teams=[list(t) for t in drawn.teams],
                    ),
                )
                for k in guests
            }
        )
        if on_event:
            on_event(_seated(info, rules))
        record_obj = Record.begin(game, game_id=info.game_id, **_meta(info))

        def ready(current: Session) -> None:
            """Each game of the evening: the gallery follows it, seats as newly drawn."""
            nonlocal session
            session = current
            gallery.seat_names = current.names
            if session_ready:
                session_ready(current)

        run = _SeatRun(decider, timeouts, test_seed, tell, ready, again, record)
        session = run.session(hub, info, game, record_obj, Journal(record), "host")
        return await run.play(session, nursery)


@dataclass(frozen=True)
class Announced:
    """How a hosted table announces itself on the LAN (net/discovery.py)."""

    table: str  # the table's name
    beacon_port: int = BEACON_PORT
    interval: float = INTERVAL


def _beacon(
    announced: Announced | None, host: str, setup: Setup, players: int
) -> Announcement | None:
    """The table's announcement, but for where it listens (None: it is silent); a name too
    long for the beacon is said before anything starts."""
    if announced is None:
        return None
    beacon = Announcement(announced.table, host, "0.0.0.0", 1, setup.variant, players, 1)
    try:
        encode(beacon)
    except (ProtocolError, ValueError) as err:
        raise NetError(f"the table cannot be announced: {err}") from None
    return beacon


def _peer_ip(framed: FramedStream) -> str:
    return framed.peer.rsplit(":", 1)[0].strip("[]")


async def _proven(
    framed: FramedStream, throttle: Throttle, who: str, handshake: Coroutine[Any, Any, R]
) -> R | None:
    """Run a join's ``handshake`` (a player's or a spectator's) within the limit on tries from
    its address: what it gives, or None when it was refused (and closed, and logged)."""
    peer_ip = _peer_ip(framed)
    wait = throttle.begin(peer_ip, trio.current_time())
    if wait:
        handshake.close()
        await framed.refuse("slow-down", f"too many tries from here: wait {wait:.0f} s")
        return None
    try:
        result = await handshake
    except (HandshakeError, PeerTimeout, ConnectionLost, ProtocolError) as err:
        tries = throttle.tries(peer_ip)
        log.warning("a %s at %s was not admitted (try %d): %s", who, peer_ip, tries, err)
        await framed.aclose()
        return None
    throttle.proved(peer_ip)
    return result


async def _take_spectator(
    framed: FramedStream,
    hello: dict[str, Any],
    gallery: Gallery,
    throttle: Throttle,
    code: str,
    packs: Packs,
    timeouts: Timeouts,
) -> None:
    """A ``watch``: a spectator's join, as a player's but into the gallery, at any time."""
    if not gallery.room:
        why = "this table takes no spectators" if not gallery.limit else "the gallery is full"
        await framed.refuse("table-full", why)
        return
    name = await _proven(
        framed,
        throttle,
        "spectator",
        watch_accept(framed, hello, code=code, packs=packs, timeout=timeouts.handshake),
    )
    if name is None:
        return
    if not gallery.room:  # taken while it proved the code
        await framed.refuse("table-full", "the gallery is full")
        return
    await gallery.attend(framed, name)


def _seated(info: TableInfo, rules: Rules) -> Seated:
    sealed = info.setup.sealed
    return Seated(info.seat, tuple(info.names), tuple(rules.seating.sides), info.host, sealed)


# ====================================================================== join


@dataclass
class _Entry:
    """Our part in the seating draw: our key for this table, our nonce, the draw's
    commitments as we last answered them, and the partners the host's lobby showed (by name,
    None: no lobby came), last and as we answered."""

    nonce: bytes
    static: bytes = field(default_factory=crypto.new_static)
    answered: tuple[tuple[bytes, bytes], ...] | None = None
    shown: list[list[str]] | None = None
    promised: list[list[str]] | None = None

    @property
    def key(self) -> bytes:
        return crypto.static_public(self.static)

    @property
    def commit(self) -> bytes:
        return draw.commitment(self.key, self.nonce)


async def _await_table(
    framed: FramedStream,
    timeouts: Timeouts,
    entry: _Entry,
    players: int,
    on_event: EventSink | None,
) -> dict[str, Any]:
    """Wait for the host to fill the table, pinging so neither side thinks the other gone,
    telling the lobby as the host sends it, and open our commitment when the host sends the
    seating draw. ConnectionLost: the link was cut first."""
    quiet_since = trio.current_time()
    while True:
        with trio.move_on_after(timeouts.keepalive) as scope:
            try:
                msg = await framed.receive()
            except ProtocolError as err:
                await framed.refuse(err.code, str(err))
                raise NetError(f"the host sent an unreadable message: {err}") from None
        if scope.cancelled_caught:
            if trio.current_time() - quiet_since > timeouts.idle:
                raise NetError(f"the host has been silent for {timeouts.idle:g} s")
            await framed.send(make("ping"))
            continue
        quiet_since = trio.current_time()
        if msg["t"] == "ping":
            continue
        if msg["t"] == "error":
            raise NetError(f"the host ended the table: {msg['text']}")
        if msg["t"] == "draw":
            await _open(framed, msg, entry, players)
            continue
        if msg["t"] == "lobby":
            changed = await _lobby_heard(framed, msg, players)
            entry.shown = _pairs(
                [[changed.names[place] for place in team] for team in changed.teams]
            )
            if on_event:
                on_event(changed)
            continue
        if msg["t"] != "table":
            await framed.refuse("unexpected", f"expected the table, not a {msg['t']} message")
            raise NetError(f"the host sent {msg['t']} instead of the table")
        return msg


def _pairs(teams: list[list[str]]) -> list[list[str]]:
    """Partners by name, in an order that does not depend on the seats."""
    return sorted(sorted(team) for team in teams)


async def _lobby_heard(framed: FramedStream, msg: dict[str, Any], players: int) -> LobbyChanged:
    """The host's ``lobby`` as an event, once we have checked it fits the table."""
    names, teams = msg["names"], msg["teams"]
    places = [place for team in teams for place in team]
    if (
        len(names) > players
        or len(places) != len(set(places))
        or max(places, default=0) >= len(names)
    ):
        await framed.refuse("bad-message", "the lobby does not fit the table")
        raise NetError("the host sent a lobby that does not fit its table")
    return LobbyChanged(tuple(names), players, tuple(tuple(team) for team in teams))


async def _open(framed: FramedStream, msg: dict[str, Any], entry: _Entry, players: int) -> None:
    """Answer the seating draw with our nonce, once we have checked that it carries our
    commitment as we sent it, among one per seat."""
    commits = tuple(msg["commits"])
    keys = [key for key, _ in commits]
    if (entry.key, entry.commit) not in commits:
        wrong = "does not carry our commitment as we sent it"
    elif len(commits) != players or keys != sorted(set(keys)):
        wrong = "does not list one commitment per seat, in the order of their keys"
    else:
        entry.answered, entry.promised = commits, entry.shown
        await framed.send(make("opening", nonce=entry.nonce))
        return
    await framed.refuse("draw", f"the seating draw {wrong}")
    raise NetError(f"the table cannot be played here: the host's seating draw {wrong}")


@at_boundary
async def join_game(
    rules: RulesSource,
    host: str,
    port: int,
    *,
    code: str,
    decider: Decider | None,
    packs: Packs,
    name: str = "player",
    record: str | Path | None = None,
    timeouts: Timeouts | None = None,
    test_seed: int | str | None = None,
    extra: dict[str, Any] | None = None,
    on_event: EventSink | None = None,
    session_ready: Callable[[Session], None] | None = None,
    again: Again | None = None,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> Outcome:
    """Join the game hosted at ``host:port`` and play it to the end. Ready once the host has
    taken us in; our seat comes with the table, from the seating draw. ``again`` as for
    :func:`host_game`."""
    timeouts = timeouts or Timeouts()
    _check_record_path(record)
    try:
        code = crypto.check_code(code)
    except ValueError as err:
        raise NetError(str(err)) from None
    stream = await reach_host(host, port, timeouts)
    framed = FramedStream(stream)
    entry = _Entry(draw.new_nonce(test_seed, name))
    try:
        local_ip = stream.socket.getsockname()[0]
        # Seats will dial us: listen where they can reach us (only on loopback when the whole
        # table is on this machine).
        listen_on = local_ip if _is_loopback(local_ip) else ("::" if ":" in local_ip else "0.0.0.0")
        listeners = await _listen(listen_on, 0)
        listen_port = listeners[0].socket.getsockname()[1]

        async def dial(framed: FramedStream) -> Admitted:
            return await join_dial(
                framed,
                code=code,
                name=name,
                packs=packs,
                listen_port=listen_port,
                commit=entry.commit,
                timeout=timeouts.handshake,
                static=entry.static,
            )

        try:
            joined = await dial(framed)
        except HandshakeError as err:
            raise NetError(f"the host refused to seat us: {err}") from None
        except (PeerTimeout, ConnectionLost) as err:
            raise NetError(str(err)) from None
        task_status.started()
        if on_event:
            on_event(Waiting(joined.players))
        while True:
            try:
                table = await _await_table(framed, timeouts, entry, joined.players, on_event)
                break
            except ConnectionLost:
                await framed.aclose()
            framed, joined = await _rejoin(host, port, timeouts, dial)
        info, game = await _accept_table(framed, table, rules, entry, host, port, packs, test_seed)
    except BaseException:
        await framed.aclose()
        raise
    info.listen = (listen_on, listen_port)
    info.extra.update(extra or {})
    if on_event:
        on_event(_seated(info, game.rules))
    record_obj = Record.begin(game, game_id=info.game_id, **_meta(info))
    async with trio.open_nursery() as nursery:
        hub = Hub(nursery, timeouts, packs)
        run = _SeatRun(decider, timeouts, test_seed, on_event, session_ready, again, record)
        session = run.session(hub, info, game, record_obj, Journal(record), "join")
        nursery.start_soon(hub.serve, listeners)
        nursery.start_soon(hub.adopt(framed, info.host).run)  # adopted now, before any redial
        return await run.play(session, nursery)


async def reach_host(host: str, port: int, timeouts: Timeouts) -> trio.SocketStream:
    try:
        with trio.fail_after(timeouts.handshake):
            return await trio.open_tcp_stream(host, port)
    except trio.TooSlowError:
        raise NetError(f"the host at {host}:{port} did not answer") from None
    except OSError as err:
        raise NetError(f"cannot reach the host at {host}:{port}: {err.strerror or err}") from None


async def _rejoin(
    host: str,
    port: int,
    timeouts: Timeouts,
    dial: Callable[[FramedStream], Awaitable[Admitted]],
) -> tuple[FramedStream, Admitted]:
    """The link to the host was cut before the table came: dial again with our key (the host
    keeps our seat for it) until it takes us back or the reconnect window runs out."""
    give_up = trio.current_time() + timeouts.reconnect
    delay = 0.02
    while True:
        framed: FramedStream | None = None
        try:
            framed = FramedStream(await reach_host(host, port, timeouts))
            return framed, await dial(framed)
        except HandshakeError as err:
            if err.code != "closed":
                raise NetError(
                    f"the link to the host was cut before the game began, and the host "
                    f"refused to seat us again: {err}"
                ) from None
            log.info("rejoining the host: %s", err)
        except (NetError, PeerTimeout) as err:
            log.info("rejoining the host: %s", err)
        if framed is not None:
            await framed.aclose()
        if trio.current_time() + delay >= give_up:
            raise NetError(
                "the link to the host was cut before the game began, and the host did not "
                f"take us back within {timeouts.reconnect:g} s"
            )
        await trio.sleep(delay)
        delay = min(delay * 2, timeouts.dial_retry)


async def _accept_table(
    framed: FramedStream,
    table: dict[str, Any],
    source: RulesSource,
    entry: _Entry,
    host: str,
    port: int,
    packs: Packs,
    test_seed: int | str | None,
) -> tuple[TableInfo, Game]:
    """Check the host's table against our own engine; refuse it with a reason if it differs."""

    async def refuse(code: str, text: str) -> NetError:
        await framed.refuse(code, text)
        return NetError(f"the table cannot be played here: {text}")

    players = table["players"]
    try:
        setup = Setup.from_json(table["setup"])
        rules = _rules_for(source, setup)
    except Exception as err:  # any setup our engine cannot build is refused, not crashed on
        raise await refuse(
            "setup", f"the setup cannot be built ({type(err).__name__}: {err})"
        ) from None
    if players != len(rules.seating.sides):
        raise await refuse(
            "players",
            f"the table is for {players} players; these rules seat {len(rules.seating.sides)}",
        )
    try:  # before building anything from it
        check_seat(table["seat"], table["host"], players)
        check_setup(setup, rules)
        check_timeout("reveal timeout", table["reveal_timeout"], REVEAL)
        if table["clock"]:
            check_timeout("decision clock", table["clock"], CLOCK)
    except OutOfBounds as err:
        raise await refuse("bounds", str(err)) from None
    if len(table["names"]) != players or len(table["addrs"]) != players:
        raise await refuse("bad-message", "the table does not name and place every seat")
    try:
        game = Game(rules, setup)
    except Exception as err:  # any setup our engine cannot build is refused, not crashed on
        raise await refuse(
            "setup", f"the setup cannot be built ({type(err).__name__}: {err})"
        ) from None
    if game.state_hash() != table["start_hash"]:
        raise await refuse("setup", "the setup starts from a different state here")
    seat: int = table["seat"]
    statics: list[bytes] = table["statics"]
    if len(statics) != players or statics[seat] != entry.key:
        raise await refuse("bad-message", "the table does not carry our key as we sent it")
    if len(set(statics)) != players or not all(map(crypto.static_public_ok, statics)):
        raise await refuse("bad-message", "the table holds an unusable key")
    drawn = Draw(tuple(table["commits"]), tuple(table["nonces"]), tuple(map(tuple, table["teams"])))
    if entry.answered is None:
        raise await refuse("draw", "the table came before the seating draw")
    if drawn.commits != entry.answered:
        raise await refuse("draw", "the table's seating draw is not the one we answered")
    wrong = draw.seats_fault(drawn, statics, table["names"], rules.seating.sides)
    if wrong is not None:
        raise await refuse("draw", wrong)
    name_of = dict(zip(statics, table["names"], strict=True))
    pairs = _pairs([[name_of[key] for key in team] for team in drawn.teams])
    if entry.promised is not None and pairs != entry.promised:
        raise await refuse("draw", "the table's partners are not those its lobby showed")
    addrs: list[tuple[str, int]] = [(str(h), int(p)) for h, p in table["addrs"]]
    addrs[table["host"]] = (host, port)  # the host is where we reached it
    extra: dict[str, Any] = {}
    if test_seed is not None:
        extra["test_seed"] = test_seed
    info = TableInfo(
        table["game_id"],
        seat,
        table["host"],
        players,
        list(table["names"]),
        addrs,
        entry.static,
        statics,
        drawn,
        setup,
        table["start_hash"],
        table["max_turns"],
        table["reveal_timeout"],
        table["clock"] or None,
        list(packs),
        None,
        extra,
    )
    return info, game


# ====================================================================== resume


@at_boundary
async def resume_game(
    rules: RulesSource,
    record: str | Path,
    *,
    decider: Decider | None,
    packs: Packs,
    timeouts: Timeouts | None = None,
    on_event: EventSink | None = None,
    session_ready: Callable[[Session], None] | None = None,
    again: Again | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> Outcome:
    """Continue the game in ``record`` where this peer left it (and, with ``again``, the
    evening, as for :func:`host_game`: the next records are numbered after this one)."""
    timeouts = timeouts or Timeouts()
    try:
        rec, session_file = load(record)
        info = TableInfo.from_json(session_file.table)
    except JournalError as err:
        raise NetError(str(err)) from None
    except (KeyError, TypeError, ValueError) as err:
        raise NetError(f"the session file of {record} cannot be read ({err})") from None
    if session_file.end is not None:  # it ended before we stopped: its result is all there is
        task_status.started(info.seat)
        return Outcome.from_json(session_file.end)
    try:
        chosen = _rules_for(rules, info.setup)
    except Exception as err:
        raise NetError(f"the rules of this game cannot be built here ({err})") from None
    _check_players(chosen, info.players)
    sealed: tuple[SealedCards, dict[int, list[dict[str, Any]]]] | None = None
    if info.setup.sealed:
        if session_file.secret is None or session_file.signing is None:
            raise NetError(
                f"the session file of {record} does not keep this seat's game secret and "
                "signing key"
            )
        game, cards, sent, steps = rebuild(
            chosen,
            rec,
            seat=info.seat,
            game_id=info.game_id,
            secret=session_file.secret,
            signing_seed=session_file.signing,
            inbound=session_file.sealed_in,
            decider=decider,
        )
        sealed = cards, sent
        if steps < len(rec.steps):  # (steps that never left: see rebuild)
            rec.steps = rec.steps[:steps]
            rec.save(record)
    else:
        game = replay(chosen, rec, info.seat, decider)
    test_seed = info.extra.get("test_seed")
    listeners: list[trio.SocketListener] = []
    if info.callers and info.listen is not None:
        listeners = await _listen(info.listen[0], info.listen[1])
    journal = Journal(record)
    try:
        journal.reopen()
    except JournalError as err:
        raise NetError(str(err)) from None
    async with trio.open_nursery() as nursery:
        hub = Hub(nursery, timeouts, packs)
        run = _SeatRun(decider, timeouts, test_seed, on_event, session_ready, again, record)
        session = run.session(hub, info, game, rec, journal, "resume", session_file.nonces)
        if sealed is not None:  # our sealed decks as they were, and what we had sent
            session.ls.sealed, session.ls.sealed_sent = sealed
        if listeners:
            nursery.start_soon(hub.serve, listeners)
        task_status.started(info.seat)
        return await run.play(session, nursery)


def replay(rules: Rules, record: Record, seat: int, decider: Decider | None = None) -> Game:
    """Rebuild the game from a record, checking every hash. The decider is asked again at each
    of our past positions (its answer unused: the record has ours), so a bot's random source
    resumes where it was."""
    steps = record.steps
    try:
        for game, step in record.replay(rules):
            done = 0 if step is None else step.seq
            if decider is not None and done < len(steps) and steps[done].seat == seat:
                decider.decide(game, seat)
    except ReplayError as err:
        where = f"step {err.seq}: " if err.seq else ""
        raise NetError(f"the record does not replay: {where}{err.reason}") from None
    return game


def address_of(text: str, default_port: int | None = None) -> tuple[str, int]:
    """``HOST:PORT`` (or ``[V6]:PORT``) to a pair, or ValueError with a sentence."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        if default_port is None:
            raise ValueError(f"{text!r} is not HOST:PORT")
        host, port_text = text, str(default_port)
    host = host.strip("[]")
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"{port_text!r} is not a port number") from None
    if not 0 < port < 65536:
        raise ValueError(f"{port} is not a port number (1 to 65535)")
    if not host:
        raise ValueError(f"{text!r} has no host")
    return host, port
