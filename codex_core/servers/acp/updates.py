"""The item projection → ACP `session/update`s (pure): message and thought chunks, tool calls
with kind, title, locations and diffs, plans; and the tool-call shapes a replay reuses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, assert_never

import acp
from acp.schema import ToolCallLocation, ToolCallStatus

from codex_core import items
from codex_core.frontend.commands import display_command
from codex_core.items import kinds as k
from codex_core.items import notices as n
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
    """One session's updates, rendered from its item projection."""

    projection: items.Projection = field(default_factory=items.Projection)
    streamed: set[str] = field(default_factory=set)
    """Messages and reasoning whose deltas were sent (their whole text is not sent again)."""

    def updates(self, event: items.Event) -> list[Update]:
        """The updates for one event (the agent asks for approvals and ends prompts)."""
        return [update for notice in self.projection.feed(event) for update in self.of(notice)]

    def of(self, notice: n.Notice) -> list[Update]:
        """The updates for one notice of the session's projection."""
        match notice:
            case n.AgentMessageDelta():
                self.streamed.add(notice.item_id)
                return [acp.update_agent_message_text(notice.delta)]
            case n.ReasoningDelta():
                self.streamed.add(notice.item_id)
                return [acp.update_agent_thought_text(notice.delta)]
            case n.ItemStarted():
                return _started(notice.item) if notice.by == "begin" else []
            case n.ItemCompleted():
                streamed = notice.item.id in self.streamed
                self.streamed.discard(notice.item.id)
                if notice.cause != "ended":
                    return []  # refused (told with the answer), or left open by its turn
                return _completed(notice.item, streamed)
            case n.CommandApprovalRequested():
                return [command_start(notice.item_id, list(notice.command), notice.cwd, "pending")]
            case n.PatchApprovalRequested():
                return [patch_start(notice.item_id, notice.changes, "pending")]
            case n.ApprovalDecided():
                refused = notice.decision in ("denied", "abort")
                return [
                    acp.update_tool_call(
                        notice.item_id, status="failed" if refused else "in_progress"
                    )
                ]
            case n.PlanUpdated():
                entries = [
                    acp.plan_entry(step.step, priority="medium", status=step.status)
                    for step in notice.plan
                ]
                return [acp.update_plan(entries)]
            case n.TurnError():
                return [acp.update_agent_message_text(f"\n\nError: {notice.message}")]
            case n.TurnWarning():
                return [acp.update_agent_thought_text(f"Warning: {notice.message}\n")]
            case (
                # No session update for these: turn bookkeeping (the agent ends the prompt),
                # output deltas, retries, status lines, typing into commands, hook runs.
                n.ThreadStarted()
                | n.TurnStarted()
                | n.TurnEnded()
                | n.StreamRetry()
                | n.ReasoningPartAdded()
                | n.CommandOutputDelta()
                | n.TokenUsage()
                | n.DiffUpdated()
                | n.HookRunUpdated()
                | n.TerminalInteraction()
                | n.BackgroundMessage()
                | n.ElicitationRequested()  # declined by the agent
                | n.SessionEnded()
            ):
                return []
            case _ as unreachable:
                assert_never(unreachable)


def _started(item: k.ThreadItem) -> list[Update]:
    """A tool call as it begins (one asked about was announced with the request)."""
    match item:
        case k.CommandExecutionItem():
            return [command_start(item.id, list(item.command), item.cwd, "in_progress")]
        case k.FileChangeItem():
            return [patch_start(item.id, dict(item.changes), "in_progress")]
        case k.McpToolCallItem():
            title = f"{item.server}.{item.tool}"
            call = acp.start_tool_call(
                item.id, title, kind="other", status="in_progress", raw_input=item.arguments
            )
            return [call]
        case _:
            return []  # texts stream as chunks; no web search or compaction updates


def _completed(item: k.ThreadItem, streamed: bool) -> list[Update]:
    """A message or thought not streamed, or a tool call's outcome."""
    match item:
        case k.AgentMessageItem():
            return [] if streamed else [acp.update_agent_message_text(item.text)]
        case k.ReasoningItem():
            return [] if streamed else [acp.update_agent_thought_text(item.text)]
        case k.CommandExecutionItem():
            output = item.aggregated_output or item.stdout + item.stderr
            return [
                acp.update_tool_call(
                    item.id,
                    status=_status(item.status),
                    content=[acp.tool_content(acp.text_block(output))] if output else None,
                    raw_output={"exit_code": item.exit_code},
                )
            ]
        case k.FileChangeItem():
            return [acp.update_tool_call(item.id, status=_status(item.status))]
        case k.McpToolCallItem():
            raw = item.result if item.error is None else {"error": item.error}
            return [acp.update_tool_call(item.id, status=_status(item.status), raw_output=raw)]
        case _:
            return []


def _status(status: k.ItemStatus) -> ToolCallStatus:
    return "completed" if status == "completed" else "failed"
