"""App-server wire values → core values, for the TUI's `wire_items` (pure)."""

from __future__ import annotations

import shlex
from typing import Any

from codex_core.protocol import HookRun, McpDuration, McpInvocation
from codex_core.protocol.common import (
    AddChange,
    DeleteChange,
    FileChange,
    ReviewDecision,
    TokenUsage,
    TokenUsageInfo,
    UpdateChange,
)


def wire_argv(command: str) -> list[str]:
    """The wire's one-line command as argv (it is `shlex.join` of the argv)."""
    try:
        return shlex.split(command)
    except ValueError:
        return ["bash", "-lc", command]


def wire_changes(changes: list[dict[str, Any]]) -> dict[str, FileChange]:
    out: dict[str, FileChange] = {}
    for change in changes:
        kind = change.get("kind") or {}
        diff = change.get("diff") or ""
        match kind.get("type"):
            case "add":
                out[change["path"]] = AddChange(content=diff)
            case "delete":
                out[change["path"]] = DeleteChange(content=diff)
            case _:
                out[change["path"]] = UpdateChange(
                    unified_diff=diff, move_path=kind.get("move_path")
                )
    return out


def wire_usage(wire: dict[str, Any]) -> TokenUsageInfo:
    def breakdown(part: dict[str, Any] | None) -> TokenUsage:
        part = part or {}
        return TokenUsage(
            input_tokens=part.get("inputTokens", 0),
            cached_input_tokens=part.get("cachedInputTokens", 0),
            output_tokens=part.get("outputTokens", 0),
            reasoning_output_tokens=part.get("reasoningOutputTokens", 0),
            total_tokens=part.get("totalTokens", 0),
        )

    return TokenUsageInfo(
        total_token_usage=breakdown(wire.get("total")),
        last_token_usage=breakdown(wire.get("last")),
        model_context_window=wire.get("modelContextWindow"),
    )


def wire_approval(value: Any) -> Any:
    return value if value in ("untrusted", "on-failure", "on-request", "never") else None


def wire_sandbox(value: Any) -> Any:
    if not isinstance(value, dict):
        return None
    from codex_core.protocol.common import SANDBOX_POLICY

    match value.get("type"):
        case "readOnly":
            return SANDBOX_POLICY.validate_python({"mode": "read-only"})
        case "workspaceWrite":
            return SANDBOX_POLICY.validate_python(
                {
                    "mode": "workspace-write",
                    "writable_roots": value.get("writableRoots") or [],
                    "network_access": bool(value.get("networkAccess")),
                }
            )
        case "dangerFullAccess":
            return SANDBOX_POLICY.validate_python({"mode": "danger-full-access"})
        case _:
            return None


def wire_hook_run(run: dict[str, Any]) -> HookRun:
    """A wire `HookRunSummary` as the core's `HookRun` (`preToolUse` → `PreToolUse`)."""
    name = run.get("eventName") or ""
    return HookRun(
        id=run.get("id") or "",
        event_name=name[:1].upper() + name[1:],
        source_path=run.get("sourcePath") or "",
        source=run.get("source") or "unknown",
        scope="thread" if run.get("scope") == "thread" else "turn",
        display_order=run.get("displayOrder") or 0,
        status=run.get("status") or "running",
        status_message=run.get("statusMessage"),
        started_at=run.get("startedAt") or 0,
        duration_ms=run.get("durationMs"),
        entries=[
            {"kind": str(e.get("kind")), "text": str(e.get("text"))}
            for e in run.get("entries") or []
        ],
    )


def wire_auto_review(params: dict[str, Any]) -> dict[str, Any]:
    """`item/autoApprovalReview/completed` as the fields of the decision line the cells show
    (an `ApprovalDecisionEvent`'s)."""
    review = params.get("review") or {}
    action = params.get("action") or {}
    status = review.get("status")
    decision: ReviewDecision = (
        "approved" if status == "approved" else "abort" if status == "aborted" else "denied"
    )
    is_command = action.get("type") == "command"
    return {
        "call_id": params.get("targetItemId") or "",
        "kind": "exec" if is_command else "patch",
        "decision": decision,
        "command": wire_argv(action.get("command") or "") if is_command else None,
        "reviewer": "auto_review",
        "rationale": review.get("rationale"),
        "cwd": action.get("cwd") or None,
    }


def wire_mcp_call(item: dict[str, Any]) -> dict[str, Any]:
    """The fields of an MCP tool call's begin event for a wire `mcpToolCall` item."""
    invocation = McpInvocation(
        server=item.get("server") or "",
        tool=item.get("tool") or "",
        arguments=item.get("arguments"),
    )
    return {"call_id": item.get("id") or "", "invocation": invocation}


def wire_mcp_result(item: dict[str, Any]) -> dict[str, Any]:
    """The fields of its end event: the server's result (`isError` when it failed) or the
    error, and how long it took."""
    error = item.get("error")
    if error is not None:
        result: dict[str, Any] = {"Err": str((error or {}).get("message") or error)}
    else:
        got = item.get("result") or {}
        ok = {"content": got.get("content") or [], "isError": item.get("status") == "failed"}
        if got.get("structuredContent") is not None:
            ok["structuredContent"] = got["structuredContent"]
        result = {"Ok": ok}
    duration = McpDuration.of_seconds((item.get("durationMs") or 0) / 1000)
    return {**wire_mcp_call(item), "result": result, "duration": duration}


def wire_web_search(item: dict[str, Any]) -> dict[str, Any]:
    """The fields of a web search's end event for a wire `webSearch` item (the action's
    camelCase kind back in the model's snake_case)."""
    action = item.get("action")
    if isinstance(action, dict):
        kind = str(action.get("type") or "other")
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in kind)
        action = {**action, "type": snake}
    return {"call_id": item.get("id") or "", "query": item.get("query") or "", "action": action}
