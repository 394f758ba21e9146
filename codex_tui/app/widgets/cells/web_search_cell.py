"""A search the hosted web_search tool ran: `Searching the web`, then `Searched <query>`."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.formatting import truncate_line


class WebSearchCell(Static):
    """One web search; its query is known only once the search ends."""

    def __init__(self, call_id: str, query: str | None = None) -> None:
        self.call_id = call_id
        self.searched = query
        super().__init__(self._content())

    def finish(self, query: str) -> None:
        """Show what was searched."""
        self.searched = query
        self.update(self._content())

    def _content(self) -> Content:
        if self.searched is None:
            return Content.assemble(("• ", "$accent"), ("Searching the web", "bold"))
        shown = truncate_line(self.searched, 100) if self.searched else "the web"
        return Content.assemble(("• ", "$success"), ("Searched ", "bold"), shown)
