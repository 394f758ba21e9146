"""The model's reasoning summary, dim, updated as it streams."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.formatting import reasoning_header, strip_reasoning_header, truncate_line

MAX_REASONING_CHARS = 20_000


class ReasoningCell(Static):
    """Dim italic text under an optional bold header."""

    def __init__(self, text: str = "") -> None:
        self.text = text
        super().__init__(self._content())

    def append(self, delta: str) -> None:
        """Add streamed reasoning text."""
        self.text += delta
        self.update(self._content())

    def replace(self, text: str) -> None:
        """Show the complete summary."""
        self.text = text
        self.update(self._content())

    def _content(self) -> Content:
        text = self.text[:MAX_REASONING_CHARS]
        header = reasoning_header(text)
        body = strip_reasoning_header(text) if header else text
        body = "\n".join("  " + truncate_line(line) for line in body.strip().split("\n"))
        if not header:
            body = body[2:]
        parts: list[str | tuple[str, str]] = [("• ", "$text-muted")]
        if header:
            parts += [(header, "bold $text-muted"), "\n" if body else ""]
        parts.append((body, "italic $text-muted"))
        return Content.assemble(*parts).rstrip()
