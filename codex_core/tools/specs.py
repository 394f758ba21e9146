"""JSON-schema definitions of the tools offered to the model."""

from __future__ import annotations

from codex_core.client import ToolSpec
from codex_core.protocol import AskForApproval

SHELL_DESCRIPTION = (
    "Run a command on the user's machine and return its output. `command` is an argv list, "
    'usually ["bash", "-lc", "<script>"].'
)
ESCALATION_NOTE = (
    " Set `with_escalated_permissions` to true, with a one-sentence `justification`, only when the "
    "command must run outside the sandbox; the user will be asked."
)
APPLY_PATCH_DESCRIPTION = (
    "Edit files with a patch in the apply_patch format (*** Begin Patch … *** End Patch). "
    "Use this for every file edit."
)
UPDATE_PLAN_DESCRIPTION = (
    "Record or update the plan for the current task: a short list of steps, each pending, "
    "in_progress or completed, with at most one in_progress."
)


def shell_tool(approval_policy: AskForApproval) -> ToolSpec:
    """The `shell` function tool; escalation fields are offered only under on-request."""
    properties: dict[str, object] = {
        "command": {
            "type": "array",
            "items": {"type": "string"},
            "description": "The argv to run.",
        },
        "workdir": {
            "type": "string",
            "description": "Directory to run in (default: the session cwd).",
        },
        "timeout_ms": {"type": "number", "description": "Time limit in milliseconds."},
    }
    description = SHELL_DESCRIPTION
    if approval_policy == "on-request":
        description += ESCALATION_NOTE
        properties["with_escalated_permissions"] = {
            "type": "boolean",
            "description": "Ask the user to run this command without the sandbox.",
        }
        properties["justification"] = {
            "type": "string",
            "description": "Why the command needs to run outside the sandbox (shown to the user).",
        }
    return ToolSpec(
        name="shell",
        description=description,
        parameters={
            "type": "object",
            "properties": properties,
            "required": ["command"],
            "additionalProperties": False,
        },
    )


def apply_patch_tool() -> ToolSpec:
    """The `apply_patch` function tool taking the patch text as `input`."""
    return ToolSpec(
        name="apply_patch",
        description=APPLY_PATCH_DESCRIPTION,
        parameters={
            "type": "object",
            "properties": {"input": {"type": "string", "description": "The whole patch text."}},
            "required": ["input"],
            "additionalProperties": False,
        },
    )


def update_plan_tool() -> ToolSpec:
    """The `update_plan` function tool."""
    step = {
        "type": "object",
        "properties": {
            "step": {"type": "string"},
            "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
        },
        "required": ["step", "status"],
        "additionalProperties": False,
    }
    return ToolSpec(
        name="update_plan",
        description=UPDATE_PLAN_DESCRIPTION,
        parameters={
            "type": "object",
            "properties": {
                "explanation": {"type": "string"},
                "plan": {"type": "array", "items": step},
            },
            "required": ["plan"],
            "additionalProperties": False,
        },
    )
