"""The real program in a pseudo-terminal (pexpect's pty), read as a screen: shared by the
end-to-end tests of solo play and of networked tables.

Like a real terminal it answers prompt_toolkit's cursor position requests (without an answer
prompt_toolkit leaves the bottom toolbar out). What "the screen shows" is the output with the
escape sequences taken out; for the full-screen layout, which redraws only what changed,
:meth:`Terminal.rows` reads the screen as a person sees it (pyte, a terminal emulator). Every
wait is bounded.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time

import pexpect  # type: ignore[import-untyped]

WAIT = 30.0  # seconds: generous for a loaded CI machine, but bounded
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")
CPR_REQUEST = "\x1b[6n"


def program() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "crownp2p")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "crownp2p"]


class Terminal:
    """The program in a pseudo-terminal, 120 x 40 unless ``size`` (rows, columns) says. What
    it keeps (a networked seat's record) goes to a temporary XDG_STATE_HOME of its own, never
    the real ~/.local/state, unless ``env`` names one."""

    def __init__(self, *args: str, size: tuple[int, int] = (40, 120), **env: str) -> None:
        import pyte  # type: ignore[import-untyped]

        self.vt = pyte.Screen(size[1], size[0])
        self.vt_stream = pyte.Stream(self.vt)
        self.state = tempfile.TemporaryDirectory(prefix="crownp2p-test-state-")
        environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
        environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        environ["XDG_STATE_HOME"] = self.state.name
        environ.update(env)
        command = program()
        self.child = pexpect.spawn(
            command[0],
            [*command[1:], *args],
            env=environ,
            dimensions=size,
            encoding="utf-8",
            codec_errors="replace",
        )
        self.child.delaybeforesend = None  # pexpect waits 50 ms before each send otherwise
        self.raw = ""
        self.mark = 0  # how much of the screen text has been looked at

    def screen(self) -> str:
        return ESCAPES.sub("", self.raw)

    def _read(self, timeout: float) -> bool:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        for _ in range(chunk.count(CPR_REQUEST)):
            self.child.send("\x1b[1;1R")  # the cursor is at the top left, as far as it knows
        self.raw += chunk
        self.vt_stream.feed(chunk)
        return True

    def rows(self) -> list[str]:
        """The screen now, row by row, as the terminal shows it."""
        return [row.rstrip() for row in self.vt.display]

    def showing(self, *texts: str, timeout: float = WAIT) -> list[str]:
        """Wait until one of ``texts`` is on the screen now (in one row); return the rows."""
        deadline = time.monotonic() + timeout
        while True:
            rows = self.rows()
            if any(text in row for row in rows for text in texts):
                return rows
            if time.monotonic() > deadline or not self._read(0.2):
                shown = "\n".join(rows)
                raise AssertionError(f"the screen never showed {texts!r}; it shows:\n{shown}")

    def resize(self, rows: int, columns: int) -> None:
        self.vt.resize(rows, columns)
        self.child.setwinsize(rows, columns)

    def shows(self, text: str, timeout: float = WAIT) -> str:
        """Wait until ``text`` appears after what was already seen; return the new screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            found = screen.find(text, self.mark)
            if found >= 0:
                seen, self.mark = screen[self.mark : found + len(text)], found + len(text)
                return seen
            if time.monotonic() > deadline or not self._read(0.2):
                tail = screen[self.mark :][-1500:]
                raise AssertionError(f"the screen never showed {text!r}; it ends:\n{tail}")

    def type(self, text: str) -> None:
        """Type a line key by key, then Enter."""
        for key in text:
            self.child.send(key)
            time.sleep(0.005)
        self.child.send("\r")

    def press(self, key: str) -> None:
        self.child.send(key)

    def exit_status(self) -> int:
        deadline = time.monotonic() + WAIT
        while self._read(0.2):
            assert time.monotonic() < deadline, "the program did not end"
        self.child.close()
        return self.child.exitstatus

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
