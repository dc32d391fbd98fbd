"""The loops that put a table (or a replay) on the terminal.

:func:`run_terminal` runs a prompt_toolkit session: the full-screen layout that stays put
(full_screen.py), or the line mode (``--plain``), where the whole screen (board, hands,
Supply, who decides what) is the prompt's message, drawn again at every keystroke, resize and
change, so it is always current and always at the bottom; what happened scrolls above it. On
Enter the screen is erased, the line echoed, and the reply printed. :func:`run_lines` is the
same over plain lines, for pipes and scripts. A pasted block runs line by line.

Anything a table shows goes through the small interface both loops share (``handle``,
``screen``, ``status``, ``toolbar``, ``message``, ``completer``, ``opening``,
``leave_question``, ``listen``). Ctrl-C and Ctrl-D ask before leaving; an unexpected error
ends the program with one sentence (and the game's record saved for a bug report), never a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from .render import Fragments, plain
from .reply import Reply
from .typeahead import keys_waiting, lines_waiting

LEAVING = "Leaving the game."
INTERNAL_ERROR = 70  # EX_SOFTWARE


# -------------------------------------------------------------------- guarding


def internal_error(err: BaseException, shell: Any, out: TextIO) -> int:
    """Say in one sentence that something broke; keep the record for the bug report."""
    where = ""
    record = getattr(shell, "record", None)
    if record is not None and getattr(shell, "saves_crash_record", True):
        try:
            fd, path = tempfile.mkstemp(prefix="crownp2p-crash-", suffix=".jsonl")
            with open(fd, "w", encoding="utf-8") as f:
                record.write(f)
            where = f" The game's record is in {path}; please report it with that file."
        except OSError:
            pass
    name = type(err).__name__
    print(f"crownp2p: something went wrong inside the program ({name}: {err}).{where}", file=out)
    out.flush()
    return INTERNAL_ERROR


@contextlib.contextmanager
def deferred_interrupt() -> Iterator[list[int]]:
    """Between prompts a Ctrl-C (SIGINT) is noted instead of raised in the middle of a move;
    the loop asks about leaving afterwards. (At the prompt, Ctrl-C is a key.)"""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    old = signal.signal(signal.SIGINT, lambda *_: pressed.append(1))
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, old)


# -------------------------------------------------------------------- plain lines


def run_lines(shell: Any, src: TextIO, out: TextIO) -> int:
    """The shell over plain lines: for pipes, scripts and tests."""
    try:
        return _lines(shell, src, out)
    except Exception as err:  # noqa: BLE001 - the last line of defence: one sentence
        return internal_error(err, shell, out)


def _lines(shell: Any, src: TextIO, out: TextIO) -> int:
    width = shutil.get_terminal_size((100, 24)).columns
    echo = not getattr(src, "isatty", lambda: False)()
    _print_reply(shell.opening(), out)
    print(plain(shell.screen(width)), file=out)
    while True:
        if hasattr(shell, "typing_ahead"):  # a table tells lines typed ahead apart
            shell.typing_ahead = lines_waiting(src)
        print(shell.message(), end="", file=out, flush=True)
        line = src.readline()
        if not line:
            print(f"\n{LEAVING}", file=out)
            return 0
        if echo:
            print(line.rstrip("\n"), file=out)
        reply = shell.handle(line)
        _print_reply(reply, out)
        if reply.redraw and not reply.quit:
            print(file=out)
            print(plain(shell.screen(width)), file=out)
        elif not reply.quit and not reply.lines and not line.strip():
            print(shell.status(), file=out)
        out.flush()
        if reply.quit:
            return 0


def _print_reply(reply: Reply, out: TextIO) -> None:
    if reply.news:
        print(plain(reply.news), file=out)
    for line in reply.lines:
        print(line, file=out)


# -------------------------------------------------------------------- the terminal


def run_terminal(
    shell: Any,
    *,
    input: Any = None,  # noqa: A002 - prompt_toolkit's own word
    output: Any = None,
    before_prompt: Callable[[Any], None] | None = None,
    full_screen: bool = False,
    think_aside: bool = False,
) -> int:
    """The shell in a prompt_toolkit session: the full-screen layout (full_screen.py), or
    the line mode, a prompt below what scrolls. ``input``/``output`` (a pipe input and a
    DummyOutput in tests) replace the terminal; ``before_prompt(shell)`` runs before each
    prompt of the line mode (tests script the player with it). ``think_aside``: a bot in
    this process thinks in a worker thread while the prompt stays live (solo)."""
    from prompt_toolkit.application import create_app_session

    session = (
        create_app_session(input=input, output=output)
        if input is not None or output is not None
        else contextlib.nullcontext()
    )
    with session, deferred_interrupt() as pressed:
        try:
            return asyncio.run(_terminal(shell, pressed, before_prompt, full_screen, think_aside))
        except Exception as err:  # noqa: BLE001 - the last line of defence: one sentence
            return internal_error(err, shell, sys.stdout)


def colour_depth() -> Any:
    """Monochrome when ``NO_COLOR`` is set, whatever output prompt_toolkit was given;
    otherwise prompt_toolkit's own choice for the terminal."""
    from prompt_toolkit.output import ColorDepth

    return ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None


