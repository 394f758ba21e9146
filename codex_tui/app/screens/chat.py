"""The main screen: transcript, status line, queued messages, composer and footer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from codex_core.frontend.approvals import ApprovalRequest
from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import GetHistoryEntryRequestOp, InterruptOp, Op
from codex_core.protocol.common import AskForApproval, SandboxPolicy
from codex_tui.app import notifications, slash_commands
from codex_tui.app.clock import Clock
from codex_tui.app.coalesce import split_startup_warnings
from codex_tui.app.core import CoreClient
from codex_tui.app.messages import CoreNotices
from codex_tui.app.screens.chat_approvals import ApprovalQueue
from codex_tui.app.screens.chat_backtrack import Backtrack
from codex_tui.app.screens.chat_commands import AppRequest, SlashRunner
from codex_tui.app.screens.chat_completion import Completion
from codex_tui.app.screens.chat_items import ItemApplier
from codex_tui.app.screens.chat_outbox import Outbox, Outgoing
from codex_tui.app.screens.chat_pending import PendingInput
from codex_tui.app.screens.chat_quit import QuitKeys
from codex_tui.app.screens.chat_start import show_session, tell_hooks_needing_review
from codex_tui.app.screens.chat_turn import tick, turn_ended, turn_started
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.turn_timer import TurnTimer
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.completion_popup import CompletionPopup
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.queued_list import QueuedList
from codex_tui.app.widgets.status_line import StatusLine
from codex_tui.app.widgets.transcript import Transcript

TICK_SECONDS = 0.1


class ChatScreen(Screen[None]):
    """One session's conversation; acts on the core only by submitting ops.

    The screen paints before the session exists (`core=None`); ops submitted until
    `attach()` are held and sent in order once it does.
    """

    CSS_PATH = "chat.tcss"
    BINDINGS = [
        Binding("escape", "interrupt", "interrupt", show=False),
        Binding("ctrl+c", "ctrl_c", "quit", show=False, priority=True),
        Binding("ctrl+d", "ctrl_d", "quit", show=False, priority=True),
        Binding("ctrl+t", "transcript", "transcript", show=False, priority=True),
        Binding("f2", "warnings", "warnings", show=False, priority=True),
        Binding("pageup", "page(-1)", "scroll up", show=False, priority=True),
        Binding("pagedown", "page(1)", "scroll down", show=False, priority=True),
    ]

    def __init__(
        self,
        core: CoreClient | None,
        *,
        clock: Clock,
        version: str,
        hide_reasoning: bool = False,
        context_window: int | None = None,
        prompt: str | None = None,
        images: list[Path] | None = None,
        on_quit: Callable[[], Awaitable[None]],
        on_command: Callable[[AppRequest], Awaitable[None]],
        codex_home: str | None = None,
        notify: bool | list[str] = False,
        notice: str | None = None,
    ) -> None:
        super().__init__()
        self.outbox = Outbox(core)
        self.clock = clock
        self.version = version
        self.timer = TurnTimer(clock)
        self.applier = ItemApplier(
            self, hide_reasoning=hide_reasoning, context_window=context_window
        )
        self.pending: Outgoing | None = None
        if prompt or images:
            self.pending = Outgoing(prompt or "", tuple(str(p) for p in images or []))
        self.pending_input = PendingInput(self)
        self.running = False
        self.header = "Working"
        self.approvals = ApprovalQueue(self)
        self.quit_keys = QuitKeys(self, on_quit)
        self._on_command = on_command
        self.codex_home = codex_home
        self.notify_setting = notify
        self.model: str | None = None
        self.effort: str | None = None
        self.provider: str | None = None
        self.approval: AskForApproval | None = None
        self.sandbox: SandboxPolicy | None = None
        self.context_left: int | None = None
        self.warnings: list[str] = []
        self.completion = Completion(self)
        self.backtrack = Backtrack(self)
        self.slash = SlashRunner(self)
        self.notice = notice
        """Shown after a resumed session's past (a backtrack says the conversation reverted)."""

    def compose(self) -> ComposeResult:
        yield Transcript()
        yield StatusLine()
        yield QueuedList()
        yield CompletionPopup()
        yield Composer()
        yield FooterBar()

    def on_mount(self) -> None:
        """Start the status tick and focus the composer."""
        self.set_interval(TICK_SECONDS, self._tick)
        self.composer.focus()
        self.run_worker(tell_hooks_needing_review(self), group="hooks-review")

    # ------------------------------------------------------------------ for the helpers

    @property
    def composer(self) -> Composer:
        """The composer."""
        return self.query_one(Composer)

    @property
    def footer(self) -> FooterBar:
        """The footer."""
        return self.query_one(FooterBar)

    @property
    def queued_list(self) -> QueuedList:
        """Messages waiting for the running turn."""
        return self.query_one(QueuedList)

    @property
    def popup(self) -> CompletionPopup:
        """The `/` and `@` completion popup."""
        return self.query_one(CompletionPopup)

    @property
    def status_line(self) -> StatusLine:
        """Spinner, header and elapsed time of a running turn."""
        return self.query_one(StatusLine)

    @property
    def workspace(self) -> Path:
        """The session's working directory."""
        return Path(self.applier.cwd or ".")

    @property
    def backtracking(self) -> bool:
        """Whether a backtrack selection is open."""
        return self.backtrack.active

    def hide_completion(self) -> None:
        """Close the completion popup."""
        self.completion.hide()

    # ------------------------------------------------------------------ notices in

    async def on_core_notices(self, message: CoreNotices) -> None:
        """A batch from the event pump (its session's, unless the screen was replaced)."""
        try:
            if message.source is self.outbox.core:
                await self.apply_notices(message.notices)
        finally:
            message.done()

    async def apply_notices(self, notices: list[c.ClientNotice]) -> None:
        """Apply a batch of the session's notices (deltas already coalesced) in order."""
        startup, notices = split_startup_warnings(notices)
        if startup:  # they wait behind the footer's badge (F2)
            self.warnings += startup
            self.footer.set_state(warnings=len(self.warnings))
        for notice in notices:
            await self.applier.apply(notice)

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        await self.query_one(Transcript).add(cell)

    async def on_session_configured(self, started: n.ThreadStarted) -> None:
        """Header, history, and a resumed session's past; then the launch prompt."""
        await show_session(self, started)

    def on_turn_started(self) -> None:
        """Show the status line and the interrupt hint."""
        turn_started(self)

    def on_turn_ended(self, aborted: bool) -> float:
        """Hide the status line; send the next queued message, or restore them after Esc."""
        return turn_ended(self, aborted)

    def on_reasoning_header(self, header: str) -> None:
        """The status line shows what the model is doing."""
        self.header = header

    def on_context_left(self, percent: int) -> None:
        """Footer figure."""
        self.context_left = percent
        self.footer.set_state(context_left=percent)

    def on_user_message(self, text: str, cell: UserCell) -> None:
        """Remember the message for backtracking; a steered one has joined the turn."""
        self.backtrack.add(text, cell)
        self.pending_input.joined(text)

    def on_approval_request(self, request: ApprovalRequest) -> None:
        """Ask the user (one modal at a time)."""
        self.notify_user("approval-requested", "Codex is waiting for your approval")
        self.approvals.add(request)

    def on_elicitation_request(self, request: n.ElicitationRequested) -> None:
        """An MCP server asks for input (queued with the approvals)."""
        self.notify_user("approval-requested", "An MCP server is waiting for your input")
        self.approvals.add(request)

    def on_approval_decided(self, call_id: str) -> None:
        """Answered by another client: its prompt closes."""
        self.approvals.decided(call_id)

    def on_history_entry(self, entry: c.HistoryEntryFetched) -> None:
        """Hand the entry to the composer."""
        self.composer.history_entry(entry.offset, entry.log_id, entry.entry)

    def on_retrying(self, text: str | None) -> None:
        """The status line says the connection is being retried, until the stream is back."""
        self.header = text or "Working"
        self._tick()

    def approval_wait(self) -> float:
        """Seconds the last turn waited for approvals (left out of its time)."""
        return self.timer.waited

    def on_shutdown_complete(self) -> None:
        """Nothing to do here: the app exits when it sees the core stop."""

    # ------------------------------------------------------------------ user actions

    async def on_composer_submitted(self, message: Composer.Submitted) -> None:
        """Send now, queue while a turn runs, run a slash command, or fork after backtrack."""
        await self.submit_text(message.text, message.images, queue=message.queue)

    async def submit_text(
        self, text: str, images: Sequence[str] = (), *, queue: bool = False
    ) -> None:
        """What Enter does with the composer's text (and the images attached to it)."""
        self.completion.hide()
        parsed = slash_commands.parse(text)
        if parsed is not None:
            await self.slash.run(parsed, text)
            return
        if self.running and queue:
            self.pending_input.queue(text, images)
            return
        if self.running:
            await self.pending_input.steer(text, images)
            return
        await self.outbox.send(text, images)

    async def send_text(self, text: str) -> None:
        """Send a message the UI wrote (for /init, /review)."""
        await self.outbox.send(text)

    async def submit_op(self, op: Op) -> None:
        """Submit an op (held until the session exists)."""
        await self.outbox.submit(op)

    async def attach(self, core: CoreClient) -> None:
        """The session is ready: send what the user submitted while it was starting."""
        await self.outbox.attach(core)

    def revert_to(self, index: int, text: str) -> None:
        """Backtrack chose user message `index`: fork before it, `text` in the composer."""
        request = AppRequest("fork", fork_at=index, draft=text)
        self.run_worker(self._on_command(request), group="ops")

    async def request_app(self, request: AppRequest) -> None:
        """Ask the app for something beyond this screen."""
        await self._on_command(request)

    def on_text_area_changed(self, _event: object) -> None:
        """Open, filter or close the completion popup."""
        self.completion.refresh()

    async def on_composer_nav_key(self, message: Composer.NavKey) -> None:
        """Keys the composer handed up while a popup or a backtrack selection is open."""
        if self.backtrack.active:
            self.backtrack.key(message.key)
        elif not await self.completion.key(message.key):
            self.completion.hide()
            if message.key == "enter":
                composer = self.composer
                await self.submit_text(composer.expanded_text(), composer.attached_images())
                self.composer.clear_input()

    def on_key(self, event: object) -> None:
        """Any other key ends a backtrack selection."""
        if self.backtrack.active:
            self.backtrack.cancel()

    def action_page(self, direction: int) -> None:
        """PageUp / PageDown: scroll the conversation."""
        self.query_one(Transcript).page(direction)

    def on_composer_scroll_key(self, message: Composer.ScrollKey) -> None:
        """Home / End on an empty composer: the top or the end of the conversation."""
        transcript = self.query_one(Transcript)
        if message.key == "home":
            transcript.scroll_home(animate=False)
        else:
            transcript.scroll_end(animate=False)

    def action_transcript(self) -> None:
        """Ctrl+T: the whole session in the pager."""
        self.app.push_screen(PagerScreen("Transcript", self.applier.log.lines, start_at_end=True))

    def action_warnings(self) -> None:
        """F2: the start-up warnings."""
        from textual.content import Content

        lines = [Content.assemble(("⚠ ", "$warning"), w) for w in self.warnings]
        self.app.push_screen(PagerScreen("Warnings", lines))

    def set_model(self, model: str, effort: str | None) -> None:
        """After /model."""
        self.model, self.effort = model, effort
        self.footer.set_state(model=model, effort=effort)

    def set_policies(self, approval: AskForApproval, sandbox: SandboxPolicy) -> None:
        """After /permissions."""
        self.approval, self.sandbox = approval, sandbox

    def notify_user(self, kind: notifications.NotificationKind, text: str) -> None:
        """An OSC 9 notification, if the setting asks for it and the terminal is unfocused."""
        notifications.send(self.app, self.notify_setting, kind, text)

    async def on_composer_history_requested(self, message: Composer.HistoryRequested) -> None:
        """Fetch a persistent history entry."""
        await self.outbox.submit(
            GetHistoryEntryRequestOp(offset=message.offset, log_id=message.log_id)
        )

    async def action_interrupt(self) -> None:
        """Esc: stop the running turn; on an idle empty composer, start backtracking."""
        if self.running:
            await self.outbox.submit(InterruptOp())
        elif not self.composer.text:
            self.backtrack.escape()
            self.completion.hide()

    async def action_ctrl_c(self) -> None:
        """Clear the composer or interrupt; a second press within 2 s quits."""
        await self.quit_keys.ctrl_c()

    async def action_ctrl_d(self) -> None:
        """Quit on an empty composer; otherwise delete forward."""
        await self.quit_keys.ctrl_d()

    @property
    def cwd(self) -> str | None:
        """The session's working directory, once known."""
        return self.applier.cwd

    def refresh_status(self) -> None:
        """Redraw the status line now."""
        self._tick()

    def _tick(self) -> None:
        tick(self)
