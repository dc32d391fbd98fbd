"""The host's spectators: who watches, and the public projection of the game they are sent.

A spectator never gets the game's steps or its chance seeds: every peer runs the whole engine,
and from the seeds anyone could compute the order of every deck. So the host sends it only
what is public: after each step the public view of the state (``Game.view(None)``: hands and
decks as counts) and the step's log lines, and relays chat. A spectator decides nothing: a
``decision`` from it is refused by name and never reaches the game. Each spectator has its own
:class:`~.link.Link`, so a slow one is dropped and a flooding one cut off like any link's peer,
and nothing it does waits on the players. A late spectator is caught up from the public log
the gallery keeps and the latest view.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

import trio

from ..core.game import Game
from .events import Chat, Ended, Event, Heard, Started, StepApplied, Watching
from .link import FramedStream, Link, LinkDown, LinkReport, Received, Timeouts
from .lockstep import CHAT_BURST, CHAT_RATE
from .messages import NEWS_LINE_MAX, NEWS_LINES, make
from .throttle import Rate

log = logging.getLogger("crownp2p.net")

SPECTATORS = 4  # a table's spectators unless the host says otherwise (host --spectators)
LOG_KEPT = 1024  # public log lines kept to catch up a spectator who comes late


class Gallery:
    def __init__(
        self,
        limit: int,
        players: int,
        timeouts: Timeouts,
        on_event: Callable[[Event], None] | None,
    ) -> None:
        self.limit = limit
        self.players = players
        self.timeouts = timeouts
        self.on_event = on_event or (lambda event: None)
        self.names: dict[Link, str] = {}  # the spectators, by their links
        self.rates: dict[Link, Rate] = {}
        self.log: deque[str] = deque(maxlen=LOG_KEPT)
        # The latest scene: made as a step is shown while someone watches, else only once a
        # spectator comes (the public view costs the host a fifth of a step's work).
        self.scene: dict[str, Any] | None = None
        self._shown: tuple[Game, int] | None = None  # the game and step the scene is of
        self.farewell: dict[str, Any] | None = None  # the `leave` saying how the game ended
        self.seat_names: list[str] = []

    @property
    def room(self) -> bool:
        return len(self.names) < self.limit

    async def attend(self, framed: FramedStream, name: str) -> None:
        """Take a spectator in (after its handshake), catch it up and follow the game with it
        until it or the game ends."""
        link = Link(framed, -1, self, self.timeouts, who=f"spectator {name}")
        self.names[link] = name
        self.rates[link] = Rate(CHAT_RATE, CHAT_BURST)
        link.send(make("welcome", players=self.players))
        lines = list(self.log)
        for start in range(0, len(lines), NEWS_LINES):
            link.send(make("news", lines=lines[start : start + NEWS_LINES]))
        scene = self.latest_scene()
        if scene is not None:
            link.send(scene)
        if self.farewell is not None:
            link.send(self.farewell)
            link.close("the game is over")
        self.on_event(Watching(name, True))
        await link.run()

    # ------------------------------------------------------------------ what the game tells

    def observe(self, event: Event, game: Game, seq: int) -> None:
        """Pass on to the spectators what ``event`` made public; ``game`` is the host's game,
        ``seq`` its last step."""
        match event:
            case Started():  # a game of the evening begins: what was told is the last one's
                self.log.clear()
                self.scene = self.farewell = self._shown = None
                self._show(game, seq)
            case StepApplied(news=news):
                lines = [line[:NEWS_LINE_MAX] for line in news if line]
                self.log.extend(lines)
                for start in range(0, len(lines), NEWS_LINES):
                    self._tell(make("news", lines=lines[start : start + NEWS_LINES]))
                self._show(game, seq)
            case Chat(seat=seat, text=text):
                self._tell(make("heard", name=self.seat_names[seat], text=text))
            case Ended(outcome=outcome):
                self._show(game, seq)
                self.farewell = make("leave", text=f"the game is over: {outcome.reason}"[:500])
                for link in list(self.names):
                    link.send(self.farewell)
                    link.close("the game is over")

    def _show(self, game: Game, seq: int) -> None:
        if self._shown is not None and self._shown[1] == seq:
            return
        self.scene, self._shown = None, (game, seq)
        if self.names:
            self._tell(self._scene(game, seq))

    def latest_scene(self) -> dict[str, Any] | None:
        """The ``scene`` of the step shown last, made now if no one watched it (None before the
        first game starts)."""
        if self.scene is None and self._shown is not None:
            self._scene(*self._shown)
        return self.scene

    def _scene(self, game: Game, seq: int) -> dict[str, Any]:
        self.scene = make("scene", seq=seq, view=game.view(None), names=self.seat_names)
        return self.scene

    def _tell(self, msg: dict[str, Any], but: Link | None = None) -> None:
        for link in self.names:
            if link is not but:
                link.send(msg)

    # ------------------------------------------------------------------ what spectators say

    def deliver(self, report: LinkReport) -> None:
        match report:
            case Received(link=link, msg=msg):
                handler = getattr(self, f"_on_{msg['t']}", None)
                if handler is None:
                    link.refuse("unexpected", f"a spectator does not send {msg['t']} messages")
                else:
                    handler(link, msg)
            case LinkDown(link=link):
                name = self.names.pop(link, None)
                self.rates.pop(link, None)
                if name is not None:
                    log.info("spectator %s left: %s", name, report.reason)
                    self.on_event(Watching(name, False))

    def _on_decision(self, link: Link, msg: dict[str, Any]) -> None:
        link.refuse("spectator", "a spectator cannot decide anything")

    def _on_chat(self, link: Link, msg: dict[str, Any]) -> None:
        rate = self.rates[link]
        if rate.allow(trio.current_time()):
            name = self.names[link]
            self.on_event(Heard(name, msg["text"]))
            self._tell(make("heard", name=name, text=msg["text"]), but=link)
        elif not rate.limited:
            rate.limited = True  # one sentence per outburst
            link.send(
                make(
                    "error",
                    code="slow-down",
                    text=f"you chat faster than {CHAT_RATE:g} lines a second: "
                    "your chat is dropped until you slow down",
                )
            )

    def _on_leave(self, link: Link, msg: dict[str, Any]) -> None:
        link.close("left")

    def _on_error(self, link: Link, msg: dict[str, Any]) -> None:
        log.warning("%s reports: %s [%s]", link.who, msg["text"], msg["code"])
