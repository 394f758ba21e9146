"""An option list drawn as 0.169 draws its lists: a `›` marker and hanging indents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual import events
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

MARKER = "› "
"""Before the highlighted row, so the selection reads without colour (`NO_COLOR`, colour
blindness); every other row starts with as many spaces."""
MIN_BODY = 12
"""Columns the wrapped text keeps however wide the head column is."""


@dataclass(frozen=True)
class MarkedRow:
    """One row: a head column (a command, `1.`) and the text that wraps beside it."""

    head: Content
    body: Content
    id: str | None = None
    disabled: bool = False


def row_prompt(row: MarkedRow, head_width: int, width: int, marked: bool) -> Content:
    """The row as lines: marker, head padded to `head_width`, then the body wrapped to
    `width` with every further line indented under the body's first column."""
    marker = MARKER if marked else " " * len(MARKER)
    indent = len(MARKER) + head_width
    head = row.head.pad_right(max(0, head_width - row.head.cell_length))
    if width <= 0:  # not laid out yet: one line, wrapped again once the width is known
        return Content.assemble(marker, head, row.body)
    lines = row.body.wrap(max(MIN_BODY, width - indent)) or [Content("")]
    first = Content.assemble(marker, head, lines[0].rstrip())
    rest = [Content.assemble(" " * indent, line.rstrip()) for line in lines[1:]]
    return Content("\n").join([first, *rest])


def numbered(labels: Sequence[tuple[str, Content]]) -> list[MarkedRow]:
    """`1. label` rows, as 0.169 numbers the choices of its dialogs; `(id, label)` pairs."""
    return [
        MarkedRow(Content.styled(f"{index}. ", "$text-muted"), label, id=option_id)
        for index, (option_id, label) in enumerate(labels, 1)
    ]


class MarkedOptionList(OptionList):
    """Rows of `MarkedRow`; the highlighted one gets the marker, bodies wrap under themselves."""

    def __init__(self, *rows: MarkedRow, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.rows: list[MarkedRow] = []
        self._head_width = 0
        self._built_width = 0
        self._marked: int | None = None
        if rows:
            self.set_rows(rows)

    def set_rows(self, rows: Sequence[MarkedRow], highlighted: int | None = 0) -> None:
        """Replace the rows and highlight one (None: none)."""
        self.rows = list(rows)
        self._head_width = max((row.head.cell_length for row in self.rows), default=0)
        self._built_width = self._row_width()
        self._marked = None
        self.set_options(
            Option(self._prompt(index, False), id=row.id, disabled=row.disabled)
            for index, row in enumerate(self.rows)
        )
        if self.rows and highlighted is not None:
            self.highlighted = highlighted

    def height_at(self, width: int) -> int:
        """Rows the options take when drawn `width` columns wide."""
        return sum(
            len(row_prompt(row, self._head_width, width, False).split("\n")) for row in self.rows
        )

    def _row_width(self) -> int:
        if not self.is_mounted:
            return 0
        padding = self.get_component_styles("option-list--option").padding.width
        return max(0, self.scrollable_content_region.width - padding)

    def _prompt(self, index: int, marked: bool) -> Content:
        return row_prompt(self.rows[index], self._head_width, self._built_width, marked)

    def _remark(self, index: int | None, marked: bool) -> None:
        if index is not None and 0 <= index < len(self.rows) and index < self.option_count:
            self.replace_option_prompt_at_index(index, self._prompt(index, marked))

    def watch_highlighted(self, highlighted: int | None) -> None:
        """Move the marker with the highlight."""
        if highlighted != self._marked and self.rows:
            self._remark(self._marked, False)
            self._marked = highlighted
            self._remark(highlighted, True)
        super().watch_highlighted(highlighted)

    def on_resize(self, _event: events.Resize) -> None:
        """Wrap again for the new width. Only rows whose lines change are replaced, and the
        layout is refreshed only when the list's height changes: a dialog that already fits
        is not painted a second time."""
        width = self._row_width()
        if width == self._built_width or not self.rows:
            return
        before = self.height_at(self._built_width)
        self._built_width = width
        for index in range(min(len(self.rows), self.option_count)):
            prompt = self._prompt(index, index == self._marked)
            if str(self.get_option_at_index(index).prompt) != prompt.plain:
                self.replace_option_prompt_at_index(index, prompt)
        if self.height_at(width) != before:
            self.refresh(layout=True)
