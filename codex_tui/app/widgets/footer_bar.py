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
        """Hints, padded so the facts on the right sit at the right edge; on a narrow terminal
        whole hints and facts are left out (the model first, then hints from the end, then
        the context left), never cut in the middle."""
        quit_hint = Content.assemble(("ctrl+c", "bold $warning"), (" again to quit", "$warning"))
        hints: list[Hint | Content] = [quit_hint] if self.quit_armed else [*self.hints()]
        warnings = model = context = None
        if self.warnings:
            noun = "warning" if self.warnings == 1 else "warnings"
            warnings = Content.styled(f"⚠ {self.warnings} {noun} · F2", "$warning")
        if self.model:
            model = Content(f"{self.model}{' ' + self.effort if self.effort else ''}")
        if self.context_left is not None:
            context = Content(f"{self.context_left}% context left")
        width = self.size.width
        attempts = [(len(hints), [warnings, model, context])]
        attempts += [(count, [warnings, None, context]) for count in range(len(hints), 0, -1)]
        attempts += [(1, [warnings, None, None]), (1, [None, None, None])]
        for count, facts in attempts:
            line = footer_line(hints[:count], facts, width)
            if line.cell_length <= width:
                return line
        return line


def footer_line(hints: list[Hint | Content], facts: list[Content | None], width: int) -> Content:
    """`key label   key label` on the left, the facts joined on the right."""
    parts: list[str | tuple[str, str] | Content] = []
    for hint in hints:
        if isinstance(hint, Content):
            parts += [hint, "   "]
        else:
            parts += [(hint[0], "bold"), f" {hint[1]}   "]
    left = Content.assemble(*parts).rstrip()
    right = Content("   ").join([fact for fact in facts if fact is not None])
    gap = max(1, width - left.cell_length - right.cell_length)
    return Content.assemble(left, " " * gap, right)
