"""Session events → app-server notifications and approval requests (pure, no IO)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Literal, assert_never

from codex_core import protocol as ev
from codex_core.protocol import FileChange
from codex_core.servers.app_server import model_items as items
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.convert import (
    command_actions,
    command_line,
    file_changes,
    plan_steps,
    usage_breakdown,
)
from codex_core.servers.app_server.model_thread import (
    ActiveStatus,
    IdleStatus,
    Turn,
    TurnError,
    TurnStatus,
)
from codex_core.servers.app_server.turn_state import TurnState
from codex_core.servers.app_server.wire import now_ms


@dataclass
class ApprovalAsk:
    """The server must ask the client (a server request) and answer the session with an op."""

    params: n.ServerMessage
    call_id: str
    kind: Literal["exec", "patch"]


Out = n.ServerMessage | ApprovalAsk


class Translator:
    """Turns one thread's session events into wire messages."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.turns: dict[str, TurnState] = {}
        """Running turns by the id of the submission that started them."""

    def begin_turn(self, sub_id: str, wire_input: list[items.UserInput], *, compact: bool) -> Turn:
        """Remember a submitted turn; returns it as `turn/start` answers it."""
        state = TurnState(id=str(uuid.uuid4()), input=wire_input, compact=compact)
        self.turns[sub_id] = state
        return Turn(id=state.id, rootTurnId=state.id)

    def turn_id_of(self, sub_id: str) -> str | None:
        """The wire turn id of a submission."""
        state = self.turns.get(sub_id)
        return state.id if state else None

    def running_sub(self, turn_id: str) -> str | None:
        """The submission id of a running turn."""
        return next((sub for sub, t in self.turns.items() if t.id == turn_id), None)

    def translate(self, event: ev.Event) -> list[Out]:
        """The wire messages for one session event."""
        turn = self.turns.get(event.id)
        msg = event.msg
        if isinstance(msg, ev.WarningEvent):
            return [n.WarningNotification(threadId=self.thread_id, message=msg.message)]
        if turn is None:
            return []
        tid, turn_id = self.thread_id, turn.id
        ids = {"threadId": tid, "turnId": turn_id}
        match msg:
            case ev.TaskStartedEvent():
                turn.started_ms = now_ms()
                turn.started = True
                out: list[Out] = [
                    n.ThreadStatusChangedNotification(threadId=tid, status=ActiveStatus()),
                    n.TurnStartedNotification(threadId=tid, turn=turn.wire("inProgress")),
                ]
                if turn.compact:
                    item = items.ContextCompactionItem(id=f"compact_{turn_id}")
                    out.append(self._started(turn, item))
                return out
            case ev.UserMessageEvent():
                content: list[items.UserInput] = turn.input or [
                    items.TextUserInput(text=msg.message)
                ]
                user = items.UserMessageItem(id=str(uuid.uuid4()), content=content)
                return [self._started(turn, user), self._completed(turn, user)]
            case ev.AgentMessageDeltaEvent():
                out = []
                message = self._open_message(turn, out)
                message.text += msg.delta
                out.append(
                    n.AgentMessageDeltaNotification(**ids, itemId=message.id, delta=msg.delta)
                )
                return out
            case ev.AgentMessageEvent():
                out = []
                done, turn.message = self._open_message(turn, out), None
                done.text = msg.message
                turn.last_message = done
                return [*out, self._completed(turn, done)]
            case ev.AgentReasoningDeltaEvent():
                out = []
                reasoning = self._open_reasoning(turn, out)
                if not reasoning.summary:
                    reasoning.summary.append("")
                    out.append(self._part_added(turn, reasoning))
                index = len(reasoning.summary) - 1
                reasoning.summary[index] += msg.delta
                out.append(
                    n.ReasoningSummaryTextDeltaNotification(
                        **ids, itemId=reasoning.id, delta=msg.delta, summaryIndex=index
                    )
                )
                return out
            case ev.AgentReasoningSectionBreakEvent():
                if turn.reasoning is None or not turn.reasoning.summary:
                    return []
                turn.reasoning.summary.append("")
                return [self._part_added(turn, turn.reasoning)]
            case ev.AgentReasoningEvent():
                out = []
                finished, turn.reasoning = self._open_reasoning(turn, out), None
                finished.summary = [part for part in finished.summary if part] or [msg.text]
                return [*out, self._completed(turn, finished)]
            case ev.ExecApprovalRequestEvent():
                out = self._command_started(turn, msg.call_id, msg.command, msg.cwd)
                ask = n.CommandExecutionRequestApprovalParams(
                    threadId=tid,
                    turnId=turn_id,
                    itemId=msg.call_id,
                    startedAtMs=now_ms(),
                    command=command_line(msg.command),
                    cwd=msg.cwd,
                    reason=msg.reason,
                    commandActions=command_actions(msg.command),
                    proposedExecpolicyAmendment=msg.suggested_prefix,
                )
                waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
                out.insert(0, n.ThreadStatusChangedNotification(threadId=tid, status=waiting))
                return [*out, ApprovalAsk(ask, msg.call_id, "exec")]
            case ev.ApplyPatchApprovalRequestEvent():
                out = self._patch_started(turn, msg.call_id, msg.changes)
                patch_ask = n.FileChangeRequestApprovalParams(
                    threadId=tid,
                    turnId=turn_id,
                    itemId=msg.call_id,
                    startedAtMs=now_ms(),
                    reason=msg.reason,
                    grantRoot=msg.grant_root,
                )
                # Codex announces a patch's item before the thread waits (a command's after).
                waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
                out.append(n.ThreadStatusChangedNotification(threadId=tid, status=waiting))
                return [*out, ApprovalAsk(patch_ask, msg.call_id, "patch")]
            case ev.ApprovalDecisionEvent():
                return self._declined(turn, msg)
            case ev.ExecCommandBeginEvent():
                return self._command_started(turn, msg.call_id, msg.command, msg.cwd)
            case ev.ExecCommandOutputDeltaEvent():
                return [
                    n.CommandExecutionOutputDeltaNotification(
                        **ids, itemId=msg.call_id, delta=msg.chunk
                    )
                ]
            case ev.ExecCommandEndEvent():
                out = []
                if msg.call_id not in turn.commands:
                    out = self._command_started(turn, msg.call_id, msg.command or [], "")
                command = turn.commands.pop(msg.call_id)
                command.status = "completed" if msg.exit_code == 0 else "failed"
                command.exitCode = msg.exit_code
                command.aggregatedOutput = msg.aggregated_output or msg.stdout + msg.stderr
                command.durationMs = msg.duration_ms
                return [*out, self._completed(turn, command)]
            case ev.PatchApplyBeginEvent():
                return self._patch_started(turn, msg.call_id, msg.changes)
            case ev.PatchApplyEndEvent():
                patch = turn.patches.pop(msg.call_id, None)
                if patch is None:
                    return []
                patch.status = "completed" if msg.success else "failed"
                return [self._completed(turn, patch)]
            case ev.McpToolCallBeginEvent():
                mcp = items.McpToolCallItem(
                    id=msg.call_id, server=msg.server, tool=msg.tool, arguments=msg.arguments
                )
                turn.mcp[msg.call_id] = mcp
                return [self._started(turn, mcp)]
            case ev.McpToolCallEndEvent():
                known = turn.mcp.pop(msg.call_id, None)
                mcp = known or items.McpToolCallItem(
                    id=msg.call_id, server=msg.server, tool=msg.tool
                )
                ok = msg.tool_result
                mcp.status = "completed" if msg.is_success else "failed"
                mcp.error = {"message": msg.error} if msg.error is not None else None
                mcp.result = (
                    {
                        "content": ok.get("content", []),
                        "structuredContent": ok.get("structuredContent"),
                    }
                    if ok is not None
                    else None
                )
                mcp.durationMs = msg.duration.millis
                return [self._completed(turn, mcp)]
            case ev.TurnDiffEvent():
                return [n.TurnDiffUpdatedNotification(**ids, diff=msg.unified_diff)]
            case ev.PlanUpdateEvent():
                steps = plan_steps(msg)
                return [
                    n.TurnPlanUpdatedNotification(**ids, explanation=msg.explanation, plan=steps)
                ]
            case ev.TokenCountEvent():
                if msg.info is None:
                    return []
                usage = n.ThreadTokenUsage(
                    total=usage_breakdown(msg.info.total_token_usage),
                    last=usage_breakdown(msg.info.last_token_usage),
                    modelContextWindow=msg.info.model_context_window,
                )
                return [n.ThreadTokenUsageUpdatedNotification(**ids, tokenUsage=usage)]
            case ev.StreamErrorEvent():
                return [
                    n.ErrorNotification(**ids, error=TurnError(message=msg.message), willRetry=True)
                ]
            case ev.ErrorEvent():
                turn.error = TurnError(message=msg.message)
                error = n.ErrorNotification(**ids, error=turn.error, willRetry=False)
                if not turn.started:  # refused before it began (an unreadable image): ends here
                    return [error, *self._finish(event.id, turn, "failed")]
                return [error]
            case ev.TaskCompleteEvent():
                return self._finish(event.id, turn, "failed" if turn.error else "completed")
            case ev.TurnAbortedEvent():
                return self._finish(event.id, turn, "interrupted")
            case ev.BackgroundEvent() | ev.SessionConfiguredEvent() | ev.TerminalInteractionEvent():
                return []  # no notification for these
            case _ if isinstance(msg, ev.HookEvent):
                return []  # hook/started and hook/completed: not sent yet
            case _ if isinstance(msg, ev.WebSearchEvent | ev.OpReplyEvent):
                return []  # none yet for web searches, and none for replies to other ops
            case _ as unreachable:
                assert_never(unreachable)

    # ------------------------------------------------------------------ helpers

    def _started(self, turn: TurnState, item: items.ThreadItem) -> n.ItemStartedNotification:
        at = now_ms()
        item.startedAtMs = at
        return n.ItemStartedNotification(
            item=item.model_copy(), threadId=self.thread_id, turnId=turn.id, startedAtMs=at
        )

    def _completed(self, turn: TurnState, item: items.ThreadItem) -> n.ItemCompletedNotification:
        at = now_ms()
        item.completedAtMs = at
        return n.ItemCompletedNotification(
            item=item.model_copy(), threadId=self.thread_id, turnId=turn.id, completedAtMs=at
        )

    def _open_message(self, turn: TurnState, out: list[Out]) -> items.AgentMessageItem:
        """The turn's message being written; a new one is announced in `out`."""
        if turn.message is None:
            turn.message = items.AgentMessageItem(id=f"msg_{uuid.uuid4().hex[:12]}")
            out.append(self._started(turn, turn.message))
        return turn.message

    def _open_reasoning(self, turn: TurnState, out: list[Out]) -> items.ReasoningItem:
        """The turn's reasoning being written; a new one is announced in `out`."""
        if turn.reasoning is None:
            turn.reasoning = items.ReasoningItem(id=f"rs_{uuid.uuid4().hex[:12]}")
            out.append(self._started(turn, turn.reasoning))
        return turn.reasoning

    def _part_added(
        self, turn: TurnState, item: items.ReasoningItem
    ) -> n.ReasoningSummaryPartAddedNotification:
        return n.ReasoningSummaryPartAddedNotification(
            threadId=self.thread_id,
            turnId=turn.id,
            itemId=item.id,
            summaryIndex=len(item.summary) - 1,
        )

    def _declined(self, turn: TurnState, msg: ev.ApprovalDecisionEvent) -> list[Out]:
        """A refused command or patch completes `declined`, as in Codex 0.169, except a
        cancelled patch (never completed; its turn ends interrupted)."""
        if msg.decision not in ("denied", "abort"):
            return []
        tid = self.thread_id
        if msg.kind == "patch":
            patch = turn.patches.pop(msg.call_id, None)
            if patch is None or msg.decision == "abort":
                return []
            patch.status = "declined"
            return [self._completed(turn, patch)]
        command = turn.commands.pop(msg.call_id, None)
        if command is None:
            return []
        command.status = "declined"
        out: list[Out] = [self._completed(turn, command)]
        if msg.decision == "abort":  # the server held this status back for the item
            out.append(n.ThreadStatusChangedNotification(threadId=tid, status=ActiveStatus()))
        return out

    def _command_started(
        self, turn: TurnState, call_id: str, command: list[str], cwd: str
    ) -> list[Out]:
        if call_id in turn.commands:
            return []
        item = items.CommandExecutionItem(
            id=call_id,
            command=command_line(command),
            cwd=cwd,
            commandActions=command_actions(command),
        )
        turn.commands[call_id] = item
        return [self._started(turn, item)]

    def _patch_started(
        self, turn: TurnState, call_id: str, changes: dict[str, FileChange]
    ) -> list[Out]:
        if call_id in turn.patches:
            return []
        item = items.FileChangeItem(id=call_id, changes=file_changes(changes))
        turn.patches[call_id] = item
        return [self._started(turn, item)]

    def _finish(self, sub_id: str, turn: TurnState, status: TurnStatus) -> list[Out]:
        self.turns.pop(sub_id, None)
        out: list[Out] = []
        for command in turn.commands.values():  # never left "in progress" on the client
            command.status = "failed" if status == "interrupted" else command.status
            out.append(self._completed(turn, command))
        if turn.compact and status == "completed":
            item = items.ContextCompactionItem(id=f"compact_{turn.id}")
            out.append(self._completed(turn, item))
            out.append(n.ContextCompactedNotification(threadId=self.thread_id, turnId=turn.id))
        out.append(n.ThreadStatusChangedNotification(threadId=self.thread_id, status=IdleStatus()))
        out.append(n.TurnCompletedNotification(threadId=self.thread_id, turn=turn.wire(status)))
        return out
