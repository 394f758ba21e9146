"""Session events → ACP `session/update`s (pure): message and thought chunks, tool calls with
kind, title, locations and diffs, plans. Also the replay of a resumed session's history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, assert_never

import acp
from acp.schema import ToolCallLocation, ToolCallStatus

from codex_core import protocol as ev
from codex_core.frontend.commands import display_command
from codex_core.protocol import AddChange, DeleteChange, FileChange

Update = Any
"""One of the SDK's session update models (`AgentMessageChunk`, `ToolCallStart`, …)."""


def change_content(changes: dict[str, FileChange]) -> list[Any]:
    """Diff contents of a patch: full texts for adds/deletes, the unified diff for edits."""
    out: list[Any] = []
    for path, change in changes.items():
        if isinstance(change, AddChange):
            out.append(acp.tool_diff_content(path, change.content, None))
        elif isinstance(change, DeleteChange):
            out.append(acp.tool_diff_content(path, "", change.content))
        else:
            out.append(acp.tool_content(acp.text_block(f"{path}\n{change.unified_diff}")))
    return out


def patch_title(changes: dict[str, FileChange]) -> str:
    """`Edit a.py, b.py`."""
    return "Edit " + ", ".join(sorted(changes))


def patch_start(call_id: str, changes: dict[str, FileChange], status: Any) -> Any:
    """A tool call for a patch."""
    return acp.start_tool_call(
        call_id,
        patch_title(changes),
        kind="edit",
        status=status,
        content=change_content(changes),
        locations=[ToolCallLocation(path=path) for path in changes],
    )


def command_start(call_id: str, command: list[str], cwd: str, status: Any) -> Any:
    """A tool call for a command."""
    return acp.start_tool_call(
        call_id,
        display_command(command),
        kind="execute",
        status=status,
        locations=[ToolCallLocation(path=cwd)] if cwd else None,
        raw_input={"command": command, "cwd": cwd},
    )


@dataclass
class UpdateBuilder:
    """Per-session translation state: which messages streamed, which tool calls started."""

    streamed_message: bool = False
    streamed_thought: bool = False
    started: set[str] = field(default_factory=set)

    def updates(self, msg: ev.EventMsg) -> list[Update]:
        """The updates for one event (approval requests are handled by the agent)."""
        match msg:
            case ev.AgentMessageDeltaEvent():
                self.streamed_message = True
                return [acp.update_agent_message_text(msg.delta)]
            case ev.AgentMessageEvent():
                streamed, self.streamed_message = self.streamed_message, False
                return [] if streamed else [acp.update_agent_message_text(msg.message)]
            case ev.AgentReasoningDeltaEvent():
                self.streamed_thought = True
                return [acp.update_agent_thought_text(msg.delta)]
            case ev.AgentReasoningEvent():
                streamed, self.streamed_thought = self.streamed_thought, False
                return [] if streamed else [acp.update_agent_thought_text(msg.text)]
            case ev.ExecApprovalRequestEvent():
                self.started.add(msg.call_id)
                return [command_start(msg.call_id, msg.command, msg.cwd, "pending")]
            case ev.ApplyPatchApprovalRequestEvent():
                self.started.add(msg.call_id)
                return [patch_start(msg.call_id, msg.changes, "pending")]
            case ev.ApprovalDecisionEvent():
                if msg.decision in ("denied", "abort"):
                    return [acp.update_tool_call(msg.call_id, status="failed")]
                return [acp.update_tool_call(msg.call_id, status="in_progress")]
            case ev.ExecCommandBeginEvent():
                if msg.call_id in self.started:
                    return []
                self.started.add(msg.call_id)
                return [command_start(msg.call_id, msg.command, msg.cwd, "in_progress")]
            case ev.ExecCommandEndEvent():
                self.started.discard(msg.call_id)
                output = msg.aggregated_output or msg.stdout + msg.stderr
                ended: ToolCallStatus = "completed" if msg.exit_code == 0 else "failed"
                return [
                    acp.update_tool_call(
                        msg.call_id,
                        status=ended,
                        content=[acp.tool_content(acp.text_block(output))] if output else None,
                        raw_output={"exit_code": msg.exit_code},
                    )
                ]
            case ev.PatchApplyBeginEvent():
                if msg.call_id in self.started:
                    return []
                self.started.add(msg.call_id)
                return [patch_start(msg.call_id, msg.changes, "in_progress")]
            case ev.PatchApplyEndEvent():
                self.started.discard(msg.call_id)
                applied: ToolCallStatus = "completed" if msg.success else "failed"
                return [acp.update_tool_call(msg.call_id, status=applied)]
            case ev.McpToolCallBeginEvent():
                title = f"{msg.server}.{msg.tool}"
                return [
                    acp.start_tool_call(
                        msg.call_id,
                        title,
                        kind="other",
                        status="in_progress",
                        raw_input=msg.arguments,
                    )
                ]
            case ev.McpToolCallEndEvent():
                called: ToolCallStatus = "completed" if msg.is_success else "failed"
                raw = msg.tool_result if msg.error is None else {"error": msg.error}
                return [acp.update_tool_call(msg.call_id, status=called, raw_output=raw)]
            case ev.PlanUpdateEvent():
                entries = [
                    acp.plan_entry(step.step, priority="medium", status=step.status)
                    for step in msg.plan
                ]
                return [acp.update_plan(entries)]
            case ev.ErrorEvent():
                return [acp.update_agent_message_text(f"\n\nError: {msg.message}")]
            case ev.WarningEvent():
                return [acp.update_agent_thought_text(f"Warning: {msg.message}\n")]
            case (
                # No session update for these: turn bookkeeping, output deltas.
                ev.StreamErrorEvent()
                | ev.BackgroundEvent()
                | ev.TaskStartedEvent()
                | ev.TokenCountEvent()
                | ev.AgentReasoningSectionBreakEvent()
                | ev.UserMessageEvent()
                | ev.SessionConfiguredEvent()
                | ev.ExecCommandOutputDeltaEvent()
                | ev.TerminalInteractionEvent()
                | ev.TurnDiffEvent()
            ):
                return []
            case _ if isinstance(msg, ev.HookEvent):
                return []  # no ACP update for hook runs
            case _ if isinstance(msg, ev.TurnEndEvent | ev.WebSearchEvent | ev.OpReplyEvent):
                return []  # the agent ends the prompt; no web search or op-reply updates
            case _ as unreachable:
                assert_never(unreachable)
