"""The bottom line: key hints for the current state on the left; warnings, model and effort,
and context left on the right."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

Hint = tuple[str, str]
MODE_HINTS: dict[str, list[Hint]] = {
    "esc-armed": [("esc", "again to edit a previous message")],
}
BACKTRACK_HINTS: list[Hint] = [
    ("esc ↑", "older"),
    ("↓", "newer"),
    ("⏎", "edit this message"),
    ("any key", "cancel"),
]


class FooterBar(Widget):
    """Hints depend on whether a turn runs and on the mode; a pending quit replaces them."""

    DEFAULT_CSS = """
    FooterBar { height: 1; padding: 0 1; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__(id="footer")
        self.running = False
        self.context_left: int | None = None
        self.quit_armed = False
        self.mode: str | None = None
        self.model: str | None = None
        self.effort: str | None = None
        self.warnings = 0
        self.queued = 0

    def set_state(
        self,
        *,
        running: bool | None = None,
        context_left: int | None = None,
        quit_armed: bool | None = None,
        model: str | None = None,
        effort: str | None = None,
        warnings: int | None = None,
        queued: int | None = None,
    ) -> None:
        """Change any of the shown facts."""
        if running is not None:
            self.running = running
        if context_left is not None:
            self.context_left = context_left
        if quit_armed is not None:
            self.quit_armed = quit_armed
        if model is not None:
            self.model = model
            self.effort = effort
        if warnings is not None:
            self.warnings = warnings
        if queued is not None:
            self.queued = queued
        self.refresh()

    def set_mode(self, mode: str | None) -> None:
        """`esc-armed`, `backtrack N/M`, or None for the usual hints."""
        self.mode = mode
        self.refresh()

    def hints(self) -> list[Hint]:
        """The key hints for the current state."""
        mode = self.mode
        if mode is not None and mode.startswith("backtrack"):
            return [("message", mode.split(" ", 1)[1]), *BACKTRACK_HINTS]
        if mode in MODE_HINTS:
            return MODE_HINTS[mode]
        if self.running:
            hints = [
                ("⏎", "send into this turn"),
                ("tab", "queue for after it"),
                ("esc", "interrupt"),
            ]
            if self.queued:
                hints.insert(0, ("queued", str(self.queued)))
            return [*hints, ("ctrl+t", "transcript")]
        return [("⏎", "send"), ("/", "commands"), ("@", "files"), ("ctrl+t", "transcript")]

    def render(self) -> Content:
        """Hints, padded so the facts on the right sit at the right edge."""
        if self.quit_armed:
            left = Content.assemble(("ctrl+c", "bold $warning"), (" again to quit", "$warning"))
        else:
            parts: list[str | tuple[str, str]] = []
            for key, label in self.hints():
                parts += [(key, "bold"), f" {label}   "]
            left = Content.assemble(*parts).rstrip()
        facts: list[str | tuple[str, str]] = []
        if self.warnings:
            noun = "warning" if self.warnings == 1 else "warnings"
            facts += [(f"⚠ {self.warnings} {noun} · F2", "$warning"), "   "]
        if self.model:
            facts += [f"{self.model}{' ' + self.effort if self.effort else ''}", "   "]
        if self.context_left is not None:
            facts += [f"{self.context_left}% context left"]
        right = Content.assemble(*facts).rstrip()
        gap = max(1, self.size.width - left.cell_length - right.cell_length)
        return Content.assemble(left, " " * gap, right)
