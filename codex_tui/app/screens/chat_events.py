"""Applies core events to the chat screen's widgets: one `match` over every event type."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, assert_never

from textual.widget import Widget

from codex_core import protocol as ev
from codex_core.frontend.commands import describe_interaction, display_command
from codex_core.protocol import ABORTED_BY_USER, INTERRUPTED_EXIT_CODE, web_search_query
from codex_core.protocol.common import ReviewDecision, TokenUsage
from codex_core.terminal_text import printable_event
from codex_tui.app.diffs import diff_stats
from codex_tui.app.formatting import (
    context_left_percent,
    reasoning_header,
)
from codex_tui.app.screens.chat_cells import (
    another_client_cell,
    auto_review_cell,
    hook_line,
    mcp_servers_cell,
    worked_label,
)
from codex_tui.app.screens.chat_processes import background_terminals_cell, stopped_cell
from codex_tui.app.transcript_log import TranscriptLog
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.diff_summary_cell import DiffSummaryCell
from codex_tui.app.widgets.cells.exec_cell import ExecCell
from codex_tui.app.widgets.cells.mcp_cell import McpCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.cells.patch_cell import PatchCell
from codex_tui.app.widgets.cells.plan_cell import PlanCell
from codex_tui.app.widgets.cells.reasoning_cell import ReasoningCell
from codex_tui.app.widgets.cells.separator_cell import SeparatorCell
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.cells.web_search_cell import WebSearchCell


class ChatHooks(Protocol):
    """What the applier asks of the screen beyond adding cells."""

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        ...

    async def on_session_configured(self, event: ev.SessionConfiguredEvent) -> None:
        """Show the header and replay a resumed session's past events."""
        ...

    def on_turn_started(self) -> None:
        """A turn began: start the status line."""
        ...

    def on_turn_ended(self, aborted: bool) -> float:
        """A turn ended: stop the status line, send or restore queued messages; returns seconds."""
        ...

    def on_reasoning_header(self, header: str) -> None:
        """Show the reasoning summary's header in the status line."""
        ...

    def on_context_left(self, percent: int) -> None:
        """Show how much context is left."""
        ...

    def on_approval_request(self, request: ev.ApprovalRequestEvent) -> None:
        """Ask the user (modal)."""
        ...

    def on_elicitation_request(self, request: ev.ElicitationRequestEvent) -> None:
        """An MCP server asks the user to fill a form (modal)."""
        ...

    def on_history_entry(self, event: ev.GetHistoryEntryResponseEvent) -> None:
        """Hand a history entry to the composer."""
        ...

    def on_approval_decided(self, call_id: str) -> None:
        """An approval was answered (here, or by another client): its prompt must go."""
        ...

    def on_user_message(self, text: str, cell: UserCell) -> None:
        """A user message joined the transcript (backtrack counts them)."""
        ...

    def on_shutdown_complete(self) -> None:
        """The core stopped."""
        ...

    def on_retrying(self, text: str | None) -> None:
        """The connection is being retried (`text` says how far), or no longer (None)."""
        ...

    def approval_wait(self) -> float:
        """Seconds the turn just ended spent waiting for the user's approval."""
        ...


@dataclass
class TurnState:
    """What the applier tracks within one turn."""

    agent: AgentCell | None = None
    reasoning: ReasoningCell | None = None
    reasoning_text: str = ""
    turn_diff: str = ""
    did_work: bool = False


