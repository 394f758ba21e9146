"""Server notifications and server→client requests (one params model each, `METHOD` names it)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from codex_core.servers.app_server.model_items import CommandAction, ThreadItem
from codex_core.servers.app_server.model_thread import Thread, ThreadStatus, Turn, TurnError
from codex_core.servers.app_server.wire import RequestId, WireModel


class ServerMessage(WireModel):
    """Params of a message the server sends; `METHOD` is its wire method."""

    METHOD: ClassVar[str] = ""


# ------------------------------------------------------------------ thread and turn lifecycle


class ThreadStartedNotification(ServerMessage):
    """A thread was created (start or fork) and loaded."""

    METHOD: ClassVar[str] = "thread/started"
    thread: Thread


class ThreadStatusChangedNotification(ServerMessage):
    """A loaded thread became idle, active, or waits on an approval."""

    METHOD: ClassVar[str] = "thread/status/changed"
    threadId: str
    status: ThreadStatus


class ThreadArchivedNotification(ServerMessage):
    """A thread moved to `archived_sessions/`."""

    METHOD: ClassVar[str] = "thread/archived"
    threadId: str


class TurnStartedNotification(ServerMessage):
    """A turn began."""

    METHOD: ClassVar[str] = "turn/started"
    threadId: str
    turn: Turn


class TurnCompletedNotification(ServerMessage):
    """A turn ended: `completed`, `interrupted` or `failed` (with `turn.error`)."""

    METHOD: ClassVar[str] = "turn/completed"
    threadId: str
    turn: Turn


class TurnDiffUpdatedNotification(ServerMessage):
    """The unified diff of everything the turn changed so far."""

    METHOD: ClassVar[str] = "turn/diff/updated"
    threadId: str
    turnId: str
    diff: str


class PlanStep(WireModel):
    """One step of the plan."""

    step: str
    status: Literal["pending", "inProgress", "completed"]


class TurnPlanUpdatedNotification(ServerMessage):
    """The model's plan changed."""

    METHOD: ClassVar[str] = "turn/plan/updated"
    threadId: str
    turnId: str
    explanation: str | None = None
    plan: list[PlanStep]


class TokenUsageBreakdown(WireModel):
    """Token counts."""

    totalTokens: int
    inputTokens: int
    cachedInputTokens: int
    outputTokens: int
    reasoningOutputTokens: int


class ThreadTokenUsage(WireModel):
    """Totals, the last response's usage and the context window."""

    total: TokenUsageBreakdown
    last: TokenUsageBreakdown
    modelContextWindow: int | None = None


class ThreadTokenUsageUpdatedNotification(ServerMessage):
    """Token usage after a model response."""

    METHOD: ClassVar[str] = "thread/tokenUsage/updated"
    threadId: str
    turnId: str
    tokenUsage: ThreadTokenUsage


class ErrorNotification(ServerMessage):
    """A turn error (`willRetry` while the stream reconnects)."""

    METHOD: ClassVar[str] = "error"
    error: TurnError
    willRetry: bool
    threadId: str
    turnId: str


class WarningNotification(ServerMessage):
    """Something the user should know that does not stop the turn."""

    METHOD: ClassVar[str] = "warning"
    threadId: str | None = None
    message: str


class ContextCompactedNotification(ServerMessage):
    """The thread's context was compacted."""

    METHOD: ClassVar[str] = "thread/compacted"
    threadId: str
    turnId: str


# ------------------------------------------------------------------ items


class ItemStartedNotification(ServerMessage):
    """An item began."""

    METHOD: ClassVar[str] = "item/started"
    item: ThreadItem
    threadId: str
    turnId: str
    startedAtMs: int


class ItemCompletedNotification(ServerMessage):
    """An item finished; carries its final state."""

    METHOD: ClassVar[str] = "item/completed"
    item: ThreadItem
    threadId: str
    turnId: str
    completedAtMs: int


class AgentMessageDeltaNotification(ServerMessage):
    """A streamed piece of an agent message."""

    METHOD: ClassVar[str] = "item/agentMessage/delta"
    threadId: str
    turnId: str
    itemId: str
    delta: str


class ReasoningSummaryPartAddedNotification(ServerMessage):
    """A new reasoning summary part begins."""

    METHOD: ClassVar[str] = "item/reasoning/summaryPartAdded"
    threadId: str
    turnId: str
    itemId: str
    summaryIndex: int


class ReasoningSummaryTextDeltaNotification(ServerMessage):
    """A streamed piece of a reasoning summary part."""

    METHOD: ClassVar[str] = "item/reasoning/summaryTextDelta"
    threadId: str
    turnId: str
    itemId: str
    delta: str
    summaryIndex: int


class CommandExecutionOutputDeltaNotification(ServerMessage):
    """A chunk of a running command's output."""

    METHOD: ClassVar[str] = "item/commandExecution/outputDelta"
    threadId: str
    turnId: str
    itemId: str
    delta: str


class ServerRequestResolvedNotification(ServerMessage):
    """A server request was answered (or dropped because its turn ended)."""

    METHOD: ClassVar[str] = "serverRequest/resolved"
    threadId: str
    requestId: RequestId


# ------------------------------------------------------------------ server requests


class CommandExecutionRequestApprovalParams(ServerMessage):
    """Ask whether a command may run; answered with a `CommandApprovalResponse`."""

    METHOD: ClassVar[str] = "item/commandExecution/requestApproval"
    threadId: str
    turnId: str
    itemId: str
    startedAtMs: int
    command: str | None = None
    cwd: str | None = None
    reason: str | None = None
    commandActions: list[CommandAction] | None = None
    proposedExecpolicyAmendment: list[str] | None = None
    availableDecisions: list[Any] | None = None


class FileChangeRequestApprovalParams(ServerMessage):
    """Ask whether a patch may be applied; answered with a `FileChangeApprovalResponse`."""

    METHOD: ClassVar[str] = "item/fileChange/requestApproval"
    threadId: str
    turnId: str
    itemId: str
    startedAtMs: int
    reason: str | None = None
    grantRoot: str | None = None


class ExecpolicyAmendment(WireModel):
    """`{acceptWithExecpolicyAmendment: {execpolicy_amendment: [...]}}`."""

    execpolicy_amendment: list[str]


class AcceptWithAmendment(WireModel):
    """Accept and remember the command prefix as an allow rule."""

    acceptWithExecpolicyAmendment: ExecpolicyAmendment


class CommandApprovalResponse(WireModel):
    """The client's answer to `item/commandExecution/requestApproval`."""

    decision: Literal["accept", "acceptForSession", "decline", "cancel"] | AcceptWithAmendment


class FileChangeApprovalResponse(WireModel):
    """The client's answer to `item/fileChange/requestApproval`."""

    decision: Literal["accept", "acceptForSession", "decline", "cancel"]


NOTIFICATIONS: tuple[type[ServerMessage], ...] = tuple(
    cls
    for cls in ServerMessage.__subclasses__()
    if cls not in (CommandExecutionRequestApprovalParams, FileChangeRequestApprovalParams)
)
SERVER_REQUESTS: tuple[type[ServerMessage], ...] = (
    CommandExecutionRequestApprovalParams,
    FileChangeRequestApprovalParams,
)
