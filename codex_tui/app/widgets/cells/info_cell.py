"""A boxed table of facts in the transcript: `/status`, `/mcp`."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static

Row = tuple[str, str | Content]


class InfoCell(Static):
    """A title, then `label:  value` rows (an empty label continues the row above)."""

    def __init__(self, title: str, rows: Sequence[Row], note: str | None = None) -> None:
        self.title_text = title
        self.rows = list(rows)
        width = max((len(label) for label, _value in rows), default=0) + 3
        parts: list[str | Content | tuple[str, str]] = [(title, "bold"), "\n"]
        for label, value in rows:
            shown = f"{label}:" if label else ""
            parts += ["\n", (f"{shown:<{width}}", "$text-muted"), value]
        if note:
            parts += ["\n\n", (note, "$text-muted")]
        super().__init__(Content.assemble(*parts))
