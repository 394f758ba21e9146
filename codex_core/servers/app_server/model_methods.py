"""Params and results of the client requests this server implements (one model each)."""

from __future__ import annotations

from typing import Any, Literal

from codex_core.lite import Field
from codex_core.servers.app_server.model_items import UserInput
from codex_core.servers.app_server.model_thread import (
    ApprovalsReviewer,
    AskForApprovalParam,
    AskForApprovalWire,
    SandboxMode,
    SandboxPolicyWire,
    Thread,
    Turn,
)
from codex_core.servers.app_server.wire import ParamsModel, WireModel

# ------------------------------------------------------------------ initialize


class ClientInfo(ParamsModel):
    """Who the client is (`userAgent` starts with its name)."""

    name: str
    title: str | None = None
    version: str


class InitializeCapabilities(ParamsModel):
    """What the client can do; accepted and remembered, not acted on."""

    experimentalApi: bool = False
    optOutNotificationMethods: list[str] | None = None


class InitializeParams(ParamsModel):
    """`initialize`."""

    clientInfo: ClientInfo
    capabilities: InitializeCapabilities | None = None


class InitializeResponse(WireModel):
    """`initialize` result."""

    userAgent: str
    codexHome: str
    platformFamily: str
    platformOs: str


# ------------------------------------------------------------------ threads


class _ThreadOverrides(ParamsModel):
    model: str | None = None
    modelProvider: str | None = None
    cwd: str | None = None
    approvalPolicy: AskForApprovalParam | None = None
    approvalsReviewer: ApprovalsReviewer | None = None
    sandbox: SandboxMode | None = None
    config: dict[str, Any] | None = None
    baseInstructions: str | None = None
    developerInstructions: str | None = None


class ThreadStartParams(_ThreadOverrides):
    """`thread/start`."""

    ephemeral: bool | None = None


class ThreadResumeParams(_ThreadOverrides):
    """`thread/resume`: load a persisted thread."""

    threadId: str
    excludeTurns: bool = False


class ThreadForkParams(_ThreadOverrides):
    """`thread/fork`: copy a thread into a new one and load it."""

    threadId: str
    ephemeral: bool | None = None
    excludeTurns: bool = False


class ThreadSessionResponse(WireModel):
    """Result of `thread/start`, `thread/resume` and `thread/fork`."""

    thread: Thread
    model: str
    modelProvider: str
    serviceTier: str | None = None
    cwd: str
    instructionSources: list[str] = Field(default_factory=list)
    approvalPolicy: AskForApprovalWire
    approvalsReviewer: ApprovalsReviewer = "user"
    sandbox: SandboxPolicyWire
    reasoningEffort: str | None = None


class ThreadListParams(ParamsModel):
    """`thread/list`: newest first, paged with `cursor`, filtered by `cwd` and `archived`."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=0)
    cwd: str | list[str] | None = None
    archived: bool | None = None
    modelProviders: list[str] | None = None
    searchTerm: str | None = None


class ThreadListResponse(WireModel):
    """`thread/list` result."""

    data: list[Thread]
    nextCursor: str | None = None


class ThreadReadParams(ParamsModel):
    """`thread/read`."""

    threadId: str
    includeTurns: bool = False


class ThreadReadResponse(WireModel):
    """`thread/read` result."""

    thread: Thread


class ThreadIdParams(ParamsModel):
    """Params naming one thread (`thread/archive`, `thread/unarchive`, `thread/compact/start`)."""

    threadId: str


class EmptyResponse(WireModel):
    """`{}`."""


# ------------------------------------------------------------------ turns


class TurnStartParams(ParamsModel):
    """`turn/start`: input plus overrides that stick for later turns."""

    threadId: str
    input: list[UserInput]
    cwd: str | None = None
    approvalPolicy: AskForApprovalParam | None = None
    approvalsReviewer: ApprovalsReviewer | None = None
    sandboxPolicy: SandboxPolicyWire | None = None
    model: str | None = None
    effort: Literal["minimal", "low", "medium", "high"] | None = None
    summary: Literal["auto", "concise", "detailed", "none"] | None = None
    outputSchema: dict[str, Any] | None = None
    clientUserMessageId: str | None = None
    """The client's id for the input, shown as the userMessage item's `clientId`."""


class TurnStartResponse(WireModel):
    """`turn/start` result (the turn is `inProgress`)."""

    turn: Turn


class TurnInterruptParams(ParamsModel):
    """`turn/interrupt`."""

    threadId: str
    turnId: str


# ------------------------------------------------------------------ models, files


class ModelListParams(ParamsModel):
    """`model/list`."""

    cursor: str | None = None
    limit: int | None = Field(default=None, ge=0)
    includeHidden: bool | None = None


class ReasoningEffortOption(WireModel):
    """One reasoning effort a model supports."""

    reasoningEffort: str
    description: str


def _text_only() -> list[Literal["text", "image"]]:
    return ["text"]


class ModelInfo(WireModel):
    """One model of `model/list`."""

    id: str
    model: str
    displayName: str
    description: str
    hidden: bool = False
    supportedReasoningEfforts: list[ReasoningEffortOption]
    defaultReasoningEffort: str
    inputModalities: list[Literal["text", "image"]] = Field(default_factory=_text_only)
    isDefault: bool


class ModelListResponse(WireModel):
    """`model/list` result."""

    data: list[ModelInfo]
    nextCursor: str | None = None


class FuzzyFileSearchParams(ParamsModel):
    """`fuzzyFileSearch`."""

    query: str
    roots: list[str]
    cancellationToken: str | None = None


class FuzzyFileSearchResult(WireModel):
    """One match: root, path relative to it, score and the matched character indices."""

    root: str
    path: str
    match_type: Literal["file", "directory"] = "file"
    file_name: str
    score: int
    indices: list[int] | None = None


class FuzzyFileSearchResponse(WireModel):
    """`fuzzyFileSearch` result."""

    files: list[FuzzyFileSearchResult]
