"""The composer painted at once, before Textual and the config load (standard library only).

Importing Textual, validating the config and building the app take a few hundred
milliseconds. Instead of a blank terminal for that long, `codex` paints the frame the app is
about to show: the alternate screen, the composer with its placeholder, the footer. The
Codex CLI does the same with its loading screen. Textual then redraws the whole screen.

Keys typed meanwhile: with `keys` given, a small thread reads the terminal and echoes the
text into the frame's composer (`KeyEcho` says what each key does). `take_input()` stops it
just before Textual reads the terminal and returns what was typed, which the app puts in
its composer; Enter (the last byte of a read, not one inside a paste) ends the reading and
asks the app to submit the text once the session is ready. What the frame does not read
(anything after that Enter, anything typed between `take_input()` and Textual's first read)
waits unechoed in the terminal's input queue, in order, and reaches the real composer as
Textual reads it. Escape sequences (arrows, function keys, alt+key) and control keys other
than backspace, ctrl+u, ctrl+w and ctrl+j are dropped: the frame holds a draft, and editing
beyond that waits for the real composer. Ctrl+C still interrupts (the terminal sends
SIGINT). Without `keys`, typed keys only wait in the terminal's input queue.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import termios
import threading
from typing import Any, NamedTuple, TextIO

PLACEHOLDER = "Ask Codex to do anything"
FOOTER_HINTS = (("⏎", "send"), ("/", "commands"), ("@", "files"), ("ctrl+t", "transcript"))
"""The footer's key hints while no turn runs (`footer_bar.FooterBar.hints`)."""
FOOTER = "   ".join(f"{key} {label}" for key, label in FOOTER_HINTS)

# The app's colours (theme textual-dark) as xterm-256 indices, which Textual also emits
# on a 256-colour terminal: background, composer border, placeholder, footer, typed text.
_BACKGROUND = 233
_BORDER = 214
_PLACEHOLDER = 242
_FOOTER = 247
_TEXT = 254

BACKGROUND = f"\x1b[0;48;5;{_BACKGROUND}m"
_CURSOR = f"\x1b[38;5;{_BACKGROUND};48;5;253m"
"""The composer's cursor cell, as Textual draws it (background in the text's colour)."""
_FOOTER_KEY = f"\x1b[0;1;38;5;{_FOOTER};48;5;{_BACKGROUND}m"
_FOOTER_TEXT = f"\x1b[0;38;5;{_FOOTER};48;5;{_BACKGROUND}m"

_ENTER_ALT_SCREEN = "\x1b[?1049h"
_LEAVE_ALT_SCREEN = "\x1b[?1049l"
_HIDE_CURSOR, _SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"


class Typed(NamedTuple):
    """What was typed on the frame: the draft text, whether Enter asked to send it, and
    whether Ctrl+D on an empty composer asked to leave."""

    text: str = ""
    submitted: bool = False
    quit: bool = False