@dataclass
class EventApplier:
    """Turns each event into cells and screen updates."""

    hooks: ChatHooks
    hide_reasoning: bool = False
    context_window: int | None = None
    session_id: str | None = None
    rollout_path: str | None = None
    cwd: str | None = None
    total_usage: TokenUsage | None = None
    turn: TurnState = field(default_factory=TurnState)
    execs: dict[str, ExecCell] = field(default_factory=dict)
    patches: dict[str, PatchCell] = field(default_factory=dict)
    mcps: dict[str, McpCell] = field(default_factory=dict)
    searches: dict[str, WebSearchCell] = field(default_factory=dict)
    decided: set[str] = field(default_factory=set)
    log: TranscriptLog = field(default_factory=TranscriptLog)
    retrying: bool = False

    async def apply(self, msg: ev.EventMsg, *, replay: bool = False) -> None:
        """Apply one event; `replay` is set for a resumed session's past events."""
        hooks = self.hooks
        msg = printable_event(msg)  # model text and output never reach the terminal raw
        self.log.record(msg)
        if self.retrying and not isinstance(msg, ev.StreamErrorEvent | ev.TokenCountEvent):
            self.retrying = False  # the stream is back, or the turn ended
            hooks.on_retrying(None)
        match msg:
            case ev.SessionConfiguredEvent():
                self.session_id = msg.session_id
                self.rollout_path = msg.rollout_path
                self.cwd = msg.cwd
                await hooks.on_session_configured(msg)
            case ev.TaskStartedEvent():
                self.turn = TurnState()
                self.context_window = msg.model_context_window or self.context_window
                if not replay:
                    hooks.on_turn_started()
            case ev.TaskCompleteEvent():
                await self._end_turn(aborted=False, replay=replay)
            case ev.TurnAbortedEvent():
                await self._end_turn(aborted=True, replay=replay)
            case ev.TokenCountEvent():
                if msg.info is not None:
                    self.total_usage = msg.info.total_token_usage
                    percent = context_left_percent(msg.info, self.context_window)
                    if percent is not None:
                        hooks.on_context_left(percent)
            case ev.AgentMessageDeltaEvent():
                await self._agent_delta(msg.delta)
            case ev.AgentMessageEvent():
                if self.turn.agent is not None:
                    await self.turn.agent.finish(msg.message)
                else:
                    await self._add(AgentCell(msg.message))
                self.turn.agent = None
            case ev.AgentReasoningDeltaEvent():
                await self._reasoning(msg.delta, complete=False)
            case ev.AgentReasoningEvent():
                await self._reasoning(msg.text, complete=True)
            case ev.AgentReasoningSectionBreakEvent():
                self.turn.reasoning = None
                self.turn.reasoning_text = ""
            case ev.UserMessageEvent():
                user = UserCell(msg.message, images=len(msg.images or []))
                await self._add(user)
                hooks.on_user_message(msg.message, user)
            case ev.ExecCommandBeginEvent():
                self.turn.did_work = True
                cell = ExecCell(msg.call_id, msg.command)
                self.execs[msg.call_id] = cell
                await self._add(cell)
            case ev.TerminalInteractionEvent():
                await self._add(NoticeCell("info", describe_interaction(msg.process_id, msg.stdin)))
            case ev.ExecCommandOutputDeltaEvent():
                running = self.execs.get(msg.call_id)
                if running is not None:
                    running.append_output(msg.chunk)
            case ev.ExecCommandEndEvent():
                exec_cell = self.execs.pop(msg.call_id, None)
                if exec_cell is None and replay and msg.command:
                    exec_cell = ExecCell(msg.call_id, msg.command)
                    await self._add(exec_cell)
                if exec_cell is not None:
                    output = msg.aggregated_output or (msg.stdout + msg.stderr)
                    exec_cell.finish(
                        msg.exit_code, output, msg.duration_ms, msg.timed_out, msg.interrupted
                    )
            case ev.ExecApprovalRequestEvent() | ev.ApplyPatchApprovalRequestEvent():
                if not replay:
                    hooks.on_approval_request(msg)
            case ev.ElicitationRequestEvent():
                if not replay:
                    hooks.on_elicitation_request(msg)
            case ev.ApprovalDecisionEvent(reviewer="auto_review"):
                await self._add(auto_review_cell(msg))
            case ev.ApprovalDecisionEvent(reviewer="another_client"):
                hooks.on_approval_decided(msg.call_id)
                if msg.call_id not in self.decided:
                    self.decided.add(msg.call_id)
                    await self._add(another_client_cell(msg))
            case ev.ApprovalDecisionEvent():
                if msg.call_id not in self.decided:
                    await self.add_decision(msg.call_id, msg.kind, msg.decision, msg.command)
            case ev.PatchApplyBeginEvent():
                self.turn.did_work = True
                patch = PatchCell(msg.call_id, msg.changes, self.cwd)
                self.patches[msg.call_id] = patch
                await self._add(patch)
            case ev.PatchApplyEndEvent():
                patch_cell = self.patches.pop(msg.call_id, None)
                if patch_cell is None and msg.changes:  # replayed: the end says what changed
                    patch_cell = PatchCell(msg.call_id, msg.changes, self.cwd)
                    await self._add(patch_cell)
                if patch_cell is not None:
                    patch_cell.finish(msg.success, msg.stderr)
            case ev.TurnDiffEvent():
                self.turn.turn_diff = msg.unified_diff
            case ev.PlanUpdateEvent():
                await self._add(PlanCell(msg.explanation, msg.plan))
            case ev.McpToolCallBeginEvent():
                self.turn.did_work = True
                mcp = McpCell(msg.call_id, msg.server, msg.tool, msg.arguments)
                self.mcps[msg.call_id] = mcp
                await self._add(mcp)
            case ev.McpToolCallEndEvent():
                mcp_cell = self.mcps.pop(msg.call_id, None)
                if mcp_cell is None:
                    mcp_cell = McpCell(msg.call_id, msg.server, msg.tool, None)
                    await self._add(mcp_cell)
                mcp_cell.finish(msg.tool_result, msg.error, msg.duration.millis)
            case ev.WebSearchBeginEvent():
                search = WebSearchCell(msg.call_id)
                self.searches[msg.call_id] = search
                await self._add(search)
            case ev.WebSearchEndEvent():
                query = msg.query or web_search_query(msg.action)
                searched = self.searches.pop(msg.call_id, None)
                if searched is None:
                    await self._add(WebSearchCell(msg.call_id, query))
                else:
                    searched.finish(query)
            case ev.McpListToolsResponseEvent():
                await self._add(mcp_servers_cell(msg))
            case ev.ListBackgroundTerminalsResponseEvent():
                await self._add(background_terminals_cell(msg))
            case ev.BackgroundTerminalsStoppedEvent():
                await self._add(stopped_cell(msg))
            case ev.ErrorEvent():
                await self._add(NoticeCell("error", msg.message))
            case ev.WarningEvent():
                await self._add(NoticeCell("warning", msg.message))
            case ev.StreamErrorEvent():
                # One updating status line while retrying; if it gives up, an error says so.
                if not replay:
                    self.retrying = True
                    hooks.on_retrying(msg.message)
            case ev.BackgroundEvent():
                await self._add(NoticeCell("info", msg.message))
            case ev.HookStartedEvent():
                pass  # one line when it ends keeps the transcript compact
            case ev.HookCompletedEvent():
                await self._add(NoticeCell("info", hook_line(msg.run)))
            case ev.GetHistoryEntryResponseEvent():
                hooks.on_history_entry(msg)
            case ev.ShutdownCompleteEvent():
                hooks.on_shutdown_complete()
            case _:
                assert_never(msg)

    async def add_decision(
        self,
        call_id: str,
        kind: Literal["exec", "patch"],
        decision: ReviewDecision,
        command: list[str] | None,
    ) -> None:
        """A line saying what the user decided about a command or patch."""
        self.decided.add(call_id)
        subject = cancelled = "the edits"
        if kind == "exec":
            shown = display_command(command) if command else "the command"
            subject = f"codex to run {shown.split(chr(10))[0]}"
            cancelled = f"running {shown.split(chr(10))[0]}"
        match decision:
            case "approved":
                cell = NoticeCell("approved", f"You approved {subject}")
            case "approved_for_session":
                cell = NoticeCell("approved", f"You approved {subject} for this session")
            case "denied":
                cell = NoticeCell("denied", f"You did not approve {subject}; the turn goes on")
            case "abort" if command and command[0] == "mcp":
                cell = NoticeCell("denied", f"You cancelled {subject}; the turn goes on")
            case "abort":
                cell = NoticeCell("denied", f"You cancelled {cancelled} and stopped the turn")
            case _:
                assert_never(decision)
        await self._add(cell)

    async def _add(self, cell: Widget) -> None:
        if not isinstance(cell, AgentCell):
            self.turn.agent = None
        if not isinstance(cell, ReasoningCell):
            self.turn.reasoning = None
        await self.hooks.add_cell(cell)

    async def _agent_delta(self, delta: str) -> None:
        if self.turn.agent is None:
            cell = AgentCell()
            await self._add(cell)
            self.turn.agent = cell
        await self.turn.agent.append(delta)

    async def _reasoning(self, text: str, *, complete: bool) -> None:
        turn = self.turn
        turn.reasoning_text = text if complete else turn.reasoning_text + text
        header = reasoning_header(turn.reasoning_text)
        if header:
            self.hooks.on_reasoning_header(header)
        if self.hide_reasoning:
            return
        if turn.reasoning is None:
            cell = ReasoningCell(turn.reasoning_text)
            await self._add(cell)
            turn.reasoning = cell
        elif complete:
            turn.reasoning.replace(text)
        else:
            turn.reasoning.append(text)
        if complete:
            turn.reasoning = None
            turn.reasoning_text = ""

    async def _end_turn(self, *, aborted: bool, replay: bool) -> None:
        turn = self.turn
        self.turn = TurnState()
        # A cell whose end never came (a core that died, an old rollout) must not spin on.
        for exec_cell in self.execs.values():
            exec_cell.finish(INTERRUPTED_EXIT_CODE, exec_cell.live, 0, False, interrupted=True)
        self.execs.clear()
        for patch_cell in self.patches.values():
            patch_cell.finish(False, ABORTED_BY_USER)
        self.patches.clear()
        if aborted:
            await self._add(
                NoticeCell("interrupted", "Interrupted. Tell the model what to do differently.")
            )
        if turn.turn_diff:
            stats = diff_stats(turn.turn_diff)
            if stats:
                await self._add(DiffSummaryCell(stats))
        seconds = 0.0 if replay else self.hooks.on_turn_ended(aborted)
        if not replay and not aborted:
            await self._add(SeparatorCell(worked_label(seconds, self.hooks.approval_wait())))
