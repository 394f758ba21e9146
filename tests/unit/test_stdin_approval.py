"""When typing into a background session asks: the turn must grant all the session's sandbox grants."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.protocol.common import (
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_core.safety import AskUser, AutoApprove, Reject
from codex_core.stdin_approval import StartedRights, assess_stdin_write, turn_covers

ENV = {"TMPDIR": "/var/tmp/x"}


def ww(*roots: str, network: bool = False, tmp: bool = False) -> WorkspaceWritePolicy:
    return WorkspaceWritePolicy(
        writable_roots=list(roots),
        network_access=network,
        exclude_slash_tmp=not tmp,
        exclude_tmpdir_env_var=not tmp,
    )


def sandboxed(policy: SandboxPolicy, cwd: Path) -> StartedRights:
    return StartedRights(unsandboxed=False, policy=policy, cwd=cwd)


@pytest.mark.parametrize(
    ("turn", "turn_cwd", "session", "session_cwd", "covered"),
    [
        (ww(), "w", ww(), "w", True),
        (ww(), "w", ww(), "w/sub", True),  # a root inside the turn's workspace
        (ww(), "w/sub", ww(), "w", False),
        (ww(), "w", ww(), "w/.git", False),  # the turn keeps .git read-only
        (ww(), "other", ww(), "w", False),
        (ww("data"), "other", ww("data"), "w", False),  # relative roots move with the cwd
        (ww("/abs"), "other", ww("/abs"), "other", True),
        (ww(), "w", ww("/abs"), "w", False),
        (ww(), "w", ww(network=True), "w", False),
        (ww(network=True), "w", ww(), "w", True),
        (ww(), "w", ww(tmp=True), "w", False),
        (ww(), "w", ReadOnlyPolicy(), "elsewhere", True),
        (ReadOnlyPolicy(), "w", ww(), "w", False),
        (ReadOnlyPolicy(), "w", ReadOnlyPolicy(), "other", True),
        (DangerFullAccessPolicy(), "w", ww(tmp=True, network=True), "w", True),
    ],
)
def test_turn_covers_compares_what_the_sandboxes_grant(
    tmp_path: Path,
    turn: SandboxPolicy,
    turn_cwd: str,
    session: SandboxPolicy,
    session_cwd: str,
    covered: bool,
) -> None:
    started = sandboxed(session, tmp_path / session_cwd)
    assert turn_covers(turn, tmp_path / turn_cwd, started, ENV) is covered


def test_only_full_access_covers_a_session_outside_the_sandbox(tmp_path: Path) -> None:
    outside = StartedRights(unsandboxed=True, policy=ww(), cwd=tmp_path)
    assert turn_covers(DangerFullAccessPolicy(), tmp_path, outside, ENV)
    assert not turn_covers(ww(tmp=True, network=True), tmp_path, outside, ENV)


def test_assess_stdin_write_per_approval_policy(tmp_path: Path) -> None:
    same = sandboxed(ww(), tmp_path)
    outside = StartedRights(unsandboxed=True, policy=DangerFullAccessPolicy(), cwd=tmp_path)
    for policy in ("on-request", "on-failure", "never"):
        assert isinstance(assess_stdin_write(policy, ww(), tmp_path, same, ENV), AutoApprove)
        check = assess_stdin_write(policy, ww(), tmp_path, outside, ENV)
        assert isinstance(check, Reject if policy == "never" else AskUser)
    assert isinstance(assess_stdin_write("untrusted", ww(), tmp_path, same, ENV), AskUser)
    full = DangerFullAccessPolicy()
    assert isinstance(assess_stdin_write("never", full, tmp_path, outside, ENV), AutoApprove)
    assert isinstance(assess_stdin_write("untrusted", full, tmp_path, outside, ENV), AskUser)
