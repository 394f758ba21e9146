"""One-line notices: warnings, errors, interruptions, approval decisions and info."""

from __future__ import annotations

from typing import Literal

from textual.content import Content
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
        super().__init__(Content.assemble((mark, style), (message, text_style)))
