"""Every cell of approval policy × sandbox policy × kind of action (see codex_core.safety)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.protocol.common import (
    AskForApproval,
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_core.safety import (
    AskUser,
    AutoApprove,
    Reject,
    SafetyCheck,
    assess_command_safety,
    assess_patch_safety,
)

SANDBOXES: dict[str, SandboxPolicy] = {
    "read-only": ReadOnlyPolicy(),
    "workspace-write": WorkspaceWritePolicy(),
    "danger-full-access": DangerFullAccessPolicy(),
}
SAFE_CMD = ["ls", "-la"]
UNSAFE_CMD = ["rm", "-rf", "build"]
OUTSIDE_FILE = Path("/etc/codex-safety-test/outside.txt")

# Outcome codes: "run+sb" AutoApprove in the platform sandbox, "run" AutoApprove without it,
# "ask" AskUser, "reject" Reject. Columns: read-only, workspace-write, danger-full-access.
# "safe-escalated" is a known-safe command asking to leave the sandbox: known-safe only
# skips the prompt, so it is asked about (rejected under `never`) like any escalation.
# "approved" is an argv approved for the session (it still runs in the sandbox; asking to
# leave it is a new question); "approved-outside" was approved to run outside the sandbox.
MATRIX: dict[tuple[AskForApproval, str], tuple[str, str, str]] = {
    ("untrusted", "safe"): ("run+sb", "run+sb", "run"),
    ("untrusted", "unsafe"): ("ask", "ask", "ask"),
    ("untrusted", "escalated"): ("ask", "ask", "ask"),
    ("untrusted", "safe-escalated"): ("ask", "ask", "run"),
    ("untrusted", "approved"): ("run+sb", "run+sb", "run"),
    ("untrusted", "approved-escalated"): ("ask", "ask", "run"),
    ("untrusted", "approved-outside"): ("run", "run", "run"),
    ("untrusted", "patch-inside"): ("ask", "ask", "ask"),
    ("untrusted", "patch-outside"): ("ask", "ask", "ask"),
    ("on-failure", "safe"): ("run+sb", "run+sb", "run"),
    ("on-failure", "unsafe"): ("run+sb", "run+sb", "run"),
    ("on-failure", "escalated"): ("ask", "ask", "run"),
    ("on-failure", "safe-escalated"): ("ask", "ask", "run"),
    ("on-failure", "approved"): ("run+sb", "run+sb", "run"),
    ("on-failure", "approved-escalated"): ("ask", "ask", "run"),
    ("on-failure", "approved-outside"): ("run", "run", "run"),
    ("on-failure", "patch-inside"): ("ask", "run+sb", "run"),
    ("on-failure", "patch-outside"): ("ask", "ask", "run"),
    ("on-request", "safe"): ("run+sb", "run+sb", "run"),
    ("on-request", "unsafe"): ("run+sb", "run+sb", "run"),
    ("on-request", "escalated"): ("ask", "ask", "run"),
    ("on-request", "safe-escalated"): ("ask", "ask", "run"),
    ("on-request", "approved"): ("run+sb", "run+sb", "run"),
    ("on-request", "approved-escalated"): ("ask", "ask", "run"),
    ("on-request", "approved-outside"): ("run", "run", "run"),
    ("on-request", "patch-inside"): ("ask", "run+sb", "run"),
    ("on-request", "patch-outside"): ("ask", "ask", "run"),
    ("never", "safe"): ("run+sb", "run+sb", "run"),
    ("never", "unsafe"): ("run+sb", "run+sb", "run"),
    ("never", "escalated"): ("reject", "reject", "run"),
    ("never", "safe-escalated"): ("reject", "reject", "run"),
    ("never", "approved"): ("run+sb", "run+sb", "run"),
    ("never", "approved-escalated"): ("reject", "reject", "run"),
    ("never", "approved-outside"): ("run", "run", "run"),
    ("never", "patch-inside"): ("reject", "run+sb", "run"),
    ("never", "patch-outside"): ("reject", "reject", "run"),
}
CELLS = [
    (policy, case, mode, expected)
    for (policy, case), outcomes in MATRIX.items()
    for mode, expected in zip(SANDBOXES, outcomes, strict=True)
]


def outcome(check: SafetyCheck) -> str:
    """The outcome code of a decision."""
    if isinstance(check, AutoApprove):
        return "run+sb" if check.sandbox == "platform" else "run"
    return "ask" if isinstance(check, AskUser) else "reject"


def decide(case: str, policy: AskForApproval, sandbox: SandboxPolicy, cwd: Path) -> SafetyCheck:
    """Run the assessment a cell of the matrix describes."""
    if case == "patch-inside":
        return assess_patch_safety([Path("src/app.py")], policy, sandbox, cwd, env={})
    if case == "patch-outside":
        return assess_patch_safety([OUTSIDE_FILE], policy, sandbox, cwd, env={})
    command = SAFE_CMD if case.startswith("safe") else UNSAFE_CMD
    approved = {tuple(UNSAFE_CMD)} if case.startswith("approved") else set()
    outside = approved if case == "approved-outside" else set()
    return assess_command_safety(
        command,
        policy,
        sandbox,
        approved,
        approved_unsandboxed=outside,
        with_escalated_permissions=case.endswith("escalated"),
    )


@pytest.mark.parametrize(("policy", "case", "mode", "expected"), CELLS)
def test_safety_matrix_cell(
    policy: AskForApproval, case: str, mode: str, expected: str, tmp_path: Path
) -> None:
    assert outcome(decide(case, policy, SANDBOXES[mode], tmp_path)) == expected


def test_safety_matrix_covers_every_cell() -> None:
    assert len(CELLS) == 4 * 3 * 9


# Without a platform sandbox nothing runs silently, known-safe or not: every command asks
# (is rejected under `never`), the fail-closed rule.
NO_SANDBOX: dict[tuple[AskForApproval, str], str] = {
    ("untrusted", "safe"): "ask",
    ("untrusted", "unsafe"): "ask",
    ("on-failure", "safe"): "ask",
    ("on-failure", "unsafe"): "ask",
    ("on-request", "safe"): "ask",
    ("on-request", "unsafe"): "ask",
    ("never", "safe"): "reject",
    ("never", "unsafe"): "reject",
    ("never", "escalated"): "reject",
    ("on-request", "escalated"): "ask",
    ("never", "safe-escalated"): "reject",
    ("on-request", "safe-escalated"): "ask",
}


@pytest.mark.parametrize("mode", ["read-only", "workspace-write"])
@pytest.mark.parametrize(("policy", "case"), list(NO_SANDBOX))
def test_safety_without_sandbox_commands_needing_one_ask(
    policy: AskForApproval, case: str, mode: str
) -> None:
    check = assess_command_safety(
        SAFE_CMD if case.startswith("safe") else UNSAFE_CMD,
        policy,
        SANDBOXES[mode],
        set(),
        with_escalated_permissions=case.endswith("escalated"),
        sandbox_available=False,
    )
    assert outcome(check) == NO_SANDBOX[(policy, case)]


@pytest.mark.parametrize("policy", ["untrusted", "on-failure", "on-request", "never"])
def test_safety_without_sandbox_full_access_still_runs_unsandboxed(policy: AskForApproval) -> None:
    check = assess_command_safety(
        UNSAFE_CMD, policy, DangerFullAccessPolicy(), set(), sandbox_available=False
    )
    assert outcome(check) == ("ask" if policy == "untrusted" else "run")


@pytest.mark.parametrize("policy", ["untrusted", "on-failure", "on-request", "never"])
@pytest.mark.parametrize("mode", list(SANDBOXES))
def test_safety_patch_without_sandbox_fails_closed(
    policy: AskForApproval, mode: str, tmp_path: Path
) -> None:
    """Without a sandbox, a patch that would run sandboxed asks instead; the rest is unchanged."""
    for case in ("patch-inside", "patch-outside"):
        with_sandbox = outcome(decide(case, policy, SANDBOXES[mode], tmp_path))
        path = Path("src/app.py") if case == "patch-inside" else OUTSIDE_FILE
        without = assess_patch_safety(
            [path], policy, SANDBOXES[mode], tmp_path, sandbox_available=False, env={}
        )
        expected = with_sandbox
        if with_sandbox == "run+sb":
            expected = "reject" if policy == "never" else "ask"
        assert outcome(without) == expected, case


def test_safety_reject_reason_tells_the_model_why() -> None:
    check = assess_command_safety(
        UNSAFE_CMD, "never", WorkspaceWritePolicy(), set(), with_escalated_permissions=True
    )
    assert isinstance(check, Reject)
    assert "never" in check.reason
