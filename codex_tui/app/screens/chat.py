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
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    CompactOp,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
    GetHistoryEntryRequestOp,
    GetHistoryEntryResponseEvent,
    InterruptOp,
    Op,
    SessionConfiguredEvent,
    UserInputOp,
    parse_event_msg,
)
from codex_core.protocol.common import InputItem, LocalImageInput, TextInput
from codex_tui.app.clock import Clock
from codex_tui.app.core import CoreClient
from codex_tui.app.formatting import shorten_path
from codex_tui.app.screens.approval import ApprovalAnswer, ApprovalRequest, ApprovalScreen
from codex_tui.app.screens.chat_events import EventApplier
from codex_tui.app.turn_timer import TurnTimer
from codex_tui.app.widgets.cells.header_cell import HeaderCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.queued_list import QueuedList
from codex_tui.app.widgets.status_line import StatusLine
from codex_tui.app.widgets.transcript import Transcript

QUIT_WINDOW_SECONDS = 2.0
TICK_SECONDS = 0.1


def coalesce(events: list[Event]) -> list[EventMsg]:
    """Merge runs of streamed deltas (answer, reasoning, one command's output) into one event each."""
    out: list[EventMsg] = []
    for event in events:
        msg = event.msg
        last = out[-1] if out else None
        if isinstance(msg, AgentMessageDeltaEvent) and isinstance(last, AgentMessageDeltaEvent):
            out[-1] = AgentMessageDeltaEvent(delta=last.delta + msg.delta)
        elif isinstance(msg, AgentReasoningDeltaEvent) and isinstance(
            last, AgentReasoningDeltaEvent
        ):
            out[-1] = AgentReasoningDeltaEvent(delta=last.delta + msg.delta)
        elif (
            isinstance(msg, ExecCommandOutputDeltaEvent)
            and isinstance(last, ExecCommandOutputDeltaEvent)
            and last.call_id == msg.call_id
        ):
            out[-1] = ExecCommandOutputDeltaEvent(
                call_id=msg.call_id, stream=msg.stream, chunk=last.chunk + msg.chunk
            )
        else:
            out.append(msg)
    return out


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
        on_command: Callable[[str], Awaitable[None]],
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

    def compose(self) -> ComposeResult:
        yield Transcript()
        yield StatusLine()
        yield QueuedList()
        yield Composer()
        yield FooterBar()

    def on_mount(self) -> None:
        """Start the status tick and focus the composer."""
        self.set_interval(TICK_SECONDS, self._tick)
        self.query_one(Composer).focus()

    # ------------------------------------------------------------------ events in

    async def apply_events(self, events: list[Event]) -> None:
        """Apply a batch of core events in order."""
        for msg in coalesce(events):
            await self.applier.apply(msg)

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        await self.query_one(Transcript).add(cell)

    async def on_session_configured(self, event: SessionConfiguredEvent) -> None:
        """Header, history, and a resumed session's past events; then the launch prompt."""
        sandbox = event.sandbox_policy.mode if event.sandbox_policy else "default"
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
        return seconds

    def on_reasoning_header(self, header: str) -> None:
        """The status line shows what the model is doing."""
        self.header = header

    def on_context_left(self, percent: int) -> None:
        """Footer figure."""
        self.query_one(FooterBar).set_state(context_left=percent)

    def on_approval_request(self, request: ApprovalRequest) -> None:
        """Queue the request; show it now if no other modal is open."""
        self.approvals.append(request)
        if not self.approval_open:
            self._next_approval()

    def on_history_entry(self, event: GetHistoryEntryResponseEvent) -> None:
        """Hand the entry to the composer."""
        self.query_one(Composer).history_entry(event.offset, event.log_id, event.entry)

    def on_shutdown_complete(self) -> None:
        """Nothing to do here: the app exits when it sees the core stop."""

    # ------------------------------------------------------------------ user actions

    async def on_composer_submitted(self, message: Composer.Submitted) -> None:
        """Send now, queue while a turn runs, or run a slash command."""
        text = message.text
        command = text.strip()
        if command in ("/quit", "/exit", "/new", "/resume", "/compact"):
            if command == "/compact":
                await self._submit(CompactOp())
            else:
                await self._on_command(command)
            return
        if self.running:
            self.queued.append(text)
            self.query_one(QueuedList).show(self.queued)
            return
        await self._send(text)

    async def on_composer_history_requested(self, message: Composer.HistoryRequested) -> None:
        """Fetch a persistent history entry."""
        await self._submit(GetHistoryEntryRequestOp(offset=message.offset, log_id=message.log_id))

    async def action_interrupt(self) -> None:
        """Esc: stop the running turn."""
        if self.running:
            await self._submit(InterruptOp())

    async def action_ctrl_c(self) -> None:
        """Clear the composer or interrupt; a second press within 2 s quits."""
        if self.quit_armed:
            await self._on_quit()
            return
        composer = self.query_one(Composer)
        if composer.text:
            composer.clear_input()
        elif self.running:
            await self._submit(InterruptOp())
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
