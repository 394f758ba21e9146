"""The list above the composer for `/` commands and `@` files; the screen fills and drives it."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class CompletionPopup(OptionList, can_focus=False):
    """Rows of `label  description`; hidden while it has none."""

    def __init__(self) -> None:
        super().__init__(id="completion")
        self.kind: str | None = None
        self.values: list[str] = []
        self.display = False

    def show(self, kind: str, rows: list[tuple[str, str, str]], empty: str | None = None) -> None:
        """Show `(value, label, description)` rows for `kind` ("slash" or "file")."""
        self.kind = kind
        self.values = [value for value, _label, _description in rows]
        width = max((len(label) for _value, label, _description in rows), default=0) + 2
        options = [
            Option(Content.assemble((label.ljust(width), "bold"), (description, "$text-muted")))
            for _value, label, description in rows
        ]
        if not options and empty:
            options = [Option(Content.styled(empty, "$text-muted"), disabled=True)]
        self.set_options(options)
        self.highlighted = 0 if self.values else None
        self.display = bool(options)

    def hide(self) -> None:
        """Close the popup."""
        self.kind = None
        self.values = []
        self.clear_options()
        self.display = False

    @property
    def is_open(self) -> bool:
        """Whether the popup is showing."""
        return bool(self.display)

    def move(self, step: int) -> None:
        """Move the highlight, wrapping around."""
        if self.values:
            current = self.highlighted or 0
            self.highlighted = (current + step) % len(self.values)

    def selected(self) -> str | None:
        """The highlighted row's value."""
        index = self.highlighted
        if index is None or not 0 <= index < len(self.values):
            return None
        return self.values[index]
