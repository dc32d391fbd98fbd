"""The table (or a replay) as a full-screen layout that stays put.

From the top: the screen (board, players, legend, Supply) drawn again at each change and
resize; the log, scrolling in its own pane; the line saying who decides what; the prompt; the
toolbar. Nothing is printed into the terminal's scrollback; PageUp and PageDown scroll the
log pane. The line mode (terminal.py's
prompt loop, and plain lines) stays for pipes, screen readers and ``--plain``.

The shell is the same small interface the line mode uses (``handle``, ``screen``,
``toolbar``, ``message``, ``completer``, ``opening``, ``leave_question``, ``listen``). Ctrl-C
and Ctrl-D ask before leaving, in the prompt itself; a second Ctrl-C means yes.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.layout import (
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.widgets import TextArea

from .render import Fragments, folded, joined, lines_of
from .reply import Reply

LOG_KEPT = 1000  # lines of the log pane kept for scrolling back
MENU_HEIGHT = 8


def split_status(fragments: Fragments) -> tuple[Fragments, Fragments]:
    """The screen without its status, and the status: the status is what follows the
    screen's last blank line (render.screen)."""
    lines = lines_of(fragments)
    blank = max((i for i, line in enumerate(lines) if not line), default=len(lines))
    return joined(lines[:blank]), joined(lines[blank + 1 :])


