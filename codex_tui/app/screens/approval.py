"""The modal that asks whether a command may run or a patch may be applied."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from codex_core.frontend.approvals import ApprovalRequest
from codex_core.frontend.commands import display_command
from codex_core.items import notices as n
from codex_core.protocol.common import ReviewDecision
from codex_tui.app.diff_render import patch_content
from codex_tui.app.diffs import patch_files
from codex_tui.app.formatting import shorten_path, truncate_line
from codex_tui.app.widgets.marked_list import MarkedOptionList, numbered


@dataclass(frozen=True)
class ApprovalAnswer:
    """The user's decision, and a command prefix to always allow if they chose that."""

    decision: ReviewDecision
    remember_prefix: list[str] | None = None
    interrupt: bool = False
    """Ctrl+C: stop the turn too (an MCP call's cancel alone lets it go on)."""


BODY_ROWS = 24
"""The most rows the command or diff takes before it scrolls."""


class ApprovalScreen(ModalScreen[ApprovalAnswer]):
    """Shows the command (with cwd and reason) or the diff, and one key per decision.

    Keys as in the Codex CLI: y approves, a approves for the session, p remembers the
    suggested prefix, d declines and lets the turn go on (`denied`), n / esc / ctrl+c decline
    and stop the turn so the user can say what to do instead (`abort`). On an MCP tool call,
    as in 0.169, esc cancels the call and the turn goes on (the model is told); ctrl+c
    also stops the turn.
    """

    CSS_PATH = "approval.tcss"
    BINDINGS = [
        Binding("y", "decide('approved')", "yes", show=False),
        Binding("a", "decide('approved_for_session')", "always", show=False),
        Binding("d", "decide('denied')", "decline", show=False),
        Binding("n", "decide('abort')", "no", show=False),
        Binding("escape", "decide('abort')", "no", show=False),
        Binding("p", "prefix", "prefix", show=False),
        Binding("ctrl+c", "interrupt", "abort", show=False, priority=True),
    ]

    def __init__(self, request: ApprovalRequest, cwd: str | None = None) -> None:
        super().__init__()
        self.request = request
        self.cwd = cwd

    @property
    def prefix(self) -> list[str] | None:
        """The command prefix the core suggested remembering, if any."""
        if isinstance(self.request, n.CommandApprovalRequested):
            prefix = self.request.suggested_prefix
            return list(prefix) if prefix else None
        return None

    @property
    def mcp_call(self) -> tuple[str, str, str] | None:
        """(server, tool, arguments) when the request is an MCP tool call (`mcp SERVER TOOL ARGS`)."""
        request = self.request
        if isinstance(request, n.CommandApprovalRequested):
            command = request.command
            if len(command) >= 3 and command[0] == "mcp":
                return command[1], command[2], " ".join(command[3:])
        return None

    def compose(self) -> ComposeResult:
        with Vertical(id="approval"):
            yield Static(self._title(), id="approval-title")
            with VerticalScroll(id="approval-body"):
                yield Static(self._body())
            yield MarkedOptionList(*numbered(self._options()), id="approval-options")

    def _title(self) -> Content:
        mcp = self.mcp_call
        if mcp is not None:
            return Content.assemble(
                ("Allow the MCP server ", "bold"),
                (mcp[0], "bold $accent"),
                (" to run its tool ", "bold"),
                (mcp[1], "bold $accent"),
                ("?", "bold"),
            )
        if isinstance(self.request, n.CommandApprovalRequested):
            return Content.assemble(("Allow Codex to run this command?", "bold"))
        return Content.assemble(("Allow Codex to make these edits?", "bold"))

    def _body(self) -> Content:
        request = self.request
        parts: list[str | tuple[str, str] | Content] = []
        mcp = self.mcp_call
        if mcp is not None:
            parts += [
                ("server  ", "$text-muted"),
                mcp[0],
                "\n",
                ("tool    ", "$text-muted"),
                mcp[1],
            ]
            if mcp[2]:
                parts += ["\n", ("args    ", "$text-muted"), truncate_line(mcp[2], 600)]
        elif isinstance(request, n.CommandApprovalRequested):
            command = display_command(request.command)
            for index, line in enumerate(command.split("\n")[:20]):
                parts += [("$ " if index == 0 else "  ", "$accent"), truncate_line(line, 300), "\n"]
            parts += [("in ", "$text-muted"), (shorten_path(request.cwd), "$text-muted"), "\n"]
        else:
            parts += [
                patch_content(patch_files(request.changes, self.cwd), bullet=("", ""), verb="Edit"),
                "\n",
            ]
            if request.grant_root:
                grant = shorten_path(request.grant_root)
                parts += [
                    ("also allows writes under ", "$text-muted"),
                    (grant, "$text-muted"),
                    "\n",
                ]
        if request.reason:
            parts += ["\n", ("Reason: ", "bold"), (request.reason, "italic")]
        return Content.assemble(*parts).rstrip()

    def _options(self) -> list[tuple[str, Content]]:
        if self.mcp_call is not None:
            return [
                ("approved", Content.from_markup("Allow [$text-muted](enter / y)[/]")),
                (
                    "approved_for_session",
                    Content.from_markup("Allow this tool for the session [$text-muted](a)[/]"),
                ),
                ("abort", Content.from_markup("Cancel [$text-muted](esc)[/]")),
            ]
        options = [
            ("approved", Content.from_markup("Yes, proceed [$text-muted](y)[/]")),
            (
                "approved_for_session",
                Content.from_markup("Yes, and don't ask again this session [$text-muted](a)[/]"),
            ),
        ]
        if self.prefix:
            label = Content.assemble(
                "Yes, and don't ask again for commands starting with ",
                (" ".join(self.prefix), "bold"),
                (" (p)", "$text-muted"),
            )
            options.append(("prefix", label))
        declined = (
            "No, continue without running it"
            if isinstance(self.request, n.CommandApprovalRequested)
            else "No, continue without these edits"
        )
        options += [
            ("denied", Content.from_markup(f"{declined} [$text-muted](d)[/]")),
            (
                "abort",
                Content.from_markup(
                    "No, and tell Codex what to do differently [$text-muted](esc / n)[/]"
                ),
            ),
        ]
        return options

    def on_mount(self) -> None:
        """Focus the options so arrows and Enter work too."""
        self.query_one(OptionList).focus()
        self._fit()

    def on_resize(self) -> None:
        """Keep every choice on screen: the command or diff scrolls in what is left."""
        self._fit()

    def _fit(self) -> None:
        # Options as they wrap inside the dialog's borders and padding.
        options = self.query_one(MarkedOptionList).height_at(self.size.width - 4)
        # The dialog may take 90% of the screen: borders, title and its margin, body margin.
        room = int(self.size.height * 0.9) - 2 - 2 - 1 - options
        self.query_one("#approval-body").styles.max_height = max(2, min(BODY_ROWS, room))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a highlighted option."""
        choice = event.option.id or "abort"
        if choice == "prefix":
            self.action_prefix()
        else:
            self.action_decide(choice)

    def action_decide(self, decision: str) -> None:
        """Answer with a decision."""
        answers: dict[str, ReviewDecision] = {
            "approved": "approved",
            "approved_for_session": "approved_for_session",
            "denied": "denied",
            "abort": "abort",
        }
        self.dismiss(ApprovalAnswer(answers.get(decision, "abort")))

    def action_interrupt(self) -> None:
        """Ctrl+C: abort, and stop the turn."""
        self.dismiss(ApprovalAnswer("abort", interrupt=True))

    def action_prefix(self) -> None:
        """Approve and remember the suggested prefix."""
        if self.prefix:
            self.dismiss(ApprovalAnswer("approved", remember_prefix=self.prefix))
