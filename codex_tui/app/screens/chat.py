"""The main screen: transcript, status line, queued messages, composer and footer."""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from codex_core.frontend.approvals import approval_op
from codex_core.protocol import (
    AddToHistoryOp,
    Event,
    GetHistoryEntryRequestOp,
    GetHistoryEntryResponseEvent,
    InterruptOp,
    Op,
    SessionConfiguredEvent,
    UserInputOp,
    WarningEvent,
    parse_event_msg,
)
from codex_core.protocol.common import (
    AskForApproval,
    InputItem,
    LocalImageInput,
    SandboxPolicy,
    TextInput,
)
from codex_tui.app import notifications, slash_commands
from codex_tui.app.clock import Clock
from codex_tui.app.coalesce import coalesce
from codex_tui.app.core import CoreClient
from codex_tui.app.formatting import shorten_path
from codex_tui.app.screens.approval import ApprovalAnswer, ApprovalRequest, ApprovalScreen
from codex_tui.app.screens.chat_backtrack import Backtrack
from codex_tui.app.screens.chat_commands import AppRequest, SlashRunner
from codex_tui.app.screens.chat_completion import Completion
from codex_tui.app.screens.chat_events import EventApplier
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.turn_timer import TurnTimer
from codex_tui.app.widgets.cells.header_cell import HeaderCell
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.completion_popup import CompletionPopup
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.queued_list import QueuedList
from codex_tui.app.widgets.status_line import StatusLine
from codex_tui.app.widgets.transcript import Transcript

