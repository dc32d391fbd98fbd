"""A seat at a networked table: the shell's :class:`Table` over a network session.

Two pieces:

- :class:`NetTable` is the shell's table over the session's own game and record. The session
  applies every decision, ours too, and tells the table by its events (net/events.py), which
  :meth:`NetTable.event` reads. ``submit`` offers the player's decision to the session (tagged
  with the steps it was chosen after) instead of applying it; ``chat`` and leaving go to the
  session too.
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
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import trio

from ..core.decisions import Decision
from ..core.game import CHANCE
from ..net.events import Asked, Chat, Ended, LinkChanged, PeerError, StepApplied
from . import render
from .commands import TABLE_COMMANDS, Reply, ShellCommand, registry
from .parser import normal
from .table import Table, marked_squares

__all__ = ["NET_COMMANDS", "NetTable", "run_shell"]

LEAVE_WAIT = 10.0  # seconds to let the session say goodbye after the player leaves


def _chat(table: Any, args: list[str]) -> Reply:
    return table.chat(" ".join(args))


def _quit(table: Any, args: list[str]) -> Reply:
    return Reply(quit=True)  # the terminal asks first (NetTable.confirm_quit)


CHAT = ShellCommand("chat", "chat TEXT", "say something to everyone at the table", _chat)
QUIT = ShellCommand("quit", "quit", "leave the table (resigns a game still on)", _quit, ("exit",))
NET_COMMANDS = {**TABLE_COMMANDS, **registry(CHAT, QUIT)}


class NetTable(Table):
    """One seat at a networked game, following the session's Lockstep (see the module)."""

    commands = NET_COMMANDS
    confirm_quit = True  # `quit` asks too: leaving resigns

    def __init__(
        self,
        session: Any,
        *,
        token: trio.lowlevel.TrioToken | None = None,
        unicode: bool = True,
    ) -> None:
        game = session.game
        names = session.names
        me = session.seat
        who = {
            s: ("you" if s == me else (names[s] if s < len(names) else f"seat {s}"))
            for s in game.rules.seating.seats
        }
        super().__init__(game.rules, game, session.record, seat=me, who=who, unicode=unicode)
        self.session = session
        self.names = names
        self.token = token or trio.lowlevel.current_trio_token()
        self.pending = False  # our decision is on its way to the session
        self.treasure_all = False  # `treasure all`: offer the next Treasure after each one
        self.ahead: list[str] = []  # lines typed while our last decision was on its way
        self.ended: str | None = None  # why the game ended, once it has
        self.stopped = False  # the session has returned
        self.leaving = False  # the player has left (the terminal is closed)
        # How to tell the terminal later (the terminal passes its loop's call_soon so that
        # many steps in a row make one redraw); by default at once.
        self.schedule: Callable[[Callable[[], None]], Any] | None = None
        self._news_due = False
        self._told: list[str] = []

    # ---------------------------------------------------------------- the session's side

    @property
    def over(self) -> bool:
        return self.game.over or self.session.outcome is not None or self.stopped

    def legal(self) -> list[Decision]:
        if self.pending or self.over or not self.session.asked:
            return []
        return super().legal()

    def applied(self, event: StepApplied) -> None:
        """The session applied a step (ours or another seat's): tell the terminal."""
        step = event.step
        self.tally.count(event.turn, event.phase, event.card, step.decision)
        if step.decision[0] != "seed":
            self.marks = marked_squares(step.decision)
        if step.seat == self.seat:
            self.pending = False
        elif step.seat != CHANCE and self.ahead:
            # Typed ahead for a position that is gone: another seat decides now.
            self._told.extend(f"Not played: `{line}` (the turn moved on)." for line in self.ahead)
            self.ahead.clear()
        self._tell_soon()

    def asked(self) -> None:
        """The session asks for our decision: after `treasure all`, the next Treasure; else
        the next line typed ahead."""
        if not self.treasure_all and not self.ahead:
            return

        def go() -> None:
            treasures = [d for d in self.legal() if d[0] == "treasure"]
            if treasures and self.treasure_all:
                self.submit(treasures[0])
                return
            self.treasure_all = False
            if self.ahead and self.legal():
                reply = super(NetTable, self).handle(self.ahead.pop(0))
                if reply.lines:  # it could not be played: what was typed after it waited on it
                    reply.lines += [f"Not played: `{line}`." for line in self.ahead]
                    self.ahead.clear()
                    self.notify(reply)

        if self.schedule is None:
            go()
        else:
            self.schedule(go)

    def event(self, event: Any) -> None:
        """A session event (a step, our turn, chat, the end, a link) for the terminal."""
        lines: list[str] = []
        match event:
            case StepApplied():
                self.applied(event)
            case Asked():
                self.asked()
            case Chat(seat=seat, text=text):
                lines.append(f"[{self._name(seat)}] {text}")
            case Ended(outcome=outcome):
                self.ended = outcome.reason
                if not self.game.over:  # a natural end is told with the last move's news
                    lines.append(f"The game is over: {outcome.reason}.")
                    lines.append("`log` shows the game, `save FILE` keeps it, `quit` leaves.")
            case PeerError(seat=seat, text=text):
                lines.append(f"{self._name(seat)}: {text}")
            case LinkChanged(seat=seat, up=False):
                lines.append(f"Lost the link to {self._name(seat)}; waiting for it to return.")
            case LinkChanged(seat=seat, up=True) if self.session.started:
                lines.append(f"The link to {self._name(seat)} is up.")
        if lines:
            self._told.extend(lines)
            self._tell_soon()

    def say(self, line: str) -> None:
        """A line to show above the prompt (a log message while the shell is open)."""
        self._told.append(line)
        self._tell_soon()

    def stop(self, lines: list[str]) -> None:
        """The session has returned (or failed): nothing more will come from the table."""
        self.stopped = True
        self.treasure_all = False
        self._told.extend(lines)
        self._tell_soon()

    def _tell_soon(self) -> None:
        if self.schedule is None:
            self._tell()
        elif not self._news_due:
            self._news_due = True
            self.schedule(self._tell)

    def _tell(self) -> None:
        self._news_due = False
        if self.leaving:  # the shell has closed: nothing more to show
            return
        lines, self._told = self._told, []
        self.notify(super().news_reply(lines))

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or f"seat {seat}"

    # ---------------------------------------------------------------- the player's side

    def handle(self, line: str) -> Reply:
        words = line.split()
        if words and words[0].lower() == "undo":  # a solo habit: say why, not "not possible"
            return Reply(["There is no `undo` at a networked table: a decision is not taken back."])
        busy = self.pending or self.treasure_all or self.ahead
        if busy and words and words[0].lower() not in self.commands and not self.over:
            # Our last decision is still on its way (or `treasure all` is playing, or earlier
            # lines wait): keep the line, in order, and read it against the position it was
            # typed for, once the session asks us again (type-ahead).
            self.ahead.append(line)
            return Reply()
        return super().handle(line)

    def submit(self, decision: Decision) -> None:
        self.pending = True
        self._call(self.session.offer, tuple(decision), len(self.record.steps))

    def play_line(self, line: str, decisions: list[Decision]) -> Reply:
        if normal(line) == "treasure all":
            self.treasure_all = True
        self.submit(decisions[0])
        return Reply()

    def chat(self, text: str) -> Reply:
        text = text.strip()
        if not text:
            return Reply(["Usage: chat TEXT, like `chat good luck`."])
        if self.stopped:
            return Reply(["The table is closed: nobody hears you now."])
        if not self.session.started:
            return Reply(["The game has not begun yet: chat once it has."])
        self._call(self.session.chat, text)
        return Reply([f"[you] {text}"])

    def leave(self) -> None:
        """Leave the table: the session resigns for us if the game is still on."""
        self.leaving = True
        if not self.stopped:
            self._call(self.session.leave, "")

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        with contextlib.suppress(trio.RunFinishedError):
            self.token.run_sync_soon(fn, *args)

    def opening(self) -> Reply:
        reply = super().opening()
        reply.lines.insert(0, "`chat TEXT` talks to the table; leaving the game resigns it.")
        return reply

    def table_status(self) -> str | None:
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

    def toolbar(self, width: int = 200) -> render.Fragments:
        if self.game.over or (self.session.outcome is None and not self.stopped):
            return super().toolbar(width)
        dot = " · " if self.unicode else " | "
        return [
            ("class:bottom-toolbar.turn", " game over"),
            ("", f"{dot}log{dot}save FILE{dot}quit "),
        ]

    def leave_question(self) -> str | None:
        if self.over:
            return None
        return "Leave the game? You resign if you leave. [y/N] "


