"""The bottom line: key hints on the left, context left on the right."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


class FooterBar(Widget):
    """Hints depend on whether a turn runs; a pending quit replaces them."""

    DEFAULT_CSS = """
    FooterBar { height: 1; padding: 0 1; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__(id="footer")
        self.running = False
        self.context_left: int | None = None
        self.quit_armed = False

    def set_state(
        self,
        *,
        running: bool | None = None,
        context_left: int | None = None,
        quit_armed: bool | None = None,
    ) -> None:
        """Change any of the shown facts."""
        if running is not None:
            self.running = running
        if context_left is not None:
            self.context_left = context_left
        if quit_armed is not None:
            self.quit_armed = quit_armed
        self.refresh()

    def render(self) -> Content:
        """Hints, padded so the context figure sits at the right edge."""
        if self.quit_armed:
            left = Content.assemble(("ctrl+c", "bold $warning"), (" again to quit", "$warning"))
        else:
            hints = [("⏎", "send"), ("⇧⏎/ctrl+j", "newline"), ("↑↓", "history")]
            if self.running:
                hints.append(("esc", "interrupt"))
            hints.append(("ctrl+c", "quit"))
            parts: list[str | tuple[str, str]] = []
            for key, label in hints:
                parts += [(key, "bold"), f" {label}   "]
            left = Content.assemble(*parts).rstrip()
        right = Content("" if self.context_left is None else f"{self.context_left}% context left")
        gap = max(1, self.size.width - left.cell_length - right.cell_length)
        return Content.assemble(left, " " * gap, right)
