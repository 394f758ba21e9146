"""Events from the core to frontends (EventMsg), discriminated on `type`."""

import logging
from typing import Annotated, Any, Literal

from codex_core import lite
from codex_core.lite import ConfigDict, Field, TypeAdapter
from codex_core.policies import empty_list
from codex_core.protocol.common import (
    AskForApproval,
    FileChange,
    PlanItem,
    ReasoningEffort,
    ReviewDecision,
    SandboxPolicy,
    TokenUsageInfo,
    _Model,
)
from codex_core.protocol.elicitation import ElicitationRequestEvent
from codex_core.protocol.hook_events import HookCompletedEvent, HookStartedEvent
from codex_core.protocol.tool_events import (
    McpToolCallBeginEvent,
    McpToolCallEndEvent,
    WebSearchBeginEvent,
    WebSearchEndEvent,
)

log = logging.getLogger(__name__)

ABORTED_BY_USER = "aborted by user"
"""The marker an interrupted command's `exec_command_end` carries (as stderr and output)."""
INTERRUPTED_EXIT_CODE = 130
"""The exit code reported for a command killed because the user interrupted the turn."""


class ErrorEvent(_Model):
    """A fatal error for the turn, in one clear sentence."""

    type: Literal["error"] = "error"
    message: str


class WarningEvent(_Model):
    """Something the user should know that does not stop the turn."""

    type: Literal["warning"] = "warning"
    message: str


class StreamErrorEvent(_Model):
    """The stream broke and the core is retrying ("Reconnecting… 2/5")."""

    type: Literal["stream_error"] = "stream_error"
    message: str


class BackgroundEvent(_Model):
    """Informational status line."""

    type: Literal["background_event"] = "background_event"
    message: str


class TaskStartedEvent(_Model):
    """A turn began."""

    type: Literal["task_started"] = "task_started"
    model_context_window: int | None = None


class TaskCompleteEvent(_Model):
    """A turn ended normally."""

    type: Literal["task_complete"] = "task_complete"
    last_agent_message: str | None = None


class TokenCountEvent(_Model):
    """Token usage after a model response."""

    type: Literal["token_count"] = "token_count"
    info: TokenUsageInfo | None = None
    rate_limits: dict[str, Any] | None = None


class AgentMessageEvent(_Model):
    """A complete assistant message."""

    type: Literal["agent_message"] = "agent_message"
    message: str


class AgentMessageDeltaEvent(_Model):
    """A streamed piece of the assistant message (not persisted)."""

    type: Literal["agent_message_delta"] = "agent_message_delta"
    delta: str


class AgentReasoningEvent(_Model):
    """A complete reasoning summary."""

    type: Literal["agent_reasoning"] = "agent_reasoning"
    text: str


class AgentReasoningDeltaEvent(_Model):
    """A streamed piece of the reasoning summary (not persisted)."""

    type: Literal["agent_reasoning_delta"] = "agent_reasoning_delta"
    delta: str


class AgentReasoningSectionBreakEvent(_Model):
    """A new reasoning summary part begins."""

    type: Literal["agent_reasoning_section_break"] = "agent_reasoning_section_break"


class UserMessageEvent(_Model):
    """What the user submitted, as shown in the transcript."""

    type: Literal["user_message"] = "user_message"
    message: str
    images: list[str] | None = None


class SessionConfiguredEvent(_Model):
    """First event of a session: who, where and how."""

    type: Literal["session_configured"] = "session_configured"
    session_id: str
    model: str
    model_provider_id: str = "openai"
    reasoning_effort: ReasoningEffort | None = None
    history_log_id: int = 0
    history_entry_count: int = 0
    rollout_path: str | None = None
    cwd: str | None = None
    approval_policy: AskForApproval | None = None
    sandbox_policy: SandboxPolicy | None = None
    initial_messages: list[dict[str, Any]] | None = None


class ExecCommandBeginEvent(_Model):
    """A command starts."""

    type: Literal["exec_command_begin"] = "exec_command_begin"
    call_id: str
    command: list[str]
    cwd: str


