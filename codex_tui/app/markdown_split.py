"""Where a streaming Markdown answer is cut into segments: each closed segment is rendered
once and kept, and only the last one is re-rendered as text arrives. Cuts fall on blank
lines, line breaks or spaces, never inside a table that is still arriving, and a code fence
open at a cut is closed there and reopened in the next segment."""

from __future__ import annotations

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


CLIPPED_NOTE = "\n\n*… answer too long to show in full; the transcript file keeps all of it.*"


class StreamSegments:
    """The Markdown sources of a streaming answer's segments; all but the last are closed and
    never change. Past `limit` characters the display stops growing (with a note)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._reset()

    def _reset(self) -> None:
        self.sources = [""]
        self.blank_before = [False]
        """Per segment: whether a blank line separates it from the one before (a paragraph
        break was cut), which the display has to draw, as each segment renders alone."""
        self._text = ""
        self._shown = 0
        self._start = 0
        self._fence: str | None = None
        self._clipped = False

    def update(self, text: str) -> bool:
        """Follow the answer's whole text so far; True if it does not extend what came
        before, so every segment was cut again."""
        restarted = not text.startswith(self._text)
        if restarted:
            self._reset()
        self._text = text
        if self._clipped:
            return restarted
        end = min(len(text), self.limit)
        while self._shown < end:
            cut = split_point(text[:end], self._start)
            if cut is None:
                self._shown = end
                self.sources[-1] = self._source(end)
                break
            self._close(cut)
        if len(text) > self.limit:
            self._clipped = True
            self.sources[-1] = self._source(end) + CLIPPED_NOTE
        return restarted

    def _close(self, cut: int) -> None:
        """End the live segment at `cut` (closing an open code fence) and start a new one."""
        fence = open_fence(self._text[self._start : cut], self._fence)
        closer = "\n" + fence[:3] if fence else ""
        self.sources[-1] = self._source(cut).rstrip("\n") + closer
        self._start = self._shown = cut
        self._fence = fence
        self.sources.append(self._source(cut))
        self.blank_before.append(self._text[:cut].endswith("\n\n"))

    def _source(self, end: int) -> str:
        opener = f"{self._fence}\n" if self._fence else ""
        return opener + self._text[self._start : end]