QUIT_WINDOW_SECONDS = 2.0
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
    ) -> None:
        super().__init__()
        self.core = core
        self._unsent: list[Op] = []
        self.clock = clock
        self.version = version
        self.timer = TurnTimer(clock)
        self.applier = EventApplier(
            self, hide_reasoning=hide_reasoning, context_window=context_window
        )
        self.pending_prompt = prompt
        self.pending_images = list(images or [])
        self.queued: list[str] = []
        self.running = False
        self.header = "Working"
        self.approvals: deque[ApprovalRequest] = deque()
        self.approval_open = False
        self.quit_armed = False
        self._on_quit = on_quit
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
        self.query_one(Composer).focus()

    # ------------------------------------------------------------------ events in

    async def apply_events(self, events: list[Event]) -> None:
        """Apply a batch of core events in order."""
        startup = [e for e in events if e.id == "0" and isinstance(e.msg, WarningEvent)]
        if startup:
            # Start-up warnings (config keys, MCP servers) wait behind the footer badge.
            for event in startup:
                assert isinstance(event.msg, WarningEvent)
                self.warnings.append(event.msg.message)
            self.query_one(FooterBar).set_state(warnings=len(self.warnings))
            events = [e for e in events if not (e.id == "0" and isinstance(e.msg, WarningEvent))]
        for msg in coalesce(events):
            await self.applier.apply(msg)

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        await self.query_one(Transcript).add(cell)

    async def on_session_configured(self, event: SessionConfiguredEvent) -> None:
        """Header, history, and a resumed session's past events; then the launch prompt."""
        sandbox = event.sandbox_policy.mode if event.sandbox_policy else "default"
        self.model, self.effort = event.model, event.reasoning_effort
        self.provider = event.model_provider_id
        self.approval, self.sandbox = event.approval_policy, event.sandbox_policy
        self.query_one(FooterBar).set_state(model=self.model, effort=self.effort)
        await self.add_cell(
            HeaderCell(
                version=self.version,
                model=event.model,
                directory=shorten_path(event.cwd or "."),
                approval=event.approval_policy or "default",
                sandbox=sandbox,
            )
        )
        self.query_one(Composer).past.configure(event.history_log_id, event.history_entry_count)
        for raw in event.initial_messages or []:
            past = parse_event_msg(raw)
            if past is not None and not isinstance(past, SessionConfiguredEvent):
                await self.applier.apply(past, replay=True)
        if self.pending_prompt or self.pending_images:
            prompt, self.pending_prompt = self.pending_prompt or "", None
            await self._send(prompt)

    def on_turn_started(self) -> None:
        """Show the status line and the interrupt hint."""
        self.running = True
        self.header = "Working"
        self.timer.start()
        self._tick()
        self.query_one(FooterBar).set_state(running=True)

    def on_turn_ended(self, aborted: bool) -> float:
        """Hide the status line; send the next queued message, or restore them after Esc."""
        self.running = False
        seconds = self.timer.stop()
        self.query_one(StatusLine).hide()
        self.query_one(FooterBar).set_state(running=False)
        self.notify_user(
            "agent-turn-complete", "Codex finished the turn" + (" (interrupted)" if aborted else "")
        )
        self.approvals.clear()
        if self.approval_open and isinstance(self.app.screen, ApprovalScreen):
            self.approval_open = False
            self.app.pop_screen()
        if self.queued:
            if aborted:
                composer = self.query_one(Composer)
                restored = "\n".join([*self.queued, composer.text]).strip()
                self.queued.clear()
                composer.load_text(restored)
                composer.move_cursor(composer.document.end)
            else:
                self.run_worker(self._send(self.queued.pop(0)), group="ops")
            self.query_one(QueuedList).show(self.queued)
        self.query_one(FooterBar).set_state(queued=len(self.queued))
        return seconds

    def on_reasoning_header(self, header: str) -> None:
        """The status line shows what the model is doing."""
        self.header = header

    def on_context_left(self, percent: int) -> None:
        """Footer figure."""
        self.context_left = percent
        self.query_one(FooterBar).set_state(context_left=percent)

    def on_user_message(self, text: str, cell: UserCell) -> None:
        """Remember the message for backtracking."""
        self.backtrack.add(text, cell)

    def on_approval_request(self, request: ApprovalRequest) -> None:
        """Queue the request; show it now if no other modal is open."""
        self.approvals.append(request)
        self.notify_user("approval-requested", "Codex is waiting for your approval")
        if not self.approval_open:
            self._next_approval()

    def on_history_entry(self, event: GetHistoryEntryResponseEvent) -> None:
        """Hand the entry to the composer."""
        self.query_one(Composer).history_entry(event.offset, event.log_id, event.entry)

    def on_shutdown_complete(self) -> None:
        """Nothing to do here: the app exits when it sees the core stop."""

    # ------------------------------------------------------------------ user actions

    async def on_composer_submitted(self, message: Composer.Submitted) -> None:
        """Send now, queue while a turn runs, run a slash command, or fork after backtrack."""
        await self.submit_text(message.text)

    async def submit_text(self, text: str) -> None:
        """What Enter does with the composer's text."""
        self.completion.hide()
        parsed = slash_commands.parse(text)
        if parsed is not None:
            await self.slash.run(parsed, text)
            return
        fork_at, self.backtrack.fork_from = self.backtrack.fork_from, None
        if fork_at is not None and not self.running:
            self.query_one(FooterBar).set_mode(None)
            await self._on_command(AppRequest("fork", fork_at=fork_at, text=text))
            return
        if self.running:
            self.queued.append(text)
            self.query_one(QueuedList).show(self.queued)
            self.query_one(FooterBar).set_state(queued=len(self.queued))
            return
        await self._send(text)

    async def send_text(self, text: str) -> None:
        """Send a message the UI wrote (for /init, /review)."""
        await self._send(text)

    async def submit_op(self, op: Op) -> None:
        """Submit an op (held until the session exists)."""
        await self._submit(op)

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
                await self.submit_text(self.query_one(Composer).expanded_text())
                self.query_one(Composer).clear_input()

    def on_key(self, event: object) -> None:
        """Any other key ends a backtrack selection."""
        if self.backtrack.active:
            self.backtrack.cancel()

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
        self.query_one(FooterBar).set_state(model=model, effort=effort)

    def set_policies(self, approval: AskForApproval, sandbox: SandboxPolicy) -> None:
        """After /permissions."""
        self.approval, self.sandbox = approval, sandbox

    def notify_user(self, kind: notifications.NotificationKind, text: str) -> None:
        """An OSC 9 notification, if the setting asks for it and the terminal is unfocused."""
        notifications.send(self.app, self.notify_setting, kind, text)

    async def on_composer_history_requested(self, message: Composer.HistoryRequested) -> None:
        """Fetch a persistent history entry."""
        await self._submit(GetHistoryEntryRequestOp(offset=message.offset, log_id=message.log_id))

    async def action_interrupt(self) -> None:
        """Esc: stop the running turn; on an idle empty composer, start backtracking."""
        if self.running:
            await self._submit(InterruptOp())
        elif not self.query_one(Composer).text:
            self.backtrack.escape()
            self.completion.hide()

    async def action_ctrl_c(self) -> None:
        """Clear the composer or interrupt; a second press within 2 s quits."""
        if self.quit_armed:
            await self._on_quit()
            return
        composer = self.query_one(Composer)
        if composer.text:
            composer.clear_input()
            self.backtrack.forget_fork()
        elif self.running:
            # Interrupting must not arm quit: the next ctrl+c would end the session.
            await self._submit(InterruptOp())
            return
        self.quit_armed = True
        self.query_one(FooterBar).set_state(quit_armed=True)
        self.set_timer(QUIT_WINDOW_SECONDS, self._disarm_quit)

    async def action_ctrl_d(self) -> None:
        """Quit on an empty composer; otherwise delete forward."""
        composer = self.query_one(Composer)
        if composer.text:
            composer.action_delete_right()
        else:
            await self._on_quit()

    # ------------------------------------------------------------------ internals

    def _disarm_quit(self) -> None:
        self.quit_armed = False
        self.query_one(FooterBar).set_state(quit_armed=False)

    async def _send(self, text: str) -> None:
        items: list[InputItem] = [TextInput(text=text)] if text else []
        items += [LocalImageInput(path=str(path)) for path in self.pending_images]
        self.pending_images = []
        if not items:
            return
        await self._submit(UserInputOp(items=items))
        if text.strip():
            await self._submit(AddToHistoryOp(text=text))

    async def attach(self, core: CoreClient) -> None:
        """The session is ready: send what the user submitted while it was starting."""
        self.core = core
        unsent, self._unsent = self._unsent, []
        for op in unsent:
            await core.submit(op)

    async def _submit(self, op: Op) -> None:
        if self.core is None:
            self._unsent.append(op)
        else:
            await self.core.submit(op)

    def _next_approval(self) -> None:
        if not self.approvals:
            return
        request = self.approvals.popleft()
        self.approval_open = True
        self.timer.pause()
        self._tick()

        async def answered(answer: ApprovalAnswer | None) -> None:
            self.approval_open = False
            self.timer.resume()
            decision = answer.decision if answer is not None else "abort"
            prefix = answer.remember_prefix if answer is not None else None
            # The session answers with `approval_decision`, which draws the decision line.
            await self._submit(approval_op(request, decision, remember_prefix=prefix))
            self._next_approval()

        self.app.push_screen(ApprovalScreen(request, self.applier.cwd), callback=answered)

    def _tick(self) -> None:
        frame = int(self.clock.monotonic() * 10)
        if self.timer.running:
            self.query_one(StatusLine).show(
                header=self.header,
                elapsed=self.timer.elapsed(),
                frame=frame,
                waiting=self.approval_open,
            )
        for cell in self.applier.execs.values():
            cell.tick(frame)
