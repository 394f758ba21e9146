"""Messages typed while a turn runs: steered ones waiting to join it, queued ones its end."""

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

    def show(self, steering: list[str], queued: list[str] | None = None) -> None:
        """Display the steered messages, then the queued ones."""
        queued = queued or []
        self.messages = [*steering, *queued]
        self.set_class(bool(self.messages), "-active")
        parts: list[str | tuple[str, str]] = []
        for label, messages in (("↳ joining this turn ", steering), ("↳ queued ", queued)):
            for message in messages:
                first = truncate_line(message.strip().split("\n")[0], 120)
                parts += [(label, "italic"), (first, ""), "\n"]
        self.update(Content.assemble(*parts).rstrip())
