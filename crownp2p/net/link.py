"""Connections: a framed, validated message stream, and a Link that runs one.

:class:`FramedStream` wraps any trio stream for the handshake: ``send``/``receive`` one
message at a time, in the clear until the handshake seals it; from then on every frame is sealed
and opened with the handshake's Noise keys, and one that does not open ends the link
(``bad-seal``). Once a peer is admitted, a :class:`Link` takes it over: one writer task fed
by a memory channel (trio forbids concurrent ``send_all``), which also sends a ``ping`` when the
line has been quiet, and one reader that reports every valid message to its sink (the Hub) and
declares the link dead when nothing at all arrives for the idle timeout.

Trio's and the socket layer's exceptions stop here: callers see :class:`ConnectionLost`,
:class:`PeerTimeout` or :class:`ProtocolError`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import trio
from noise.connection import NoiseConnection  # type: ignore[import-untyped]

from . import crypto
from .errors import ConnectionLost, ProtocolError
from .frames import FrameDecoder, decode_body, encode_body, frame
from .messages import make, validate

log = logging.getLogger("crownp2p.net")

RECEIVE_SIZE = 65536
MAX_QUEUED = 4 << 20  # bytes waiting for a peer that stopped reading: then it is dropped
REFUSALS_PER_LINK = 3  # refused messages a link answers (malformed or untimely); the next drops it
_CLOSE = object()
PING = make("ping")
Reader = Callable[[], Awaitable[bytes | bytearray]]


def describe(stream: trio.abc.Stream) -> str:
    """``host:port`` of the other end, when the stream is a socket."""
    sock = getattr(stream, "socket", None)
    try:
        host, port = sock.getpeername()[:2] if sock is not None else ("?", 0)
    except OSError:
        return "?"
    return f"{host}:{port}"


class FramedStream:
    """One connection, a message at a time: in the clear for a handshake's first messages,
    sealed (:meth:`seal_with`) from the first frame after its key exchange."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.pending: deque[bytes] = deque()  # bodies read but not yet taken
        self.peer = describe(stream)
        self.noise: NoiseConnection | None = None
        self.last_body = b""  # the last clear body sent or received: a handshake's prologue

    def seal_with(self, noise: NoiseConnection) -> None:
        """From now on every frame both ways is sealed under ``noise``'s finished handshake."""
        self.noise = noise

    def encode(self, message: dict[str, Any]) -> bytes:
        """The frame for ``message``; sealed frames must go out in the order they were made."""
        body = encode_body(message)
        if self.noise is not None:
            return frame(crypto.seal(self.noise, body))
        self.last_body = body
        return frame(body)

    def decode(self, body: bytes) -> dict[str, Any]:
        """A body read from the wire, opened if sealed, to a map (not yet schema-checked)."""
        if self.noise is None:
            self.last_body = body
            return decode_body(body)
        try:
            return decode_body(crypto.unseal(self.noise, body))
        except crypto.SealError:
            raise ProtocolError(
                "bad-seal",
                "a frame did not open (tampered, injected, replayed or reordered)",
                fatal=True,
            ) from None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(self.encode(message))

    async def send_raw(self, data: bytes) -> None:
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as err:
            raise ConnectionLost(f"the connection to {self.peer} broke ({err})") from None

    async def receive_raw(self, read: Reader | None = None) -> dict[str, Any]:
        """The next decoded frame (not yet schema-checked). ``read``: where the bytes come
        from (the stream's ``receive_some`` when None)."""
        while not self.pending:
            try:
                data = await (read or self._receive_some)()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as err:
                raise ConnectionLost(f"the connection to {self.peer} broke ({err})") from None
            if not data:
                if self.decoder.mid_frame:
                    raise ProtocolError(
                        "truncated", "the connection closed in the middle of a frame", fatal=True
                    )
                raise ConnectionLost(f"{self.peer} closed the connection")
            self.pending.extend(self.decoder.feed(bytes(data)))
        return self.decode(self.pending.popleft())

    async def _receive_some(self) -> bytes | bytearray:
        return await self.stream.receive_some(RECEIVE_SIZE)

    async def receive(self) -> dict[str, Any]:
        """The next message, checked against its schema. An ``error`` frame from the other
        side is returned like any other message."""
        return validate(await self.receive_raw())

    async def refuse(self, code: str, text: str) -> None:
        """Send an error frame and close, ignoring a peer that is already gone."""
        log.warning("refused %s: %s [%s]", self.peer, text, code)
        with trio.move_on_after(1), contextlib.suppress(ConnectionLost):
            await self.send(make("error", code=code, text=text[:500]))
        await self.aclose()

    async def aclose(self) -> None:
        gone = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)
        with trio.CancelScope(shield=True), contextlib.suppress(*gone):
            await self.stream.aclose()


