"""The host's join phase: the players it has admitted, and the seating draw between them all.

Each admitted joiner (a :class:`Guest`) is talked to by its own connection task
(:meth:`Lobby.attend`) until its table is made: pinged when the line is quiet, sent the draw's
commitments once every place is taken, and its opening checked against the commitment it
brought. The host's main task waits for the places to fill (:meth:`Lobby.full`) and for every
opening (:meth:`Lobby.openings`), then hands each guest its table (:meth:`Lobby.seat`). A guest
cut off keeps its place once every place is taken (it rejoins with its key); before that, the
place is free again. A guest whose opening does not open its commitment is refused, its place
freed, and the draw starts again once the table is full again.

Until the draw every guest is sent the lobby as it changes (``lobby``: who is in, and the host's
chosen partners at a four-seat table), and the host hears it as :class:`LobbyChanged`. A host
that ``holds`` (a person who may still choose partners) begins the draw only on :meth:`start`;
the partners are fixed before the draw, so no one chooses them knowing its outcome.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trio

from .draw import Draw, commitment
from .errors import ConnectionLost, NetError, ProtocolError
from .events import Event, Joined, Left, LobbyChanged
from .handshake import Player
from .link import FramedStream, Timeouts
from .messages import make

log = logging.getLogger("crownp2p.net")


@dataclass
class Guest:
    """A joiner the host has admitted, until the table seats it."""

    player: Player
    addr: tuple[str, int]  # where the seats that dial it reach it
    framed: FramedStream | None = None  # its connection now (None: cut off)
    asked: Draw | None = None  # the draw last sent to it
    nonce: bytes | None = None  # its opening of the draw, once checked
    table: dict[str, Any] | None = None  # its table, once made
    seat: int = -1
    shown: int = -1  # the lobby's version last sent to it
    scope: trio.CancelScope | None = None  # its task's wait, cancelled when there is news


class Lobby:
    def __init__(
        self,
        players: int,
        timeouts: Timeouts,
        host: tuple[bytes, bytes],  # the host's static public key and its commitment
        on_event: Callable[[Event], None] | None,
        *,
        name: str = "host",
        partner: str | None = None,
        hold: bool = False,
    ) -> None:
        self.players = players
        self.name = name  # the host's own, first in the lobby
        self.partner_name = partner  # --teams NAME: the host's partner, by name
        self.partner: bytes | None = None  # the host's partner, chosen in the lobby
        self.hold = hold  # wait for start() once full
        self.started = not hold
        self.version = 0  # counts the lobby's changes
        self.timeouts = timeouts
        self.host = host
        self.on_event = on_event or (lambda event: None)
        self.guests: dict[bytes, Guest] = {}  # by static key, in the order they came
        self.draw: Draw | None = None  # the commitments, once every place is taken
        self.seated = False  # the tables are made: no newcomer is taken
        self._news = trio.Event()  # set when a guest comes, goes or opens

    # ------------------------------------------------------------------ the guests' tasks

    @property
    def room(self) -> bool:
        """Whether a joiner might be taken: a place is free, or a guest is cut off (and may
        come back)."""
        guests = self.guests.values()
        full = self.seated or len(self.guests) == self.players - 1
        return not full or any(g.framed is None for g in guests)

    def admit(self, framed: FramedStream, player: Player, addr: tuple[str, int]) -> Guest | None:
        """The guest for an admitted joiner (the one it was, if it comes back with its key), or
        None when there is no place for it."""
        guest = self.guests.get(player.static)
        if guest is None:
            if self.seated or len(self.guests) == self.players - 1:
                return None
            guest = self.guests[player.static] = Guest(player, addr)
            self.on_event(Joined(player.name, len(self.guests) + 1, self.players))
            self.announce()
        elif guest.player.commit != player.commit:
            return None  # the same key with another commitment: not the guest it was
        if guest.framed is not None and guest.framed is not framed:
            self._wake(guest)  # an older connection of the same player: it gives way
        guest.framed = framed
        guest.asked = None
        self._news.set()
        return guest

    async def attend(self, guest: Guest, framed: FramedStream) -> bool:
        """Talk to ``guest`` on ``framed`` until its table is made (True) or it is gone
        (False): ping it when quiet, send it the draw, check its opening."""
        quiet_since = sent_at = trio.current_time()
        try:
            while guest.framed is framed:
                # News from here on cancels the wait below, even before it begins.
                guest.scope = trio.CancelScope()
                if guest.table is not None:
                    return True
                # What was sent is what is marked sent: news that comes while a send is under
                # way (a checkpoint) is sent on the next round, not taken as sent already.
                if guest.shown != (version := self.version):
                    await framed.send(make("lobby", names=self.names, teams=self.team_places()))
                    guest.shown, sent_at = version, trio.current_time()
                if (draw := self.draw) is not None and guest.asked is not draw:
                    await framed.send(make("draw", commits=[list(c) for c in draw.commits]))
                    guest.asked, sent_at = draw, trio.current_time()
                msg = None
                guest.scope.deadline = sent_at + self.timeouts.keepalive
                with guest.scope:
                    msg = await framed.receive()
                now = trio.current_time()
                if msg is None:
                    if now - quiet_since > self.timeouts.idle:
                        raise ConnectionLost(f"{guest.player.name} has been silent too long")
                    if now >= sent_at + self.timeouts.keepalive:
                        await framed.send(make("ping"))
                        sent_at = now
                    continue
                quiet_since = now
                if not await self._heard(guest, framed, msg):
                    return False
        except ProtocolError as err:
            await framed.refuse(err.code, str(err))
        except ConnectionLost as err:
            log.info("%s: %s", guest.player.name, err)
        self.lost(guest, framed)
        return False

    async def _heard(self, guest: Guest, framed: FramedStream, msg: dict[str, Any]) -> bool:
        """Whether the guest stays after ``msg``."""
        kind = msg["t"]
        if kind == "ping":
            return True
        if kind == "error":
            log.warning("%s left the table: %s", guest.player.name, msg["text"])
        elif kind != "opening" or guest.asked is None or guest.asked is not self.draw:
            await framed.refuse("unexpected", f"a message `{kind}` is not expected now")
        elif commitment(guest.player.static, msg["nonce"]) != guest.player.commit:
            await framed.refuse("draw", "your nonce does not open your commitment")
            log.warning("%s's nonce does not open its commitment", guest.player.name)
            self.draw = None  # the others' openings are spent: they open a new draw again
            for other in self.guests.values():
                other.nonce = None
            self._free(guest)
            return False
        else:
            guest.nonce = msg["nonce"]
            self._news.set()
            return True
        self.lost(guest, framed)
        return False

    def lost(self, guest: Guest, framed: FramedStream) -> None:
        """``guest``'s connection ``framed`` is gone."""
        if guest.framed is not framed:
            return  # it came back on a newer connection
        guest.framed = None
        if self.draw is None and not self.seated:  # not every place was taken: free it
            self._free(guest)
        self._news.set()

    def _free(self, guest: Guest) -> None:
        """``guest``'s place is free again: the host chooses anew once the table is full."""
        del self.guests[guest.player.static]
        if self.partner == guest.player.static:
            self.partner = None
        self.started = not self.hold
        self.on_event(Left(guest.player.name))
        self.announce()
        self._news.set()

    def _wake(self, guest: Guest) -> None:
        if guest.scope is not None:
            guest.scope.cancel()

    # ------------------------------------------------------------------ the lobby

    @property
    def names(self) -> list[str]:
        """Who is in: the host, then the guests in the order they came."""
        return [self.name] + [g.player.name for g in self.guests.values()]

    def _partner_key(self) -> bytes | None:
        """The host's partner: chosen in the lobby, or the one guest called as ``--teams``
        says (None while there is none, or more than one)."""
        if self.partner is not None or self.partner_name is None:
            return self.partner
        named = [k for k, g in self.guests.items() if g.player.name == self.partner_name]
        return named[0] if len(named) == 1 else None

    def teams(self) -> tuple[tuple[bytes, ...], ...]:
        """The partners as the host fixed them, by key (empty: the draw decides), once every
        place is taken."""
        partner = self._partner_key()
        if partner is None or len(self.guests) < self.players - 1:
            return ()
        return (self.host[0], partner), tuple(k for k in self.guests if k != partner)

    def team_places(self) -> list[list[int]]:
        """:meth:`teams` as places in :attr:`names` (the host is 0)."""
        places = {key: place for place, key in enumerate([self.host[0], *self.guests])}
        return [[places[key] for key in team] for team in self.teams()]

    def choose_partner(self, place: int, name: str) -> None:
        """The host partners the guest at ``place`` in :attr:`names` (0: none, the draw
        decides), if that is still ``name`` and the draw has not begun."""
        if self.draw is not None or self.seated or self.names[place : place + 1] != [name]:
            return
        self.partner = list(self.guests)[place - 1] if place else None
        self.partner_name = None
        self.announce()

    def start(self) -> None:
        """The host starts the table: the draw begins once every place is taken."""
        self.started = True
        self._news.set()

    def announce(self) -> None:
        """Tell the host (LobbyChanged) and every guest (``lobby``) the lobby as it is now."""
        self.version += 1
        teams = tuple(tuple(team) for team in self.team_places())
        self.on_event(LobbyChanged(tuple(self.names), self.players, teams))
        for guest in self.guests.values():
            self._wake(guest)

    # ------------------------------------------------------------------ the host's task

    async def _changed(self) -> None:
        await self._news.wait()
        self._news = trio.Event()

    async def full(self) -> None:
        """Wait until every place is taken (and the host has started, if it holds), then send
        every guest the draw's commitments. NetError: ``--teams`` names no one at the table."""
        while len(self.guests) < self.players - 1 or not self.started:
            await self._changed()
        if self.partner_name is not None and self._partner_key() is None:
            named = [g for g in self.guests.values() if g.player.name == self.partner_name]
            who = "no player" if not named else "more than one player"
            raise NetError(
                f"--teams names {self.partner_name}, but {who} at the table is called "
                f"{self.partner_name}"
            )
        commits = sorted([self.host] + [(k, g.player.commit) for k, g in self.guests.items()])
        self.draw = Draw(tuple(commits))
        for guest in self.guests.values():
            self._wake(guest)

    async def openings(self) -> bool:
        """Wait for every guest's opening: True once all are in, False when one did not open
        its commitment (its place is free again: wait for :meth:`full` again). NetError when
        the draw does not end in time."""
        with trio.move_on_after(self.timeouts.start):
            while self.draw is not None:
                if all(g.nonce is not None for g in self.guests.values()):
                    return True
                await self._changed()
            return False
        late = [g.player.name for g in self.guests.values() if g.nonce is None]
        raise NetError(
            f"the table did not start in time: {', '.join(late)} did not answer the seating draw"
        )

    def nonces(self, host_nonce: bytes) -> dict[bytes, bytes]:
        """Every peer's opening, by static key (the host's own included)."""
        found = {key: g.nonce for key, g in self.guests.items() if g.nonce is not None}
        return found | {self.host[0]: host_nonce}

    def seat(self, tables: dict[bytes, tuple[int, dict[str, Any]]]) -> None:
        """Hand each guest its seat and table; from now on only they may come back."""
        self.seated = True
        for key, guest in self.guests.items():
            guest.seat, guest.table = tables[key]
            self._wake(guest)
