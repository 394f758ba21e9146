"""A first frame that paints on a pyte screen, and the child's messages a session frame
follows: shared by the session painter's tests (codex_tui/cli/session_frame.py)."""

from __future__ import annotations

from typing import Any

import pyte

from codex_tui.app.formatting import shorten_path
from codex_tui.cli.session_frame import SessionPainter

HOME = "/home/me"
"""The home directory the painters' directories are shortened against."""


class PaintedFrame:
    """`FirstFrame.paint_rows`'s contract on a pyte screen (a fresh one, or `screen` with
    something painted already); `open` False once Textual has the screen."""

    def __init__(self, columns: int = 110, lines: int = 36, screen: pyte.Screen | None = None):
        self.screen = screen if screen is not None else pyte.Screen(columns, lines)
        self.size = (self.screen.columns, self.screen.lines)
        self.stream = pyte.Stream(self.screen)
        self.writes: list[str] = []
        self.open = True

    def paint_rows(self, out: str) -> bool:
        if not self.open:
            return False
        self.writes.append(out)
        self.stream.feed(out)
        return True

    def text(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]


def painter_on(
    frame: PaintedFrame, prompt: str = "say hi", version: str = "1.2.3"
) -> SessionPainter:
    """A painter for a launch with `prompt`, painting on `frame`."""
    return SessionPainter(frame, version, prompt, lambda p: shorten_path(p, HOME))  # type: ignore[arg-type]


def thread_result(**overrides: Any) -> dict[str, Any]:
    """`thread/start`'s answer for a new session (top-level keys replaced by `overrides`)."""
    return {
        "thread": {"id": "t1", "turns": []},
        "model": "gpt-5.1-codex",
        "cwd": f"{HOME}/project",
        "approvalPolicy": "on-request",
        "sandbox": {"type": "readOnly"},
        **overrides,
    }


def answer_started(item: str = "m1") -> dict[str, Any]:
    """The answer's `item/started`."""
    return {"method": "item/started", "params": {"item": {"id": item, "type": "agentMessage"}}}


def delta(text: str, item: str = "m1") -> dict[str, Any]:
    """One streamed piece of the answer."""
    return {"method": "item/agentMessage/delta", "params": {"itemId": item, "delta": text}}
