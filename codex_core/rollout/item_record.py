"""Projection items → the turn items a 0.169-layout rollout records in `item_completed` events.

Codex 0.169 records the visible conversation as `event_msg` `item_completed` lines, each
with one turn item (`UserMessage`, `AgentMessage`, `Reasoning`, `CommandExecution`,
`FileChange`, `McpToolCall`, `WebSearch`), in its rollout spelling (snake_case fields,
`{secs, nanos}` durations). `rollout_item` renders one completed item of the projection;
kinds 0.169 does not record there (a compaction) give None. The reading direction is
`turn_items.display_events`.
"""

from __future__ import annotations

from typing import Any, assert_never

from codex_core.items import kinds as k

_NANOS = 1_000_000_000


def _duration(nanos: int) -> dict[str, int]:
    return {"secs": nanos // _NANOS, "nanos": nanos % _NANOS}


def _user_item(item: k.UserMessageItem) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": item.text, "text_elements": []}]
    content.extend({"type": "image", "url": url} for url in item.images)
    return {"type": "UserMessage", "id": item.id, "content": content}


def _command_item(item: k.CommandExecutionItem, cwd: str) -> dict[str, Any]:
    return {
        "type": "CommandExecution",
        "id": item.id,
        "command": list(item.command),
        "cwd": item.cwd or cwd,
        "status": "completed" if item.exit_code == 0 else "failed",
        "aggregated_output": item.aggregated_output,
        "exit_code": item.exit_code,
        "duration": _duration((item.duration_ms or 0) * 1_000_000),
    }


def _mcp_item(item: k.McpToolCallItem) -> dict[str, Any]:
    """0.169 writes `readOnlyHint` only for tools annotated read-only, `result` only when
    the server answered (else `error: {message}`), and `status: "failed"` for either an
    error or a result the server flagged `isError`."""
    out: dict[str, Any] = {
        "type": "McpToolCall",
        "id": item.id,
        "server": item.server,
        "tool": item.tool,
        "arguments": item.arguments,
    }
    if item.read_only:
        out["readOnlyHint"] = True
    if item.result is not None:
        failed = bool(item.result.get("isError", False))
        result: dict[str, Any] = {"content": item.result.get("content") or []}
        if item.result.get("structuredContent") is not None:
            result["structuredContent"] = item.result["structuredContent"]
        result["isError"] = failed
        out.update(status="failed" if failed else "completed", result=result)
    else:
        out.update(status="failed", error={"message": item.error or ""})
    out["duration"] = _duration(item.duration_ns or 0)
    return out


def rollout_item(item: k.ThreadItem, *, cwd: str) -> dict[str, Any] | None:
    """The 0.169 rollout turn item for a completed projection item, or None.

    Args:
        item: The item as it completed.
        cwd: The session's working directory, for a command that did not say its own.
    """
    match item:
        case k.UserMessageItem():
            return _user_item(item)
        case k.AgentMessageItem():
            content = [{"type": "Text", "text": item.text}]
            return {"type": "AgentMessage", "id": item.id, "content": content}
        case k.ReasoningItem():
            return {
                "type": "Reasoning",
                "id": item.id,
                "summary_text": [item.text],
                "raw_content": [],
            }
        case k.CommandExecutionItem():
            return _command_item(item, cwd)
        case k.FileChangeItem():
            changes = {path: change.to_wire() for path, change in item.changes.items()}
            return {
                "type": "FileChange",
                "id": item.id,
                "changes": changes,
                "status": "completed" if item.status == "completed" else "failed",
                "stdout": item.stdout,
                "stderr": item.stderr,
            }
        case k.McpToolCallItem():
            return _mcp_item(item)
        case k.WebSearchItem():
            return {
                "type": "WebSearch",
                "id": item.id,
                "query": item.query,
                "action": item.action if item.action is not None else {"type": "other"},
            }
        case k.ContextCompactionItem():
            return None  # recorded as its `compacted` line
        case _ as unreachable:
            assert_never(unreachable)
