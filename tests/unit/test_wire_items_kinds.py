"""`WireEvents`: the wire's items and notices the local TUI needs become the events its
screens take (web search, MCP calls, hook runs, the automatic reviewer, status lines)."""

from __future__ import annotations

from typing import Any

from codex_core.protocol import (
    ApprovalDecisionEvent,
    BackgroundEvent,
    HookCompletedEvent,
    McpDuration,
    McpInvocation,
    McpToolCallBeginEvent,
    McpToolCallEndEvent,
    WebSearchBeginEvent,
    WebSearchEndEvent,
)
from codex_tui.app.wire_events import WireEvents


def _events(wire: WireEvents, method: str, params: dict[str, Any]) -> list[Any]:
    return [event.msg for event in wire.notification(method, {"threadId": "t", **params})]


def test_wire_events_web_search_and_mcp_call_items() -> None:
    wire = WireEvents(thread_id="t", turn_id="turn")
    search = {"id": "ws_1", "type": "webSearch", "query": "", "action": None}
    assert _events(wire, "item/started", {"item": search}) == [WebSearchBeginEvent(call_id="ws_1")]
    done = {**search, "query": "q", "action": {"type": "openPage", "url": "https://x"}}
    assert _events(wire, "item/completed", {"item": done}) == [
        WebSearchEndEvent(
            call_id="ws_1", query="q", action={"type": "open_page", "url": "https://x"}
        )
    ]
    call = {"id": "c1", "type": "mcpToolCall", "server": "s", "tool": "t", "arguments": {"a": 1}}
    invocation = McpInvocation(server="s", tool="t", arguments={"a": 1})
    assert _events(wire, "item/started", {"item": call}) == [
        McpToolCallBeginEvent(call_id="c1", invocation=invocation)
    ]
    failed = {**call, "status": "failed", "error": {"message": "boom"}, "durationMs": 1500}
    assert _events(wire, "item/completed", {"item": failed}) == [
        McpToolCallEndEvent(
            call_id="c1",
            invocation=invocation,
            result={"Err": "boom"},
            duration=McpDuration(secs=1, nanos=500_000_000),
        )
    ]


def test_wire_events_hooks_auto_review_and_status_lines() -> None:
    wire = WireEvents(thread_id="t", turn_id="turn")
    run = {
        "id": "r1",
        "eventName": "preToolUse",
        "sourcePath": "/h.json",
        "status": "blocked",
        "entries": [{"kind": "feedback", "text": "no rm here"}],
    }
    [hook] = _events(wire, "hook/completed", {"run": run})
    assert isinstance(hook, HookCompletedEvent)
    assert (hook.run.event_name, hook.run.status, hook.run.entries) == (
        "PreToolUse",
        "blocked",
        [{"kind": "feedback", "text": "no rm here"}],
    )
    review = {
        "targetItemId": "c2",
        "review": {"status": "denied", "rationale": "Not asked for."},
        "action": {"type": "command", "command": "touch x", "cwd": "/w", "source": "shell"},
    }
    assert _events(wire, "item/autoApprovalReview/completed", review) == [
        ApprovalDecisionEvent(
            call_id="c2",
            kind="exec",
            decision="denied",
            command=["touch", "x"],
            reviewer="auto_review",
            rationale="Not asked for.",
            cwd="/w",
        )
    ]
    line = {"turnId": "turn", "message": "Context compacted"}
    assert _events(wire, "thread/backgroundMessage", line) == [
        BackgroundEvent(message="Context compacted")
    ]