class KeyEcho:
    """Bytes read from the terminal turned into the draft the frame's composer shows."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._escape = ""  # "esc" after ESC, "csi" inside ESC [ …, "ss3" after ESC O
        self.text = ""
        self.submitted = False
        self.quit = False

    @property
    def done(self) -> bool:
        """Enter sent the text or Ctrl+D asked to leave: the frame reads no more keys."""
        return self.submitted or self.quit

    def feed(self, data: bytes) -> None:
        """Apply one read's bytes (call no more once `done`).

        Enter submits a non-blank text when it ends the read; an Enter followed by more
        bytes of the same read is a pasted line break.
        """
        chars = self._decoder.decode(data)
        text, last = self.text, len(chars) - 1
        for i, c in enumerate(chars):
            if self._escape:
                if self._escape == "esc":
                    self._escape = {"[": "csi", "O": "ss3"}.get(c, "")
                elif self._escape == "ss3" or "@" <= c <= "~":
                    self._escape = ""
            elif c == "\x1b":
                self._escape = "esc"
            elif c == "\r" and i == last:
                if text.strip():
                    self.submitted = True
            elif c in "\r\n":
                text += "\n"
            elif c == "\x04" and not text:  # ctrl+d on an empty composer: leave, as in the app
                self.quit = True
                break
            elif c in "\x7f\x08":  # backspace
                text = text[:-1]
            elif c == "\x15":  # ctrl+u: back to the start of the line
                text = text[: text.rfind("\n") + 1]
            elif c == "\x17":  # ctrl+w: the word before the cursor
                kept = text.rstrip(" ")
                text = kept[: max(kept.rfind(" "), kept.rfind("\n")) + 1]
            elif c >= " ":
                text += c
        if self._escape == "esc":
            self._escape = ""  # a lone Esc key, not the start of a sequence
        self.text = text


class FirstFrame:
    """A frame painted on the terminal, and the terminal mode to restore when codex ends."""

    def __init__(self, stream: TextIO, saved: list[Any] | None, size: tuple[int, int]) -> None:
        self._stream = stream
        self._saved = saved
        self._size = size
        self._closed = False
        self.echo = KeyEcho()
        self._reader: threading.Thread | None = None
        self._wake: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self._painting = True
        """Until `stop_painting()`: after it, Textual draws the screen."""

    @property
    def size(self) -> tuple[int, int]:
        """The terminal's (columns, lines) when the frame was painted."""
        return self._size

    def paint_rows(self, out: str) -> bool:
        """Write `out` (escape sequences placing their own rows) on the frame, from any
        thread, in one write (so it never lands inside a write of Textual's); False, writing
        nothing, once `stop_painting()` has handed the screen over or the terminal was
        resized (every row would land somewhere else; Textual redraws at the new size)."""
        with self._lock:
            if self._painting and (now := terminal_of(self._stream)) and now[1:] != self._size:
                self._painting = False
            if not self._painting:
                return False
            self._write(out.encode())
        return True

    @classmethod
    def paint(cls, stream: TextIO | None = None, keys: TextIO | None = None) -> FirstFrame | None:
        """Paint the composer frame on `stream` (default stdout); None if it is not a tty.

        With `keys` (the terminal's input, e.g. stdin), typed text is echoed into the frame
        until `take_input()`.
        """
        stream = stream or sys.stdout
        terminal = terminal_of(stream)
        if terminal is None:
            return None
        fd, columns, lines = terminal
        saved = hold_keys(fd)
        stream.write(render(columns, lines))
        stream.flush()
        frame = cls(stream, saved, (columns, lines))
        if keys is not None and saved is not None:
            frame._start_reading(keys)
        return frame

    def _start_reading(self, keys: TextIO) -> None:
        try:
            fd = keys.fileno()
            if not os.isatty(fd) or os.fstat(fd).st_rdev != os.fstat(self._stream.fileno()).st_rdev:
                return  # not the terminal the frame is painted on: its mode is not ours
            self._wake = os.pipe()
        except (OSError, ValueError):
            return
        self._reader = threading.Thread(
            target=self._read_keys, args=(fd, self._wake[0]), name="first-frame-keys", daemon=True
        )
        self._reader.start()

    def _read_keys(self, fd: int, wake: int) -> None:
        echo = self.echo
        while not echo.done:
            try:
                ready, _, _ = select.select([fd, wake], [], [])
                if wake in ready:
                    return
                data = os.read(fd, 4096)
            except (OSError, ValueError):
                return
            if not data:
                return
            before = echo.text
            echo.feed(data)
            if echo.text != before:
                self._draw(echo.text)

    def _draw(self, text: str) -> None:
        columns, lines = self._size
        row = _composer_row(max(columns, 20), text)
        self.paint_rows(f"\x1b[{max(lines, 6) - 2};1H{BACKGROUND}{row}\x1b[0m")

    def _write(self, out: bytes) -> None:
        try:
            fd = self._stream.fileno()
            while out:
                out = out[os.write(fd, out) :]
        except (OSError, ValueError):
            pass

    def take_input(self) -> Typed:
        """Stop reading keys (call just before Textual reads the terminal): what was typed.

        Every byte the frame read is in the answer; the rest is still in the terminal.
        """
        reader, wake = self._reader, self._wake
        if reader is not None and wake is not None:
            try:
                os.write(wake[1], b"x")
            except OSError:
                pass
            reader.join()  # interrupted (ctrl+c), close() calls again: wakes it, joins again
            self._reader = self._wake = None
            for end in wake:
                os.close(end)
        return Typed(self.echo.text, self.echo.submitted, self.echo.quit)

    def stop_painting(self) -> None:
        """Paint nothing more (call before Textual first draws the screen; Textual may have
        started already: until it draws, the session's first moments go on showing here)."""
        with self._lock:
            self._painting = False

    def close(self) -> None:
        """Give the user's terminal back as it was (call once the app has ended).

        Textual restores the mode it found, which is this frame's; restore the one before.
        Leaving the alternate screen again is harmless when Textual already left it.
        Closing twice does nothing the second time.
        """
        if self._closed:
            return
        self._closed = True
        self.stop_painting()
        self.take_input()
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


