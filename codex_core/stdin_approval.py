"""Whether text typed into a running background session needs the user (pure).

Typing into a session is a command run with the rights the session was started with
(`StartedRights`): outside the sandbox, or in the sandbox of the policy and cwd of the turn
that started it. A write runs without a question only when the turn now would run any
command with those rights without one:

- under `untrusted` every non-empty write asks (typed text is a command no classifier
  has seen);
- a turn under danger-full-access covers every session;
- otherwise a session outside the sandbox, or one whose sandbox grants something the
  turn's does not (a writable root, network, /tmp), asks for each write, and is refused
  under `never` ("write_stdin rejected: approval required by policy").

An empty write (a poll) types nothing and never asks; callers skip it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from codex_core.policies import GranularApproval, granular_asks
from codex_core.protocol.common import (
    AskForApproval,
    DangerFullAccessPolicy,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_core.safety import AskUser, AutoApprove, Reject, SafetyCheck, writable_roots

REFUSED_UNDER_NEVER = "approval required by policy"


@dataclass(frozen=True)
class StartedRights:
    """What a background session runs with, recorded when it starts."""

    unsandboxed: bool
    """It runs outside the platform sandbox (an approved escalation, full access, or a
    platform without a sandbox)."""
    policy: SandboxPolicy
    """The sandbox policy of the turn that started it."""
    cwd: Path
    """The turn's cwd its sandbox was built for (the writable workspace root)."""


def _rank(policy: SandboxPolicy) -> int:
    if isinstance(policy, DangerFullAccessPolicy):
        return 2
    return 1 if isinstance(policy, WorkspaceWritePolicy) else 0


def turn_covers(
    turn_policy: SandboxPolicy,
    turn_cwd: Path,
    started: StartedRights,
    env: Mapping[str, str] | None = None,
) -> bool:
    """Whether the turn's sandbox grants everything the session's sandbox grants."""
    if started.unsandboxed:
        return isinstance(turn_policy, DangerFullAccessPolicy)
    turn, session = turn_policy, started.policy
    if not (isinstance(turn, WorkspaceWritePolicy) and isinstance(session, WorkspaceWritePolicy)):
        return _rank(turn) >= _rank(session)
    if session.network_access and not turn.network_access:
        return False
    turn_roots = writable_roots(turn, turn_cwd, env)
    for root in writable_roots(session, started.cwd, env):
        path = Path(os.path.realpath(root.root))
        if not any(_within(path, t.root, t.read_only_subpaths) for t in turn_roots):
            return False
    return True


def _within(path: Path, root: str, read_only: tuple[str, ...]) -> bool:
    if not path.is_relative_to(os.path.realpath(root)):
        return False
    return not any(path.is_relative_to(os.path.realpath(p)) for p in read_only)


def assess_stdin_write(
    approval_policy: AskForApproval,
    turn_policy: SandboxPolicy,
    turn_cwd: Path,
    started: StartedRights,
    env: Mapping[str, str] | None = None,
    *,
    granular: GranularApproval | None = None,
) -> SafetyCheck:
    """Whether non-empty input may be typed into a session (see the module docstring)."""
    if approval_policy == "untrusted":
        return AskUser("under `untrusted` every command needs approval, and typed input is one")
    if turn_covers(turn_policy, turn_cwd, started, env):
        return AutoApprove(
            "none" if started.unsandboxed else "platform",
            "the session runs with no more than this turn's rights",
        )
    if not granular_asks(approval_policy, granular):  # granular: unless sandbox_approval
        return Reject(REFUSED_UNDER_NEVER)
    if started.unsandboxed:
        return AskUser("this session runs outside the sandbox")
    return AskUser("this session was started with more access than this turn's sandbox policy")
