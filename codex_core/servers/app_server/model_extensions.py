"""Params and results of `hooks/list` and `skills/list`, and the `hook/started` /
`hook/completed` notifications (shapes of the 0.169 schema)."""

from __future__ import annotations

from typing import ClassVar, Literal

from codex_core.lite import Field
from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.wire import ParamsModel, WireModel


class HooksListParams(ParamsModel):
    """`hooks/list`: the hooks for some working directories (default: the server's cwd)."""

    cwds: list[str] = Field(default_factory=list)
    threadId: str | None = None


class HookErrorInfo(WireModel):
    """A hook source that could not be read."""

    message: str
    path: str


class HookMetadata(WireModel):
    """One hook as `hooks/list` shows it."""

    key: str
    eventName: str
    handlerType: Literal["command"] = "command"
    command: str
    matcher: str | None = None
    timeoutSec: int
    statusMessage: str | None = None
    currentHash: str
    displayOrder: int
    enabled: bool
    isManaged: bool = False
    source: Literal["user", "project", "plugin"]
    sourcePath: str
    trustStatus: Literal["trusted", "untrusted", "modified"]
    pluginId: str | None = None


class HooksListEntry(WireModel):
    """The hooks of one working directory."""

    cwd: str
    errors: list[HookErrorInfo] = Field(default_factory=list)
    hooks: list[HookMetadata] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


class HooksListResponse(WireModel):
    """`hooks/list` result."""

    data: list[HooksListEntry]


class SkillsListParams(ParamsModel):
    """`skills/list`: the skills for some working directories (default: the server's cwd)."""

    cwds: list[str] = Field(default_factory=list)
    forceReload: bool = False


class SkillErrorInfo(WireModel):
    """A SKILL.md that could not be loaded."""

    message: str
    path: str


class SkillMetadata(WireModel):
    """One skill as `skills/list` shows it."""

    name: str
    description: str
    enabled: bool
    path: str
    scope: Literal["user", "repo", "system", "admin"]
    shortDescription: str | None = None
    pluginId: str | None = None


class SkillsListEntry(WireModel):
    """The skills of one working directory."""

    cwd: str
    errors: list[SkillErrorInfo] = Field(default_factory=list)
    skills: list[SkillMetadata] = Field(default_factory=list)


class SkillsListResponse(WireModel):
    """`skills/list` result."""

    data: list[SkillsListEntry]


# ------------------------------------------------------------------ hook runs


class HookOutputEntry(WireModel):
    kind: Literal["warning", "stop", "feedback", "context", "error"]
    text: str


class HookRunSummary(WireModel):
    """One run of one hook, as `hook/started` and `hook/completed` carry it."""

    id: str
    eventName: str
    handlerType: Literal["command"] = "command"
    executionMode: Literal["sync", "async"] = "sync"
    scope: Literal["thread", "turn"]
    sourcePath: str
    source: str
    displayOrder: int
    status: Literal["running", "completed", "failed", "blocked", "stopped"]
    statusMessage: str | None = None
    startedAt: int
    completedAt: int | None = None
    durationMs: int | None = None
    entries: list[HookOutputEntry] = Field(default_factory=list)


class HookStartedNotification(ServerMessage):
    """A hook started (0.169: before the user message item of a UserPromptSubmit turn)."""

    METHOD: ClassVar[str] = "hook/started"
    threadId: str
    turnId: str | None = None
    run: HookRunSummary


class HookCompletedNotification(ServerMessage):
    """A hook ended: completed, failed, blocked or stopped, with what it said."""

    METHOD: ClassVar[str] = "hook/completed"
    threadId: str
    turnId: str | None = None
    run: HookRunSummary
