"""First run in a directory: ask whether Codex may work here without asking for every edit;
in a folder recorded untrusted, offer to open it restricted."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static

from codex_tui.app.core import TrustRequest
from codex_tui.app.widgets.marked_list import MarkedOptionList, numbered


class TrustScreen(Screen[bool]):
    """Dismisses with True (trust) or False (don't: recorded untrusted); quits on ctrl+c. For
    a folder recorded untrusted (`request.restricted`): True opens it restricted, False
    leaves."""

    CSS_PATH = "trust.tcss"
    BINDINGS = [
        Binding("1,y", "choose(True)", "trust", show=False),
        Binding("2,n", "choose(False)", "don't trust", show=False),
        Binding("ctrl+c,ctrl+d", "app.quit", "quit", show=False, priority=True),
    ]

    def __init__(self, request: TrustRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        if self.request.restricted:
            yield from self._compose_restricted()
            return
        where = "this folder" if not self.request.is_git_repo else "this repository"
        intro = Content.assemble(
            (">_ ", "$text-muted"),
            ("You are running Codex in ", "bold"),
            (self.request.directory, "bold $accent"),
            "\n\n",
            f"Codex can edit files and run commands in {where} without asking first, "
            "inside a sandbox that keeps changes to this folder. Only allow that for "
            "code you trust.",
        )
        with Vertical(id="trust"):
            yield Static(intro, id="trust-intro")
            yield MarkedOptionList(
                *numbered(
                    [
                        (
                            "trust",
                            Content(
                                "Yes, let Codex work in this folder without asking for approval"
                            ),
                        ),
                        ("no-trust", Content("No, ask me before edits and commands")),
                    ]
                ),
                id="trust-options",
            )
            yield Static(
                Content.assemble(
                    ("enter", "bold"), " to confirm · ", ("ctrl+c", "bold"), " to quit"
                ),
                id="trust-hint",
            )

    def _compose_restricted(self) -> ComposeResult:
        """A folder recorded untrusted: open it with that decision kept, or leave."""
        intro = Content.assemble(
            (">_ ", "$text-muted"),
            ("Restricted folder ", "bold"),
            (self.request.directory, "bold $accent"),
            "\n\n",
            "You marked this folder as untrusted. Codex asks before each edit and each "
            "command that is not known to be safe. The saved decision stays as it is.",
        )
        with Vertical(id="trust"):
            yield Static(intro, id="trust-intro")
            yield MarkedOptionList(
                *numbered([("trust", Content("Open restricted")), ("no-trust", Content("Quit"))]),
                id="trust-options",
            )
            yield Static(
                Content.assemble(
                    ("enter", "bold"), " to confirm · ", ("ctrl+c", "bold"), " to quit"
                ),
                id="trust-hint",
            )

    def on_mount(self) -> None:
        """Arrows and Enter work on the options."""
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on an option."""
        self.action_choose(event.option.id == "trust")

    def action_choose(self, trusted: bool) -> None:
        """Answer and close."""
        self.dismiss(trusted)
