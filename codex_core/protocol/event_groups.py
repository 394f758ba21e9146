"""Named groups of events that frontends treat alike, defined once for every renderer.

Each group is a union usable both as a type and at run time: `isinstance(msg, OpReplyEvent)`
narrows for mypy, so a `match` that passes over a whole group in
`case _ if isinstance(msg, ev.OpReplyEvent | ev.DeltaEvent):` stays exhaustive under
`assert_never`.
"""

from __future__ import annotations

from typing import TypeAlias

from codex_core.protocol.elicitation import ElicitationRequestEvent
from codex_core.protocol.events import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    AgentReasoningSectionBreakEvent,
    ApplyPatchApprovalRequestEvent,
    ApprovalDecisionEvent,
    BackgroundTerminalsStoppedEvent,
    ExecApprovalRequestEvent,
    ExecCommandOutputDeltaEvent,
    GetHistoryEntryResponseEvent,
    ListBackgroundTerminalsResponseEvent,
    McpListToolsResponseEvent,
    ShutdownCompleteEvent,
    TaskCompleteEvent,
    TurnAbortedEvent,
)
from codex_core.protocol.hook_events import HookCompletedEvent, HookStartedEvent
from codex_core.protocol.tool_events import WebSearchBeginEvent, WebSearchEndEvent

HookEvent: TypeAlias = HookStartedEvent | HookCompletedEvent
"""A hook run starting or ending (`exec` human output and the TUI show them)."""

OpReplyEvent: TypeAlias = (
    GetHistoryEntryResponseEvent
    | McpListToolsResponseEvent
    | ListBackgroundTerminalsResponseEvent
    | BackgroundTerminalsStoppedEvent
    | ShutdownCompleteEvent
    | ElicitationRequestEvent
)
"""Answers to ops only an interactive client sends (history, `/mcp`, `/ps`, `/stop`,
shutdown), and an MCP server's question for the user, which no transcript shows: the
frontends that answer it (`exec`, the app-server, ACP, the TUI) do so before rendering."""

DeltaEvent: TypeAlias = (
    AgentMessageDeltaEvent
    | AgentReasoningDeltaEvent
    | AgentReasoningSectionBreakEvent
    | ExecCommandOutputDeltaEvent
)
"""Streamed pieces of an item whose whole form follows in its own event."""

ApprovalRequestEvent: TypeAlias = ExecApprovalRequestEvent | ApplyPatchApprovalRequestEvent
"""The session waits for a review decision (answered with an approval op)."""

ApprovalEvent: TypeAlias = ApprovalRequestEvent | ApprovalDecisionEvent
"""An approval asked for or decided: nothing a run that never asks (`codex exec`) shows."""

WebSearchEvent: TypeAlias = WebSearchBeginEvent | WebSearchEndEvent
"""A web search started or ended."""

TurnEndEvent: TypeAlias = TaskCompleteEvent | TurnAbortedEvent
"""The turn is over, finished or interrupted."""

__all__ = [
    "ApprovalEvent",
    "ApprovalRequestEvent",
    "DeltaEvent",
    "OpReplyEvent",
    "TurnEndEvent",
    "WebSearchEvent",
]
