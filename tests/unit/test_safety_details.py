"""Rule decisions, session approvals, writable-root edges and denial retries in codex_core.safety."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from codex_core.protocol.common import (
    AskForApproval,
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
)
from codex_core.safety import (
    AskUser,
    AutoApprove,
    Reject,
    assess_command_safety,
    assess_patch_safety,
    patch_sandbox,
    should_ask_after_denial,
    writable_roots,
)
from codex_core.tools.shell import parse_shell_args

POLICIES: list[AskForApproval] = ["untrusted", "on-failure", "on-request", "never"]
UNSAFE_CMD = ["npm", "install"]


@pytest.mark.parametrize("policy", POLICIES)
def test_safety_forbidden_rule_rejects_even_known_safe_or_approved(policy: AskForApproval) -> None:
    check = assess_command_safety(
        ["ls"], policy, DangerFullAccessPolicy(), {("ls",)}, rule_decision="forbidden"
    )
    assert isinstance(check, Reject)


@pytest.mark.parametrize("policy", POLICIES)
def test_safety_prompt_rule_asks_except_under_never(policy: AskForApproval) -> None:
    check = assess_command_safety(
        ["ls"], policy, WorkspaceWritePolicy(), set(), rule_decision="prompt"
    )
    assert isinstance(check, Reject if policy == "never" else AskUser)


def test_safety_session_approval_outranks_prompt_rule() -> None:
    check = assess_command_safety(
        UNSAFE_CMD, "untrusted", ReadOnlyPolicy(), {tuple(UNSAFE_CMD)}, rule_decision="prompt"
    )
    assert check == AutoApprove("platform", check.reason)  # approval skips the prompt only


@pytest.mark.parametrize("policy", POLICIES)
def test_safety_allow_rule_runs_without_asking_but_keeps_sandbox(policy: AskForApproval) -> None:
    check = assess_command_safety(
        UNSAFE_CMD, policy, WorkspaceWritePolicy(), set(), rule_decision="allow"
    )
    assert isinstance(check, AutoApprove)
    assert check.sandbox == "platform"


def test_safety_allow_rule_under_full_access_runs_unsandboxed() -> None:
    check = assess_command_safety(
        UNSAFE_CMD, "untrusted", DangerFullAccessPolicy(), set(), rule_decision="allow"
    )
    assert check == AutoApprove("none", check.reason)


@pytest.mark.parametrize(("policy", "expected"), [("on-request", AskUser), ("never", Reject)])
def test_safety_allow_rule_does_not_grant_escalation(
    policy: AskForApproval, expected: type[AskUser | Reject]
) -> None:
    check = assess_command_safety(
        UNSAFE_CMD,
        policy,
        WorkspaceWritePolicy(),
        set(),
        with_escalated_permissions=True,
        rule_decision="allow",
    )
    assert isinstance(check, expected)


@pytest.mark.parametrize(("policy", "expected"), [("untrusted", AskUser), ("never", Reject)])
def test_safety_allow_rule_without_sandbox_does_not_run_bare(
    policy: AskForApproval, expected: type[AskUser | Reject]
) -> None:
    check = assess_command_safety(
        UNSAFE_CMD, policy, ReadOnlyPolicy(), set(), sandbox_available=False, rule_decision="allow"
    )
    assert isinstance(check, expected)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("command", [["git", "status"], ["bash", "-lc", "cd sub && git status"]])
def test_safety_escalated_known_safe_command_goes_through_approval(
    policy: AskForApproval, command: list[str]
) -> None:
    """Known-safe only skips the prompt; leaving the sandbox is always the user's call."""
    check = assess_command_safety(
        command, policy, WorkspaceWritePolicy(), set(), with_escalated_permissions=True
    )
    assert isinstance(check, Reject if policy == "never" else AskUser)
    if isinstance(check, Reject):
        assert "never" in check.reason


@pytest.mark.parametrize("policy", POLICIES)
def test_safety_known_safe_command_without_sandbox_is_not_run_bare(
    policy: AskForApproval,
) -> None:
    check = assess_command_safety(
        ["git", "status"], policy, WorkspaceWritePolicy(), set(), sandbox_available=False
    )
    assert isinstance(check, Reject if policy == "never" else AskUser)
    assert "no sandbox" in check.reason


@pytest.mark.parametrize(
    ("arguments", "escalated"),
    [
        ({"with_escalated_permissions": True}, True),
        ({"sandbox_permissions": "require_escalated"}, True),
        ({"sandbox_permissions": "use_default"}, False),
        ({"sandbox_permissions": "with_additional_permissions"}, False),
        ({"with_escalated_permissions": False}, False),
        ({}, False),
    ],
)
def test_safety_escalation_argument_shapes_are_both_understood(
    arguments: dict[str, object], escalated: bool
) -> None:
    text = json.dumps({"command": ["git", "status"], "justification": "why", **arguments})
    args = parse_shell_args(text)
    assert args.with_escalated_permissions is escalated
    check = assess_command_safety(
        args.command,
        "on-request",
        WorkspaceWritePolicy(),
        set(),
        with_escalated_permissions=args.with_escalated_permissions,
    )
    assert isinstance(check, AskUser if escalated else AutoApprove)


def test_safety_session_approval_is_for_the_exact_argv() -> None:
    approved = {("npm", "install")}
    check = assess_command_safety(
        ["npm", "install", "left-pad"], "untrusted", ReadOnlyPolicy(), approved
    )
    assert isinstance(check, AskUser)


def test_safety_known_safe_bash_script_runs_under_untrusted() -> None:
    check = assess_command_safety(
        ["bash", "-lc", "git status && ls"], "untrusted", WorkspaceWritePolicy(), set()
    )
    assert isinstance(check, AutoApprove)