# ====================================================================== the bridge


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
    input: Any = None,  # noqa: A002 - prompt_toolkit's own word
    output: Any = None,
    before_prompt: Callable[[Any], None] | None = None,
    on_table: Callable[[NetTable], None] | None = None,
) -> tuple[Any, NetTable | None]:
    """Run the table service ``start(session_ready, on_event)`` under trio as a guest of the
    asyncio loop; once the session is ready, open the shell on it. Until then ``on_event``
    gets the events (a host's "joined", a joiner's "seated"). Returns trio's outcome of the
    service (``.unwrap()`` gives its result or raises its error) and the table, if any;
    ``on_table(table)`` is called as the table opens."""
    from prompt_toolkit.application import create_app_session

    app_session = (
        create_app_session(input=input, output=output)
        if input is not None or output is not None
        else contextlib.nullcontext()
    )
    with app_session:
        return asyncio.run(_bridge(start, on_event, unicode, before_prompt, on_table))


async def _bridge(
    start: Any,
    on_event: Callable[[Any], None],
    unicode: bool,
    before_prompt: Any,
    on_table: Callable[[NetTable], None] | None,
) -> tuple[Any, NetTable | None]:
    from .terminal import _terminal

    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()
    ready: asyncio.Future[NetTable] = loop.create_future()
    pressed: list[int] = []
    box: dict[str, Any] = {}

    def session_ready(session: Any) -> None:
        table = NetTable(session, unicode=unicode)
        table.schedule = loop.call_soon
        box["table"] = table
        if on_table is not None:
            on_table(table)
        if not ready.done():
            ready.set_result(table)

    def event(ev: Any) -> None:
        table = box.get("table")
        if table is None:
            on_event(ev)
        else:
            table.event(ev)

    async def trio_main() -> Any:
        with trio.CancelScope() as scope:
            box["scope"] = scope
            box["token"] = trio.lowlevel.current_trio_token()
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
        await asyncio.wait([done, ready], return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            return done.result(), None
        table = ready.result()
        pressed.clear()
        shell = asyncio.ensure_future(_terminal(table, pressed, before_prompt))

        def on_done(fut: asyncio.Future[Any]) -> None:
            result = fut.result()
            error = getattr(result, "error", None)
            if error is None:
                table.stop([])
            else:  # the table failed: close the shell (the caller says why, in one line)
                table.stop([])
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