def terminal_of(stream: TextIO) -> tuple[int, int, int] | None:
    """`stream`'s descriptor and size (columns, lines) when it is a terminal, else None."""
    try:
        fd = stream.fileno()
        if not os.isatty(fd):
            return None
        columns, lines = os.get_terminal_size(fd)
    except (OSError, ValueError):
        return None
    return fd, columns, lines


def hold_keys(fd: int) -> list[Any] | None:
    """Let keys typed on terminal `fd` wait unechoed and untranslated (Enter stays \\r,
    ctrl+q/ctrl+s stay keys), exactly as Textual's raw mode will read them; returns the mode
    to restore (None: it could not be changed)."""
    try:
        saved = termios.tcgetattr(fd)
        quiet = termios.tcgetattr(fd)
        quiet[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON)
        quiet[3] &= ~(termios.ECHO | termios.ICANON)
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
    except termios.error:
        return None
    return saved


def render(columns: int, lines: int) -> str:
    """The escape sequences that draw the frame on a `columns` × `lines` terminal."""
    columns, lines = max(columns, 20), max(lines, 6)
    inner = columns - 2
    rows = {
        lines - 3: _color(_BORDER) + "╭" + "─" * inner + "╮",
        lines - 2: _composer_row(columns, ""),
        lines - 1: _color(_BORDER) + "╰" + "─" * inner + "╯",
    }
    parts = [_ENTER_ALT_SCREEN, _HIDE_CURSOR, BACKGROUND, "\x1b[2J"]
    for row, content in rows.items():
        parts.append(f"\x1b[{row};1H{BACKGROUND}{content}")
    parts.append(f"\x1b[{lines};1H{footer_row(columns)}\x1b[0m")
    return "".join(parts)


def footer_row(columns: int, model: str = "") -> str:
    """The footer as the app draws it with no turn running (`footer_bar.footer_line`): the
    hints that fit, keys in bold, and `model` at the right edge when it fits too."""
    width = columns - 2
    for count in range(len(FOOTER_HINTS), 0, -1):
        hints = FOOTER_HINTS[:count]
        used = sum(len(key) + 1 + len(label) for key, label in hints) + 3 * (count - 1)
        if used + 1 <= width or count == 1:  # the app keeps a gap of one at least
            break
    right = model if model and count == len(FOOTER_HINTS) and used + 1 + len(model) <= width else ""
    if used + 1 > width:  # not even one hint: as much of it as fits
        return f"{BACKGROUND} {_FOOTER_TEXT}{FOOTER[: max(width, 0)]}"
    runs = "   ".join(f"{_FOOTER_KEY}{key}{_FOOTER_TEXT} {label}" for key, label in hints)
    gap = max(1, width - used - len(right))
    return f"{BACKGROUND} {runs}{_FOOTER_TEXT}{' ' * gap}{right}"


def _composer_row(columns: int, text: str) -> str:
    """The composer's text row: the placeholder, or the end of the typed text and a cursor."""
    inner = columns - 2
    if not text:
        shown = PLACEHOLDER[: max(inner - 2, 0)]
        body = _CURSOR + shown[:1] + BACKGROUND + _color(_PLACEHOLDER) + shown[1:]
        width = len(shown)
    else:
        shown, width = _tail(text.replace("\n", " "), inner - 2)
        body = _color(_TEXT) + shown + _CURSOR + " " + BACKGROUND
        width += 1
    return _color(_BORDER) + "│ " + body + " " * (inner - 1 - width) + _color(_BORDER) + "│"


def _tail(text: str, room: int) -> tuple[str, int]:
    """The longest end of `text` that fits `room` cells, and its width."""
    if text.isascii() and text.isprintable():
        shown = text[-room:] if room > 0 else ""
        return shown, len(shown)
    import unicodedata  # only for non-ASCII text: wide characters take two cells

    width, start = 0, len(text)
    while start > 0:
        c = text[start - 1]
        cells = (
            0
            if unicodedata.combining(c) or not c.isprintable()
            else 2
            if unicodedata.east_asian_width(c) in "WF"
            else 1
        )
        if width + cells > room:
            break
        width, start = width + cells, start - 1
    shown = "".join(c for c in text[start:] if c.isprintable())
    return shown, width


def _color(index: int) -> str:
    return f"\x1b[38;5;{index}m"