@pytest.mark.parametrize(
    ("policy", "expected"),
    [("untrusted", True), ("on-failure", True), ("on-request", False), ("never", False)],
)
def test_safety_should_ask_after_denial(policy: AskForApproval, expected: bool) -> None:
    assert should_ask_after_denial(policy) is expected


# ---------------------------------------------------------------- patches


def test_safety_patch_into_git_dir_is_not_auto_approved(tmp_path: Path) -> None:
    for protected in (".git/hooks/pre-commit", ".codex/config.toml"):
        check = assess_patch_safety(
            [Path(protected)], "on-request", WorkspaceWritePolicy(), tmp_path, env={}
        )
        assert isinstance(check, AskUser), protected


def test_safety_patch_through_symlink_out_of_workspace_asks(tmp_path: Path) -> None:
    cwd = tmp_path / "proj"
    cwd.mkdir()
    (cwd / "escape").symlink_to("/etc")
    check = assess_patch_safety(
        [Path("escape/hosts")], "on-request", WorkspaceWritePolicy(), cwd, env={}
    )
    assert isinstance(check, AskUser)


def test_safety_patch_with_dotdot_out_of_workspace_is_rejected_under_never(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy(exclude_slash_tmp=True)
    check = assess_patch_safety(
        [Path("../elsewhere.txt")], "never", policy, tmp_path / "proj", env={}
    )
    assert isinstance(check, Reject)


def test_safety_patch_in_configured_root_and_tmpdir_is_auto_approved(tmp_path: Path) -> None:
    cwd, extra, tmpdir = tmp_path / "proj", tmp_path / "shared", tmp_path / "tmpdir"
    policy = WorkspaceWritePolicy(writable_roots=[str(extra)], exclude_slash_tmp=True)
    paths = [extra / "a.txt", tmpdir / "b.txt", Path("c.txt")]
    check = assess_patch_safety(paths, "never", policy, cwd, env={"TMPDIR": str(tmpdir)})
    assert isinstance(check, AutoApprove)


def test_safety_patch_in_tmpdir_excluded_by_policy_asks(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmpdir"
    policy = WorkspaceWritePolicy(exclude_tmpdir_env_var=True, exclude_slash_tmp=True)
    check = assess_patch_safety(
        [tmpdir / "b.txt"], "on-request", policy, tmp_path / "proj", env={"TMPDIR": str(tmpdir)}
    )
    assert isinstance(check, AskUser)


def test_safety_patch_mixing_inside_and_outside_asks(tmp_path: Path) -> None:
    check = assess_patch_safety(
        [Path("ok.txt"), Path("/etc/codex-test/x")],
        "on-failure",
        WorkspaceWritePolicy(),
        tmp_path,
        env={},
    )
    assert isinstance(check, AskUser)
    assert "/etc/codex-test/x" in check.reason


@pytest.mark.parametrize("policy", POLICIES)
def test_safety_patch_approved_for_session_is_auto_approved(
    policy: AskForApproval, tmp_path: Path
) -> None:
    approved = {Path(os.path.realpath(tmp_path / "a.py"))}
    check = assess_patch_safety(
        [Path("a.py")], policy, ReadOnlyPolicy(), tmp_path, approved, env={}
    )
    assert isinstance(check, AutoApprove)


def test_safety_patch_inside_roots_runs_in_the_platform_sandbox(tmp_path: Path) -> None:
    check = assess_patch_safety([Path("a.py")], "on-request", WorkspaceWritePolicy(), tmp_path)
    assert check == AutoApprove("platform", check.reason)


def test_safety_patch_approved_for_session_inside_roots_stays_sandboxed(tmp_path: Path) -> None:
    approved = {Path(os.path.realpath(tmp_path / "a.py"))}
    check = assess_patch_safety(
        [Path("a.py")], "untrusted", WorkspaceWritePolicy(), tmp_path, approved, env={}
    )
    assert check == AutoApprove("platform", check.reason)


@pytest.mark.parametrize(
    ("policy", "path", "available", "expected"),
    [
        (WorkspaceWritePolicy(), "src/a.py", True, "platform"),
        (WorkspaceWritePolicy(), "/etc/codex-test/x", True, "none"),
        (WorkspaceWritePolicy(), ".git/hooks/pre-commit", True, "none"),
        (WorkspaceWritePolicy(), "src/a.py", False, "none"),
        (ReadOnlyPolicy(), "src/a.py", True, "none"),
        (DangerFullAccessPolicy(), "src/a.py", True, "none"),
    ],
)
def test_safety_patch_sandbox_leaves_the_sandbox_only_for_what_needs_it(
    policy: WorkspaceWritePolicy | ReadOnlyPolicy | DangerFullAccessPolicy,
    path: str,
    available: bool,
    expected: str,
    tmp_path: Path,
) -> None:
    assert patch_sandbox([Path(path)], policy, tmp_path, available, env={}) == expected


def test_safety_empty_patch_is_rejected(tmp_path: Path) -> None:
    check = assess_patch_safety([], "never", DangerFullAccessPolicy(), tmp_path)
    assert isinstance(check, Reject)


def test_safety_writable_roots_follow_policy(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy(writable_roots=["build"], exclude_slash_tmp=False)
    roots = [r.root for r in writable_roots(policy, tmp_path, {"TMPDIR": "/var/tmp/x"})]
    assert roots == [str(tmp_path), str(tmp_path / "build"), "/tmp", "/var/tmp/x"]
    assert writable_roots(ReadOnlyPolicy(), tmp_path, {}) == []
