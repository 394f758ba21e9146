"""The assistant's answer, rendered as Markdown while it streams."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from codex_tui.app.markdown_render import AgentMarkdown as RichMarkdown

MAX_STREAM_CHARS = 200_000
"""Past this many characters the display stops growing (the rollout keeps the whole answer)."""
SEGMENT_CHARS = 4_000
"""Streamed text is split into segments of about this size, so each frame re-renders only
the last one instead of one ever-growing document."""
FENCES = ("```", "~~~")


MAX_TABLE_CHARS = 20 * SEGMENT_CHARS
"""A table is never split across segments (a piece without its header row would render as
plain text) unless it grows past this."""


def split_point(text: str, start: int) -> int | None:
    """Where to end the segment starting at `start`: a line break, else a space; None if the
    segment is short, or ends in a table that is still streaming."""
    if len(text) - start <= SEGMENT_CHARS:
        return None
    window_start = start + SEGMENT_CHARS // 2
    for separator in ("\n\n", "\n", " "):
        index = text.rfind(separator, window_start, start + SEGMENT_CHARS)
        if index != -1:
            cut = index + len(separator)
            if _table_row_before(text, cut):
                return _after_table(text, cut, start)
            return cut
    return start + SEGMENT_CHARS


def _table_row_before(text: str, cut: int) -> bool:
    """Whether the line ending at (or running through) `cut` is a Markdown table row."""
    line_start = text.rfind("\n", 0, max(cut - 1, 0)) + 1
    return text[line_start:cut].lstrip().startswith("|")


def _after_table(text: str, cut: int, start: int) -> int | None:
    """The start of the first line after the table around `cut`; None while it streams."""
    position = text.rfind("\n", 0, max(cut - 1, 0)) + 1
    while True:
        newline = text.find("\n", position)
        if newline == -1:
            # The table is still arriving: keep it in this segment, up to a point.
            return None if len(text) - start <= MAX_TABLE_CHARS else cut
        position = newline + 1
        if not text[position:].lstrip(" ").startswith("|") and position < len(text):
            return position


def open_fence(source: str, fence: str | None) -> str | None:
    """The code fence still open at the end of `source`, given the one open at its start."""
    for line in source.split("\n"):
        stripped = line.lstrip()
        if fence is None:
            if stripped.startswith(FENCES):
                fence = stripped.rstrip()
        elif stripped.startswith(fence[:3]) and not stripped[3:].strip():
            fence = None
    return fence


class MarkdownSegment(Static):
    """One piece of the answer, rendered as Markdown in a single widget (cheap to lay out)."""

    def __init__(self, source: str = "") -> None:
        super().__init__(RichMarkdown(source))
        self.source = source

    def set_source(self, source: str) -> None:
        """Re-render with new Markdown text."""
        if source != self.source:
            self.source = source
            self.update(RichMarkdown(source))


class AgentCell(Horizontal):
    """A bullet and Markdown segments that grow as deltas arrive."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = text
        self._shown = 0
        self._segment_start = 0
        self._segment_fence: str | None = None
        self._clipped = False
        self._ready = False

    def compose(self) -> ComposeResult:
        yield Static("•", classes="bullet")
        yield Vertical(classes="segments")

    async def on_mount(self) -> None:
        """Render whatever text arrived before mounting."""
        await self.query_one(".segments").mount(MarkdownSegment())
        self._ready = True
        await self._render_new()

    async def append(self, delta: str) -> None:
        """Add streamed text (partial lines included) and render it."""
        self.text += delta
        await self._render_new()

    async def finish(self, message: str) -> None:
        """Show the authoritative full message (it normally extends what streamed)."""
        if message.startswith(self.text):
            self.text = message
            await self._render_new()
            return
        self.text = message
        self._shown = self._segment_start = 0
        self._segment_fence = None
        self._clipped = False
        if self._ready:
            segments = self.query_one(".segments")
            await segments.remove_children()
            await segments.mount(MarkdownSegment())
            await self._render_new()

    async def _render_new(self) -> None:
        if self._clipped or not self._ready:
            return
        end = min(len(self.text), MAX_STREAM_CHARS)
        while self._shown < end:
            cut = split_point(self.text[:end], self._segment_start)
            if cut is None:
                self._shown = end
                self._current().set_source(self._segment_source(end))
                break
            await self._close_segment(cut)
        if len(self.text) > MAX_STREAM_CHARS and not self._clipped:
            self._clipped = True
            note = "\n\n*… answer too long to show in full; the transcript file keeps all of it.*"
            self._current().set_source(self._segment_source(end) + note)

    async def _close_segment(self, cut: int) -> None:
        """End the current segment at `cut` (closing an open code fence) and start a new one."""
        fence = open_fence(self.text[self._segment_start : cut], self._segment_fence)
        closer = "\n" + fence[:3] if fence else ""
        self._current().set_source(self._segment_source(cut).rstrip("\n") + closer)
        self._segment_start = self._shown = cut
        self._segment_fence = fence
        await self.query_one(".segments").mount(MarkdownSegment(self._segment_source(cut)))

    def _segment_source(self, end: int) -> str:
        opener = f"{self._segment_fence}\n" if self._segment_fence else ""
        return opener + self.text[self._segment_start : end]

    def _current(self) -> MarkdownSegment:
        return self.query(".segments > MarkdownSegment").last(MarkdownSegment)
