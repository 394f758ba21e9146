"""Params and results of the methods the TUI needs beyond 0.169's schema (codex extensions),
and of 0.169's `review/start` and `mcpServerStatus/list`."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from codex_core.lite import Field
from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.model_thread import Turn
from codex_core.servers.app_server.wire import ParamsModel, WireModel

# ------------------------------------------------------------------ 0.169's methods


class ReviewTargetParam(WireModel):
    """0.169's `ReviewTarget` (`uncommittedChanges`, `baseBranch`, `commit`, `custom`)."""

    type: Literal["uncommittedChanges", "baseBranch", "commit", "custom"]
    branch: str | None = None
    sha: str | None = None
    title: str | None = None
    instructions: str | None = None


class ReviewStartParams(ParamsModel):
    """`review/start`: review `target` as a turn of the thread (inline: the only delivery)."""

    threadId: str
    target: ReviewTargetParam
    delivery: Literal["inline", "detached"] | None = None


class ReviewStartResponse(WireModel):
    """The review's turn, on the thread it was asked on."""

    turn: Turn
    reviewThreadId: str


class ListMcpServerStatusParams(ParamsModel):
    """`mcpServerStatus/list`: the MCP servers (of a loaded thread, when one is named)."""

    threadId: str | None = None
    serverName: str | None = None
    cursor: str | None = None
    limit: int | None = None
    detail: Literal["full", "toolsAndAuthOnly"] | None = None


class McpServerStatusEntry(WireModel):
    """0.169's `McpServerStatus` (its fields in its order); `toolsError` says why a server
    has no catalog, `runtimeStatus` is null when no thread's connection was asked."""

    name: str
    runtimeStatus: (
        Literal[
            "notStarted",
            "starting",
            "connected",
            "authenticationRequired",
            "failed",
            "cancelled",
            "disabled",
        ]
        | None
    ) = None
    pluginId: str | None = None
    httpOrigin: str | None = None
    serverInfo: dict[str, Any] | None = None
    serverCapabilities: dict[str, Any] | None = None
    toolListMeta: Any = None
    tools: dict[str, dict[str, Any]]
    """0.169's `Tool`s by name: what the server said about each (its MCP `Tool`)."""
    toolsError: str | None = None
    resources: list[Any] = Field(default_factory=list)
    resourceTemplates: list[Any] = Field(default_factory=list)
    authStatus: Literal["unknown", "unsupported", "notLoggedIn", "bearerToken", "oAuth"]


class ListMcpServerStatusResponse(WireModel):
    """One page of servers."""

    data: list[McpServerStatusEntry]
    nextCursor: str | None = None


# ------------------------------------------------------------------ codex extensions


class ThreadUndoResponse(WireModel):
    """`thread/undo`: what was restored (the work tree of before the last turn)."""

    message: str


class BackgroundTerminal(WireModel):
    """One running `exec_command` process of a thread."""

    processId: str
    command: str
    osPid: int | None = None
    elapsedMs: int
    lastLine: str | None = None


class BackgroundTerminalListResponse(WireModel):
    """`thread/backgroundTerminals/list`: running processes, oldest first."""

    data: list[BackgroundTerminal]


class BackgroundTerminalTerminateParams(ParamsModel):
    """`thread/backgroundTerminals/terminate`: kill one process."""

    threadId: str
    processId: str


class BackgroundTerminalsStoppedResponse(WireModel):
    """What `terminate` and `clean` killed; `unknownProcessId` when the one named was not
    running."""

    stopped: list[BackgroundTerminal]
    unknownProcessId: str | None = None


# ------------------------------------------------------------------ notifications


class AutoApprovalReview(WireModel):
    """0.169's `GuardianApprovalReview`: what the automatic reviewer decided, and why."""

    status: Literal["inProgress", "approved", "denied", "timedOut", "aborted"]
    rationale: str | None = None


class AutoApprovalReviewCompletedNotification(ServerMessage):
    """`item/autoApprovalReview/completed` (0.169, unstable): the reviewer answered an
    approval in the user's place (`--approve-for-me`)."""

    METHOD: ClassVar[str] = "item/autoApprovalReview/completed"
    threadId: str
    turnId: str
    reviewId: str
    targetItemId: str | None = None
    startedAtMs: int
    completedAtMs: int
    decisionSource: Literal["agent"] = "agent"
    review: AutoApprovalReview
    action: dict[str, Any]
    """`{"type": "command", "command", "cwd", "source"}` or `{"type": "applyPatch", …}`."""


class TerminalInteractionNotification(ServerMessage):
    """`item/commandExecution/terminalInteraction` (0.169): the model typed into a running
    command."""

    METHOD: ClassVar[str] = "item/commandExecution/terminalInteraction"
    threadId: str
    turnId: str
    itemId: str
    processId: str
    stdin: str


class BackgroundMessageNotification(ServerMessage):
    """`thread/backgroundMessage` (codex extension, sent to our TUI only: `server.TUI_ONLY`): a
    status line of the turn that belongs to no item (the context was compacted, a skill
    file was skipped)."""

    METHOD: ClassVar[str] = "thread/backgroundMessage"
    threadId: str
    turnId: str
    message: str