class ExecCommandOutputDeltaEvent(_Model):
    """A chunk of a running command's output (not persisted)."""

    type: Literal["exec_command_output_delta"] = "exec_command_output_delta"
    call_id: str
    stream: Literal["stdout", "stderr"]
    chunk: str


class ExecCommandEndEvent(_Model):
    """A command finished."""

    type: Literal["exec_command_end"] = "exec_command_end"
    call_id: str
    stdout: str = ""
    stderr: str = ""
    aggregated_output: str = ""
    exit_code: int
    duration_ms: int = 0
    formatted_output: str = ""
    timed_out: bool = False
    interrupted: bool = False
    """The user interrupted the turn and the command was killed (exit code 130)."""
    command: list[str] | None = None
    """The command again, so a resumed transcript can show it (begin events are not recorded)."""


class TerminalInteractionEvent(_Model):
    """The model typed into (or polled) a running command with `write_stdin`."""

    type: Literal["terminal_interaction"] = "terminal_interaction"
    call_id: str
    """The `write_stdin` call."""
    process_id: str
    """The session id the model addressed."""
    stdin: str
    """What was typed; empty for a poll."""
    command_call_id: str | None = None
    """The `exec_command` call that started the command (its begin/end events carry it)."""


class ExecApprovalRequestEvent(_Model):
    """The user must decide whether a command may run (answer: `exec_approval`)."""

    type: Literal["exec_approval_request"] = "exec_approval_request"
    call_id: str
    command: list[str]
    cwd: str
    reason: str | None = None
    suggested_prefix: list[str] | None = None


class ApplyPatchApprovalRequestEvent(_Model):
    """The user must decide whether a patch may be applied (answer: `patch_approval`)."""

    type: Literal["apply_patch_approval_request"] = "apply_patch_approval_request"
    call_id: str
    changes: dict[str, FileChange]
    reason: str | None = None
    grant_root: str | None = None


class ApprovalDecisionEvent(_Model):
    """A recorded approval decision, so resumed sessions show it."""

    type: Literal["approval_decision"] = "approval_decision"
    call_id: str
    kind: Literal["exec", "patch"]
    decision: ReviewDecision
    command: list[str] | None = None
    reviewer: Literal["auto_review", "another_client"] | None = None
    """Set when the automatic reviewer decided instead of the user (`--approve-for-me`), or
    another client of the same app-server thread did (only the remote TUI makes these)."""
    rationale: str | None = None
    """The automatic reviewer's reason (or why it could not decide, which denies)."""
    cwd: str | None = None
    """Where the command would have run (automatic reviews)."""


class PatchApplyBeginEvent(_Model):
    """A patch is about to be applied."""

    type: Literal["patch_apply_begin"] = "patch_apply_begin"
    call_id: str
    auto_approved: bool
    changes: dict[str, FileChange]


class PatchApplyEndEvent(_Model):
    """A patch was applied, or failed."""

    type: Literal["patch_apply_end"] = "patch_apply_end"
    call_id: str
    stdout: str = ""
    stderr: str = ""
    success: bool
    changes: dict[str, FileChange] | None = None
    """What the patch changed, when no `patch_apply_begin` said it (a replayed 0.169
    `FileChange` item; 0.169's own end event carries them too)."""


class TurnDiffEvent(_Model):
    """The git-style diff of everything the turn changed so far."""

    type: Literal["turn_diff"] = "turn_diff"
    unified_diff: str


class PlanUpdateEvent(_Model):
    """The model's plan (update_plan tool)."""

    type: Literal["plan_update"] = "plan_update"
    explanation: str | None = None
    plan: list[PlanItem]


class McpServerStatus(_Model):
    """One configured MCP server as `/mcp` shows it."""

    name: str
    status: str
    """`starting`, `ready` or `failed`."""
    error: str | None = None
    tools: list[str] = Field(default_factory=empty_list)


