"""What tool handlers may use from the session: the turn's settings, events and approvals."""

from __future__ import annotations

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


@dataclass
class SessionApprovals:
    """Things the user approved for the rest of the session.

    Every entry is what the user saw and approved — an exact argv, a file path — never a
    call id the model chose. `commands` run without asking but still inside the sandbox
    first; `unsandboxed_commands` were approved to run outside it (an escalation request,
    or a re-run after a sandbox denial).
    """

    commands: set[tuple[str, ...]] = field(default_factory=set)
    unsandboxed_commands: set[tuple[str, ...]] = field(default_factory=set)
    patch_paths: set[Path] = field(default_factory=set)


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
