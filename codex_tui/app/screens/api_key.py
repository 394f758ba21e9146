"""No API key for the provider: say which variable to set, or take a pasted key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static

from codex_tui.app.core import KeyRequest


class ApiKeyScreen(Screen[str | None]):
    """Dismisses with the pasted key, or None when the user leaves to set the variable."""

    CSS_PATH = "api_key.tcss"
    BINDINGS = [
        Binding("escape,ctrl+c,ctrl+d", "leave", "quit", show=False, priority=True),
    ]

    def __init__(self, request: KeyRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        if request.can_paste:
            how: list[str | tuple[str, str]] = [
                "Either quit, run ",
                (f"export {request.env_var}=<your key>", "bold"),
                " and start codex again, or paste a key below. A pasted key is saved to ",
                (request.auth_file, "bold"),
                " (readable only by you).",
            ]
        else:
            how = [
                "Quit, run ",
                (f"export {request.env_var}=<your key>", "bold"),
                " and start codex again.",
            ]
        text = Content.assemble(
            ("No API key found for ", "bold"), (request.provider_name, "bold $accent"), "\n\n", *how
        )
        with Vertical(id="api-key"):
            yield Static(text, id="api-key-text")
            if request.can_paste:
                yield Input(placeholder="paste your API key", password=True, id="api-key-input")
                hint = Content.assemble(
                    ("enter", "bold"), " to save · ", ("esc", "bold"), " to quit"
                )
            else:
                hint = Content.assemble(("esc", "bold"), " to quit")
            yield Static(hint, id="api-key-hint")
            yield Static("", id="api-key-error")

    def on_mount(self) -> None:
        """Ready for a paste."""
        for field in self.query(Input):
            field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save the key, or say what is wrong with it."""
        key = event.value.strip()
        if not key or any(ch.isspace() for ch in key):
            self.query_one("#api-key-error", Static).update(
                Content.styled("That does not look like a key: paste it without spaces.", "$error")
            )
            return
        self.dismiss(key)

    def action_leave(self) -> None:
        """Quit without a key."""
        self.dismiss(None)
