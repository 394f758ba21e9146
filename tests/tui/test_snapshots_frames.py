"""Snapshots of what `codex` paints before Textual loads: the first frame (composer and
footer) and a launch prompt's session on it (codex_tui/cli/session_frame.py), as a 256-colour
terminal shows them — each row's text, then its runs of colours (fg/bg, `b` for bold).
That they are the cells Textual then draws: tests/e2e/test_tui_session_frame.py."""

from __future__ import annotations

from typing import Any

import pyte
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from codex_tui.cli.first_frame import render
from tests.support.painted_frame import (
    PaintedFrame,
    answer_started,
    delta,
    painter_on,
    thread_result,
)
from tests.tui.conftest import SNAPSHOT_DIR


class TextSnapshot(SingleFileSnapshotExtension):
    """One text file per snapshot, in `snapshots/<test module>/`."""

    _file_extension = "txt"
    _write_mode = WriteMode.TEXT

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(SNAPSHOT_DIR / test_location.basename)


def _picture(screen: pyte.Screen) -> str:
    rows = [line.rstrip() for line in screen.display]
    runs = []
    for y in range(screen.lines):
        spans: list[str] = []
        start, style = 0, None
        for x in range(screen.columns + 1):
            cell = screen.buffer[y][x] if x < screen.columns else None
            now = (cell.fg, cell.bg, cell.bold) if cell is not None else None
            if now != style:
                if style is not None:
                    fg, bg, bold = style
                    spans.append(f"{start}-{x - 1} {fg}/{bg}{' b' if bold else ''}")
                start, style = x, now
        runs.append(f"{y:2}: " + ", ".join(spans))
    return "\n".join([*rows, "", *runs]) + "\n"


def _screen(columns: int, lines: int) -> pyte.Screen:
    screen = pyte.Screen(columns, lines)
    pyte.Stream(screen).feed(render(columns, lines))
    return screen


def test_snapshot_first_frame(snapshot: SnapshotAssertion) -> None:
    assert _picture(_screen(80, 24)) == snapshot(extension_class=TextSnapshot)


def test_snapshot_session_frame_with_a_streamed_answer(snapshot: SnapshotAssertion) -> None:
    screen = _screen(110, 36)
    painter = painter_on(PaintedFrame(screen=screen), version="0.1.0")
    assert painter.opened(thread_result(cwd="/home/me/project", sandbox={"type": "workspaceWrite"}))
    assert painter.message(answer_started())
    for piece in ("Here is", " the plan, in plain words: read the code, then", " change it."):
        assert painter.message(delta(piece))
    assert _picture(screen) == snapshot(extension_class=TextSnapshot)
