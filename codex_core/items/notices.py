"""What the projection yields: item lifecycle notices and the turn's own notices.

Every notice names its `turn`: the id of the submission that started the turn (the `id` of
the events it came from). An item is `ItemStarted` once, may stream deltas, and is
`ItemCompleted` exactly once; `ItemCompleted.cause` says what ended it, so a frontend can
render an item its turn closed differently from one that finished.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from codex_core.items.kinds import ThreadItem
from codex_core.protocol.common import (
    AskForApproval,
    FileChange,
    PlanItem,
    ReasoningEffort,
    ReviewDecision,
    SandboxPolicy,
    TokenUsageInfo,
)
from codex_core.protocol.hook_events import HookRun

CompletionCause = Literal["ended", "declined", "cancelled", "turn_ended", "superseded"]
"""`ended`: its own end arrived; `declined`/`cancelled`: the user refused the approval (and
for `cancelled`, aborted the turn); `turn_ended`: its turn ended first (an interrupted turn
fails the item, a finished one leaves its status as it was); `superseded`: a call of another
kind reused its call id before it ended (it fails)."""

TurnStatus = Literal["completed", "failed", "interrupted"]

StartedBy = Literal["begin", "approval", "end", "review"]
"""What started an item. `begin`: its own begin (or first delta); `approval`: the request to
approve it (if allowed, it runs on without starting again); `end`: its end arrived with no
begin before it (replayed rollouts record only ends) and completes it at once; `review`: the
automatic reviewer refused it before it began (it completes at once, declined)."""


@dataclass(frozen=True)
class ItemStarted:
    """An item began."""

    turn: str
    item: ThreadItem
    by: StartedBy = "begin"


@dataclass(frozen=True)
class ItemCompleted:
    """An item ended; carries its final state."""

    turn: str
    item: ThreadItem
    cause: CompletionCause = "ended"


@dataclass(frozen=True)
class AgentMessageDelta:
    """A streamed piece of an agent message."""

    turn: str
    item_id: str
    delta: str


@dataclass(frozen=True)
class ReasoningPartAdded:
    """A new reasoning summary part begins at `index`."""

    turn: str
    item_id: str
    index: int


@dataclass(frozen=True)
class ReasoningDelta:
    """A streamed piece of reasoning summary part `index`."""

    turn: str
    item_id: str
    index: int
    delta: str


@dataclass(frozen=True)
class CommandOutputDelta:
    """A chunk of a running command's output."""

    turn: str
    item_id: str
    stream: Literal["stdout", "stderr"]
    chunk: str


@dataclass(frozen=True)
class CommandApprovalRequested:
    """The session waits for the user to allow the started command item `item_id`."""

    turn: str
    item_id: str
    command: tuple[str, ...]
    cwd: str
    reason: str | None = None
    suggested_prefix: tuple[str, ...] | None = None


@dataclass(frozen=True)
class PatchApprovalRequested:
    """The session waits for the user to allow the started file change item `item_id`."""

    turn: str
    item_id: str
    changes: dict[str, FileChange]
    reason: str | None = None
    grant_root: str | None = None


@dataclass(frozen=True)
class ThreadStarted:
    """The session is configured; `thread_id` is its session id. The rest says how it runs
    (for a frontend's header) and, for a resumed session, what came before: its past events
    as the rollout recorded them (`items.history` projects them)."""

    turn: str
    thread_id: str
    model: str = ""
    model_provider_id: str = "openai"
    reasoning_effort: ReasoningEffort | None = None
    cwd: str | None = None
    rollout_path: str | None = None
    approval_policy: AskForApproval | None = None
    sandbox_policy: SandboxPolicy | None = None
    history_log_id: int = 0
    history_entry_count: int = 0
    initial_messages: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class TurnStarted:
    """A turn began."""

    turn: str
    model_context_window: int | None = None


@dataclass(frozen=True)
class TurnEnded:
    """A turn ended, after every item it left open was completed (`turn_ended`).

    `failed` is a turn that finished after an error (`error` is the last one's message).
    """

    turn: str
    status: TurnStatus
    error: str | None = None
    last_agent_message: str | None = None


