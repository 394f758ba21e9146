"""Params and results of `hooks/list` and `skills/list` (shapes of the 0.169 schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

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