@dataclass(frozen=True)
class Timeouts:
    """Every timeout of a table, in seconds. Tests shrink them."""

    handshake: float = 10.0  # each handshake message
    keepalive: float = 5.0  # send a ping after this long without sending
    idle: float = 20.0  # a link that hears nothing this long is dead
    reveal: float = 60.0  # commit-reveal: a peer's commitment or reveal must come within this
    reconnect: float = 120.0  # a dropped peer must be back within this, or the game is aborted
    dial_retry: float = 1.0  # the longest pause between redials
    start: float = 120.0  # the table must be assembled within this, once full
    finish: float = 10.0  # after the end: wait this long for the peers' last words


@dataclass(frozen=True)
class LinkUp:
    """The link is admitted and running."""

    link: Link


@dataclass(frozen=True)
class LinkDown:
    """The link has closed, for ``reason``: always a link's last report."""

    link: Link
    reason: str


@dataclass(frozen=True)
class Received:
    """A valid message (never a keepalive ``ping``)."""

    link: Link
    msg: dict[str, Any]


@dataclass(frozen=True)
class Refused:
    """A message refused by its schema (the peer was told; the stream is still in step)."""

    link: Link
    error: ProtocolError


@dataclass(frozen=True)
class Drained:
    """Everything read so far has been reported: a batch may be acknowledged now."""

    link: Link


LinkReport = LinkUp | LinkDown | Received | Refused | Drained


class LinkSink(Protocol):
    """Where a link reports, synchronously, as it happens."""

    def deliver(self, report: LinkReport) -> None: ...


