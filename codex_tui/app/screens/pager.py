"""A full-screen pager (the Ctrl+T transcript, `/diff`, the warnings list): long lines wrap;
scroll, `/` search."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static


class PagerScreen(Screen[None]):
    """Lines of styled text; `/` searches, n/N jump between matches, Esc or q closes."""

    CSS_PATH = "pager.tcss"
    BINDINGS = [
        Binding("escape", "close", "close", show=False),
        Binding("q", "close", "close", show=False),
        Binding("slash", "search", "search", show=False),
        Binding("n", "jump(1)", "next", show=False),
        Binding("N", "jump(-1)", "previous", show=False),
        Binding("g", "top", "top", show=False),
        Binding("G", "bottom", "bottom", show=False),
    ]

    def __init__(self, title: str, lines: list[Content], *, start_at_end: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines or [Content.styled("(nothing to show)", "$text-muted")]
        self.start_at_end = start_at_end
        self.query_text = ""
        self.matches: list[int] = []
        self.current = -1

    def compose(self) -> ComposeResult:
        yield Static(Content.styled(f" {self.title_text} ", "bold"), id="pager-title")
        with VerticalScroll(id="pager-body"):
            yield Static(self._body(), id="pager-text")
        yield Input(placeholder="search", id="pager-search")
        yield Static(self._hints(), id="pager-hints")

    def on_mount(self) -> None:
        """Focus the scroller; a transcript opens at its end."""
        body = self.query_one("#pager-body", VerticalScroll)
        body.focus()
        if self.start_at_end:
            self.call_after_refresh(body.scroll_end, animate=False)

    def _body(self) -> Content:
        lines = self.lines
        if self.query_text:
            lines = [
                line.stylize("reverse" if i == self._current_line() else "$accent on $boost")
                if i in self.matches
                else line
                for i, line in enumerate(lines)
            ]
        return Content("\n").join(lines)

    def _current_line(self) -> int:
        return self.matches[self.current] if 0 <= self.current < len(self.matches) else -1

    def _hints(self) -> Content:
        parts: list[str | tuple[str, str]] = []
        for key, label in (("↑↓ pgup pgdn", "scroll"), ("/", "search"), ("esc q", "close")):
            parts += [(key, "bold"), f" {label}   "]
        if self.query_text:
            found = f"{self.current + 1}/{len(self.matches)}" if self.matches else "no match"
            parts += [("n N", "bold"), " next/previous   ", (f"“{self.query_text}”: {found}", "")]
        return Content.assemble(*parts)

    def action_close(self) -> None:
        """Back to the conversation."""
        self.dismiss(None)

    def action_search(self) -> None:
        """Open the search field."""
        field = self.query_one("#pager-search", Input)
        field.display = True
        field.value = self.query_text
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Find every line holding the text (case-insensitive) and jump to the first."""
        event.stop()
        field = self.query_one("#pager-search", Input)
        field.display = False
        self.query_one("#pager-body", VerticalScroll).focus()
        self.query_text = event.value.strip()
        wanted = self.query_text.lower()
        self.matches = (
            [i for i, line in enumerate(self.lines) if wanted in line.plain.lower()]
            if wanted
            else []
        )
        self.current = -1
        self.action_jump(1)

    def on_key(self, event: events.Key) -> None:
        """Esc in the search field closes only the field."""
        field = self.query_one("#pager-search", Input)
        if event.key == "escape" and field.has_focus:
            event.stop()
            event.prevent_default()
            field.display = False
            self.query_one("#pager-body", VerticalScroll).focus()

    def action_jump(self, step: int) -> None:
        """Show the next (or previous) match."""
        if self.matches:
            self.current = (self.current + step) % len(self.matches)
            body = self.query_one("#pager-body", VerticalScroll)
            y = self._screen_row(self._current_line(), body.scrollable_content_region.width)
            body.scroll_to(y=max(0, y - 2), animate=False)
        self.query_one("#pager-text", Static).update(self._body())
        self.query_one("#pager-hints", Static).update(self._hints())

    def _screen_row(self, index: int, width: int) -> int:
        """The row line `index` starts on, long lines above it wrapped at `width`."""
        if width <= 0:
            return index
        return sum(max(1, len(line.wrap(width))) for line in self.lines[:index])

    def action_top(self) -> None:
        """Home."""
        self.query_one("#pager-body", VerticalScroll).scroll_home(animate=False)

    def action_bottom(self) -> None:
        """End."""
        self.query_one("#pager-body", VerticalScroll).scroll_end(animate=False)
