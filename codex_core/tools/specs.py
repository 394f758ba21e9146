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


EXEC_COMMAND_DESCRIPTION = (
    "Start a shell command and return what it prints within the yield time. A command still "
    "running by then keeps going in the background: the result names its session ID, which "
    "`write_stdin` uses to type into it or read more output."
)
WRITE_STDIN_DESCRIPTION = (
    "Send characters to a command started by `exec_command` (or send nothing to wait for more "
    "output) and return what it printed since the last call."
)
_TOKENS_NOTE = "Most output tokens to return (default 10000); the middle of longer output is cut."


def exec_command_tool(approval_policy: AskForApproval) -> ToolSpec:
    """The `exec_command` function tool (unified exec), argument shapes as in Codex 0.169."""
    del approval_policy  # the escalation fields are always offered, as in Codex 0.169
    properties: dict[str, object] = {
        "cmd": {"type": "string", "description": "The shell command line to run."},
        "justification": {
            "type": "string",
            "description": "With `require_escalated`: the question shown to the user.",
        },
        "login": {
            "type": "boolean",
            "description": "Run the shell as a login shell (default true).",
        },
        "max_output_tokens": {"type": "number", "description": _TOKENS_NOTE},
        "prefix_rule": {
            "type": "array",
            "items": {"type": "string"},
            "description": (
                "With `require_escalated`: a command prefix the user may allow from now on, "
                'e.g. ["npm", "install"].'
            ),
        },
        "sandbox_permissions": {
            "type": "string",
            "enum": ["use_default", "require_escalated"],
            "description": "`require_escalated` asks the user to run this outside the sandbox.",
        },
        "shell": {"type": "string", "description": "Shell to run it with (default: yours)."},
        "tty": {
            "type": "boolean",
            "description": "Give the command a terminal (needed to type into it); default false.",
        },
        "workdir": {
            "type": "string",
            "description": "Directory to run in (default: the turn's working directory).",
        },
        "yield_time_ms": {
            "type": "number",
            "description": "How long to wait for output before returning (default 10000, "
            "250 to 30000).",
        },
    }
    return ToolSpec(
        name="exec_command",
        description=EXEC_COMMAND_DESCRIPTION,
        parameters={
            "type": "object",
            "properties": properties,
            "required": ["cmd"],
            "additionalProperties": False,
        },
    )


def write_stdin_tool() -> ToolSpec:
    """The `write_stdin` function tool (unified exec)."""
    return ToolSpec(
        name="write_stdin",
        description=WRITE_STDIN_DESCRIPTION,
        parameters={
            "type": "object",
            "properties": {
                "chars": {
                    "type": "string",
                    "description": "What to type; empty (the default) only waits for output.",
                },
                "max_output_tokens": {"type": "number", "description": _TOKENS_NOTE},
                "session_id": {
                    "type": "number",
                    "description": "The session ID `exec_command` returned.",
                },
                "yield_time_ms": {
                    "type": "number",
                    "description": "How long to wait for output: default 250 after typing "
                    "(up to 30000); an empty poll waits 5000 to 300000.",
                },
            },
            "required": ["session_id"],
            "additionalProperties": False,
        },
    )
