"""Whether an MCP tool call runs, asks the user first, or is refused (pure)."""

from __future__ import annotations

from typing import Literal

from codex_core.protocol import AskForApproval

ApprovalMode = Literal["auto", "prompt", "approve"]
McpApproval = Literal["run", "ask", "refuse"]

REFUSED_UNDER_NEVER = "MCP tool call requires approval, but approval policy is never"


def mcp_call_approval(
    *,
    policy: AskForApproval,
    mode: ApprovalMode | None,
    read_only: bool,
    full_access: bool,
) -> McpApproval:
    """Decide one call as the Codex CLI 0.169 does.

    Args:
        policy: The turn's approval policy (`codex exec` always runs under `never`).
        mode: The tool's `approval_mode`, else its server's `default_tools_approval_mode`.
        read_only: The tool carries the `readOnlyHint` annotation.
        full_access: The sandbox is `danger-full-access` (also set by the bypass flag).
    """
    if mode == "approve":
        return "run"
    if mode != "prompt" and read_only:
        return "run"
    if policy == "never":
        return "run" if full_access else "refuse"
    return "ask"
