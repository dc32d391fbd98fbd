"""A loopback TCP proxy for the tests: forwards bytes both ways, and can cut every connection,
inject bytes towards the target, fall silent, or cut a connection after the target's n-th
frame."""

from __future__ import annotations

import trio


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.pairs: list[tuple[trio.SocketStream, trio.SocketStream]] = []
        self.connections = 0
        self.frozen = False
        self.locks: dict[int, trio.Lock] = {}
        self.cut_after: int | None = None  # the next connection is cut after this many frames
        self.to_target = 0  # bytes forwarded each way, over every connection
        self.to_client = 0

    async def run(self, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        try:
            server = await trio.open_tcp_stream("127.0.0.1", self.target_port)
        except OSError:
            await client.aclose()
            return
        self.connections += 1
        pair = (client, server)
        self.pairs.append(pair)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._pump, client, server, nursery.cancel_scope)
            if self.cut_after is None:
                nursery.start_soon(self._pump, server, client, nursery.cancel_scope)
            else:
                frames, self.cut_after = self.cut_after, None
                nursery.start_soon(self._pump_frames, server, client, frames, nursery.cancel_scope)
        for s in pair:
            await s.aclose()
        if pair in self.pairs:
            self.pairs.remove(pair)

    async def _pump(self, src, dst, scope: trio.CancelScope) -> None:
        back = any(dst is client for client, _ in self.pairs)
        try:
            while True:
                data = await src.receive_some(65536)
                if not data:
                    break
                while self.frozen:
                    await trio.sleep(0.01)
                async with self._lock(dst):
                    await dst.send_all(data)
                if back:
                    self.to_client += len(data)
                else:
                    self.to_target += len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        scope.cancel()

    async def _pump_frames(self, src, dst, frames: int, scope: trio.CancelScope) -> None:
        """Forward ``frames`` whole frames, then cut the connection."""
        buffer = b""
        try:
            while frames:
                data = await src.receive_some(65536)
                if not data:
                    break
                buffer += data
                while frames and len(buffer) >= 4:
                    size = 4 + int.from_bytes(buffer[:4], "big")
                    if len(buffer) < size:
                        break
                    await dst.send_all(buffer[:size])
                    buffer, frames = buffer[size:], frames - 1
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        for s in (src, dst):
            s.socket.close()
        scope.cancel()

    async def cut(self) -> None:
        """Drop every connection at once, as a pulled cable would (both ends see it)."""
        for client, server in list(self.pairs):
            for s in (client, server):
                s.socket.close()
        self.pairs.clear()

    async def inject(self, data: bytes) -> None:
        """Send raw bytes to the target, as if the client had sent them."""
        for _client, server in list(self.pairs):
            async with self._lock(server):
                await server.send_all(data)

    def _lock(self, stream) -> trio.Lock:
        return self.locks.setdefault(id(stream), trio.Lock())
