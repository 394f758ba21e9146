"""`codex resume`'s picker painted at once, before Textual and the config load.

The resume picker (`codex_tui.app.screens.resume_picker`) needs Textual, the config and the
app: most of a second of imports. Its first page needs only the session listing (the
standard library and `codex_core.rollout`'s listing, a few tens of milliseconds warm), so
`codex resume` paints that page as the picker is about to show it, in the picker's layout
and colours; Textual then redraws the whole screen, the same list in the same places.

Like the composer's first frame (`first_frame`), this frame only paints: keys typed
meanwhile wait, unechoed, in the terminal's input queue until the picker reads them.
Everything shown comes from files in CODEX_HOME (hostile text): each cell keeps only
printable characters.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from codex_tui.cli.first_frame import FirstFrame, hold_keys, terminal_of

_ENTER_ALT_SCREEN, _HIDE_CURSOR = "\x1b[?1049h", "\x1b[?25l"
# The picker's colours (theme textual-dark) as Textual writes them on a 256-colour terminal.
_BACKGROUND = "\x1b[0;48;5;233m"
_TITLE = "\x1b[0;1;38;5;253;48;5;233m"
_SCOPE = "\x1b[0;38;5;231;48;5;233m"
_BORDER = "\x1b[0;38;5;32;48;5;235m"
_INPUT = "\x1b[0;38;5;253;48;5;235m"
_INPUT_CURSOR = "\x1b[0;38;5;233;48;5;253m"
_INPUT_PLACEHOLDER = "\x1b[0;38;5;243;48;5;235m"
_HEADER = "\x1b[0;1;38;5;253;48;5;17m"
_ROW = "\x1b[0;38;5;253;48;5;234m"
_ROW_MUTED = "\x1b[0;38;5;16;48;5;234m"
_CURSOR_ROW = "\x1b[0;38;5;253;48;5;23m"
_CURSOR_MARKER = "\x1b[0;1;38;5;253;48;5;23m"
_STATUS = "\x1b[0;38;5;231;48;5;233m"
_HINT = "\x1b[0;38;5;247;48;5;233m"
_HINT_KEY = "\x1b[0;1;38;5;247;48;5;233m"
_MARKER = "›"
_PLACEHOLDER = "Type to search"
_MIN_CONVERSATION = 24
MIN_COLUMNS = 96
"""Narrowest terminal the frame paints on: the picker's columns all have their full widths."""
MIN_LINES = 12


def paint_picker(
    codex_home: Path, cwd: Path | None, *, show_all: bool, fork: bool, stream: TextIO | None = None
) -> FirstFrame | None:
    """List the first page of sessions and paint it as the picker will (on `stream`, default
    stdout); returns the frame (close it as `FirstFrame`), or None when `stream` is not a
    terminal or the sessions cannot be listed (the picker then says why)."""
    stream = stream or sys.stdout
    terminal = terminal_of(stream)
    if terminal is None:
        return None
    fd, columns, lines = terminal
    if columns < MIN_COLUMNS or lines < MIN_LINES:
        return None  # narrower, the table squeezes its columns its own way: not copied
    rows = first_page(codex_home, cwd, show_all)
    if rows is None:
        return None
    saved = hold_keys(fd)
    stream.write(render(columns, lines, rows, show_all=show_all, fork=fork))
    stream.flush()
    return FirstFrame(stream, saved, (columns, lines))


Row = tuple[str, str | None, str, str]
"""(updated, branch, directory, conversation) as the picker shows them."""


class Page:
    """The rows of the first page, and whether more pages follow."""

    def __init__(self, rows: list[Row], more: bool) -> None:
        self.rows = rows
        self.more = more


def first_page(codex_home: Path, cwd: Path | None, show_all: bool) -> Page | None:
    """The picker's first page (None if the listing fails: the picker reports it)."""
    import sqlite3

    from codex_core.frontend.relative_time import relative_age
    from codex_core.rollout.listing import INTERACTIVE_SOURCES, list_sessions

    try:
        where = None
        if not show_all:  # the directory as the config resolves it
            where = str((Path.cwd() / cwd.expanduser()).resolve() if cwd else Path.cwd().resolve())
        page = list_sessions(codex_home, cwd=where, sources=INTERACTIVE_SOURCES)
    except (OSError, sqlite3.Error, ValueError):
        return None
    now = datetime.now(UTC).timestamp()
    home = os.environ.get("HOME", "")
    rows = [
        (
            relative_age(item.updated_at, now),
            item.git_branch or None,
            _home_relative(item.cwd or "", home),
            " ".join(item.preview.split())[:200] or "(no message)",
        )
        for item in page.items
    ]
    return Page(rows, page.next_cursor is not None)