@dataclass(frozen=True)
class TurnError:
    """A fatal error for the turn, in one sentence."""

    turn: str
    message: str


@dataclass(frozen=True)
class StreamRetry:
    """The model stream broke and is being retried."""

    turn: str
    message: str


@dataclass(frozen=True)
class TurnWarning:
    """Something the user should know that does not stop the turn."""

    turn: str
    message: str


@dataclass(frozen=True)
class HookRunUpdated:
    """A hook started (`done` False) or ended (`done` True): its run, as the engine reports it."""

    turn: str
    run: HookRun
    done: bool


@dataclass(frozen=True)
class TokenUsage:
    """Token usage after a model response (the thread's totals and the last response's)."""

    turn: str
    info: TokenUsageInfo


@dataclass(frozen=True)
class PlanUpdated:
    """The model's plan changed."""

    turn: str
    explanation: str | None
    plan: list[PlanItem]


@dataclass(frozen=True)
class DiffUpdated:
    """The unified diff of everything the turn changed so far."""

    turn: str
    diff: str


@dataclass(frozen=True)
class ApprovalDecided:
    """An approval was answered: by the user, by another client of the thread, or by the
    automatic reviewer (`--approve-for-me`, which is never asked through an item: an allowed
    call starts when it begins). A refusal then completes the item `declined`."""

    turn: str
    item_id: str
    """The call's id (its item's, once started)."""
    kind: Literal["exec", "patch"]
    decision: ReviewDecision
    command: tuple[str, ...] = ()
    reviewer: Literal["auto_review", "another_client"] | None = None
    rationale: str | None = None
    """The automatic reviewer's reason."""


@dataclass(frozen=True)
class ElicitationRequested:
    """An MCP server waits for the user (a form to fill or a URL to open); the frontend
    answers it (`ResolveElicitationOp` with `server_name` and `request_id`)."""

    turn: str
    server_name: str
    request_id: str
    message: str
    mode: Literal["form", "url"] = "form"
    requested_schema: dict[str, Any] | None = None
    """Form mode: a flat object schema of strings, numbers, booleans and enums."""
    url: str | None = None
    elicitation_id: str | None = None
    """URL mode: the server's id for the elicitation."""
    during_turn: bool = False
    """The server asked while `turn` ran (one of its tool calls led here); otherwise it
    asked between turns and the question waits outside any turn."""


@dataclass(frozen=True)
class SessionEnded:
    """The session shut down; nothing follows."""

    turn: str


@dataclass(frozen=True)
class TerminalInteraction:
    """The model typed into (or polled, with empty `stdin`) a running command; the fields of
    0.169's `item/commandExecution/terminalInteraction`, with `item_id` the command's (its
    `exec_command` call) or, when that is not known, the `write_stdin` call's."""

    turn: str
    item_id: str
    process_id: str
    stdin: str


@dataclass(frozen=True)
class BackgroundMessage:
    """A status line of the session that belongs to no item."""

    turn: str
    message: str


ItemNotice: TypeAlias = (
    ItemStarted
    | ItemCompleted
    | AgentMessageDelta
    | ReasoningPartAdded
    | ReasoningDelta
    | CommandOutputDelta
)
"""An item's lifecycle."""

ApprovalNotice: TypeAlias = (
    CommandApprovalRequested | PatchApprovalRequested | ApprovalDecided | ElicitationRequested
)
"""Questions for the user, and their answers."""

TurnNotice: TypeAlias = (
    ThreadStarted
    | TurnStarted
    | TurnEnded
    | TurnError
    | StreamRetry
    | TurnWarning
    | HookRunUpdated
    | TerminalInteraction
    | BackgroundMessage
    | SessionEnded
    | TokenUsage
    | PlanUpdated
    | DiffUpdated
)
"""The thread's and turn's own notices (no item)."""

Notice: TypeAlias = ItemNotice | ApprovalNotice | TurnNotice
"""Everything the projection yields."""

DeltaNotice: TypeAlias = (
    AgentMessageDelta | ReasoningPartAdded | ReasoningDelta | CommandOutputDelta
)
