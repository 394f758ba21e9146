"""Cells for `/ps` and `/stop`: the session's background terminals, and what was stopped."""

from __future__ import annotations

from codex_core.items import client as c
from codex_core.protocol import BackgroundTerminal
from codex_tui.app.formatting import format_elapsed, truncate_line
from codex_tui.app.widgets.cells.info_cell import InfoCell, Row
from codex_tui.app.widgets.cells.notice_cell import NoticeCell

LAST_LINE_CHARS = 80
HOW_TO_STOP = "/stop ID stops one, /stop stops them all."


def background_terminals_cell(msg: c.BackgroundTerminalsListed) -> InfoCell:
    """`/ps`: each running process by id, with its command, run time and last output line."""
    rows: list[Row] = []
    for terminal in msg.terminals:
        rows.append((terminal.process_id, truncate_line(terminal.command, LAST_LINE_CHARS)))
        running = f"running {format_elapsed(terminal.elapsed_ms / 1000)}"
        if terminal.last_line:
            running += f" · {truncate_line(terminal.last_line, LAST_LINE_CHARS)}"
        rows.append(("", running))
    note = HOW_TO_STOP if rows else "No background terminals are running."
    return InfoCell("Background terminals", rows, note=note)


def stopped_cell(msg: c.BackgroundTerminalsStopped) -> NoticeCell:
    """`/stop`: which processes were killed, or why none was."""
    if msg.unknown_process_id is not None:
        return NoticeCell(
            "error",
            f"No background terminal {msg.unknown_process_id} is running; "
            "/ps lists the ones that are.",
        )
    if not msg.stopped:
        return NoticeCell("info", "No background terminals were running; nothing to stop.")
    if len(msg.stopped) == 1:
        return NoticeCell("info", f"Stopped background terminal {_named(msg.stopped[0])}.")
    names = ", ".join(_named(t) for t in msg.stopped)
    return NoticeCell("info", f"Stopped {len(msg.stopped)} background terminals: {names}.")


def _named(terminal: BackgroundTerminal) -> str:
    return f"{terminal.process_id} ({truncate_line(terminal.command, 40)})"
