"""A seat at a networked table: the shell's :class:`Table` over a network session.

Two pieces:

- :class:`NetDriver` is the table's driver over the session's own game and record. The session
  (its Lockstep) applies every decision, ours too; everything it tells — a step applied, our
  turn, chat, a peer's error, a link, the end (net/events.py) — comes in through
  :meth:`NetDriver.on_event`, which tells the table. The person's decisions, chat and leaving
  go to the session (net/session.py lists what a user interface may use of it).
- :func:`run_shell` is the bridge: prompt_toolkit runs on asyncio, the network on trio, and
  here trio runs as a *guest* on the asyncio loop (``trio.lowlevel.start_guest_run``). Both
  then run on the main thread, so the table is only ever touched from one thread, and
  prompt_toolkit keeps its terminal handling (Ctrl-C as a key, resize) that needs the main
  thread. The prompt reaches into trio only through the run's token (``run_sync_soon``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import trio

from ..core.decisions import Decision
from ..core.game import Game
from ..core.record import Record
from ..net.events import (
    Asked,
    Audited,
    Chat,
    Ended,
    EveningOver,
    Heard,
    LinkChanged,
    Outcome,
    PeerError,
    Score,
    StepApplied,
    Watching,
)
from ..net.messages import TEXT_MAX
from ..net.session import SessionView
from .commands import BOARD, HELP, HINT, LOG, MOVES, RULES, SAVE, SAVE_OVER
from .lobby_screen import LobbyScreen, seating_line
from .reply import Reply, ShellCommand, registry
from .table import Table

__all__ = ["NET_COMMANDS", "NetDriver", "PersonsAnswer", "in_trio", "net_table", "run_shell"]

LEAVE_WAIT = 10.0  # seconds to let the session say goodbye after the player leaves


def in_trio(token: trio.lowlevel.TrioToken | None = None) -> Callable[..., bool]:
    """A function that calls ``fn(*args)`` in the trio run of ``token`` (default: this one)
    and says whether it could (False: the run has finished)."""
    token = token or trio.lowlevel.current_trio_token()

    def call(fn: Callable[..., Any], *args: Any) -> bool:
        try:
            token.run_sync_soon(fn, *args)
        except trio.RunFinishedError:
            return False
        return True

    return call


class PersonsAnswer:
    """The person's answer when a game ends, "another?" (net/rematch.py's ``again``): `again`
    says yes, leaving says no. Awaited in the trio run; :meth:`give` is called in it too (the
    shell reaches it through the run's token)."""

    def __init__(self) -> None:
        self._said: bool | None = None
        self._given = trio.Event()

    async def __call__(self, outcome: Outcome) -> bool:
        await self._given.wait()
        said, self._said, self._given = bool(self._said), None, trio.Event()
        return said

    def give(self, yes: bool) -> None:
        if self._said is None:
            self._said = yes
            self._given.set()


class NetDriver:
    """One seat at a networked game, following the session's Lockstep (see the module)."""

    leaving_resigns = True  # `quit` asks too: leaving resigns
    think: float | None = None  # a `hint` thinks as long as the normal level
    intro = ["`chat TEXT` talks to the table; leaving the game resigns it."]
    preface: list[str] = []

    def __init__(
        self,
        session: SessionView,
        *,
        token: trio.lowlevel.TrioToken | None = None,
        bell: bool = True,
        answer: PersonsAnswer | None = None,
    ) -> None:
        self.commands = NET_COMMANDS
        self.answer = answer  # None: this table plays one game
        self.asked_again = False  # the person said `again`: the next game is on its way
        self._follow(session)
        self._call = in_trio(token)
        self.pending = False  # our decision is on its way to the session
        self.stopped = False  # the session has returned
        self.bell = bell  # ring when our turn begins (off: --quiet)
        self._turn_told = 0  # the last turn of ours the table was told had begun
        self._table: Table | None = None
        # The decision clock as the session last told it, and when (the toolbar is drawn
        # outside trio, so it counts down from here).
        self._clock: tuple[tuple[int, float] | None, float] = (None, 0.0)

    def _follow(self, session: SessionView) -> None:
        names = session.names
        self.seat: int = session.seat
        self.who = {
            s: ("you" if s == self.seat else (names[s] if s < len(names) else f"seat {s}"))
            for s in session.game.rules.seating.seats
        }
        self.session = session
        self.names = names

    def next_game(self, session: SessionView) -> None:
        """The evening's next game, on the same links: the table follows it from its start."""
        self._follow(session)
        self.pending = self.asked_again = False
        self._turn_told = 0
        table = self.table
        table.seat, table.who = self.seat, self.who
        table.saved = False
        table.follow(self.game)
        first = self.names[0] if self.seat != 0 else "you"
        table.tell([f"The next game begins: you are seat {self.seat}; {first} moves first."])

    @property
    def table(self) -> Table:
        assert self._table is not None, "the driver has not started"
        return self._table

    @property
    def game(self) -> Game:
        game: Game = self.session.game
        return game

    @property
    def record(self) -> Record:
        record: Record = self.session.record
        return record

    @property
    def over(self) -> bool:
        return self.game.over or self.session.outcome is not None or self.stopped

    def start(self, table: Table) -> None:
        self._table = table

    def legal(self) -> list[Decision]:
        if self.pending or self.over or not self.session.asked:
            return []
        return self.game.legal()

    def submit(self, decision: Decision) -> None:
        """Offer the person's decision for the position after the steps applied so far."""
        if self._call(self.session.offer, tuple(decision), len(self.record.steps)):
            self.pending = True

    # ---------------------------------------------------------------- the session's side

    def on_event(self, event: Any) -> None:
        """What the session tells (a step applied, our turn, chat, a peer's error, a link,
        the end)."""
        table = self.table
        self._clock = (self.session.clock_left(), time.monotonic())
        lines: list[str] = []
        match event:
            case StepApplied(step=step, where=where):
                table.applied(step, where)
                if step.seat == self.seat:
                    self.pending = False
            case Asked():
                game = self.game
                if game.active == self.seat and game.turn != self._turn_told:
                    self._turn_told = game.turn
                    table.turn_begins(bell=self.bell)
                if table.treasure_all or table.ahead:  # after the news of the steps before
                    table.later(self._ask)
                return
            case Chat(seat=seat, text=text):
                lines.append(f"[{self._name(seat)}] {text}")
            case Ended(outcome=outcome):
                if not self.game.over:  # a natural end is told with the last move's news
                    lines.append(f"The game is over: {outcome.reason}.")
                    lines.append("`log` shows the game, `save FILE` keeps it, `quit` leaves.")
                if self.answer is not None:
                    lines.append("`again` offers the table another game.")
            case Audited(text=text):  # (a sealed game's audit, after its end)
                lines.append(f"{text[0].upper()}{text[1:]}.")
            case Score():
                lines.append(event.line())
            case EveningOver(reason=reason):
                lines.append(f"No next game: {reason}.")
            case Heard(name=name, text=text):  # a spectator's chat
                lines.append(f"[{name}, watching] {text}")
            case Watching(name=name, here=here):
                lines.append(f"{name} {'is watching' if here else 'stopped watching'}.")
            case PeerError(seat=seat, text=text):
                lines.append(f"{self._name(seat)}: {text}")
            case LinkChanged(seat=seat, up=False):
                lines.append(f"Lost the link to {self._name(seat)}; waiting for it to return.")
            case LinkChanged(seat=seat, up=True) if self.session.started:
                lines.append(f"The link to {self._name(seat)} is up.")
            case _:
                return
        table.tell(lines)

    def _ask(self) -> None:
        """Our decision, if the person typed it already (`treasure all`, type-ahead)."""
        if self.pending or self.over or not self.session.asked:
            return
        decision = self.table.decide(self.game, self.seat)
        if decision is not None:
            self.submit(decision)

    def clock(self) -> tuple[int, float] | None:
        told, when = self._clock
        if told is None or self.over:
            return None
        return told[0], told[1] - (time.monotonic() - when)

    def think_aside(self, schedule: Callable[[Callable[[], None]], Any] | None) -> None:
        pass  # the session runs a bot seat of this peer's, not the shell

    def stop(self, lines: list[str]) -> None:
        """The session has returned (or failed): nothing more will come from the table."""
        self.stopped = True
        self.table.treasure_all = False
        self.table.tell(lines)

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or f"seat {seat}"

    # ---------------------------------------------------------------- the person's side

    def chat(self, text: str) -> Reply:
        text = text.strip()
        if not text:
            return Reply(["Usage: chat TEXT, like `chat good luck`."])
        if len(text) > TEXT_MAX:
            most = f"a chat line holds {TEXT_MAX} characters at most"
            return Reply([f"Not sent: {most}, this one {len(text)}."])
        if self.stopped:
            return Reply(["The table is closed: nobody hears you now."])
        if not self.session.started:
            return Reply(["The game has not begun yet: chat once it has."])
        self._call(self.session.chat, text)
        return Reply([f"[you] {text}"])

    def again(self) -> Reply:
        """Say yes to another game at this table, once this one is over."""
        if self.answer is None or self.stopped:
            return Reply(["This table plays no more games."])
        if self.session.outcome is None:
            return Reply(["The game is still on: `again` offers another once it is over."])
        if self.asked_again:
            return Reply(["You said yes: waiting for the others."])
        self.asked_again = self._call(self.answer.give, True)
        return Reply(["You want another game: waiting for the others to say yes."])

    def leave(self) -> None:
        """The session resigns for us if the game is still on; a table between two games
        hears our no."""
        if not self.stopped:
            self._call(self.session.leave, "")
            if self.answer is not None:
                self._call(self.answer.give, False)

    def status(self) -> str | None:
        if self.game.over:
            return None
        if self.session.outcome is not None:
            return f"The game is over: {self.session.outcome.reason}."
        if self.stopped:
            return "The table has closed."
        if not self.session.started:
            return "Waiting for every player's connection before the game begins..."
        if self.pending:
            return "Sending your decision to the table..."
        return None


def net_table(
    session: SessionView,
    *,
    token: trio.lowlevel.TrioToken | None = None,
    unicode: bool = True,
    bell: bool = True,
    answer: PersonsAnswer | None = None,
) -> Table:
    """The person's table at ``session``'s game (``bell``: ring when our turn begins;
    ``answer``: the person's to `again`, at a table that may play another game)."""
    return Table(NetDriver(session, token=token, bell=bell, answer=answer), unicode=unicode)


def _driver(table: Table) -> NetDriver:
    driver = table.driver
    assert isinstance(driver, NetDriver)
    return driver


def _chat(table: Table, args: list[str]) -> Reply:
    return _driver(table).chat(" ".join(args))


def _again(table: Table, args: list[str]) -> Reply:
    return _driver(table).again()


def _quit(table: Table, args: list[str]) -> Reply:
    return Reply(quit=True)  # the terminal asks first (leaving resigns)


CHAT = ShellCommand("chat", "chat TEXT", "say something to everyone at the table", _chat)
QUIT = ShellCommand("quit", "quit", "leave the table (resigns a game still on)", _quit, ("exit",))
AGAIN = ShellCommand("again", "again", "once the game is over: play another at this table", _again)
NET_COMMANDS = registry(HELP, RULES, MOVES, LOG, BOARD, HINT, SAVE, SAVE_OVER, QUIT, CHAT, AGAIN)


# ====================================================================== the bridge


async def _lobby(lobby: LobbyScreen, terminal: Awaitable[int], *until: asyncio.Future[Any]) -> None:
    """The lobby screen on the terminal until the person leaves it or one of ``until`` is
    done (the table is ready, or the service ended)."""
    shown = asyncio.ensure_future(terminal)
    await asyncio.wait([shown, *until], return_when=asyncio.FIRST_COMPLETED)
    if not shown.done():
        shown.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await shown


@contextlib.contextmanager
def _sigint(handler: Callable[[], None]) -> Iterator[None]:
    """SIGINT calls ``handler`` instead of raising (the prompt itself takes Ctrl-C as a key;
    prompt_toolkit puts this handler back after each prompt)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, lambda *_: handler())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def run_shell(
    start: Callable[[Callable[[Any], None], Callable[[Any], None]], Awaitable[Any]],
    *,
    on_event: Callable[[Any], None],
    unicode: bool = True,
    bell: bool = True,
    input: Any = None,  # noqa: A002 - prompt_toolkit's own word
    output: Any = None,
    before_prompt: Callable[[Any], None] | None = None,
    on_table: Callable[[Table], None] | None = None,
    full_screen: bool = False,
    lobby: LobbyScreen | None = None,
    answer: PersonsAnswer | None = None,
) -> tuple[Any, Table | None]:
    """Run the table service ``start(session_ready, on_event)`` under trio as a guest of the
    asyncio loop; once the session is ready, open the shell on it. Until then the ``lobby``
    screen is up and gets the events (a host's "joined", a joiner's "seated"), or without one
    ``on_event`` gets them. Returns trio's outcome of the
    service (``.unwrap()`` gives its result or raises its error) and the table, if any;
    ``on_table(table)`` is called as the table opens; ``bell``: ring the terminal's bell
    when our turn begins; ``full_screen``: the layout that stays put, else the line mode;
    ``answer``: the person's to `again` (the service's ``again``), at a table that may play
    another game, whose next session the same table follows."""
    from prompt_toolkit.application import create_app_session

    app_session = (
        create_app_session(input=input, output=output)
        if input is not None or output is not None
        else contextlib.nullcontext()
    )
    with app_session:
        return asyncio.run(
            _bridge(
                start, on_event, unicode, bell, before_prompt, on_table, full_screen, lobby, answer
            )
        )


async def _bridge(
    start: Any,
    on_event: Callable[[Any], None],
    unicode: bool,
    bell: bool,
    before_prompt: Any,
    on_table: Callable[[Table], None] | None,
    full_screen: bool,
    lobby: LobbyScreen | None,
    answer: PersonsAnswer | None,
) -> tuple[Any, Table | None]:
    from .terminal import _terminal

    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()
    ready: asyncio.Future[Table] = loop.create_future()
    pressed: list[int] = []
    box: dict[str, Any] = {}
    held: list[Callable[[], None]] = []  # the table's jobs while the lobby closes

    def session_ready(session: SessionView) -> None:
        if "table" in box:  # the evening's next game
            _driver(box["table"]).next_game(session)
            return
        table = net_table(session, unicode=unicode, bell=bell, answer=answer)
        if lobby is not None and lobby.seated is not None:  # the lobby closes: say it here
            _driver(table).preface = [seating_line(lobby.seated)]
        # Until its terminal is up (the lobby's is closing), what the table would tell waits.
        table.schedule = loop.call_soon if lobby is None else held.append
        box["table"] = table
        if on_table is not None:
            on_table(table)
        if not ready.done():
            ready.set_result(table)

    def event(ev: Any) -> None:
        table = box.get("table")
        if table is None:
            (on_event if lobby is None else lobby.on_event)(ev)
        else:
            _driver(table).on_event(ev)

    async def trio_main() -> Any:
        with trio.CancelScope() as scope:
            box["scope"] = scope
            box["token"] = trio.lowlevel.current_trio_token()
            if lobby is not None:
                lobby.call = in_trio()
            return await start(session_ready, event)
        raise KeyboardInterrupt  # cancelled before it ended: the user interrupted it

    def finished(result: Any) -> None:
        if not done.done():
            done.set_result(result)

    def cancel_trio() -> None:
        token, scope = box.get("token"), box.get("scope")
        if token is not None and scope is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(scope.cancel)

    def interrupted() -> None:
        pressed.append(1)
        table = box.get("table")
        if table is None or table.leaving:  # waiting for the table, or for the goodbyes
            loop.call_soon_threadsafe(cancel_trio)

    with _sigint(interrupted):
        trio.lowlevel.start_guest_run(
            trio_main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=lambda result: loop.call_soon_threadsafe(finished, result),
            host_uses_signal_set_wakeup_fd=True,
        )
        if lobby is not None:
            await _lobby(lobby, _terminal(lobby, pressed, before_prompt, full_screen), done, ready)
            if not ready.done():  # the person left the lobby
                cancel_trio()
        await asyncio.wait([done, ready], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            return done.result(), None
        table = ready.result()
        pressed.clear()
        shell = asyncio.ensure_future(_terminal(table, pressed, before_prompt, full_screen))
        table.schedule = loop.call_soon
        for job in held:  # after the terminal's first step, which listens to the table
            loop.call_soon(job)

        def on_done(fut: asyncio.Future[Any]) -> None:
            result = fut.result()
            error = getattr(result, "error", None)
            _driver(table).stop([])
            if error is not None:  # the table failed: close the shell (the caller says why)
                table.leaving = True
                loop.call_soon(shell.cancel)

        done.add_done_callback(on_done)
        try:
            await shell
        except asyncio.CancelledError:
            if not done.done():
                raise
        except BaseException:
            cancel_trio()
            await done
            raise
        if not done.done():
            table.leave()
            try:
                await asyncio.wait_for(asyncio.shield(done), LEAVE_WAIT)
            except TimeoutError:
                cancel_trio()
                await done
        return done.result(), table
