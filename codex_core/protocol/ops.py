"""Submissions from frontends to the core (Op), discriminated on `type`."""

from typing import Annotated, Any, Literal

from codex_core.lite import ConfigDict, Field, TypeAdapter
from codex_core.policies import GranularApproval
from codex_core.protocol.common import (
    AskForApproval,
    InputItem,
    ReasoningEffort,
    ReasoningSummary,
    ReviewDecision,
    SandboxPolicy,
    _Model,
)
from codex_core.protocol.elicitation import ResolveElicitationOp
from codex_core.protocol.review import ReviewOp


class UserTurnOp(_Model):
    """Start a turn with user input; set fields override the turn context from now on."""

    type: Literal["user_turn"] = "user_turn"
    items: list[InputItem]
    cwd: str | None = None
    approval_policy: AskForApproval | None = None
    granular: GranularApproval | None = None
    """`granular`'s settings, with `approval_policy = "granular"`."""
    sandbox_policy: SandboxPolicy | None = None
    model: str | None = None
    effort: ReasoningEffort | None = None
    summary: ReasoningSummary | None = None
    final_output_json_schema: dict[str, Any] | None = None


class UserInputOp(_Model):
    """User input with the current turn context."""

    type: Literal["user_input"] = "user_input"
    items: list[InputItem]


class SteerInputOp(_Model):
    """User input for the running turn (0.169's `turn/steer`): the model sees it at the
    turn's next request, and it is shown (`user_message`) then; with no user turn running
    it starts one, as `user_input` would."""

    type: Literal["steer_input"] = "steer_input"
    items: list[InputItem]


class InterruptOp(_Model):
    """Abort the running turn."""

    type: Literal["interrupt"] = "interrupt"


class ExecApprovalOp(_Model):
    """The user's decision on an `exec_approval_request` (id = the call id)."""

    type: Literal["exec_approval"] = "exec_approval"
    id: str
    decision: ReviewDecision
    remember_prefix: list[str] | None = None


class PatchApprovalOp(_Model):
    """The user's decision on an `apply_patch_approval_request` (id = the call id)."""

    type: Literal["patch_approval"] = "patch_approval"
    id: str
    decision: ReviewDecision


class OverrideTurnContextOp(_Model):
    """Change the context of later turns without starting one."""

    type: Literal["override_turn_context"] = "override_turn_context"
    cwd: str | None = None
    approval_policy: AskForApproval | None = None
    granular: GranularApproval | None = None
    """`granular`'s settings, with `approval_policy = "granular"`."""
    sandbox_policy: SandboxPolicy | None = None
    model: str | None = None
    effort: ReasoningEffort | None = None
    summary: ReasoningSummary | None = None


class AddToHistoryOp(_Model):
    """Append a message to the global `history.jsonl`."""

    type: Literal["add_to_history"] = "add_to_history"
    text: str


class GetHistoryEntryRequestOp(_Model):
    """Ask for one `history.jsonl` entry (composer up-arrow)."""

    type: Literal["get_history_entry_request"] = "get_history_entry_request"
    offset: int
    log_id: int


class CompactOp(_Model):
    """Summarise the conversation to free context."""

    type: Literal["compact"] = "compact"


class ListMcpToolsOp(_Model):
    """Ask for the MCP servers' status and tools; answered by `mcp_list_tools_response`."""

    type: Literal["list_mcp_tools"] = "list_mcp_tools"


class UndoOp(_Model):
    """Restore the working tree to the snapshot taken before the last turn that has one."""

    type: Literal["undo"] = "undo"


class ListBackgroundTerminalsOp(_Model):
    """Ask for the session's running `exec_command` processes; answered by
    `list_background_terminals_response`."""

    type: Literal["list_background_terminals"] = "list_background_terminals"


class TerminateBackgroundTerminalOp(_Model):
    """Kill one background terminal (`process_id` as `exec_command` reported it); answered by
    `background_terminals_stopped`."""

    type: Literal["terminate_background_terminal"] = "terminate_background_terminal"
    process_id: str


class CleanBackgroundTerminalsOp(_Model):
    """Kill every background terminal (Codex's `/stop`); answered by
    `background_terminals_stopped`."""

    type: Literal["clean_background_terminals"] = "clean_background_terminals"


class ShutdownOp(_Model):
    """Stop the session; answered by `shutdown_complete`."""

    type: Literal["shutdown"] = "shutdown"


Op = Annotated[
    UserTurnOp
    | UserInputOp
    | SteerInputOp
    | InterruptOp
    | ExecApprovalOp
    | PatchApprovalOp
    | OverrideTurnContextOp
    | AddToHistoryOp
    | GetHistoryEntryRequestOp
    | CompactOp
    | ListMcpToolsOp
    | UndoOp
    | ListBackgroundTerminalsOp
    | TerminateBackgroundTerminalOp
    | CleanBackgroundTerminalsOp
    | ShutdownOp
    | ResolveElicitationOp
    | ReviewOp,
    Field(discriminator="type"),
]


class Submission(_Model):
    """An op with the id its events will carry."""

    id: str
    op: Op


OP: TypeAdapter[Op] = TypeAdapter(Op, config=ConfigDict(defer_build=True))
