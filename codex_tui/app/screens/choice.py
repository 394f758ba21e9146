"""A small modal list to pick one of a few choices (`/model`, reasoning effort, `/permissions`)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from codex_tui.app.widgets.marked_list import MarkedOptionList, MarkedRow


@dataclass(frozen=True)
class Choice:
    """One row: what it returns, its label and a description."""

    value: str
    label: str
    description: str = ""
    current: bool = False


class ChoiceScreen(ModalScreen[str | None]):
    """Enter picks the highlighted row, Esc cancels (returns None)."""

    CSS_PATH = "choice.tcss"
    BINDINGS = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, title: str, subtitle: str, choices: list[Choice]) -> None:
        super().__init__()
        self.title_text = title
        self.subtitle = subtitle
        self.choices = choices

    def compose(self) -> ComposeResult:
        rows = [
            MarkedRow(
                Content.assemble((f"{i}. ", "$text-muted"), (f"{c.label}  ", "bold")),
                Content.assemble(
                    (c.description, "$text-muted"),
                    (" (current)" if c.current else "", "$accent"),
                ),
            )
            for i, c in enumerate(self.choices, 1)
        ]
        with Vertical(id="choice-box"):
            yield Static(Content.styled(self.title_text, "bold"), id="choice-title")
            yield Static(Content.styled(self.subtitle, "$text-muted"), id="choice-subtitle")
            yield MarkedOptionList(*rows, id="choice-list")
            yield Static(
                Content.assemble(
                    ("↑↓", "bold"),
                    " move   ",
                    ("⏎", "bold"),
                    " pick   ",
                    ("esc", "bold"),
                    " cancel",
                ),
                id="choice-hints",
            )

    def on_mount(self) -> None:
        """Highlight the current choice."""
        options = self.query_one(OptionList)
        current = [i for i, c in enumerate(self.choices) if c.current]
        options.highlighted = current[0] if current else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click)."""
        event.stop()
        self.dismiss(self.choices[event.option_index].value)

    def action_cancel(self) -> None:
        """Esc."""
        self.dismiss(None)
