"""A rule across the transcript that says how long the turn worked."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


class SeparatorCell(Widget):
    """`─ Worked for 1m 05s ─────` filling the width."""

    DEFAULT_CSS = """
    SeparatorCell { height: 1; color: $text-muted; }
    """

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def render(self) -> Content:
        """The label inside a rule as wide as the cell."""
        head = f"─ {self.label} "
        return Content(head + "─" * max(0, self.size.width - len(head)))
