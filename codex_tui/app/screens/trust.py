"""First run in a git project: trust it and continue, or leave (nothing recorded); in a folder
recorded untrusted, open it restricted or leave. Codex CLI 0.169 offers the same two ways on
both screens (trust / "Open restricted", or back to its agent command center), with no "do not
trust" answer (tests/fixtures/tui_policies_0169.json)."""

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
    """Dismisses with True (trust; for a folder recorded untrusted, `request.restricted`: open
    it restricted) or False (leave: nothing is recorded); quits on ctrl+c."""

    CSS_PATH = "trust.tcss"
    BINDINGS = [
        Binding("1,y", "choose(True)", "continue", show=False),
        Binding("2,n,escape", "choose(False)", "leave", show=False),
        Binding("ctrl+c,ctrl+d", "app.quit", "quit", show=False, priority=True),
    ]

    def __init__(self, request: TrustRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        if self.request.restricted:
            yield from self._compose_restricted()
            return
        intro = Content.assemble(
            (">_ ", "$text-muted"),
            ("You are running Codex in ", "bold"),
            (self.request.directory, "bold $accent"),
            "\n\n",
            "Trusting this folder lets Codex read, edit and run its files under your approval "
            "settings, and lets the folder's own Codex settings run commands, even before you "
            "ask anything. Trust it only if you trust its contents. Your answer is saved.",
        )
        with Vertical(id="trust"):
            yield Static(intro, id="trust-intro")
            yield MarkedOptionList(
                *numbered(
                    [
                        ("trust", Content("Yes, trust this folder and continue")),
                        ("no-trust", Content("No, quit without trusting it")),
                    ]
                ),
                id="trust-options",
            )
            yield Static(
                Content.assemble(("enter", "bold"), " to confirm · ", ("esc", "bold"), " to quit"),
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
                Content.assemble(("enter", "bold"), " to confirm · ", ("esc", "bold"), " to quit"),
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