class FullScreen:
    """One shell in a full-screen prompt_toolkit Application."""

    def __init__(self, shell: Any, style: Any, color_depth: Any, leaving: str) -> None:
        self.shell = shell
        self.leaving = leaving
        self.log: list[Fragments] = []
        self.added = 0  # lines ever added to the log: when it changed, for the folded rows
        self.folded: list[Fragments] = []
        self.folded_for: tuple[int, int] | None = None  # (width, added) the rows were folded at
        self.looking: int | None = None  # the log line scrolled to (None: the end)
        self.top = 0  # the log pane's top line, once scrolled
        self.question: str | None = None  # asked before leaving, answered at the prompt
        self.farewell: list[Fragments] = []  # printed once the layout is gone
        self.drawn: dict[int, tuple[Fragments, Fragments]] = {}  # by width
        self.input = TextArea(
            prompt=self._prompt,
            multiline=False,
            completer=shell.completer(),
            complete_while_typing=False,
            history=InMemoryHistory(),
            accept_handler=self._accept,
        )
        # The screen and the status take the lines they need (the screen gives way when the
        # terminal is too short); the log takes what is left.
        screen = Window(
            FormattedTextControl(lambda: self._part(0)),
            height=lambda: self._height(0, least=3),
            wrap_lines=False,
        )
        log = self.log_window = Window(
            FormattedTextControl(self._log_text, get_cursor_position=self._log_end),
            wrap_lines=True,
            height=Dimension(min=1, preferred=1),
        )
        status = Window(
            FormattedTextControl(lambda: self._part(1)),
            height=lambda: self._height(1, least=1),
            wrap_lines=True,
        )
        toolbar = Window(
            FormattedTextControl(lambda: shell.toolbar(self._columns())),
            style="class:bottom-toolbar",
            height=1,
        )
        body = HSplit([screen, log, status, self.input, toolbar])
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=MENU_HEIGHT))
        self.app: Application[int] = Application(
            layout=Layout(FloatContainer(body, floats=[menu]), focused_element=self.input),
            key_bindings=merge_key_bindings(
                [self._bindings(), getattr(shell, "key_bindings", lambda: KeyBindings())()]
            ),
            style=style,
            color_depth=color_depth,
            full_screen=True,
            refresh_interval=1.0,  # a decision clock counts down in the toolbar
        )
        shell.listen(self.from_outside)
        self.add(shell.opening())

    # ---------------------------------------------------------------- what is drawn

    def _columns(self) -> int:
        return int(get_app().output.get_size().columns)

    def _drawn(self) -> tuple[Fragments, Fragments]:
        width = self._columns()
        if width not in self.drawn:
            self.drawn.clear()
            self.drawn[width] = split_status(self.shell.screen(width))
        return self.drawn[width]

    def _part(self, part: int) -> StyleAndTextTuples:
        return list(self._drawn()[part])

    def _height(self, part: int, least: int) -> Dimension:
        lines = len(lines_of(self._drawn()[part]))
        return Dimension(min=min(least, lines), preferred=lines, max=lines)

    def _prompt(self) -> StyleAndTextTuples:
        return [("class:prompt", self.question or self.shell.message())]

    def _rows(self) -> list[Fragments]:
        """The log as the pane shows it: each line folded between words to the pane's width
        (the terminal's own wrapping would cut words in two)."""
        key = (self._columns(), self.added)
        if key != self.folded_for:
            self.folded_for = key
            self.folded = [row for line in self.log for row in folded(line, key[0])]
        return self.folded

    def _log_text(self) -> StyleAndTextTuples:
        return list(joined(self._rows()))

    def _log_end(self) -> Point:
        """Where the log pane looks (it keeps this row in view): the last row, or the one
        scrolled to."""
        last = max(0, len(self._rows()) - 1)
        return Point(0, last if self.looking is None else min(self.looking, last))

    def scroll(self, pages: int) -> None:
        """Scroll the log pane a page back (-1) or on (1). The pane keeps the line it looks
        at in view, at its top when that line is above, at its bottom when below."""
        info = self.log_window.render_info
        if info is None or (self.looking is None and pages > 0):  # already at the end
            return
        height = info.window_height
        top = self.top if self.looking is not None else info.first_visible_line()
        self.top = max(0, top + pages * max(1, height - 1))
        self.looking = self.top if pages < 0 else self.top + height - 1
        if self.looking >= len(self._rows()) - 1:
            self.looking = None

    def add(self, reply: Reply) -> None:
        """Put what a reply says at the end of the log, and draw the screen again."""
        if reply.bell:
            self.app.output.bell()
        self.write(
            [*(lines_of(reply.news) if reply.news else []), *([("", line)] for line in reply.lines)]
        )
        self.looking = None
        self.drawn.clear()

    def write(self, lines: list[Fragments]) -> None:
        """Lines at the end of the log (the oldest go past ``LOG_KEPT``)."""
        self.log.extend(lines)
        del self.log[:-LOG_KEPT]
        self.added += len(lines)

    def from_outside(self, reply: Reply) -> None:
        """Something no typed line caused (a peer's move, a chat line)."""
        self.add(reply)
        self.app.invalidate()

    # ---------------------------------------------------------------- input

    def _accept(self, buffer: Buffer) -> bool:
        # A pasted block arrives as one text with newlines: each line runs on its own.
        try:
            for index, line in enumerate(buffer.text.split("\n")):
                if index and hasattr(self.shell, "typing_ahead"):
                    self.shell.typing_ahead = True  # pasted with the first: typed unseen
                if self.app.is_done or not self.line(line):
                    break
        except Exception as err:  # noqa: BLE001 - run_terminal says it in one sentence
            if not self.app.is_done:
                self.app.exit(exception=err)
        return False

    def line(self, line: str) -> bool:
        """Carry out one line; False once the program is leaving."""
        if self.question is not None:
            self.write([[("class:prompt", self.question), ("class:echo", line)]])
            self.question = None
            if line.strip().lower() in ("y", "yes"):
                return self.leave([[("", self.leaving)]])
            return True
        self.write([[("class:prompt", self.shell.message()), ("class:echo", line)]])
        reply = self.shell.handle(line)
        self.add(reply)
        if reply.quit:
            if getattr(self.shell, "confirm_quit", False):
                return self.ask()
            return self.leave([[("", line)] for line in reply.lines])
        return True

    def ask(self) -> bool:
        """Ask before leaving (or leave, when there is nothing to ask)."""
        question = self.shell.leave_question()
        if question is None:
            return self.leave([[("", self.leaving)]])
        self.question = question
        return True

    def leave(self, farewell: list[Fragments]) -> bool:
        """Close the layout; ``farewell`` stays on the terminal after it."""
        if not self.app.is_done:
            self.farewell = farewell
            self.app.exit(result=0)
        return False

    def _bindings(self) -> KeyBindings:
        bindings = KeyBindings()

        @bindings.add("c-c")
        @bindings.add("c-d")
        def _interrupt(event: KeyPressEvent) -> None:
            if self.question is not None:  # pressed again: they mean it
                self.leave([[("", self.leaving)]])
            else:
                self.ask()

        @bindings.add("pageup")
        def _back(event: KeyPressEvent) -> None:
            self.scroll(-1)

        @bindings.add("pagedown")
        def _on(event: KeyPressEvent) -> None:
            self.scroll(1)

        return bindings


async def run_full_screen(shell: Any, style: Any, color_depth: Any, leaving: str) -> int:
    """Run ``shell`` full-screen until the person leaves; then say goodbye below the prompt."""
    from prompt_toolkit import print_formatted_text
    from prompt_toolkit.formatted_text import FormattedText

    view = FullScreen(shell, style, color_depth, leaving)
    status = await view.app.run_async()
    for line in view.farewell:
        print_formatted_text(FormattedText(line), style=style, color_depth=color_depth)
    return status
