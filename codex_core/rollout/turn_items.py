"""The 0.169 rollout layout: `item_completed` events and their legacy display-event twins.

Codex 0.169 records the visible conversation as `event_msg` `item_completed` events, each
carrying one turn item (`UserMessage`, `AgentMessage`, `Reasoning`, `CommandExecution`,
`FileChange`, `McpToolCall`, `WebSearch`, …), where older rollouts (and ours in the legacy
layout) record `user_message`, `agent_message`, `agent_reasoning`, `exec_command_end`,
`patch_apply_end`, `mcp_tool_call_end` events (and no web search at all).

- `display_events(item_completed)` turns one `item_completed` payload into the legacy events
  a resume replays (TUI transcript, app-server turns);
- `item_completed(item, …)` wraps a turn item (`item_record.rollout_item`, rendered from the
  item projection) in the `item_completed` payload a 0.169 reader projects.

Item kinds this module does not know are skipped by readers, as newer versions add some.
"""

from __future__ import annotations

from typing import Any

ITEM_COMPLETED = "item_completed"


def _texts(parts: Any, kind: str) -> list[str]:
    if not isinstance(parts, list):
        return []
    return [
        p["text"]
        for p in parts
        if isinstance(p, dict) and p.get("type") == kind and isinstance(p.get("text"), str)
    ]


def _images(parts: Any) -> list[str]:
    if not isinstance(parts, list):
        return []
    found: list[str] = []
    for part in parts:
        if not isinstance(part, dict) or part.get("type") not in ("image", "local_image"):
            continue
        value = part.get("url") or part.get("image_url") or part.get("path")
        if isinstance(value, str):
            found.append(value)
    return found


def _duration(duration: Any) -> dict[str, int]:
    """A `{secs, nanos}` duration with both fields whole numbers (zero where missing)."""
    fields = duration if isinstance(duration, dict) else {}
    secs, nanos = fields.get("secs"), fields.get("nanos")
    return {
        "secs": secs if isinstance(secs, int) else 0,
        "nanos": nanos if isinstance(nanos, int) else 0,
    }


def _duration_ms(duration: Any) -> int:
    if isinstance(duration, dict):
        secs, nanos = duration.get("secs", 0), duration.get("nanos", 0)
        if isinstance(secs, int) and isinstance(nanos, int):
            return secs * 1000 + nanos // 1_000_000
    return 0


def display_events(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The legacy display events an `item_completed` payload stands for (may be none)."""
    item = payload.get("item")
    if not isinstance(item, dict):
        return []
    kind = item.get("type")
    call_id = str(item.get("id") or "")
    if kind == "UserMessage":
        content = item.get("content")
        event: dict[str, Any] = {
            "type": "user_message",
            "message": "\n".join(_texts(content, "text")),
        }
        images = _images(content)
        if images:
            event["images"] = images
        return [event]
    if kind == "AgentMessage":
        return [{"type": "agent_message", "message": "".join(_texts(item.get("content"), "Text"))}]
    if kind == "Reasoning":
        summary = item.get("summary_text")
        texts = [t for t in summary if isinstance(t, str)] if isinstance(summary, list) else []
        return [{"type": "agent_reasoning", "text": text} for text in texts]
    if kind == "CommandExecution":
        exit_code = item.get("exit_code")
        command = item.get("command")
        output = item.get("aggregated_output")
        return [
            {
                "type": "exec_command_end",
                "call_id": call_id,
                "command": [str(a) for a in command] if isinstance(command, list) else None,
                "aggregated_output": output if isinstance(output, str) else "",
                "exit_code": exit_code if isinstance(exit_code, int) else -1,
                "duration_ms": _duration_ms(item.get("duration")),
            }
        ]
    if kind == "FileChange":
        stdout, stderr = item.get("stdout"), item.get("stderr")
        end: dict[str, Any] = {
            "type": "patch_apply_end",
            "call_id": call_id,
            "stdout": stdout if isinstance(stdout, str) else "",
            "stderr": stderr if isinstance(stderr, str) else "",
            "success": item.get("status") == "completed",
        }
        changes = item.get("changes")
        if isinstance(changes, dict) and changes:
            end["changes"] = changes  # a replay shows the edit, as the live session did
        return [end]
    if kind == "McpToolCall":
        return [_mcp_end_event(item, call_id)]
    if kind == "WebSearch":
        query, action = item.get("query"), item.get("action")
        return [
            {
                "type": "web_search_end",
                "call_id": call_id,
                "query": query if isinstance(query, str) else "",
                "action": action if isinstance(action, dict) else None,
            }
        ]
    return []


def _mcp_end_event(item: dict[str, Any], call_id: str) -> dict[str, Any]:
    """The `mcp_tool_call_end` event a 0.169 `McpToolCall` item stands for."""
    result, error = item.get("result"), item.get("error")
    if isinstance(result, dict):
        ok: dict[str, Any] = {"content": result.get("content") or []}
        if result.get("structuredContent") is not None:
            ok["structuredContent"] = result["structuredContent"]
        ok["isError"] = bool(result.get("isError", False))
        outcome: dict[str, Any] = {"Ok": ok}
    else:
        message = error.get("message") if isinstance(error, dict) else None
        outcome = {"Err": message if isinstance(message, str) else "no result recorded"}
    event: dict[str, Any] = {
        "type": "mcp_tool_call_end",
        "call_id": call_id,
        "invocation": {
            "server": str(item.get("server") or ""),
            "tool": str(item.get("tool") or ""),
            "arguments": item.get("arguments"),
        },
        "duration": _duration(item.get("duration")),
        "result": outcome,
    }
    if item.get("readOnlyHint") is True:
        event["read_only"] = True
    return event


def item_completed(
    item: dict[str, Any], *, thread_id: str, turn_id: str, now_ms: int
) -> dict[str, Any]:
    """The `item_completed` event payload that records `item` in a 0.169-layout rollout."""
    return {
        "type": ITEM_COMPLETED,
        "thread_id": thread_id,
        "turn_id": turn_id,
        "item": item,
        "started_at_ms": now_ms,
        "completed_at_ms": now_ms,
    }


__all__ = [
    "ITEM_COMPLETED",
    "display_events",
    "item_completed",
]
