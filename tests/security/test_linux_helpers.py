"""Shared helpers for the Linux sandbox security tests."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codex_core.exec import ExecParams, ExecResult, run_exec
from codex_core.exec.sandbox import linux_sandbox_problem
from codex_core.protocol.common import SANDBOX_POLICY
from sandbox_helper.launch import find_bwrap, userns_available

CODEX = Path(sys.executable).parent / "codex"

linux_sandbox = pytest.mark.skipif(
    not sys.platform.startswith("linux") or linux_sandbox_problem() is not None,
    reason="needs the Linux sandbox (seccomp and user namespaces or Landlock)",
)
needs_bwrap = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not userns_available() or find_bwrap() is None,
    reason="needs user namespaces and bubblewrap",
)

# Workspace-write with the workspace as the only writable root (no /tmp, no $TMPDIR), so
# pytest's tmp_path outside the workspace is "the rest of the machine".
CONFINED = [
    "-c",
    "sandbox_mode=workspace-write",
    "-c",
    "sandbox_workspace_write.exclude_slash_tmp=true",
    "-c",
    "sandbox_workspace_write.exclude_tmpdir_env_var=true",
]
CONFINED_POLICY = {
    "mode": "workspace-write",
    "exclude_slash_tmp": True,
    "exclude_tmpdir_env_var": True,
}


def cli(
    cwd: Path,
    script: str,
    *config: str,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """`codex sandbox [-c ...] -- bash -c SCRIPT` through the installed console script."""
    argv = [str(CODEX), "sandbox", *(config or CONFINED), "--", "bash", "-c", script]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def core(
    cwd: Path,
    command: list[str],
    env: dict[str, str],
    policy: dict[str, object] | None = None,
    timeout_ms: int | None = 30_000,
) -> ExecResult:
    """Run `command` through the core's `run_exec` (what model commands go through)."""
    params = ExecParams(command=command, cwd=cwd, timeout_ms=timeout_ms, env=env)
    sandbox_policy = SANDBOX_POLICY.validate_python(policy or CONFINED_POLICY)
    return asyncio.run(run_exec(params, "linux", sandbox_policy, cwd))


def workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace (with a .git) and an "outside" directory next to it."""
    ws = tmp_path / "ws"
    (ws / ".git" / "hooks").mkdir(parents=True)
    (ws / ".git" / "config").write_text("[core]\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    return ws, outside


def alive_with(marker: str) -> list[int]:
    """Host pids whose command line contains `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found
