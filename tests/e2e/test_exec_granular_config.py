"""`codex exec` takes config.toml's `approval_policy = { granular = {...} }` as 0.169's exec
does (tests/fixtures/app_server_granular_0169.json, `exec`): accepted, and exec still runs under
`never` (its header says so, and an escalation is rejected unasked); a form 0.169 refuses is a
one-line error, exit 1, with nothing sent."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support import sse
from tests.support.model_server import ModelServer

pytestmark = pytest.mark.e2e


def _exec(
    codex_bin: Path, server: ModelServer, cwd: Path, *config: str
) -> subprocess.CompletedProcess[str]:
    flags = [flag for value in config for flag in ("-c", value)]
    argv = [str(codex_bin), "exec", *server.cli_flags(), *flags, "-s", "workspace-write", "go"]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_exec_accepts_granular_and_runs_under_never(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, timeout=30)
    args = {
        "cmd": f"touch {outside}/x",
        "sandbox_permissions": "require_escalated",
        "justification": "Touch outside?",
    }
    steps = [sse.turn(sse.function_call("exec_command", args, call_id="e1"))]
    steps.append(sse.turn(sse.message("done")))
    with ModelServer(steps) as server:
        table = (
            "approval_policy={granular={sandbox_approval=true,rules=true,mcp_elicitations=true}}"
        )
        done = _exec(codex_bin, server, repo, table)
    assert done.returncode == 0, done.stderr
    assert "approval: never" in done.stderr
    assert list(outside.iterdir()) == []


def test_exec_refuses_a_granular_table_without_its_required_settings(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    with ModelServer() as server:
        done = _exec(
            codex_bin, server, tmp_path, "approval_policy={granular={sandbox_approval=true}}"
        )
        assert server.bodies == []
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "approval_policy.granular.rules is required" in lines[0]
