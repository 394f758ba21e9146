"""`.aws` (AWS config and credentials: a `credential_process` there runs a command) is fenced
like `.git`, `.codex` and `.agents` in every writable root. codex-rust 0.169 does the same
(seen: `codex-rust sandbox -c sandbox_mode="workspace-write" -- sh -c 'touch .aws/x'` gets
"Read-only file system", an absent `.aws` shows as an empty read-only directory, and `/tmp/.aws`
is fenced too). A symlinked `.aws` is no way around it: one pointing at a directory of the
workspace keeps that directory read-only, and one pointing at nothing refuses the launch
(exit 1, one line), where 0.169 refuses every symlinked protected path ("cannot enforce
sandbox read-only path ... because it crosses writable symlink")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codex_core.protocol.common import WorkspaceWritePolicy
from codex_core.safety import Reject, assess_patch_safety
from sandbox_helper.launch import ProtectedPathError

from .test_linux_helpers import cli, core, linux_sandbox

MODES = ("bubblewrap", "landlock only")


def _env(mode: str) -> dict[str, str] | None:
    """The command's environment (read now: the test's CODEX_HOME) for a sandbox mode."""
    return {**os.environ, "CODEX_SANDBOX_NO_USERNS": "1"} if mode == "landlock only" else None


@linux_sandbox
@pytest.mark.parametrize("mode", MODES)
def test_absent_aws_dir_cannot_be_created(tmp_path: Path, mode: str) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = (
        "mkdir -p .aws 2>/dev/null; echo '[default]' > .aws/config 2>/dev/null || echo denied; "
        "touch new-file && echo top-level-ok"
    )
    proc = cli(ws, script, env=_env(mode))
    if mode == "landlock only":  # absent names block every new entry at the top (see warning)
        assert proc.stdout.splitlines() == ["denied"], proc.stderr
        assert os.listdir(ws) == []
        return
    assert proc.stdout.splitlines() == ["denied", "top-level-ok"], proc.stderr
    assert sorted(os.listdir(ws)) == ["new-file"]  # no mount point left behind


@linux_sandbox
@pytest.mark.parametrize("mode", MODES)
def test_existing_aws_dir_stays_read_only(tmp_path: Path, mode: str) -> None:
    ws = tmp_path / "ws"
    (ws / ".aws").mkdir(parents=True)
    script = (
        "echo 'credential_process = /bin/evil' > .aws/config 2>/dev/null || echo denied; "
        "rm -rf .aws 2>/dev/null; [ -d .aws ] && echo still-there"
    )
    proc = cli(ws, script, env=_env(mode))
    assert proc.stdout.splitlines() == ["denied", "still-there"], proc.stderr
    assert os.listdir(ws / ".aws") == []


@linux_sandbox
def test_aws_symlink_into_the_workspace_keeps_its_target_read_only(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "aws-data").mkdir(parents=True)
    (ws / ".aws").symlink_to("aws-data")
    script = (
        "echo x > .aws/config 2>/dev/null || echo link-denied; "
        "echo x > aws-data/config 2>/dev/null || echo target-denied"
    )
    proc = cli(ws, script)
    assert proc.stdout.splitlines() == ["link-denied", "target-denied"], proc.stderr
    assert os.listdir(ws / "aws-data") == []


@linux_sandbox
def test_dangling_aws_symlink_refuses_the_launch(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".aws").symlink_to("aws-data")  # a checkout can hold such a link
    proc = cli(ws, "mkdir aws-data && echo x > .aws/config && echo wrote-through-link")
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0] == (
        f"codex sandbox: cannot keep {os.path.realpath(ws)}/.aws read-only in the sandbox: "
        "it is a symlink to a path that does not exist"
    )
    assert not (ws / "aws-data").exists()


def test_patches_into_aws_need_approval(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy()
    check = assess_patch_safety([Path(".aws/config")], "granular", policy, tmp_path, env={})
    assert isinstance(check, Reject)


@linux_sandbox
def test_dangling_aws_symlink_refuses_a_model_command(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".aws").symlink_to("aws-data")
    env = {"PATH": os.environ["PATH"]}
    with pytest.raises(ProtectedPathError):
        core(ws, ["sh", "-c", "mkdir aws-data && echo x > .aws/config"], env)
    assert not (ws / "aws-data").exists()
