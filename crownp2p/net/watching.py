"""A spectator's side: join a table's gallery and follow its public projection.

The host sends a spectator the public view after each step (``scene``), the public log
(``news``) and the chat (``heard``), and ``leave`` when the game is over (docs/protocol.md,
"Spectators"). A spectator holds no engine of the game and so never a hidden card; it can
chat, and it can leave, which changes nothing for the players.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import trio

from . import crypto
from .errors import ConnectionLost, HandshakeError, NetError, PeerTimeout
from .events import Event, Heard, News, Scene
from .handshake import Packs, watch_dial
from .link import FramedStream, Link, LinkDown, LinkReport, Received, Timeouts
from .messages import make
from .seating import at_boundary, reach_host

log = logging.getLogger("crownp2p.net")


class Spectator:
    """Our link to the host, once it has taken us in: what it sends becomes events."""

    def __init__(
        self, framed: FramedStream, timeouts: Timeouts, on_event: Callable[[Event], None]
    ) -> None:
        self.link = Link(framed, -1, self, timeouts, who="the host")
        self.on_event = on_event
        self.farewell = ""  # why the host closed the gallery to us

    def chat(self, text: str) -> None:
        self.link.send(make("chat", text=text[:500]))

    def leave(self, text: str = "") -> None:
        self.link.send(make("leave", text=text[:500]))
        self.link.close("we left")

    async def run(self) -> str:
        """Follow the game until the host or we close the link: how it ended, in a sentence."""
        await self.link.run()
        return self.farewell or self.link.reason

    def deliver(self, report: LinkReport) -> None:
        match report:
            case Received(msg=msg):
                handler = getattr(self, f"_on_{msg['t']}", None)
                if handler is None:
                    self.link.refuse("unexpected", f"a spectator is not sent {msg['t']} messages")
                else:
                    handler(msg)
            case LinkDown(reason=reason) if not self.farewell:
                self.farewell = reason

    def _on_scene(self, msg: dict[str, Any]) -> None:
        self.on_event(Scene(msg["seq"], msg["view"], tuple(msg["names"])))

    def _on_news(self, msg: dict[str, Any]) -> None:
        self.on_event(News(tuple(msg["lines"])))

    def _on_heard(self, msg: dict[str, Any]) -> None:
        self.on_event(Heard(msg["name"], msg["text"]))

    def _on_error(self, msg: dict[str, Any]) -> None:
        log.warning("the host refused: %s [%s]", msg["text"], msg["code"])
        self.on_event(Heard("the host", f"refused: {msg['text']}"))

    def _on_leave(self, msg: dict[str, Any]) -> None:
        self.farewell = msg["text"] or "the host closed the table"
        self.link.close(self.farewell)


@at_boundary
async def watch_game(
    host: str,
    port: int,
    *,
    code: str,
    packs: Packs,
    name: str = "spectator",
    timeouts: Timeouts | None = None,
    on_event: Callable[[Event], None] | None = None,
    task_status: trio.TaskStatus[Spectator] = trio.TASK_STATUS_IGNORED,
) -> str:
    """Watch the game hosted at ``host:port`` until it ends or we leave; reports the
    :class:`Spectator` (to chat and leave) once the host has taken us in, and returns the
    host's last words."""
    timeouts = timeouts or Timeouts()
    try:
        code = crypto.check_code(code)
    except ValueError as err:
        raise NetError(str(err)) from None
    framed = FramedStream(await reach_host(host, port, timeouts))
    try:
        await watch_dial(framed, code=code, name=name, packs=packs, timeout=timeouts.handshake)
    except HandshakeError as err:
        await framed.aclose()
        raise NetError(f"the host did not let us watch: {err}") from None
    except (PeerTimeout, ConnectionLost) as err:
        await framed.aclose()
        raise NetError(str(err)) from None
    spectator = Spectator(framed, timeouts, on_event or (lambda event: None))
    task_status.started(spectator)
    return await spectator.run()
