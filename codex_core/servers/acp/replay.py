"""A resumed session's history as the `session/update`s a client shows on `session/load`."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import acp
from acp.schema import ToolCallStatus

from codex_core import lite
from codex_core.frontend.commands import display_command
from codex_core.lite import TypeAdapter
from codex_core.protocol import FileChange
from codex_core.servers.acp.updates import Update, patch_start

log = logging.getLogger(__name__)

_CHANGES: TypeAdapter[dict[str, FileChange]] = TypeAdapter(dict[str, FileChange])


def recorded_patches(path: Path) -> dict[str, dict[str, FileChange]]:
    """The changes of every patch a rollout recorded, by call id: from 0.169's `FileChange`
    items and from the `patch_apply_begin` events of older rollouts."""
    from codex_core.rollout.reader import read_rollout

    patches: dict[str, dict[str, FileChange]] = {}
    for line in read_rollout(path).lines:
        if line.type != "event_msg":
            continue
        payload = line.payload
        item = payload.get("item")
        if payload.get("type") == "item_completed" and isinstance(item, dict):
            if item.get("type") != "FileChange":
                continue
            call_id, changes = item.get("id"), item.get("changes")
        elif payload.get("type") == "patch_apply_begin":
            call_id, changes = payload.get("call_id"), payload.get("changes")
        else:
            continue
        try:
            patches[str(call_id)] = _CHANGES.validate_python(changes)
        except lite.ValidationError:
            log.warning("unreadable changes of patch %s in %s", call_id, path)
    return patches


def replay(
    events: list[dict[str, Any]], patches: dict[str, dict[str, FileChange]] | None = None
) -> list[Update]:
    """Recorded events as updates: messages, thoughts, commands and patches (with their
    diffs when `patches` has the call's changes)."""
    out: list[Update] = []
    for event in events:
        kind = event.get("type")
        if kind == "user_message":
            out.append(acp.update_user_message_text(str(event.get("message", ""))))
        elif kind == "agent_message":
            out.append(acp.update_agent_message_text(str(event.get("message", ""))))
        elif kind == "agent_reasoning":
            out.append(acp.update_agent_thought_text(str(event.get("text", ""))))
        elif kind == "exec_command_end":
            command = event.get("command")
            argv = [str(c) for c in command] if isinstance(command, list) else []
            code = event.get("exit_code")
            out.append(
                acp.start_tool_call(
                    str(event.get("call_id", "")),
                    display_command(argv),
                    kind="execute",
                    status="completed" if code == 0 else "failed",
                    content=[
                        acp.tool_content(acp.text_block(str(event.get("aggregated_output", ""))))
                    ],
                )
            )
        elif kind == "patch_apply_end":
            call_id = str(event.get("call_id", ""))
            status: ToolCallStatus = "completed" if event.get("success") else "failed"
            changes = (patches or {}).get(call_id)
            if changes:
                out.append(patch_start(call_id, changes, status))
            else:
                out.append(acp.start_tool_call(call_id, "Edit files", kind="edit", status=status))
    return out
