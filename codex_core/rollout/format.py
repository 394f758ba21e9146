"""Rollout file format: names, line encoding, and which items and events are persisted."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SESSIONS_DIR = "sessions"
ARCHIVED_DIR = "archived_sessions"

LINE_TYPES = frozenset(
    {
        "session_meta",
        "response_item",
        "event_msg",
        "turn_context",
        "compacted",
        # Written by Codex 0.169; read and kept so a file's numbering and layout are known, but
        # not replayed.
        "world_state",
        "token_usage_record",
    }
)

# Responses API items a rollout keeps; anything else (a newer item type) is skipped by readers.
PERSISTED_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "ghost_snapshot",
        "compaction",
    }
)

# Events that describe what happened (and let a frontend redraw the transcript); streaming
# deltas, begin markers, requests and transient status are left out.
PERSISTED_EVENT_TYPES = frozenset(
    {
        "user_message",
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "token_count",
        "context_compacted",
        "entered_review_mode",
        "exited_review_mode",
        "undo_completed",
        "turn_aborted",
        "approval_decision",
        "exec_command_end",
        "patch_apply_end",
        "mcp_tool_call_end",
        "plan_update",
    }
)

# User messages that the agent injects (instructions, environment) rather than the user typed.
INJECTED_PREFIXES = (
    "<user_instructions>",
    "<environment_context>",
    "# agents.md instructions",
    "<instructions>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<skill>",
    "<hook_prompt",
)

_NAME_RE = re.compile(
    r"^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-"
    r"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$"
)


# Events 0.169 writes that readers keep: `item_completed` carries the visible conversation of
# 0.169-layout files; the turn brackets are kept so replay can tell turns apart.
READ_EVENT_TYPES = PERSISTED_EVENT_TYPES | {"item_completed", "task_started", "task_complete"}


def is_readable_event(event_type: str) -> bool:
    """Whether readers keep an `event_msg` of this `type` (persisted or written by 0.169)."""
    return event_type in READ_EVENT_TYPES


def is_persisted_event(event_type: str) -> bool:
    """Whether an event of this `type` is written to the rollout.

    Args:
        event_type: The snake_case EventMsg type, e.g. `agent_message`.
    """
    return event_type in PERSISTED_EVENT_TYPES


def is_persisted_item(item_type: str) -> bool:
    """Whether a Responses API item of this `type` is written to (and read from) rollouts."""
    return item_type in PERSISTED_ITEM_TYPES


def utc_timestamp(now: float | None = None) -> str:
    """An ISO-8601 UTC timestamp with milliseconds, e.g. `2025-10-01T12:00:00.123Z`."""
    moment = datetime.fromtimestamp(time.time() if now is None else now, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def encode_line(
    line_type: str, payload: dict[str, Any], now: float | None = None, *, ordinal: int | None = None
) -> bytes:
    """One complete rollout line, newline included; numbered when `ordinal` is given.

    Raises:
        TypeError: If the payload holds something JSON cannot represent.
    """
    record: dict[str, Any] = {"timestamp": utc_timestamp(now)}
    if ordinal is not None:
        record["ordinal"] = ordinal
    record.update(type=line_type, payload=payload)
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    try:
        return text.encode()
    except UnicodeEncodeError:  # lone surrogates (undecodable command output): escape them
        return (json.dumps(record, separators=(",", ":")) + "\n").encode()


def rollout_path(codex_home: Path, session_id: str, now: float | None = None) -> Path:
    """Where a session started at `now` (local time) is recorded."""
    local = time.localtime(time.time() if now is None else now)
    day_dir = codex_home / SESSIONS_DIR / time.strftime("%Y/%m/%d", local)
    return day_dir / f"rollout-{time.strftime('%Y-%m-%dT%H-%M-%S', local)}-{session_id}.jsonl"


def parse_rollout_name(name: str) -> tuple[str, str] | None:
    """The (`YYYY-MM-DDThh-mm-ss`, session id) encoded in a rollout file name, if it is one."""
    match = _NAME_RE.match(name)
    if match is None:
        return None
    return match.group(1), match.group(2).lower()


def message_text(item: dict[str, Any]) -> str:
    """The concatenated text parts of a Responses `message` item."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        part["text"]
        for part in content
        if isinstance(part, dict) and isinstance(part.get("text"), str) and part["text"]
    ]
    return "\n".join(parts)


def injected_kind(text: str) -> str | None:
    """Which injected block (its prefix) a user message is, or None if the user typed it."""
    head = text.lstrip()[:40].lower()
    for prefix in INJECTED_PREFIXES:
        if head.startswith(prefix):
            return prefix
    return None


def is_injected_text(text: str) -> bool:
    """Whether a user message was injected by the agent (instructions, environment context)."""
    return injected_kind(text) is not None


def real_user_text(item: dict[str, Any]) -> str | None:
    """The text of a user-typed `message` item, or None for other items and injected blocks."""
    if item.get("type") != "message" or item.get("role") != "user":
        return None
    text = message_text(item)
    if is_injected_text(text):
        return None
    return text
