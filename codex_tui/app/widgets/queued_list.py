"""Messages typed while a turn runs, waiting to be sent when it ends."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.formatting import truncate_line


class QueuedList(Static):
    """One dim line per queued message; hidden when there are none."""

    DEFAULT_CSS = """
    QueuedList { display: none; padding: 0 1; color: $text-muted; }
    QueuedList.-active { display: block; }
    """

    def __init__(self) -> None:
        super().__init__(id="queued")
        self.messages: list[str] = []

    def show(self, messages: list[str]) -> None:
        """Display these queued messages."""
        self.messages = list(messages)
        self.set_class(bool(messages), "-active")
        parts: list[str | tuple[str, str]] = []
        for message in messages:
            first = truncate_line(message.strip().split("\n")[0], 120)
            parts += [("↳ queued ", "italic"), (first, ""), "\n"]
        self.update(Content.assemble(*parts).rstrip())
