"""`session/request_permission`: the whole tool call, as Zed's Codex adapter sends it.

The request repeats what the pending `tool_call` update said — title, kind, locations,
content (the reason; a patch's diffs) and `rawInput` (the approval request itself) — so a
client can draw the prompt from the request alone. Reject stops the turn (`abort`), and the
prompt ends `cancelled`, as in the adapter; on an MCP tool call it cancels that call only.
"""

from __future__ import annotations

from typing import Any

import acp
from acp.schema import PermissionOption, ToolCallLocation, ToolCallUpdate

from codex_core.frontend.commands import display_command
from codex_core.items import notices as n
from codex_core.protocol import ReviewDecision
from codex_core.servers.acp.updates import change_content, patch_title

PERMISSION_OPTIONS = [
    PermissionOption(option_id="allow_once", name="Allow", kind="allow_once"),
    PermissionOption(option_id="allow_always", name="Allow for this session", kind="allow_always"),
    PermissionOption(option_id="reject_once", name="Reject", kind="reject_once"),
]
DECISIONS: dict[str, ReviewDecision] = {
    "allow_once": "approved",
    "allow_always": "approved_for_session",
    "reject_once": "abort",
}


def raw_request(request: n.CommandApprovalRequested | n.PatchApprovalRequested) -> dict[str, Any]:
    """The approval request as the session asked it (`rawInput`): its fields, none unset."""
    raw: dict[str, Any] = {"call_id": request.item_id}
    if isinstance(request, n.PatchApprovalRequested):
        raw["changes"] = {
            path: change.model_dump(mode="json", exclude_none=True)
            for path, change in request.changes.items()
        }
        optional: dict[str, Any] = {"reason": request.reason, "grant_root": request.grant_root}
    else:
        raw["command"] = list(request.command)
        raw["cwd"] = request.cwd
        prefix = request.suggested_prefix
        listed = list(prefix) if prefix is not None else None
        optional = {"reason": request.reason, "suggested_prefix": listed}
    return raw | {key: value for key, value in optional.items() if value is not None}


def permission_tool_call(
    request: n.CommandApprovalRequested | n.PatchApprovalRequested,
) -> ToolCallUpdate:
    """The tool call a permission request carries."""
    raw_input = raw_request(request)
    reason: list[Any] = []
    if request.reason:
        reason.append(acp.tool_content(acp.text_block(request.reason)))
    if isinstance(request, n.PatchApprovalRequested):
        return ToolCallUpdate(
            tool_call_id=request.item_id,
            kind="edit",
            status="pending",
            title=patch_title(request.changes),
            locations=[ToolCallLocation(path=path) for path in request.changes],
            content=[*change_content(request.changes), *reason],
            raw_input=raw_input,
        )
    command = list(request.command)
    if len(command) >= 3 and command[0] == "mcp":  # `mcp SERVER TOOL ARGS`
        title = f"{command[2]} ({command[1]} MCP server)"
        mcp_input: dict[str, Any] = {"server": command[1], "tool": command[2]}
        mcp_input["arguments"] = command[3] if len(command) > 3 else "{}"
        return ToolCallUpdate(
            tool_call_id=request.item_id,
            kind="execute",
            status="pending",
            title=title,
            content=reason or None,
            raw_input={**raw_input, **mcp_input},
        )
    return ToolCallUpdate(
        tool_call_id=request.item_id,
        kind="execute",
        status="pending",
        title=display_command(command),
        locations=[ToolCallLocation(path=request.cwd)] if request.cwd else None,
        content=reason or None,
        raw_input=raw_input,
    )
