"""The lobby: the screen of a networked table before its game, for the host and each joiner.

It lists who is in (the host first, then the joiners as they came), at a four-seat table the
partners the host chose, and once the seating draw is done each player's seat and colour. The
host who holds (a person at a team table, without ``--teams``) chooses its partner here with
``partner NAME`` and begins the draw with ``start``; the draw still decides which pair moves
first and who of each pair sits first. Everyone can leave with ``quit``.

It is the same small interface the terminal loops drive (terminal.py, full_screen.py):
``handle``, ``screen``, ``status``, ``toolbar``, ``message``, ``completer``, ``opening``,
``leave_question``, ``listen``. The network tells it what happens (net/events.py) through
:meth:`LobbyScreen.on_event`; the host's choices reach the lobby (net/lobby.py) in the trio
run, through the caller the shell's bridge gives it (net_table.in_trio).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.seats import COLOURS
from ..net.events import Joined, Left, LobbyChanged, Seated, Waiting
from .render import Fragments
from .reply import Reply

if TYPE_CHECKING:
    from prompt_toolkit.completion import Completer

    from ..net.lobby import Lobby

__all__ = ["LobbyScreen", "seating_line", "told"]

HELP = {
    "partner NAME": "play with NAME (or the number the list shows); `partner draw`: let the "
    "draw choose",
    "start": "begin the seating draw (every place must be taken)",
    "quit": "leave the table",
}


def seating_line(seated: Seated) -> str:
    """Where the seating draw put us, who moves first and (at a team table) who partners us:
    ``you are seat 3 of 4, gold; ann (blue) moves first; your partner is bob``."""
    seat, names = seated.seat, seated.names
    parts = [f"you are seat {seat} of {len(names)}, {COLOURS[seated.sides[seat]]}"]
    first = (
        "you move first" if seat == 0 else f"{names[0]} ({COLOURS[seated.sides[0]]}) moves first"
    )
    parts.append(first)
    partners = [names[s] for s in seated.partners(seat)]
    if partners:
        parts.append(f"your partner is {' and '.join(partners)}")
    if seated.sealed:
        parts.append("sealed decks: no one sees a card the rules hide")
    else:
        parts.append("open decks: every peer's program holds every card, only screens hide them")
    return "; ".join(parts)


def told(event: Any) -> tuple[dict[str, Any], str] | None:
    """What a seating event says, as JSON and as a line (None: it says nothing by itself)."""
    match event:
        case Joined(name=name, present=present, players=players):
            return {"event": "joined", "name": name, "present": present}, (
                f"{name} joined ({present} of {players} in)"
            )
        case Left(name=name):
            return {"event": "left", "name": name}, (
                f"{name} left before the game began: the place is free again"
            )
        case Waiting(players=players):
            return {"event": "waiting", "players": players}, (
                f"in at a table of {players}: waiting for the others and the seating draw"
            )
        case Seated():
            data = {
                "event": "seated",
                "seat": event.seat,
                "names": list(event.names),
                "host": event.host,
                "sealed": event.sealed,
            }
            return data, seating_line(event)
    return None


class LobbyScreen:
    """The lobby of one peer (see the module). ``players``: the table's places; ``hosting``:
    we are the host; ``holds``: the host chooses partners and starts (else the draw begins
    by itself once every place is taken)."""

    confirm_quit = True

    def __init__(self, players: int, *, hosting: bool, holds: bool = False) -> None:
        self.players = players
        self.hosting = hosting
        self.holds = holds
        self.names: tuple[str, ...] = ()  # who is in, the host first
        self.teams: tuple[tuple[int, ...], ...] = ()  # places in names
        self.seated: Seated | None = None
        self.started = False  # the host said start
        self.lobby: Lobby | None = None  # the host's, to choose and start
        # Runs a function in the table's trio run (the bridge sets it: net_table.in_trio).
        self.call: Callable[..., bool] | None = None
        self._listeners: list[Callable[[Reply], None]] = []
        self._unseen: list[str] = []  # said before anyone listened

    # ---------------------------------------------------------------- the network's side

    def control(self, lobby: Lobby) -> None:
        """The host's lobby, handed over in the trio run (seating.host_game's lobby_ready)."""
        self.lobby = lobby

    def on_event(self, event: Any) -> None:
        """News from the table: the screen is drawn again, with a line for the log if the
        news says one (the seats are said as the table opens, net_table.py)."""
        match event:
            case LobbyChanged():
                self.names, self.players, self.teams = event.names, event.players, event.teams
                if not self.full:  # a place came free: the host starts again
                    self.started = False
            case Waiting(players=players):
                self.players = players
            case Seated():
                self.seated = event
        said = told(event)
        self.tell([said[1]] if said is not None and self.seated is not event else [])

    def tell(self, lines: list[str]) -> None:
        """Lines for the log (and the screen drawn again)."""
        if not self._listeners:
            self._unseen.extend(lines)
            return
        for callback in self._listeners:
            callback(Reply(list(lines), redraw=True))

    # ---------------------------------------------------------------- what to show

    @property
    def full(self) -> bool:
        return len(self.names) == self.players

    @property
    def choosing(self) -> bool:
        """Whether the host still chooses partners and starts."""
        return self.hosting and self.holds and not self.started and self.seated is None

    def screen(self, width: int = 100) -> Fragments:
        lines: Fragments = [("class:status", f"The table: {len(self.names)} of {self.players} in")]
        if self.seated is not None:
            seated = self.seated
            for seat, name in enumerate(seated.names):
                you = " (you)" if seat == seated.seat else ""
                colour = COLOURS[seated.sides[seat]]
                lines.append(("", f"\n  seat {seat}  {colour:<5} {name}{you}"))
        else:
            for place, name in enumerate(self.names):
                host = " (host)" if place == 0 else ""
                lines.append(("", f"\n  {place + 1}. {name}{host}"))
            lines += [("", "\n  …") for _ in range(self.players - len(self.names))]
            if self.players == 4:
                lines.append(("", f"\nPartners: {self.partners()}"))
        return [*lines, ("", "\n\n"), ("", self.status())]

    def partners(self) -> str:
        if not self.teams:
            return "the seating draw decides"
        pairs = [" and ".join(self.names[place] for place in team) for team in self.teams]
        return f"{pairs[0]} against {pairs[1]}; the draw decides who moves first"

    def status(self) -> str:
        if self.seated is not None:
            return "Seated: the game begins."
        if not self.players:
            return "Joining the table..."
        if not self.full:
            return f"Waiting for {self.players - len(self.names)} more to join..."
        if self.choosing:
            return "Everyone is in: `partner NAME` chooses your partner, `start` begins."
        return "Everyone is in: waiting for the seating draw..."

    def toolbar(self, width: int = 200) -> Fragments:
        keys = "partner NAME · start · quit" if self.choosing else "quit"
        return [("class:bottom-toolbar", f" lobby · {keys}"[:width])]

    def message(self) -> str:
        return "lobby> "

    def opening(self) -> Reply:
        unseen, self._unseen = self._unseen, []
        return Reply([*unseen, "`help` lists what you can do here."])

    def listen(self, callback: Callable[[Reply], None]) -> None:
        self._listeners.append(callback)

    def leave_question(self) -> str | None:
        return "Leave the table? [y/N] "

    def completer(self) -> Completer:
        from prompt_toolkit.completion import WordCompleter

        return WordCompleter(lambda: ["help", "quit", *self.commands(), *self.names[1:]])

    def commands(self) -> list[str]:
        return ["partner", "start"] if self.choosing else []

    # ---------------------------------------------------------------- input

    def handle(self, line: str) -> Reply:
        words = line.split()
        if not words:
            return Reply()
        first, rest = words[0].lower(), words[1:]
        if first in ("quit", "exit"):
            return Reply(quit=True)
        if first == "help":
            shown = ["help", "quit"] + self.commands()
            return Reply(
                [f"{usage}: {text}" for usage, text in HELP.items() if usage.split()[0] in shown]
            )
        if first not in self.commands():
            if first in ("partner", "start"):
                return Reply([self._why_not()])
            return Reply([f"There is no {first!r} here: `help` lists what you can do."])
        return self._start() if first == "start" else self._partner(" ".join(rest))

    def _why_not(self) -> str:
        if not self.hosting:
            return "Only the host chooses partners and starts."
        if self.seated is not None or self.started:
            return "The seating draw has begun."
        if self.players != 4:
            return "At two seats there are no partners: the draw begins once both are in."
        return "The partners were fixed by --teams: the draw begins once everyone is in."

    def _partner(self, who: str) -> Reply:
        if not who:
            return Reply(["Usage: partner NAME (or its number), or `partner draw`."])
        if who.lower() == "draw":
            place = 0
        elif who.isdigit() and 2 <= int(who) <= len(self.names):
            place = int(who) - 1
        else:
            named = [p for p, name in enumerate(self.names) if p and name == who]
            if len(named) != 1:
                why = "nobody" if not named else "more than one player"
                return Reply([f"{why.capitalize()} here is called {who}: give the number."])
            (place,) = named
        assert self.lobby is not None and self.call is not None
        self.call(self.lobby.choose_partner, place, self.names[place])
        if place == 0:
            return Reply(["The seating draw will choose the partners."])
        return Reply([f"Your partner: {self.names[place]}."])

    def _start(self) -> Reply:
        if not self.full:
            return Reply([f"Not yet: {len(self.names)} of {self.players} are in."])
        assert self.lobby is not None and self.call is not None
        if self.call(self.lobby.start):
            self.started = True
        return Reply(["The seating draw begins."], redraw=True)
