"""Unit tests for sandbox selection, helper argv/env and denial detection."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from codex_core.exec import (
    SandboxUnavailable,
    is_likely_sandbox_denied,
    sandbox_argv,
    sandbox_env,
    select_sandbox,
)
from codex_core.exec.sandbox import helper_policy, linux_sandbox_problem
from codex_core.protocol.common import DangerFullAccessPolicy, ReadOnlyPolicy, WorkspaceWritePolicy

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sandbox only")


def test_exec_select_sandbox_full_access_needs_no_sandbox() -> None:
    assert select_sandbox(DangerFullAccessPolicy()) == "none"


@linux_only
def test_exec_select_sandbox_picks_linux_when_landlock_works() -> None:
    if linux_sandbox_problem() is not None:
        with pytest.raises(SandboxUnavailable, match="danger-full-access"):
            select_sandbox(ReadOnlyPolicy())
    else:
        assert select_sandbox(ReadOnlyPolicy()) == "linux"


def test_exec_linux_argv_is_bwrap_around_the_isolated_helper(
    codex_home: Path, tmp_path: Path
) -> None:
    policy = helper_policy(WorkspaceWritePolicy(writable_roots=["/data"]))
    argv = sandbox_argv(["ls", "-la"], "linux", policy, tmp_path, {}, codex_home, env_fd=7)
    assert argv[-3:] == ["--", "ls", "-la"]
    assert argv[argv.index("--env-fd") + 1] == "7"
    assert [sys.executable, "-I", "-S", "-B", "-c"] == argv[argv.index("--") + 1 :][:5] or (
        "--direct" in argv
    )
    assert not (codex_home / "tmp").exists()  # no helper link is installed anywhere


def test_exec_env_marks_network_disabled_and_seatbelt() -> None:
    ro = helper_policy(ReadOnlyPolicy())
    net = helper_policy(WorkspaceWritePolicy(network_access=True))
    assert sandbox_env({"A": "1"}, "linux", ro) == {"A": "1", "CODEX_SANDBOX_NETWORK_DISABLED": "1"}
    assert sandbox_env({}, "macos", net) == {"CODEX_SANDBOX": "seatbelt"}
    assert sandbox_env({}, "none", net) == {}


@pytest.mark.parametrize(
    ("sandbox", "code", "sig", "stderr", "expected"),
    [
        ("linux", 1, None, "touch: cannot touch 'x': Permission denied", True),
        ("linux", 1, None, "x: Read-only file system", True),
        ("linux", 7, None, "curl: (7) Operation not permitted", True),
        ("linux", 128 + signal.SIGSYS, signal.SIGSYS, "", True),
        ("linux", 1, None, "error: test failed", False),
        ("linux", 127, None, "bash: foo: Permission denied", False),
        ("linux", 0, None, "Permission denied", False),
        ("none", 1, None, "Permission denied", False),
    ],
)
def test_exec_denial_detection(
    sandbox: str, code: int, sig: int | None, stderr: str, expected: bool
) -> None:
    assert is_likely_sandbox_denied(sandbox, code, sig, stderr, "") is expected  # type: ignore[arg-type]
