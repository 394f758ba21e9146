"""The scrolling history of cells, kept to a bounded number of mounted widgets."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.widget import Widget

from codex_tui.app.widgets.cells.notice_cell import NoticeCell

MAX_CELLS = 400
"""Older cells are dropped from the screen (the rollout keeps everything)."""


class Transcript(VerticalScroll, can_focus=False):
    """Cells, newest at the bottom; follows the end while the user has not scrolled up."""

    def __init__(self, max_cells: int = MAX_CELLS) -> None:
        super().__init__(id="transcript")
        self.max_cells = max_cells
        self.dropped = 0
        self._content_grew = False
        """While Textual gives the transcript new content at the same size."""

    def on_resize(self, event: events.Resize) -> None:
        """Once cells overflow the view, stick to the bottom as more arrive.

        Anchoring earlier would push a short transcript to the bottom of the screen.
        """
        self._maybe_anchor()

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        self._content_grew = size == self.outer_size
        try:
            return super()._size_updated(size, virtual_size, container_size, layout)
        finally:
            self._content_grew = False

    def _set_dirty(self, *regions: Region) -> None:
        """The cells grew and the transcript kept its size: its own lines (the background
        between cells) are unchanged, and Textual would re-style every one of them each
        frame of a streamed answer; the cells that moved are drawn by the layout."""
        if regions or not self._content_grew:
            super()._set_dirty(*regions)

    def watch_virtual_size(self, _size: Size) -> None:
        """Cells grow after they mount (a long answer is laid out later): anchor then too."""
        self._maybe_anchor()

    def page(self, direction: int) -> None:
        """PageUp (-1) / PageDown (+1): scroll by a screen, keeping two lines of context."""
        step = max(1, self.scrollable_content_region.height - 2)
        self.scroll_to(y=self.scroll_y + direction * step, animate=False)

    def _maybe_anchor(self) -> None:
        if not self.is_anchored and self.virtual_size.height > self.size.height:
            self.anchor()

    async def add(self, cell: Widget) -> None:
        """Mount a cell at the end, dropping the oldest ones past the limit."""
        await self.mount(cell)
        if not self.is_anchored:
            # Replayed cells mount before a resize says they overflow: check after layout.
            self.call_after_refresh(self._maybe_anchor)
        cells = [child for child in self.children if child.id != "dropped"]
        excess = len(cells) - self.max_cells
        if excess > 0:
            self.dropped += excess
            await self.remove_children(cells[:excess])
            for note in self.query("#dropped"):
                await note.remove()
            note = NoticeCell("info", f"… {self.dropped} earlier cells are not shown")
            note.id = "dropped"
            await self.mount(note, before=0)

    async def clear(self) -> None:
        """Remove every cell."""
        self.dropped = 0
        await self.remove_children()
