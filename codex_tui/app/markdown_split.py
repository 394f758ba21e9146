"""Where a streaming Markdown answer is cut into segments: each closed segment is rendered
once and kept, and only the last one is re-rendered as text arrives. A cut falls where a
top-level block (paragraph, heading, list, code, quote, table) has ended and the next one
has begun after a blank line, so the segments draw exactly what the whole answer draws; the
last block streams alone. A block longer than `SEGMENT_CHARS` (a long code listing) is cut on
blank lines, line breaks or spaces, never inside a table that is still arriving, and a code
fence open at such a cut is closed there and reopened in the next segment."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

BLOCK_CHARS = 1_000
"""A live segment longer than this is cut before its last top-level block that follows at
least half as much text: each frame re-renders about this much Markdown, not the answer."""
SEGMENT_CHARS = 4_000
"""A live segment with no block to cut before (one long list or listing) is split into pieces
of about this size instead."""
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


_CLOSED_BEFORE_CUT = frozenset(
    {
        "paragraph_open",
        "heading_open",
        "fence",
        "code_block",
        "blockquote_open",
        "bullet_list_open",
        "ordered_list_open",
        "table_open",
    }
)
"""Blocks after which Rich draws one blank line before the next block, as the blank line a
cut segment gets (not after a rule; raw HTML draws nothing)."""


@cache
def markdown_parser() -> MarkdownIt:
    """A parser set up as Rich's Markdown sets up its own (loaded with the first answer)."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")


def block_cut(text: str, start: int) -> int | None:
    """Where to end the segment starting at `start` (outside any code fence): the start of
    the last top-level block that begins after a blank line with a whole first line (a
    partial one, such as `1` of `10. item`, may yet continue the list above), at least
    `BLOCK_CHARS // 2` and at most `SEGMENT_CHARS` characters in, after a block that ends
    there whatever follows. None if the segment is short or has no such block."""
    if len(text) - start <= BLOCK_CHARS:
        return None
    chunk = text[start : start + SEGMENT_CHARS + 1]
    tokens = markdown_parser().parse(chunk)
    lines = [0, *(index + 1 for index, char in enumerate(chunk) if char == "\n")]
    cut, before = None, None
    for token in tokens:
        if token.level != 0 or token.nesting == -1 or token.map is None:
            continue
        offset = lines[token.map[0]]
        if (
            before in _CLOSED_BEFORE_CUT
            and token.type != "html_block"  # raw HTML draws nothing, not even its blank line
            and BLOCK_CHARS // 2 <= offset
            and chunk.endswith("\n\n", 0, offset)
            and "\n" in chunk[offset:]  # its first line decides that it starts a block
        ):
            cut = start + offset
        before = token.type
    return cut


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
        self.at_block = [False]
        """Per segment: whether it was cut off at a block's start; Rich draws the blank line
        before a list, quote or table itself, even at the start of what it renders."""
        self._text = ""
        self._shown = 0
        self._start = 0
        self._fence: str | None = None
        self._block_cut = False
        """Whether the last cut fell between blocks (no code fence is open there)."""
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
            cut = self._cut(text[:end])
            if cut is None:
                self._shown = end
                self.sources[-1] = self._source(end)
                break
            self._close(cut)
        if len(text) > self.limit:
            self._clipped = True
            self.sources[-1] = self._source(end) + CLIPPED_NOTE
        return restarted

    def _cut(self, text: str) -> int | None:
        """Where the live segment ends: before a block (outside a reopened fence), else
        where a piece of `SEGMENT_CHARS` ends, else None."""
        if self._fence is None and (cut := block_cut(text, self._start)) is not None:
            self._block_cut = True
            return cut
        self._block_cut = False
        return split_point(text, self._start)

    def _close(self, cut: int) -> None:
        """End the live segment at `cut` (closing an open code fence) and start a new one."""
        fence = None if self._block_cut else open_fence(self._text[self._start : cut], self._fence)
        closer = "\n" + fence[:3] if fence else ""
        self.sources[-1] = self._source(cut).rstrip("\n") + closer
        self._start = self._shown = cut
        self._fence = fence
        self.sources.append(self._source(cut))
        self.blank_before.append(self._text[:cut].endswith("\n\n"))
        self.at_block.append(self._block_cut)

    def _source(self, end: int) -> str:
        opener = f"{self._fence}\n" if self._fence else ""
        return opener + self._text[self._start : end]
