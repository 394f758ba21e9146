"""Notices: warnings, errors, interruptions, approval decisions and info — a mark, then the
text, whose further lines are indented under it (not under the mark), as 0.169 wraps them."""

from __future__ import annotations

from typing import Literal

from textual.content import Content
from textual.geometry import Size
from textual.widgets import Static

NoticeKind = Literal["warning", "error", "interrupted", "approved", "denied", "info"]

STYLES: dict[NoticeKind, tuple[str, str]] = {
    "warning": ("⚠ ", "$warning"),
    "error": ("■ ", "$error"),
    "interrupted": ("■ ", "$error"),
    "approved": ("✔ ", "$success"),
    "denied": ("✗ ", "$error"),
    "info": ("• ", "$text-muted"),
}


class NoticeCell(Static):
    """A marked line of text in the notice's colour."""

    def __init__(self, kind: NoticeKind, message: str) -> None:
        self.kind = kind
        self.message = message
        mark, style = STYLES[kind]
        text_style = "$text-muted" if kind in ("info", "approved", "denied") else style
        self.mark = Content.styled(mark, style)
        self.text = Content.styled(message, text_style)
        super().__init__(Content.assemble(self.mark, self.text))

    def wrapped(self, width: int) -> Content:
        """The mark and the text, its lines indented under its first column."""
        indent = self.mark.cell_length
        if width <= indent + 8:  # too narrow to indent (or not laid out yet)
            return Content.assemble(self.mark, self.text)
        lines = self.text.wrap(width - indent) or [Content("")]
        rest = [Content.assemble(" " * indent, line.rstrip()) for line in lines[1:]]
        return Content("\n").join([Content.assemble(self.mark, lines[0].rstrip()), *rest])

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the wrapped text takes at `width`."""
        return len(self.wrapped(width).plain.split("\n"))

    def render(self) -> Content:
        """Wrapped for the cell's current width."""
        return self.wrapped(self.size.width)
