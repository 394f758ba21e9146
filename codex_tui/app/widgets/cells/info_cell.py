"""A table of facts in the transcript: `/status`, `/mcp`, `/hooks`, `/skills`, `/ps`."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

Row = tuple[str, str | Content]


class InfoCell(Vertical):
    """A title, then `label:  value` rows (an empty label continues the row above). A long
    value wraps under itself, never back under the labels, however narrow the terminal."""

    DEFAULT_CSS = """
    InfoCell { height: auto; }
    InfoCell > .-title { height: auto; }
    InfoCell > .-title.-with-rows { margin-bottom: 1; }
    InfoCell > .-row { height: auto; }
    InfoCell > .-row > .-label { height: auto; color: $text-muted; }
    InfoCell > .-row > .-value { width: 1fr; height: auto; }
    InfoCell > .-note { height: auto; margin-top: 1; color: $text-muted; }
    """

    def __init__(self, title: str, rows: Sequence[Row], note: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.rows = list(rows)
        self.note = note
        self.label_width = max((len(label) for label, _value in rows), default=0) + 3

    def compose(self) -> ComposeResult:
        title = Static(Content.styled(self.title_text, "bold"), classes="-title")
        title.set_class(bool(self.rows), "-with-rows")
        yield title
        for label, value in self.rows:
            with Horizontal(classes="-row"):
                shown = Static(Content(f"{label}:" if label else ""), classes="-label")
                shown.styles.width = self.label_width
                yield shown
                yield Static(Content(value) if isinstance(value, str) else value, classes="-value")
        if self.note:
            yield Static(Content(self.note), classes="-note")
