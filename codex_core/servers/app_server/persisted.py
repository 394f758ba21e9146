"""Threads on disk: rollouts as wire `Thread`s with their turns (list, read)."""

from __future__ import annotations

import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core import __version__
from codex_core.rollout import reconstruct
from codex_core.rollout.reader import read_rollout
from codex_core.servers.app_server import model_items as items
from codex_core.servers.app_server.convert import command_actions, command_line, file_changes
from codex_core.servers.app_server.item_wire import search_action
from codex_core.servers.app_server.model_build import build_thread_models
from codex_core.servers.app_server.model_thread import (
    NotLoadedStatus,
    Thread,
    ThreadStatus,
    Turn,
)

if TYPE_CHECKING:
    from codex_core.rollout import SessionSummary  # loads the listing and its SQLite catalog

SOURCES = {"cli", "vscode", "exec", "appServer"}


def _epoch(timestamp: str | None, default: float) -> int:
    if not timestamp:
        return int(default)
    try:
        return int(datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return int(default)


def _source(value: Any) -> Any:
    return value if value in SOURCES else "unknown"


def thread_from_summary(summary: SessionSummary) -> Thread:
    """A listed session as a (not loaded) thread."""
    build_thread_models()
    return Thread(
        id=summary.id,
        sessionId=summary.id,
        preview=summary.preview,
        modelProvider=summary.model_provider or "openai",
        createdAt=_epoch(summary.created_at, summary.updated_at),
        updatedAt=int(summary.updated_at),
        status=NotLoadedStatus(),
        path=summary.path,
        cwd=summary.cwd or "",
        cliVersion=__version__,
    )


def thread_from_rollout(
    path: Path, status: ThreadStatus | None = None, *, with_turns: bool
) -> Thread:
    """A rollout file as a thread; `with_turns` rebuilds its turns from the recorded events."""
    build_thread_models()
    rollout = read_rollout(path)
    meta = rollout.meta or {}
    restored = reconstruct(rollout)
    turns = turns_from_events(restored.events, meta.get("cwd") or "") if with_turns else []
    preview = next(
        (
            str(e.get("message", ""))
            for e in restored.events
            if e.get("type") == "user_message" and e.get("message")
        ),
        "",
    )
    mtime = path.stat().st_mtime
    context = restored.turn_context or {}
    forked = meta.get("forked_from")
    return Thread(
        id=restored.session_id,
        sessionId=restored.session_id,
        forkedFromId=forked if isinstance(forked, str) else None,
        preview=preview,
        modelProvider=str(meta.get("model_provider") or "openai"),
        model=context.get("model") if isinstance(context.get("model"), str) else None,
        createdAt=_epoch(meta.get("timestamp"), mtime),
        updatedAt=int(mtime),
        status=status or NotLoadedStatus(),
        path=str(path),
        cwd=str(meta.get("cwd") or ""),
        cliVersion=str(meta.get("cli_version") or __version__),
        originator=meta.get("originator") if isinstance(meta.get("originator"), str) else None,
        source=_source(meta.get("source")),
        turns=turns,
    )


def turns_from_events(events: list[dict[str, Any]], cwd: str) -> list[Turn]:
    """Turns rebuilt from persisted events: each user message opens one."""
    turns: list[Turn] = []
    now = int(time.time())

    def current() -> Turn:
        if not turns:
            turns.append(Turn(id=str(uuid.uuid4()), status="completed", itemsView="full"))
        return turns[-1]

    for event in events:
        kind = event.get("type")
        if kind == "user_message":
            turn = Turn(id=str(uuid.uuid4()), status="completed", itemsView="full", startedAt=now)
            text = str(event.get("message", ""))
            turn.items.append(
                items.UserMessageItem(
                    id=str(uuid.uuid4()), content=[items.TextUserInput(text=text)]
                )
            )
            turns.append(turn)
        elif kind == "agent_message":
            current().items.append(
                items.AgentMessageItem(
                    id=f"msg_{uuid.uuid4().hex[:12]}", text=str(event.get("message", ""))
                )
            )
        elif kind == "agent_reasoning":
            current().items.append(
                items.ReasoningItem(
                    id=f"rs_{uuid.uuid4().hex[:12]}", summary=[str(event.get("text", ""))]
                )
            )
        elif kind == "exec_command_end":
            command = event.get("command")
            argv = [str(c) for c in command] if isinstance(command, list) else []
            code = event.get("exit_code")
            current().items.append(
                items.CommandExecutionItem(
                    id=str(event.get("call_id") or uuid.uuid4()),
                    command=command_line(argv),
                    cwd=cwd,
                    status="completed" if code == 0 else "failed",
                    commandActions=command_actions(argv),
                    aggregatedOutput=str(event.get("aggregated_output", "")),
                    exitCode=code if isinstance(code, int) else None,
                )
            )
        elif kind == "mcp_tool_call_end":
            current().items.append(_mcp_call(event))
        elif kind == "patch_apply_end":
            current().items.append(_file_change(event))
        elif kind == "web_search_end":
            action = event.get("action")
            current().items.append(
                items.WebSearchItem(
                    id=str(event.get("call_id") or uuid.uuid4()),
                    query=str(event.get("query") or ""),
                    action=search_action(action if isinstance(action, dict) else None),
                )
            )
        elif kind == "turn_aborted" and turns:
            turns[-1].status = "interrupted"
        elif kind == "error" and turns:
            turns[-1].status = "failed"
    return turns


def _mcp_call(event: dict[str, Any]) -> items.McpToolCallItem:
    """A recorded `mcp_tool_call_end` as its item (what a resumed thread shows)."""
    invocation = event.get("invocation") or {}
    outcome = event.get("result") or {}
    duration = event.get("duration") or {}
    ok = outcome.get("Ok") if isinstance(outcome, dict) else None
    failed = ok is None or bool(ok.get("isError"))
    call = items.McpToolCallItem(
        id=str(event.get("call_id") or uuid.uuid4()),
        server=str(invocation.get("server", "")),
        tool=str(invocation.get("tool", "")),
        arguments=invocation.get("arguments"),
        status="failed" if failed else "completed",
        durationMs=int(duration.get("secs", 0)) * 1000 + int(duration.get("nanos", 0)) // 1_000_000,
    )
    if ok is None:
        call.error = {"message": str(outcome.get("Err", "")) if isinstance(outcome, dict) else ""}
    else:
        call.result = {
            "content": ok.get("content") or [],
            "structuredContent": ok.get("structuredContent"),
        }
    return call


def _file_change(event: dict[str, Any]) -> items.FileChangeItem:
    """A recorded `patch_apply_end` as its item."""
    from codex_core.lite import TypeAdapter
    from codex_core.protocol.common import FileChange

    adapter: TypeAdapter[FileChange] = TypeAdapter(FileChange)
    raw = event.get("changes") or {}
    changes = {str(path): adapter.validate_python(change) for path, change in raw.items()}
    return items.FileChangeItem(
        id=str(event.get("call_id") or uuid.uuid4()),
        changes=file_changes(changes),
        status="completed" if event.get("success") else "failed",
    )
