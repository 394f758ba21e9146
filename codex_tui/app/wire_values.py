"""App-server wire values → core values and items, for the TUI's `wire_items` (pure)."""

from __future__ import annotations

import shlex
from typing import Any

from codex_core.items import kinds as k
from codex_core.policies import CHOSEN_APPROVALS
from codex_core.protocol import HookRun, McpDuration
from codex_core.protocol.common import (
    AddChange,
    DeleteChange,
    FileChange,
    PlanItem,
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
    if isinstance(value, dict) and "granular" in value:
        return "granular"
    return value if value in CHOSEN_APPROVALS else None


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
    """`item/autoApprovalReview/completed` as the arguments of `ItemState.decided`: the
    automatic reviewer's decision about a command or a patch."""
    review = params.get("review") or {}
    action = params.get("action") or {}
    status = review.get("status")
    decision: ReviewDecision = (
        "approved" if status == "approved" else "abort" if status == "aborted" else "denied"
    )
    is_command = action.get("type") == "command"
    return {
        "item_id": params.get("targetItemId") or "",
        "kind": "exec" if is_command else "patch",
        "decision": decision,
        "command": tuple(wire_argv(action.get("command") or "")) if is_command else (),
        "reviewer": "auto_review",
        "rationale": review.get("rationale"),
        "cwd": action.get("cwd") or "",
    }


def wire_mcp_call(item: dict[str, Any]) -> k.McpToolCallItem:
    """A wire `mcpToolCall` item as it began."""
    server, tool = item.get("server") or "", item.get("tool") or ""
    return k.McpToolCallItem(item.get("id") or "", server, tool, item.get("arguments"))


def wire_mcp_end(item: dict[str, Any]) -> dict[str, Any]:
    """The fields of an ended `mcpToolCall` item: the server's result (`isError` when it
    failed) or the error, and how long it took (milliseconds as whole `{secs, nanos}`)."""
    error = item.get("error")
    result: dict[str, Any] | None = None
    if error is None:
        got = item.get("result") or {}
        result = {"content": got.get("content") or [], "isError": item.get("status") == "failed"}
        if got.get("structuredContent") is not None:
            result["structuredContent"] = got["structuredContent"]
    duration = McpDuration.of_seconds((item.get("durationMs") or 0) / 1000)
    return {
        "status": "completed" if result is not None and not result["isError"] else "failed",
        "result": result,
        "error": None if error is None else _message(error),
        "duration_ms": duration.millis,
        "duration_ns": duration.secs * 1_000_000_000 + duration.nanos,
        "read_only": False,
    }


def _message(error: Any) -> str:
    """A wire error's text: its `message`, or the value itself."""
    message = error.get("message") if isinstance(error, dict) else None
    return str(message or error)


def wire_command(item: dict[str, Any]) -> k.CommandExecutionItem:
    """A wire `commandExecution` item as it began (argv from its one-line command)."""
    command = tuple(wire_argv(item.get("command") or ""))
    return k.CommandExecutionItem(item.get("id") or "", command, item.get("cwd") or "")


def wire_patch(item: dict[str, Any]) -> k.FileChangeItem:
    """A wire `fileChange` item as it began."""
    return k.FileChangeItem(item.get("id") or "", wire_changes(item.get("changes") or []))


def wire_user(item: dict[str, Any]) -> k.UserMessageItem:
    """A wire `userMessage` item: its text parts joined by lines, its images' URLs or paths."""
    content = item.get("content") or []
    text = "\n".join(c.get("text", "") for c in content if c.get("type") == "text")
    images = tuple(
        c.get("url") or c.get("path") or ""
        for c in content
        if c.get("type") in ("image", "localImage")
    )
    return k.UserMessageItem(item.get("id") or "", text, images)


def wire_plan(plan: list[dict[str, Any]]) -> list[PlanItem]:
    """`turn/plan/updated`'s steps (`inProgress` → `in_progress`)."""
    return [
        PlanItem(
            step=s["step"],
            status="in_progress" if s["status"] == "inProgress" else s["status"],
        )
        for s in plan
    ]


def wire_web_search(item: dict[str, Any]) -> dict[str, Any]:
    """The fields of a web search's end event for a wire `webSearch` item (the action's
    camelCase kind back in the model's snake_case)."""
    action = item.get("action")
    if isinstance(action, dict):
        kind = str(action.get("type") or "other")
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in kind)
        action = {**action, "type": snake}
    return {"call_id": item.get("id") or "", "query": item.get("query") or "", "action": action}