class McpListToolsResponseEvent(_Model):
    """Answer to `list_mcp_tools`: every enabled server, by name."""

    type: Literal["mcp_list_tools_response"] = "mcp_list_tools_response"
    servers: list[McpServerStatus] = Field(default_factory=empty_list)


class BackgroundTerminal(_Model):
    """One running `exec_command` process, as `/ps` lists it."""

    process_id: str
    """The id `exec_command` returned and `write_stdin` takes."""
    command: str
    """The command as typed (without the `bash -lc` wrapper)."""
    os_pid: int | None = None
    elapsed_ms: int
    """How long it has been running."""
    last_line: str | None = None
    """Its last non-blank line of output, if it printed any."""


class ListBackgroundTerminalsResponseEvent(_Model):
    """Answer to `list_background_terminals`: the running processes, oldest first."""

    type: Literal["list_background_terminals_response"] = "list_background_terminals_response"
    terminals: list[BackgroundTerminal] = Field(default_factory=empty_list)


class BackgroundTerminalsStoppedEvent(_Model):
    """Answer to `terminate_background_terminal` and `clean_background_terminals`."""

    type: Literal["background_terminals_stopped"] = "background_terminals_stopped"
    stopped: list[BackgroundTerminal] = Field(default_factory=empty_list)
    """The processes killed (each still reports its end as `exec_command_end`)."""
    unknown_process_id: str | None = None
    """Set when the one process asked for was not running."""


class TurnAbortedEvent(_Model):
    """The turn ended early."""

    type: Literal["turn_aborted"] = "turn_aborted"
    reason: Literal["interrupted", "replaced", "review_ended"] = "interrupted"


class GetHistoryEntryResponseEvent(_Model):
    """Answer to `get_history_entry_request`."""

    type: Literal["get_history_entry_response"] = "get_history_entry_response"
    offset: int
    log_id: int
    entry: str | None = None


class ShutdownCompleteEvent(_Model):
    """The session stopped; no more events follow."""

    type: Literal["shutdown_complete"] = "shutdown_complete"


EventMsg = Annotated[
    ErrorEvent
    | WarningEvent
    | StreamErrorEvent
    | BackgroundEvent
    | TaskStartedEvent
    | TaskCompleteEvent
    | TokenCountEvent
    | AgentMessageEvent
    | AgentMessageDeltaEvent
    | AgentReasoningEvent
    | AgentReasoningDeltaEvent
    | AgentReasoningSectionBreakEvent
    | UserMessageEvent
    | SessionConfiguredEvent
    | ExecCommandBeginEvent
    | ExecCommandOutputDeltaEvent
    | ExecCommandEndEvent
    | TerminalInteractionEvent
    | ExecApprovalRequestEvent
    | ApplyPatchApprovalRequestEvent
    | ApprovalDecisionEvent
    | PatchApplyBeginEvent
    | PatchApplyEndEvent
    | TurnDiffEvent
    | PlanUpdateEvent
    | McpToolCallBeginEvent
    | McpToolCallEndEvent
    | WebSearchBeginEvent
    | WebSearchEndEvent
    | McpListToolsResponseEvent
    | ListBackgroundTerminalsResponseEvent
    | BackgroundTerminalsStoppedEvent
    | TurnAbortedEvent
    | GetHistoryEntryResponseEvent
    | ShutdownCompleteEvent
    | HookStartedEvent
    | HookCompletedEvent
    | ElicitationRequestEvent,
    Field(discriminator="type"),
]
EVENT_MSG: TypeAdapter[EventMsg] = TypeAdapter(EventMsg, config=ConfigDict(defer_build=True))
"""Validators built on first use (a resumed rollout, the app-server), not at import."""


class Event(_Model):
    """An event with the id of the submission that caused it."""

    id: str
    msg: EventMsg


def parse_event_msg(data: Any) -> EventMsg | None:
    """Parse an event payload; unknown or malformed ones give None (newer Codex adds types)."""
    try:
        return EVENT_MSG.validate_python(data)
    except lite.ValidationError as err:
        log.debug("skipping unknown event: %s", err)
        return None