def render(columns: int, lines: int, page: Page, *, show_all: bool, fork: bool) -> str:
    """The escape sequences that draw the picker's first page on `columns` × `lines`; of the
    rows' text (from files in CODEX_HOME) only printable characters are written."""
    width = columns - 2  # the screen's padding: one column each side
    out = [_ENTER_ALT_SCREEN, _HIDE_CURSOR, _BACKGROUND, "\x1b[2J"]

    def line(row: int, text: str) -> None:
        out.append(f"\x1b[{row};1H{_BACKGROUND} {text}{_BACKGROUND} ")

    scope = "all directories" if show_all else "this directory"
    title = f"{'Fork' if fork else 'Resume'} a previous session"
    line(1, _TITLE + title + _SCOPE + _fit(f" · {scope}", width - len(title)))
    line(2, " " * width)  # every row is painted: not every terminal erases in colour
    inner = width - 2
    line(3, _BORDER + "╭" + "─" * inner + "╮")
    search = _INPUT_CURSOR + _PLACEHOLDER[0] + _INPUT_PLACEHOLDER + _PLACEHOLDER[1:]
    pad = _INPUT + " " * max(0, inner - 2 - len(_PLACEHOLDER))
    line(4, _BORDER + "│" + _INPUT + "  " + search + pad + _BORDER + "│")
    line(5, _BORDER + "╰" + "─" * inner + "╯")
    hints = _hint_lines(fork, width)
    widths = _column_widths(width)
    headers = ("", "Updated", "Branch", "CWD", "Conversation")
    named = zip(headers, widths, strict=True)
    line(6, _HEADER + "".join(" " + _fit(h, w) + " " for h, w in named) + "   ")
    status_row = lines - len(hints)
    shown = page.rows[: max(0, status_row - 7)]
    for index, (age, raw_branch, raw_cwd, raw_preview) in enumerate(shown):
        updated, cwd, preview = _printable(age), _printable(raw_cwd), _printable(raw_preview)
        branch = _printable(raw_branch) if raw_branch else None
        colour = _CURSOR_ROW if index == 0 else _ROW
        marker = (_CURSOR_MARKER + _MARKER + colour) if index == 0 else " "
        cells = [
            colour + " " + marker + " ",
            colour + " " + _fit(updated, widths[1]) + " ",
            colour + " " + (_fit(branch, widths[2]) if branch else _dash(colour, widths[2])) + " ",
            colour + " " + _fit(cwd, widths[3]) + " ",
            colour + " " + _fit(preview, widths[4]) + " ",
        ]
        line(7 + index, "".join(cells) + colour + "   ")
    for row in range(7 + len(shown), status_row):
        line(row, _ROW + " " * width)
    line(status_row, _STATUS + _fit(_status(page), width))
    for offset, hint in enumerate(hints):
        line(status_row + 1 + offset, hint)
    out.append("\x1b[0m")
    return "".join(out)


def _status(page: Page) -> str:
    if not page.rows:
        return "No recorded sessions yet: press esc to start a new one."
    noun = "session" if len(page.rows) == 1 else "sessions"
    more = " (more load as you scroll)" if page.more else ""
    return f"{len(page.rows)} {noun}{more}"


def _hint_lines(fork: bool, width: int) -> list[str]:
    """The key hints, broken between hints (never inside one) as the picker breaks them."""
    hints = [
        ("enter", "fork" if fork else "resume"),
        ("esc", "new session"),
        ("↑↓ pgup pgdn", "move"),
        ("ctrl+c", "quit"),
    ]
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for key, action in hints:
        size = len(key) + 1 + len(action)
        if lines[-1] and used + 3 + size > width:
            lines.append([])
            used = 0
        used += size + (3 if lines[-1] else 0)
        lines[-1].append((key, action))
    painted = []
    for group in lines:
        parts = [_HINT_KEY + key + _HINT + " " + action for key, action in group]
        text = (_HINT + " · ").join(parts)
        length = sum(len(k) + 1 + len(a) for k, a in group) + 3 * (len(group) - 1)
        painted.append(text + _HINT + " " * max(0, width - length))
    return painted


def _column_widths(width: int) -> tuple[int, int, int, int, int]:
    """Marker, updated, branch, directory and conversation widths, as the picker's
    `on_resize` sets them (the conversation takes what the others leave)."""
    available = width - (2 * 5 + 1) - 1
    branch, cwd = 16, 24
    rest = available - 16 - _MIN_CONVERSATION
    if rest < branch + cwd:
        branch = min(branch, max(0, rest) // 3)
        cwd = max(0, rest - branch)
    used = 3 + 18 + (branch + 2) + (cwd + 2) + 3
    return 1, 16, branch, cwd, max(1, width - used - 2)


def _dash(colour: str, width: int) -> str:
    """No branch: a muted `-` (the cursor row's colours win over muted, as in the table)."""
    dash = "-" if colour == _CURSOR_ROW else _ROW_MUTED + "-" + colour
    return dash + " " * max(0, width - 1)


def _home_relative(path: str, home: str) -> str:
    if home and home != "/" and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def _printable(text: str) -> str:
    """Only printable characters (a control or format character becomes a space)."""
    return "".join(c if c.isprintable() else " " for c in text)


def _fit(text: str, width: int) -> str:
    """`text` padded or cut to exactly `width` terminal cells (cut as the table cuts: no
    ellipsis)."""
    if width <= 0:
        return ""
    if text.isascii():
        return text[:width].ljust(width)
    cells, kept = 0, []
    for c in text:
        size = (
            0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        )
        if cells + size > width:
            break
        kept.append(c)
        cells += size
    return "".join(kept) + " " * (width - cells)
