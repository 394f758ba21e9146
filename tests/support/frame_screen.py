"""A `codex` started in a pty, its output fed to a pyte screen: the screen a frame painted
before Textual, then the one Textual settles on (the picker frame's and the session frame's
end-to-end tests compare them cell by cell)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pexpect
import pyte

Cells = list[list[tuple[str, str, str, bool]]]
"""Each cell's (text, foreground, background, bold), row by row."""


def cells(screen: pyte.Screen) -> Cells:
    """What `screen` shows, cell by cell."""
    return [
        [
            (cell.data, cell.fg, cell.bg, cell.bold)
            for cell in (screen.buffer[y][x] for x in range(screen.columns))
        ]
        for y in range(screen.lines)
    ]


def frame_then_settled(
    child: pexpect.spawn,
    size: tuple[int, int],
    frame_end: Callable[[bytes], int],
    settled: Callable[[bytes, int], bool],
    what: str,
) -> tuple[bytes, Cells, Cells]:
    """Read `child` until `settled(output, frame_end)` holds and it has been quiet for 0.5 s
    (30 s at most); returns (everything written, the screen as of offset `frame_end(output)`
    — the first time it is ≥ 0 — and the screen at the end). `child` is terminated."""
    columns, lines = size
    screen = _AnsweringScreen(columns, lines)
    screen.child = child
    stream = pyte.ByteStream(screen)
    raw = b""
    frame: Cells | None = None
    end = 0
    deadline = time.monotonic() + 30
    quiet_since = time.monotonic()
    try:
        while time.monotonic() < deadline:
            try:
                chunk = child.read_nonblocking(1 << 20, timeout=0.05)
            except pexpect.TIMEOUT:
                if frame is not None and settled(raw, end):
                    if time.monotonic() - quiet_since > 0.5:
                        break
                continue
            quiet_since = time.monotonic()
            joined = raw + chunk
            if frame is None and (end := frame_end(joined)) >= 0:
                stream.feed(joined[len(raw) : end])
                frame = cells(screen)
                stream.feed(joined[end:])
            else:
                stream.feed(chunk)
            raw = joined
        else:
            shown = "\n".join(screen.display)
            raise AssertionError(f"{what} never settled:\n{shown}")
    finally:
        child.terminate(force=True)
    assert frame is not None, raw[:300]
    return raw, frame, cells(screen)


class _AnsweringScreen(pyte.Screen):
    """Answers the terminal's queries (cursor position, …) to the child."""

    child: pexpect.spawn | None = None

    def write_process_input(self, data: str) -> None:
        if self.child is not None:
            self.child.send(data.encode())
