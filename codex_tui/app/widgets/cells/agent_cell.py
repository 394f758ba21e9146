"""The assistant's answer, rendered as Markdown while it streams.

One widget draws the whole answer through Textual's line API: the answer is cut into
segments (`markdown_split`); a closed segment is rendered once and its lines kept, and each
frame re-renders only the live one. A container of per-segment widgets cost three layers of
compositing per screen line and two Markdown renders per frame, and that work kept
keystrokes waiting while long answers streamed.
"""

from __future__ import annotations

import sys
import threading

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from codex_tui.app.chat_words import plain_paragraph
from codex_tui.app.markdown_split import StreamSegments

MAX_STREAM_CHARS = 200_000
"""Past this many characters the display stops growing (the rollout keeps the whole answer)."""
BULLET = "• "
INDENT = "  "
MARKDOWN_RENDERER = "codex_tui.app.markdown_render"


class AgentCell(Widget):
    """A bullet and the answer's Markdown, growing as deltas arrive."""

    DEFAULT_CSS = """
    AgentCell {
        height: auto;
    }
    """

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = text
        self._segments = StreamSegments(MAX_STREAM_CHARS)
        self._segments.update(text)
        self._width = -1
        self._closed_lines: list[Strip] = []
        self._closed_count = 0
        self._live_lines: list[Strip] | None = None
        self._regrown: tuple[int, Size] | None = None
        """While Textual gives the answer a new height alone: its height before, its size."""

    @property
    def segment_sources(self) -> list[str]:
        """The Markdown of each segment, the live one last."""
        return list(self._segments.sources)

    async def append(self, delta: str) -> None:
        """Add streamed text (partial lines included)."""
        self._follow(self.text + delta)

    async def finish(self, message: str) -> None:
        """Show the authoritative full message (it normally extends what streamed)."""
        self._follow(message)

    def _follow(self, text: str) -> None:
        self.text = text
        before = (len(self._segments.sources), self._segments.sources[-1])
        shown = (len(self._closed_lines), self._live_lines)
        restarted = self._segments.update(text)
        if restarted:
            self._forget_lines()
        if restarted or (len(self._segments.sources), self._segments.sources[-1]) != before:
            self._live_lines = None
            if self.is_mounted:
                self._refresh_changed(None if restarted else shown)

    def _refresh_changed(self, shown: tuple[int, list[Strip] | None] | None) -> None:
        """Lay the answer out again and repaint the lines that changed: the new lines are
        rendered now, while the batch is applied, rather than in the screen's next frame (a
        key typed meanwhile waits for one of the two, not both), and compared with the
        live segment's lines shown so far (`shown`: where they start, and them), so the
        frame re-styles only the answer's changed tail, not every line on the screen."""
        width = self._width
        old = shown[1] if shown is not None else None
        if width <= 0 or shown is None or old is None:
            self.refresh(layout=True)
            if width > 0:
                self._lines(width)
            return
        start = shown[0]
        closed, live = self._lines(width)
        new = [*closed[start:], *live]
        first = next(
            (index for index, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
            min(len(old), len(new)),
        )
        height = max(len(old), len(new)) - first
        self.refresh(Region(0, start + first, width, max(height, 1)), layout=True)

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        before = self.size
        plain = self._plain_edges() and size.width == before.width
        self._regrown = (before.height, size) if plain else None
        try:
            return super()._size_updated(size, virtual_size, container_size, layout)
        finally:
            self._regrown = None

    def _set_dirty(self, *regions: Region) -> None:
        """A change of height alone (the answer grew) keeps the lines styled so far: the
        changed tail was marked when it changed (`_refresh_changed`), lines that appear or
        go are marked here. Textual would re-style every line of the answer on screen."""
        if not regions and self._regrown is not None:
            height, size = self._regrown
            low, high = sorted((height, size.height))
            regions = (Region(0, low, size.width, max(high - low, 1)),)
        super()._set_dirty(*regions)

    def _plain_edges(self) -> bool:
        """No border, padding or outline: no line's look depends on the height."""
        styles = self.styles
        return not any(styles.gutter) and not any(edge[0] for edge in styles.outline)

    def _forget_lines(self) -> None:
        self._closed_lines, self._closed_count, self._live_lines = [], 0, None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """How many lines the answer takes at `width`."""
        closed, live = self._lines(width)
        return max(len(closed) + len(live), 1)

    def render_line(self, y: int) -> Strip:
        """Line `y` of the answer (the bullet on the first)."""
        width = self.size.width
        closed, live = self._lines(width)
        if y < len(closed):
            return closed[y]
        if y - len(closed) < len(live):
            return live[y - len(closed)]
        if y == 0:
            return Strip([Segment(BULLET, self.rich_style)])
        return Strip.blank(width)

    def _lines(self, width: int) -> tuple[list[Strip], list[Strip]]:
        if width != self._width:
            self._forget_lines()
            self._width = width
        sources = self._segments.sources
        while self._closed_count < len(sources) - 1:
            self._closed_lines += self._segment_lines(self._closed_count, width)
            self._closed_count += 1
        if self._live_lines is None:
            self._live_lines = self._segment_lines(len(sources) - 1, width)
        return self._closed_lines, self._live_lines

    def _segment_lines(self, index: int, width: int) -> list[Strip]:
        """Segment `index` as lines, after the blank line that separated it from the one
        before when a paragraph break was cut."""
        first = not self._closed_lines
        lines = self._markdown_lines(self._segments.sources[index], width, first)
        segments = self._segments
        if lines and not first and segments.blank_before[index]:
            if segments.at_block[index] and not lines[0].text.strip():
                return lines  # the blank line Rich draws before a list, quote or table
            return [Strip.blank(width), *lines]
        return lines

    def _markdown_lines(self, source: str, width: int, first: bool) -> list[Strip]:
        """A segment's Markdown as lines `width` wide, indented under the bullet."""
        text_width = width - len(BULLET)
        if text_width <= 0 or not source:
            return []
        app = self.app
        style: Style = self.rich_style
        options = app.console_options.update_width(text_width).update(highlight=False)
        renderable = _renderable(source)
        if isinstance(renderable, Text) and not _markdown_loader:
            self.call_after_refresh(load_markdown_meanwhile)
        segments = Segment.apply_style(app.console.render(renderable, options), style=style)
        lines = Segment.split_and_crop_lines(
            segments, text_width, include_new_lines=False, pad=False
        )
        bullet, indent = Segment(BULLET, style), Segment(INDENT, style)
        return [
            Strip([bullet if first and index == 0 else indent, *line])
            for index, line in enumerate(lines)
        ]


def load_markdown_meanwhile() -> None:
    """Import the Markdown renderer in a thread, once: started when an answer's first plain
    words are on the screen, so it loads while the rest streams rather than on the way to
    them. Not a daemon: exit waits for an import under way rather than finalising the
    interpreter under it."""
    if MARKDOWN_RENDERER in sys.modules or _markdown_loader:
        return

    def load() -> None:
        try:
            __import__(MARKDOWN_RENDERER)
        except Exception:  # a cell imports it itself and says what is wrong
            pass

    loader = threading.Thread(target=load, name="markdown-import")
    _markdown_loader.append(loader)  # before it starts: a second call sees it at once
    loader.start()


_markdown_loader: list[threading.Thread] = []
"""The one thread `load_markdown_meanwhile` started, if any."""


def _renderable(source: str) -> RenderableType:
    """What draws `source`: its Markdown; or, until the Markdown renderer has loaded, the
    text itself when that draws the same lines (`plain_paragraph`), so a first answer in
    plain words is not held until Rich's Markdown and markdown-it load (~40 ms of CPU)."""
    if MARKDOWN_RENDERER not in sys.modules and (plain := plain_paragraph(source)) is not None:
        return Text(plain, justify="left")
    from codex_tui.app.markdown_render import AgentMarkdown

    return AgentMarkdown(source)
