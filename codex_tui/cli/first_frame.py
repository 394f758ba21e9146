"""The composer painted at once, before Textual and the config load (standard library only).

Importing Textual, validating the config and building the app take a few hundred
milliseconds. Instead of a blank terminal for that long, `codex` paints the frame the app is
about to show: the alternate screen, the composer with its placeholder, the footer. Typed
keys are neither echoed nor lost meanwhile: echo and line mode are off, so they wait in the
terminal's input queue and reach the real composer as soon as Textual reads the terminal.
Textual then redraws the whole screen. The Codex CLI does the same with its loading screen.
"""

from __future__ import annotations

import os
import sys
import termios
from typing import Any, TextIO

PLACEHOLDER = "Ask Codex to do anything"
FOOTER = "⏎ send   / commands   @ files   ctrl+t transcript"

# The app's colours (theme textual-dark) as xterm-256 indices, which Textual also emits
# on a 256-colour terminal: background, composer border, placeholder, footer.
_BACKGROUND = 233
_BORDER = 214
_PLACEHOLDER = 242
_FOOTER = 247

_ENTER_ALT_SCREEN = "\x1b[?1049h"
_LEAVE_ALT_SCREEN = "\x1b[?1049l"
_HIDE_CURSOR, _SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


class FirstFrame:
    """A frame painted on the terminal, and the terminal mode to restore when codex ends."""

    def __init__(self, stream: TextIO, saved: list[Any] | None) -> None:
        self._stream = stream
        self._saved = saved
        self._closed = False

    @classmethod
    def paint(cls, stream: TextIO | None = None) -> FirstFrame | None:
        """Paint the composer frame on `stream` (default stdout); None if it is not a tty."""
        stream = stream or sys.stdout
        try:
            fd = stream.fileno()
            if not os.isatty(fd):
                return None
            columns, lines = os.get_terminal_size(fd)
        except (OSError, ValueError):
            return None
        saved: list[Any] | None = None
        try:
            saved = termios.tcgetattr(fd)
            quiet = termios.tcgetattr(fd)
            # Keys wait unechoed and untranslated (Enter stays \r, ctrl+q/ctrl+s stay keys),
            # exactly as Textual's raw mode would have read them.
            quiet[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON)
            quiet[3] &= ~(termios.ECHO | termios.ICANON)
            termios.tcsetattr(fd, termios.TCSANOW, quiet)
        except termios.error:
            saved = None
        stream.write(render(columns, lines))
        stream.flush()
        return cls(stream, saved)

    def close(self) -> None:
        """Give the user's terminal back as it was (call once the app has ended).

        Textual restores the mode it found, which is this frame's; restore the one before.
        Leaving the alternate screen again is harmless when Textual already left it.
        Closing twice does nothing the second time.
        """
        if self._closed:
            return
        self._closed = True
        try:
            self._stream.write(_LEAVE_ALT_SCREEN + _SHOW_CURSOR)
            self._stream.flush()
        except (OSError, ValueError):
            pass
        if self._saved is not None:
            try:
                termios.tcsetattr(self._stream.fileno(), termios.TCSADRAIN, self._saved)
            except (termios.error, OSError, ValueError):
                pass
            self._saved = None


def render(columns: int, lines: int) -> str:
    """The escape sequences that draw the frame on a `columns` × `lines` terminal."""
    columns, lines = max(columns, 20), max(lines, 6)
    background = f"\x1b[0;48;5;{_BACKGROUND}m"
    inner = columns - 2
    text = PLACEHOLDER[: max(inner - 2, 0)]
    rows = {
        lines - 3: _color(_BORDER) + "╭" + "─" * inner + "╮",
        lines - 2: _color(_BORDER)
        + "│ "
        + "\x1b[7m"
        + _color(_PLACEHOLDER)
        + text[:1]
        + "\x1b[27m"
        + text[1:]
        + " " * (inner - 1 - len(text))
        + _color(_BORDER)
        + "│",
        lines - 1: _color(_BORDER) + "╰" + "─" * inner + "╯",
        lines: _color(_FOOTER) + (" " + FOOTER)[:columns],
    }
    parts = [_ENTER_ALT_SCREEN, _HIDE_CURSOR, background, "\x1b[2J"]
    for row, content in rows.items():
        parts.append(f"\x1b[{row};1H{background}{content}")
    parts.append("\x1b[0m")
    return "".join(parts)


def _color(index: int) -> str:
    return f"\x1b[38;5;{index}m"
