"""`WireItems`: the wire's items and notices the local TUI needs become the notices its
screens take (web search, MCP calls, hook runs, the automatic reviewer, status lines)."""

from __future__ import annotations

from typing import Any

from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_tui.app.wire_items import TURN, WireItems


def _notices(wire: WireItems, method: str, params: dict[str, Any]) -> list[Any]:
    return wire.notification(method, {"threadId": "t", **params})


def test_wire_items_web_search_and_mcp_call_items() -> None:
    wire = WireItems(thread_id="t", turn_id="turn")
    search = {"id": "ws_1", "type": "webSearch", "query": "", "action": None}
    begun = k.WebSearchItem("ws_1")
    assert _notices(wire, "item/started", {"item": search}) == [n.ItemStarted(TURN, begun)]
    done = {**search, "query": "q", "action": {"type": "openPage", "url": "https://x"}}
    action = {"type": "open_page", "url": "https://x"}
    assert _notices(wire, "item/completed", {"item": done}) == [
        n.ItemCompleted(TURN, k.WebSearchItem("ws_1", "q", action))
    ]
    call = {"id": "c1", "type": "mcpToolCall", "server": "s", "tool": "t", "arguments": {"a": 1}}
    item = k.McpToolCallItem("c1", "s", "t", {"a": 1})
    assert _notices(wire, "item/started", {"item": call}) == [n.ItemStarted(TURN, item)]
    failed = {**call, "status": "failed", "error": {"message": "boom"}, "durationMs": 1500}
    ended = k.McpToolCallItem(
        "c1",
        "s",
        "t",
        {"a": 1},
        status="failed",
        error="boom",
        duration_ms=1500,
        duration_ns=1_500_000_000,
    )
    assert _notices(wire, "item/completed", {"item": failed}) == [n.ItemCompleted(TURN, ended)]


def test_wire_items_hooks_auto_review_and_status_lines() -> None:
    wire = WireItems(thread_id="t", turn_id="turn")
    run = {
        "id": "r1",
        "eventName": "preToolUse",
        "sourcePath": "/h.json",
        "status": "blocked",
        "entries": [{"kind": "feedback", "text": "no rm here"}],
    }
    [hook] = _notices(wire, "hook/completed", {"run": run})
    assert isinstance(hook, n.HookRunUpdated) and hook.done
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
    command = k.CommandExecutionItem("c2", ("touch", "x"), "/w")
    assert _notices(wire, "item/autoApprovalReview/completed", review) == [
        n.ItemStarted(TURN, command, "review"),
        n.ApprovalDecided(
            TURN, "c2", "exec", "denied", ("touch", "x"), "auto_review", "Not asked for."
        ),
        n.ItemCompleted(
            TURN, command.__class__("c2", ("touch", "x"), "/w", "declined"), "declined"
        ),
    ]
    line = {"turnId": "turn", "message": "Context compacted"}
    assert _notices(wire, "thread/backgroundMessage", line) == [
        n.BackgroundMessage(TURN, "Context compacted")
    ]