class Link:
    """One admitted peer's connection, bound to its seat for good.

    Outgoing frames go straight to the socket when the writer task is idle (a non-blocking
    send from the caller, saving a task switch per message, about a fifth of a decision's
    latency); whatever does not fit waits for the writer task, which also sends keepalives.
    The reader, too, reads the socket itself, through trio only to wait (:meth:`_read`)."""

    CLOSE_GRACE = 1.0  # after our goodbye, how long we keep reading for the peer's

    def __init__(
        self,
        framed: FramedStream,
        seat: int,
        sink: LinkSink,
        timeouts: Timeouts,
        who: str = "",
    ) -> None:
        self.framed = framed
        self.seat = seat
        self.who = who or f"seat {seat}"  # in log lines: a seat, or a spectator by name
        self.sink = sink
        self.timeouts = timeouts
        self._raw: socket.socket | None = None
        self._writing = False
        self._held: list[bytes] | None = None  # frames kept by hold(), in order
        stream = framed.stream
        if isinstance(stream, trio.SocketStream):
            try:
                self._raw = socket.socket(fileno=os.dup(stream.socket.fileno()))
                self._raw.setblocking(False)
            except OSError:
                self._raw = None
        self._out_send, self._out_recv = trio.open_memory_channel[Any](math.inf)
        self._queued = 0  # bytes in the channel, bounded by MAX_QUEUED
        self._read_scope: trio.CancelScope | None = None
        self._flushed = trio.Event()
        self.done = trio.Event()
        self._refusals = 0
        self.closed = False
        self.reason = ""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; never blocks. Dropped if the link is closed."""
        if self.closed:
            return
        data = self.framed.encode(message)
        if self._held is not None:
            self._held.append(data)
        else:
            self._write(data)

    def hold(self) -> None:
        """Keep what is sent from now until :meth:`release`, to write it in one go (one system
        call, and the peer reads it in one wake-up)."""
        if self._held is None:
            self._held = []

    def release(self) -> None:
        """Write what was kept since :meth:`hold`."""
        held, self._held = self._held, None
        if held and not self.closed:
            self._write(b"".join(held))

    def _write(self, data: bytes) -> None:
        if self._raw is not None and not self._queued and not self._writing:
            try:
                sent = self._raw.send(data)
            except BlockingIOError:
                sent = 0
            except OSError as err:
                self.close(f"the connection broke ({err})")
                return
            if sent == len(data):
                return
            data = data[sent:]
        if self._queued + len(data) > MAX_QUEUED:
            # Buffering for a peer that does not read would cost us, not it: drop it.
            self.close(f"{self.who} stopped reading ({MAX_QUEUED >> 20} MB waited for it)")
            return
        self._queued += len(data)
        self._out_send.send_nowait(data)

    def close(self, reason: str = "closed") -> None:
        """Send what is queued, then half-close; keep reading a moment for the peer's last
        words, then hang up."""
        if self.closed:
            return
        self.release()  # what was sent before the close goes before it
        self.closed = True
        self.reason = self.reason or reason
        self._out_send.send_nowait(_CLOSE)
        if self._read_scope is not None:
            grace = trio.current_time() + self.CLOSE_GRACE
            self._read_scope.deadline = min(self._read_scope.deadline, grace)

    async def run(self) -> None:
        """Run the link until it closes; always reports ``down`` to the session last."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, nursery.cancel_scope)
                await self._reader()
                self.close(self.reason or "closed")
                with trio.move_on_after(self.CLOSE_GRACE):
                    await self._flushed.wait()
                nursery.cancel_scope.cancel()
        finally:
            self.closed = True
            if self._raw is not None:
                trio.lowlevel.notify_closing(self._raw)  # (the reader may have waited on it)
                self._raw.close()
                self._raw = None
            await self.framed.aclose()
            self.done.set()
            self.sink.deliver(LinkDown(self, self.reason))

    async def _reader(self) -> None:
        # Messages that arrived with the handshake's last frame come first.
        while self.framed.pending:
            try:
                raw = self.framed.decode(self.framed.pending.popleft())
            except ProtocolError as err:
                self._refuse(err)
                return
            self._deliver(raw)
        self.sink.deliver(Drained(self))
        while True:
            deadline = trio.current_time() + self.timeouts.idle
            if self.closed:
                deadline = min(deadline, trio.current_time() + self.CLOSE_GRACE)
            with trio.CancelScope(deadline=deadline) as scope:
                self._read_scope = scope
                try:
                    raw = await self.framed.receive_raw(self._read if self._raw else None)
                except ConnectionLost as err:
                    self.reason = self.reason or str(err)
                    return
                except ProtocolError as err:
                    self._refuse(err)
                    return
                finally:
                    self._read_scope = None
            if scope.cancelled_caught:
                if not self.closed:
                    self.reason = f"nothing heard from {self.who} for {self.timeouts.idle:g} s"
                    log.warning("%s", self.reason)
                return
            self._deliver(raw)
            if not self.framed.pending:
                self.sink.deliver(Drained(self))
            await trio.lowlevel.checkpoint_if_cancelled()

    async def _read(self) -> bytes:
        """What has arrived on the socket, read straight from it, going through trio only to
        wait when nothing has (trio's ``receive_some`` also passes through its scheduler once
        more after each read: about a tenth of a decision's way to a peer). A read that did
        not wait still yields once, so a peer that keeps the socket full cannot keep the
        other tasks from running."""
        raw = self._raw
        assert raw is not None
        waited = False
        while True:
            try:
                data = raw.recv(RECEIVE_SIZE)
                break
            except BlockingIOError:
                await trio.lowlevel.wait_readable(raw)
                waited = True
        if not waited:
            await trio.lowlevel.cancel_shielded_checkpoint()  # (what was read is not dropped)
        return data

    def _deliver(self, raw: dict[str, Any]) -> None:
        if self._refusals > REFUSALS_PER_LINK:
            return  # dropped for its refusals: nothing more it says is read
        try:
            msg = validate(raw)
        except ProtocolError as err:
            if self.refuse(err.code, str(err)):
                self.sink.deliver(Refused(self, err))
            return
        if msg["t"] != "ping":
            self.sink.deliver(Received(self, msg))

    def refuse(self, code: str, text: str) -> bool:
        """Answer a message we refuse, malformed or valid but untimely (``replayed``,
        ``unexpected`` …): the stream itself is still in step. Only the first few are
        answered and logged: answering a flood of tiny frames would send back more than it
        sent and fill the log, so past them the link is dropped. False once past them: say
        nothing more about this link's messages."""
        self._refusals += 1
        if self._refusals > REFUSALS_PER_LINK + 1:
            return False
        if self._refusals > REFUSALS_PER_LINK:
            self.close(
                f"{self.who} sent more than {REFUSALS_PER_LINK} messages we refuse "
                f"(the last: {code})"
            )
            log.warning("%s", self.reason)
            return False
        log.warning("%s: %s [%s]", self.who, text, code)
        self.send(make("error", code=code, text=text[:500]))
        return True

    def _refuse(self, err: ProtocolError) -> None:
        log.warning("%s: %s [%s]; disconnecting", self.who, err, err.code)
        self.reason = str(err)
        self.send(make("error", code=err.code, text=str(err)[:500]))
        self.close(str(err))

    async def _writer(self, cancel: trio.CancelScope) -> None:
        try:
            while True:
                with trio.move_on_after(self.timeouts.keepalive) as scope:
                    item = await self._out_recv.receive()
                if scope.cancelled_caught:
                    self._writing = True  # a partial write must not be interleaved
                    try:
                        await self.framed.send_raw(self.framed.encode(PING))
                    finally:
                        self._writing = False
                    continue
                chunks: list[bytes] = []
                closing = item is _CLOSE
                if not closing:
                    chunks.append(item)
                    self._queued -= len(item)
                while not closing:
                    try:
                        item = self._out_recv.receive_nowait()
                    except trio.WouldBlock:
                        break
                    if item is _CLOSE:
                        closing = True
                    else:
                        chunks.append(item)
                        self._queued -= len(item)
                if chunks:
                    self._writing = True
                    try:
                        await self.framed.send_raw(b"".join(chunks))
                    finally:
                        self._writing = False
                if closing:
                    await self._half_close()
                    self._flushed.set()
                    return
        except ConnectionLost as err:
            self.reason = self.reason or str(err)
            self.closed = True
            self._flushed.set()
            cancel.cancel()

    async def _half_close(self) -> None:
        stream = self.framed.stream
        if isinstance(stream, trio.SocketStream):
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await stream.send_eof()
