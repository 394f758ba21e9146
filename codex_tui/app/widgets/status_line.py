"""The line above the composer while a turn runs: spinner, header, elapsed time, how to stop."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from codex_tui.app.formatting import format_elapsed

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class StatusLine(Widget):
    """Shown only while `visible`; the screen sets `header`, `elapsed` and `frame`."""

    DEFAULT_CSS = """
    StatusLine { height: 1; display: none; padding: 0 1; }
    StatusLine.-active { display: block; }
    """

    def __init__(self) -> None:
        super().__init__(id="status")
        self.header = "Working"
        self.elapsed = 0.0
        self.frame = 0
        self.waiting = False

    def show(self, *, header: str, elapsed: float, frame: int, waiting: bool) -> None:
        """Update what the line says. While an approval waits the spinner stands still, so
        the line (and the dialog drawn over it) is not repainted every frame."""
        frame = 0 if waiting else frame
        state = (header, int(elapsed), frame, waiting)
        if state != (self.header, int(self.elapsed), self.frame, self.waiting):
            self.header, self.elapsed, self.frame, self.waiting = header, elapsed, frame, waiting
            self.refresh()
        self.add_class("-active")

    def hide(self) -> None:
        """The turn ended."""
        self.remove_class("-active")

    def render(self) -> Content:
        """`⠋ Header (12s • esc to interrupt)`."""
        spinner = "⏸" if self.waiting else SPINNER[self.frame % len(SPINNER)]
        detail = "waiting for your approval" if self.waiting else "esc to interrupt"
        return Content.assemble(
            (f"{spinner} ", "$accent"),
            (self.header, "bold"),
            (f" ({format_elapsed(self.elapsed)} • {detail})", "$text-muted"),
        )
