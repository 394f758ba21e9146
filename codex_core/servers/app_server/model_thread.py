"""Threads and turns on the wire: `Thread`, `Turn`, statuses, sandbox policies."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from codex_core.lite import Field
from codex_core.policies import GranularApproval
from codex_core.protocol import (
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_core.servers.app_server.model_items import ThreadItem
from codex_core.servers.app_server.wire import WireModel

AskForApprovalWire = Literal["untrusted", "on-failure", "on-request", "never"] | dict[str, Any]
"""A dict: `granular`'s object form (codex_core.policies.GRANULAR_WIRE, see approval_to_wire)."""
# What clients may ask for: a name (0.169's schema no longer offers `on-failure`: its server
# answers -32600 "unknown variant"; a thread configured with it in config.toml still reports
# it) or `{"granular": {...}}`; checked by approval_param.parse_approval.
AskForApprovalParam = Any


def approval_to_wire(policy: str, granular: GranularApproval | None = None) -> Any:
    """A thread's approval policy as 0.169's wire says it (`granular` is an object with every
    setting filled in)."""
    from codex_core.policies import approval_wire

    return approval_wire(policy, granular)


SandboxMode = Literal["read-only", "workspace-write", "danger-full-access"]
ApprovalsReviewer = Literal["user", "auto_review", "guardian_subagent"]
TurnStatus = Literal["completed", "interrupted", "failed", "inProgress"]


class IdleStatus(WireModel):
    """Loaded and not running a turn."""

    type: Literal["idle"] = "idle"


class NotLoadedStatus(WireModel):
    """Persisted but not loaded in this server process."""

    type: Literal["notLoaded"] = "notLoaded"


class ActiveStatus(WireModel):
    """Running a turn; `activeFlags` says whether it waits on an approval."""

    type: Literal["active"] = "active"
    activeFlags: list[Literal["waitingOnApproval", "waitingOnUserInput"]] = Field(
        default_factory=list
    )


ThreadStatus = Annotated[IdleStatus | NotLoadedStatus | ActiveStatus, Field(discriminator="type")]


class TurnError(WireModel):
    """Why a turn failed."""

    message: str
    additionalDetails: str | None = None


class Turn(WireModel):
    """One turn: its id, status and (where loaded) items."""

    id: str
    rootTurnId: str | None = None
    items: list[ThreadItem] = Field(default_factory=list)
    itemsView: Literal["notLoaded", "summary", "full"] = "notLoaded"
    status: TurnStatus = "inProgress"
    error: TurnError | None = None
    startedAt: int | None = None
    """Unix seconds."""
    completedAt: int | None = None
    durationMs: int | None = None


class GitInfo(WireModel):
    """Git metadata captured when the thread was created."""

    sha: str | None = None
    branch: str | None = None
    originUrl: str | None = None


class Thread(WireModel):
    """A conversation, persisted as a rollout."""

    id: str
    sessionId: str
    forkedFromId: str | None = None
    preview: str = ""
    ephemeral: bool = False
    projectId: str | None = None
    modelProvider: str
    model: str | None = None
    reasoningEffort: str | None = None
    createdAt: int
    """Unix seconds."""
    updatedAt: int
    status: ThreadStatus = Field(default_factory=IdleStatus)
    path: str | None = None
    cwd: str
    cliVersion: str
    originator: str | None = None
    source: Literal["cli", "vscode", "exec", "appServer", "unknown"] = "vscode"
    gitInfo: GitInfo | None = None
    name: str | None = None
    turns: list[Turn] = Field(default_factory=list)


# ------------------------------------------------------------------ sandbox policies


class ReadOnlySandbox(WireModel):
    """Read anything, write nothing."""

    type: Literal["readOnly"] = "readOnly"
    networkAccess: bool = False


class WorkspaceWriteSandbox(WireModel):
    """Write under cwd and the writable roots."""

    type: Literal["workspaceWrite"] = "workspaceWrite"
    writableRoots: list[str] = Field(default_factory=list)
    networkAccess: bool = False
    excludeTmpdirEnvVar: bool = False
    excludeSlashTmp: bool = False


class DangerFullAccessSandbox(WireModel):
    """No sandbox."""

    type: Literal["dangerFullAccess"] = "dangerFullAccess"


class ExternalSandbox(WireModel):
    """The client sandboxes commands itself; treated as full access here."""

    type: Literal["externalSandbox"] = "externalSandbox"
    networkAccess: Any = "restricted"


SandboxPolicyWire = Annotated[
    ReadOnlySandbox | WorkspaceWriteSandbox | DangerFullAccessSandbox | ExternalSandbox,
    Field(discriminator="type"),
]


def sandbox_to_wire(policy: SandboxPolicy) -> SandboxPolicyWire:
    """The core policy in wire form."""
    if isinstance(policy, WorkspaceWritePolicy):
        return WorkspaceWriteSandbox(
            writableRoots=list(policy.writable_roots),
            networkAccess=policy.network_access,
            excludeTmpdirEnvVar=policy.exclude_tmpdir_env_var,
            excludeSlashTmp=policy.exclude_slash_tmp,
        )
    if isinstance(policy, DangerFullAccessPolicy):
        return DangerFullAccessSandbox()
    return ReadOnlySandbox()


def sandbox_from_wire(policy: SandboxPolicyWire) -> SandboxPolicy:
    """The wire policy as a core policy."""
    if isinstance(policy, WorkspaceWriteSandbox):
        return WorkspaceWritePolicy(
            writable_roots=policy.writableRoots,
            network_access=policy.networkAccess,
            exclude_tmpdir_env_var=policy.excludeTmpdirEnvVar,
            exclude_slash_tmp=policy.excludeSlashTmp,
        )
    if isinstance(policy, DangerFullAccessSandbox | ExternalSandbox):
        return DangerFullAccessPolicy()
    return ReadOnlyPolicy()
