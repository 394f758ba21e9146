"""What tool handlers may use from the session: the turn's settings, events and approvals."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.apply_patch import TurnDiffTracker
from codex_core.execpolicy import RuleSet
from codex_core.protocol import EventMsg, FileChange, ReviewDecision
from codex_core.turn_context import TurnContext

if TYPE_CHECKING:
    from codex_core.exec.shell_snapshot import ShellSnapshot
    from codex_core.unified_exec.manager import ProcessManager

ExecApprovalRequester = Callable[
    [str, list[str], Path, "str | None", "list[str] | None"], Awaitable[ReviewDecision]
]
PatchApprovalRequester = Callable[
    [str, dict[str, FileChange], "str | None", "str | None"], Awaitable[ReviewDecision]
]


@dataclass(frozen=True)
class CommandApproval:
    """One command as the user saw it: this argv, in this (resolved) cwd, in or out of the sandbox."""

    argv: tuple[str, ...]
    cwd: Path
    unsandboxed: bool

    @classmethod
    def of(cls, argv: list[str], cwd: Path, *, unsandboxed: bool) -> CommandApproval:
        """The key for `argv` run in `cwd` (symlinks resolved)."""
        return cls(tuple(argv), Path(os.path.realpath(cwd)), unsandboxed)


@dataclass
class SessionApprovals:
    """Things the user approved for the rest of the session.

    Every entry is what the user saw and approved, never a call id the model chose:
    `commands` holds exact runs (argv, cwd, inside or outside the sandbox; one approved
    inside still runs in the sandbox first), `mcp_tools` the (server, tool) pairs the user
    let run, `patch_paths` the resolved files a patch may write.
    """

    commands: set[CommandApproval] = field(default_factory=set)
    mcp_tools: set[tuple[str, str]] = field(default_factory=set)
    patch_paths: set[Path] = field(default_factory=set)

    def argvs(self, cwd: Path, *, unsandboxed: bool) -> frozenset[tuple[str, ...]]:
        """The argvs approved for the session in `cwd`, inside or outside the sandbox."""
        here = Path(os.path.realpath(cwd))
        return frozenset(
            key.argv for key in self.commands if key.cwd == here and key.unsandboxed == unsandboxed
        )


@dataclass
class ToolContext:
    """Everything a tool handler needs for one turn; built by the session."""

    turn: TurnContext
    codex_home: Path
    env: dict[str, str]
    emit: Callable[[EventMsg], None]
    request_exec_approval: ExecApprovalRequester
    request_patch_approval: PatchApprovalRequester
    approvals: SessionApprovals
    diff_tracker: TurnDiffTracker
    rules: RuleSet | None = None
    processes: ProcessManager | None = None
    """The session's live `exec_command` processes (they outlive the turn)."""
    shell_snapshot: ShellSnapshot | None = None
    """The session's login-shell snapshot, replayed by `bash -lc` commands once captured."""

    def spawn_args(self, argv: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
        """argv and environment to start a command with (the snapshot replayed if ready)."""
        if self.shell_snapshot is None:
            return argv, env
        return self.shell_snapshot.apply(argv, env)

    def resolve(self, workdir: str | None) -> Path:
        """`workdir` relative to the turn's cwd (absolute paths kept)."""
        if not workdir:
            return self.turn.cwd
        return (self.turn.cwd / workdir).resolve()