class Screen:
    """Prints above the prompt, in the style of the shell (``output`` for tests)."""

    def __init__(self, output: Any = None) -> None:
        from .style import prompt_style

        self.style = prompt_style()
        self.output = output

    def print(self, fragments: Fragments) -> None:
        from prompt_toolkit import print_formatted_text
        from prompt_toolkit.formatted_text import FormattedText

        print_formatted_text(
            FormattedText(fragments),
            style=self.style,
            output=self.output,
            color_depth=colour_depth(),
        )

    def reply(self, reply: Reply) -> None:
        if reply.bell:
            self.bell()
        if reply.news:
            self.print(reply.news)
        for line in reply.lines:
            self.print([("", line)])

    def bell(self) -> None:
        from prompt_toolkit.application.current import get_app_session

        (self.output or get_app_session().output).bell()

    def from_outside(self, reply: Reply) -> None:
        """A reply that arrived while the prompt is up (a peer's move): print it above the
        prompt and draw the prompt again."""
        from prompt_toolkit.application import get_app_or_none, run_in_terminal

        app = get_app_or_none()
        if app is None or not app.is_running:
            self.reply(reply)
            return
        run_in_terminal(lambda: self.reply(reply))
        app.invalidate()


async def _terminal(
    shell: Any,
    pressed: list[int],
    before_prompt: Any,
    full_screen: bool = False,
    think_aside: bool = False,
) -> int:
    """The loop of either layout; with ``think_aside``, the shell's bot thinks beside it
    until it ends (then no thread of it is left)."""
    if not think_aside:
        return await _layout(shell, pressed, before_prompt, full_screen)
    shell.think_aside(schedule_guarded(asyncio.get_running_loop()))
    try:
        return await _layout(shell, pressed, before_prompt, full_screen)
    finally:
        shell.think_aside(None)


def schedule_guarded(loop: asyncio.AbstractEventLoop) -> Callable[[Callable[[], None]], Any]:
    """``schedule(job)``: run ``job`` on ``loop`` (callable from any thread). An error in it
    ends the prompt as one in a typed line does, so it is said in one sentence."""
    from prompt_toolkit.application import get_app_or_none

    def guarded(job: Callable[[], None]) -> None:
        try:
            job()
        except Exception as err:  # noqa: BLE001 - handed to run_terminal's last line of defence
            app = get_app_or_none()
            if app is None or not app.is_running or app.future is None or app.future.done():
                raise
            app.exit(exception=err)

    return lambda job: loop.call_soon_threadsafe(guarded, job)


async def _layout(shell: Any, pressed: list[int], before_prompt: Any, full_screen: bool) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.shortcuts import CompleteStyle
    from prompt_toolkit.utils import is_dumb_terminal

    from .completer import MENU_ROWS, fit_menu

    dumb = is_dumb_terminal()  # prompt_toolkit then only prints the prompt and the keys typed
    screen = Screen()
    if full_screen and not dumb:
        from .full_screen import run_full_screen

        return await run_full_screen(shell, screen.style, colour_depth(), LEAVING)
    drawn: dict[int, FormattedText] = {}  # by width; prompt_toolkit asks many times a render

    def changed(reply: Reply) -> None:
        drawn.clear()
        screen.from_outside(reply)

    shell.listen(changed)

    def columns() -> int:
        if dumb:
            return shutil.get_terminal_size((80, 24)).columns
        return get_app().output.get_size().columns

    def message() -> FormattedText:
        width = columns()
        if width not in drawn:
            drawn.clear()
            fragments = [*shell.screen(width), ("", "\n"), ("class:prompt", shell.message())]
            drawn[width] = FormattedText(fragments)
        return drawn[width]

    session: PromptSession[str] = PromptSession(
        message,
        history=InMemoryHistory(),
        completer=shell.completer(),
        complete_while_typing=False,
        bottom_toolbar=lambda: shell.toolbar(columns()),
        refresh_interval=1.0,  # a decision clock counts down in the toolbar
        style=screen.style,
        key_bindings=getattr(shell, "key_bindings", lambda: None)(),
        erase_when_done=True,
        color_depth=colour_depth(),
        complete_style=CompleteStyle.MULTI_COLUMN,
        reserve_space_for_menu=MENU_ROWS + 1,  # the rows and the chosen entry's note
    )
    fit_menu(session.layout)
    screen.reply(shell.opening())
    while True:
        if hasattr(shell, "typing_ahead"):  # a table tells lines typed ahead apart
            shell.typing_ahead = keys_waiting(session.input)
        if before_prompt is not None:
            before_prompt(shell)
        try:
            line = await session.prompt_async(pre_run=lambda: _interrupted_before(pressed))
        except (KeyboardInterrupt, EOFError):
            if await _leave(shell, screen):
                return 0
            continue
        for index, part in enumerate(line.split("\n")):  # a pasted block: each line on its own
            if index and hasattr(shell, "typing_ahead"):
                shell.typing_ahead = True  # pasted with the first: typed without seeing this
            if not dumb:  # the prompt was erased: say what was typed
                screen.print([("class:prompt", shell.message()), ("class:echo", part)])
            reply = shell.handle(part)
            drawn.clear()
            screen.reply(reply)
            if reply.quit:
                if not getattr(shell, "confirm_quit", False) or await _leave(shell, screen):
                    return 0
                break
        if pressed:
            pressed.clear()
            if await _leave(shell, screen):
                return 0


def _interrupted_before(pressed: list[int]) -> None:
    """A Ctrl-C that came between two prompts (the terminal was not yet in raw mode) counts
    as pressed at the new prompt."""
    from prompt_toolkit.application.current import get_app

    if pressed:
        pressed.clear()
        get_app().exit(exception=KeyboardInterrupt())


async def _leave(shell: Any, screen: Screen) -> bool:
    from prompt_toolkit import PromptSession

    question = shell.leave_question()
    if question is not None:
        try:
            session: PromptSession[str] = PromptSession(
                style=screen.style, color_depth=colour_depth()
            )
            answer = await session.prompt_async(question)
        except (KeyboardInterrupt, EOFError):
            answer = "y"  # pressed again: they mean it
        if answer.strip().lower() not in ("y", "yes"):
            return False
    screen.print([("", LEAVING)])
    return True
