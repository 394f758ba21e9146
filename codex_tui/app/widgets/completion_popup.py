"""The list above the composer for `/` commands and `@` files; the screen fills and drives it."""

from __future__ import annotations

from textual.content import Content

from codex_tui.app.widgets.marked_list import MarkedOptionList, MarkedRow


class CompletionPopup(MarkedOptionList, can_focus=False):
    """Rows of `› label  description` (descriptions wrap under themselves); hidden while it
    has none."""

    def __init__(self) -> None:
        super().__init__(id="completion")
        self.kind: str | None = None
        self.values: list[str] = []
        self.display = False

    def show(self, kind: str, rows: list[tuple[str, str, str]], empty: str | None = None) -> None:
        """Show `(value, label, description)` rows for `kind` ("slash" or "file")."""
        self.kind = kind
        self.values = [value for value, _label, _description in rows]
        marked = [
            MarkedRow(
                Content.styled(label + "  ", "bold"), Content.styled(description, "$text-muted")
            )
            for _value, label, description in rows
        ]
        if not marked and empty:
            marked = [MarkedRow(Content(""), Content.styled(empty, "$text-muted"), disabled=True)]
        self.set_rows(marked, 0 if self.values else None)
        self.display = bool(marked)

    def hide(self) -> None:
        """Close the popup."""
        self.kind = None
        self.values = []
        self.set_rows([], None)
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
