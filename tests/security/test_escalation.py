"""Issue 11 items 1 and 11: known-safe never means unsandboxed.

The attack: a sandboxed command plants a nested repository whose `core.fsmonitor` runs a
script, then the model asks to run the known-safe `git status` there *outside* the sandbox.
git runs the script, so anything that lets that `git status` out unasked is code execution
outside the sandbox. Escalation must go through the approval policy (asked under
on-request, refused with the model told under `never`), and without a platform sandbox a
known-safe command must not run bare either.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from codex_core.exec import SandboxUnavailable, select_sandbox
from codex_core.protocol import ExecApprovalRequestEvent, ExecCommandBeginEvent, TaskCompleteEvent
from codex_core.protocol.common import AskForApproval, WorkspaceWritePolicy
from tests.integration.session_harness import (
    Approver,
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn

__all__ = ["workspace"]  # the fixture, imported for pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="the attack needs git")


def platform_sandbox_problem() -> str | None:
    """Why commands cannot be sandboxed on this machine, or None."""
    try:
        select_sandbox(WorkspaceWritePolicy())
    except SandboxUnavailable as err:
        return str(err)
    return None


needs_sandbox = pytest.mark.skipif(
    platform_sandbox_problem() is not None, reason="no platform sandbox on this machine"
)

ESCALATION_SHAPES: dict[str, dict[str, Any]] = {
    "with_escalated_permissions": {"with_escalated_permissions": True},
    "sandbox_permissions": {"sandbox_permissions": "require_escalated"},
}


def plant_script(root: Path, marker: Path) -> str:
    """The bash script a sandboxed command runs to arm `sub/.git/config` with an fsmonitor."""
    return (
        "set -e; mkdir -p sub; git -C sub init -q; "
        f"printf '#!/bin/sh\\necho fired >> {marker}\\n' > fsmonitor.sh; chmod +x fsmonitor.sh; "
        f'git -C sub config core.fsmonitor "{root}/fsmonitor.sh"'
    )


def git_status_call(call_id: str, shape: str) -> Any:
    """The known-safe `git status` in `sub`, asking to run outside the sandbox."""
    return shell_call(
        ["git", "status"],
        call_id,
        workdir="sub",
        justification="git needs to read the repository",
        **ESCALATION_SHAPES[shape],
    )


def assert_trap_armed(root: Path, marker: Path) -> None:
    """The planted config works: git run outside the sandbox does fire it (then reset)."""
    assert "fsmonitor" in (root / "sub" / ".git" / "config").read_text()
    subprocess.run(["git", "status"], cwd=root / "sub", capture_output=True, check=False)
    assert marker.exists(), "this git does not run core.fsmonitor; the test proves nothing"
    marker.unlink()


SANDBOX_CALLERS = (
    "codex_core.exec.sandbox",
    "codex_core.exec",
    "codex_core.tools.shell",
    "codex_core.tools.patch",
)


def make_sandbox_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every caller of `select_sandbox` in this process sees a platform without a sandbox."""

    def unavailable(policy: Any) -> Any:
        if policy.mode == "danger-full-access":
            return "none"
        raise SandboxUnavailable("no Landlock here (simulated by the test)")

    for name in SANDBOX_CALLERS:
        module = importlib.import_module(name)
        if hasattr(module, "select_sandbox"):
            monkeypatch.setattr(module, "select_sandbox", unavailable)


@needs_sandbox
@pytest.mark.parametrize("shape", list(ESCALATION_SHAPES))
async def test_escalation_known_safe_command_is_asked_under_on_request(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, shape: str
) -> None:
    root, marker = workspace.root, workspace.outside / "marker"
    model_server.add(
        turn(shell_call(["bash", "-lc", plant_script(root, marker)], "plant")),
        turn(message("planted")),
        turn(git_status_call("status", shape)),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default=None, by_call={"status": "denied"})

    await run_turn(session, "set up the repo", approver)
    assert_trap_armed(root, marker)
    events = await run_turn(session, "git status please", approver)
    await shutdown(session)

    assert approver.asked == ["status"]
    request = approver.requests[0]
    assert isinstance(request, ExecApprovalRequestEvent)
    assert request.command == ["git", "status"]
    assert not any(isinstance(m, ExecCommandBeginEvent) for m in events)
    assert tool_outputs(model_server)["status"] == "exec command rejected by user"
    assert not marker.exists()
    assert isinstance(events[-1], TaskCompleteEvent)


@needs_sandbox
@pytest.mark.e2e
@pytest.mark.parametrize("shape", list(ESCALATION_SHAPES))
def test_escalation_known_safe_command_is_refused_by_codex_exec_under_never(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, shape: str
) -> None:
    root, outside = tmp_path / "ws", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    marker = outside / "marker"
    model_server.add(
        turn(shell_call(["bash", "-lc", plant_script(root, marker)], "plant")),
        turn(git_status_call("status", shape)),
        turn(message("done")),
    )
    done = subprocess.run(
        [
            str(codex_bin),
            "exec",
            "--skip-git-repo-check",
            "--json",
            "-s",
            "workspace-write",
            "-c",
            "sandbox_workspace_write.exclude_slash_tmp=true",
            "-c",
            "sandbox_workspace_write.exclude_tmpdir_env_var=true",
            *model_server.cli_flags(),
            "plant a repo, then run git status in it",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        stdin=subprocess.DEVNULL,
    )

    assert done.returncode == 0, done.stderr
    assert_trap_armed(root, marker)  # the sandboxed plant worked; only the escape is refused
    output = tool_outputs(model_server)["status"]
    assert output.startswith("exec command rejected:"), output
    assert "never" in output
    commands = [
        json.loads(line)["item"]
        for line in done.stdout.splitlines()
        if '"command_execution"' in line and json.loads(line)["type"] == "item.completed"
    ]
    assert [c["command"] for c in commands if "git status" in c["command"]] == []
    assert not marker.exists()


@pytest.mark.parametrize(("policy", "asked"), [("on-request", True), ("never", False)])
async def test_escalation_no_sandbox_available_known_safe_command_does_not_run_bare(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    policy: AskForApproval,
    asked: bool,
) -> None:
    root, marker = workspace.root, workspace.outside / "marker"
    subprocess.run(["bash", "-c", plant_script(root, marker)], cwd=root, check=True)
    assert_trap_armed(root, marker)
    make_sandbox_unavailable(monkeypatch)
    model_server.add(
        turn(shell_call(["git", "status"], "status", workdir="sub")),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, policy)
    approver = Approver(default=None, by_call={"status": "denied"})

    events = await run_turn(session, "git status please", approver)
    await shutdown(session)

    assert approver.asked == (["status"] if asked else [])
    assert not any(isinstance(m, ExecCommandBeginEvent) for m in events)
    output = tool_outputs(model_server)["status"]
    if asked:
        request = approver.requests[0]
        assert request.reason is not None and "no sandbox" in request.reason
        assert output == "exec command rejected by user"
    else:
        assert output.startswith("exec command rejected:") and "no sandbox" in output
    assert not marker.exists()
