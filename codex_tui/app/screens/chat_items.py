"""Renders the item projection on the chat screen: each notice becomes cells and screen updates.

The screen is fed the notices of `codex_core.items.client` (`ClientNotice`), which the TUI
maps straight from its app-server's wire (`wire_items`); tool cells are found by their item's
id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol, assert_never

from textual.widget import Widget

from codex_core.frontend.approvals import ApprovalRequest
from codex_core.frontend.commands import describe_interaction, display_command
from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol.common import ReviewDecision, TokenUsage
from codex_tui.app.diffs import diff_stats
from codex_tui.app.formatting import context_left_percent, reasoning_header
from codex_tui.app.screens.chat_cells import (
    another_client_cell,
    auto_review_cell,
    hook_line,
    mcp_servers_cell,
    worked_label,
)
from codex_tui.app.screens.chat_processes import background_terminals_cell, stopped_cell
from codex_tui.app.screens.chat_tools import ToolCells
from codex_tui.app.transcript_log import TranscriptLog
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.diff_summary_cell import DiffSummaryCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.cells.plan_cell import PlanCell
from codex_tui.app.widgets.cells.reasoning_cell import ReasoningCell
from codex_tui.app.widgets.cells.separator_cell import SeparatorCell
from codex_tui.app.widgets.cells.user_cell import UserCell


class ChatHooks(Protocol):
    """What the applier asks of the screen beyond adding cells."""

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        ...

    async def on_session_configured(self, started: n.ThreadStarted) -> None:
        """Show the header and replay a resumed session's past."""
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

    def on_approval_request(self, request: ApprovalRequest) -> None:
        """Ask the user (modal)."""
        ...

    def on_elicitation_request(self, request: n.ElicitationRequested) -> None:
        """An MCP server asks the user to fill a form (modal)."""
        ...

    def on_history_entry(self, entry: c.HistoryEntryFetched) -> None:
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


@dataclass
class ItemApplier:
    """Turns each notice into cells and screen updates."""

    hooks: ChatHooks
    hide_reasoning: bool = False
    context_window: int | None = None
    session_id: str | None = None
    rollout_path: str | None = None
    cwd: str | None = None
    total_usage: TokenUsage | None = None
    turn: TurnState = field(default_factory=TurnState)
    tools: ToolCells = field(default_factory=ToolCells)
    decided: set[str] = field(default_factory=set)
    """Items whose approval answer is on screen."""
    log: TranscriptLog = field(default_factory=TranscriptLog)
    retrying: bool = False

    async def apply(self, notice: c.ClientNotice, *, replay: bool = False) -> None:
        """Apply one notice; `replay` is set for a resumed session's past."""
        hooks = self.hooks
        self.log.record(notice)
        if self.retrying and not isinstance(notice, n.StreamRetry | n.TokenUsage):
            self.retrying = False  # the stream is back, or the turn ended
            hooks.on_retrying(None)
        match notice:
            case n.ThreadStarted():
                self.session_id = notice.thread_id
                self.rollout_path = notice.rollout_path
                self.cwd = notice.cwd
                await hooks.on_session_configured(notice)
            case n.TurnStarted():
                self.turn = TurnState()
                self.context_window = notice.model_context_window or self.context_window
                if not replay:
                    hooks.on_turn_started()
            case n.TurnEnded():
                await self._end_turn(aborted=notice.status == "interrupted", replay=replay)
            case n.TokenUsage():
                self.total_usage = notice.info.total_token_usage
                percent = context_left_percent(notice.info, self.context_window)
                if percent is not None:
                    hooks.on_context_left(percent)
            case n.ItemStarted(by="begin") | c.ItemBegan():
                cell = self.tools.started(notice.item, self.cwd)
                if cell is not None:
                    await self._add(cell)
            case n.ItemStarted():
                pass  # asked about (shown once it begins), or ended at once (shown then)
            case n.ItemCompleted():
                await self._completed(notice, replay)
            case n.AgentMessageDelta():
                await self._agent_delta(notice.delta)
            case n.ReasoningDelta():
                await self._reasoning(notice.delta, complete=False)
            case n.ReasoningPartAdded():
                if notice.index > 0:  # a new section: a cell of its own
                    self.turn.reasoning = None
                    self.turn.reasoning_text = ""
            case n.CommandOutputDelta():
                self.tools.output(notice.item_id, notice.chunk)
            case n.TerminalInteraction():
                line = describe_interaction(notice.process_id, notice.stdin)
                await self._add(NoticeCell("info", line))
            case n.CommandApprovalRequested() | n.PatchApprovalRequested():
                if not replay:
                    hooks.on_approval_request(notice)
            case n.ElicitationRequested():
                if not replay:
                    hooks.on_elicitation_request(notice)
            case n.ApprovalDecided():
                await self._decided(notice)
            case n.DiffUpdated():
                self.turn.turn_diff = notice.diff
            case n.PlanUpdated():
                await self._add(PlanCell(notice.explanation, notice.plan))
            case c.McpServersListed():
                await self._add(mcp_servers_cell(notice))
            case c.BackgroundTerminalsListed():
                await self._add(background_terminals_cell(notice))
            case c.BackgroundTerminalsStopped():
                await self._add(stopped_cell(notice))
            case n.TurnError():
                await self._add(NoticeCell("error", notice.message))
            case n.TurnWarning():
                await self._add(NoticeCell("warning", notice.message))
            case n.StreamRetry():
                # One updating status line while retrying; if it gives up, an error says so.
                if not replay:
                    self.retrying = True
                    hooks.on_retrying(notice.message)
            case n.BackgroundMessage():
                await self._add(NoticeCell("info", notice.message))
            case n.HookRunUpdated():
                if notice.done:  # one line when it ends keeps the transcript compact
                    await self._add(NoticeCell("info", hook_line(notice.run)))
            case c.HistoryEntryFetched():
                hooks.on_history_entry(notice)
            case n.SessionEnded():
                hooks.on_shutdown_complete()
            case _ as unreachable:
                assert_never(unreachable)

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

    async def _decided(self, notice: n.ApprovalDecided) -> None:
        if notice.reviewer == "auto_review":
            await self._add(auto_review_cell(notice))
        elif notice.reviewer == "another_client":
            self.hooks.on_approval_decided(notice.item_id)
            if notice.item_id not in self.decided:
                self.decided.add(notice.item_id)
                await self._add(another_client_cell(notice))
        elif notice.item_id not in self.decided:
            command = list(notice.command) or None
            await self.add_decision(notice.item_id, notice.kind, notice.decision, command)

    async def _completed(self, notice: n.ItemCompleted, replay: bool) -> None:
        item = notice.item
        match item:
            case k.UserMessageItem():
                user = UserCell(item.text, images=len(item.images))
                await self._add(user)
                self.hooks.on_user_message(item.text, user)
            case k.AgentMessageItem() if notice.cause == "ended":
                if self.turn.agent is not None:
                    await self.turn.agent.finish(item.text)
                else:
                    await self._add(AgentCell(item.text))
                self.turn.agent = None
            case k.ReasoningItem() if notice.cause == "ended":
                await self._reasoning(item.text, complete=True)
            case k.AgentMessageItem() | k.ReasoningItem() | k.ContextCompactionItem():
                pass  # cut short by its turn's end: shown as far as it streamed
            case _:
                await self.tools.completed(
                    item, notice.cause, replay=replay, cwd=self.cwd, add=self._add
                )

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
        """After the projection completed what the turn left open (`turn_ended`)."""
        turn = self.turn
        self.turn = TurnState()
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
