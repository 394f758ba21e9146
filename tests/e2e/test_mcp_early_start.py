"""Stdio MCP servers started before the session (issue 29): started once, adopted by the
session (its tools in the first request), gone when codex ends — in exec and in the TUI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

SERVER = Path(__file__).resolve().parents[1] / "mcp" / "server.py"


def configure(codex_home: Path, pid_file: Path) -> None:
    (codex_home / "config.toml").write_text(
        "[mcp_servers.probe]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f"args = {json.dumps([str(SERVER), 'stdio'])}\n"
        f"env = {{ MCP_TEST_PID_FILE = {json.dumps(str(pid_file))} }}\n"
        "required = true\n"  # the first request waits for it however loaded the machine is
    )


def assert_started_once_and_ended(pid_file: Path) -> None:
    pids = [int(line) for line in pid_file.read_text().split()]
    assert len(pids) == 1, f"the server was started {len(pids)} times"
    deadline = time.monotonic() + 15
    while Path(f"/proc/{pids[0]}").exists() and time.monotonic() < deadline:
        stat = Path(f"/proc/{pids[0]}/stat").read_text(errors="replace")
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            break
        time.sleep(0.05)
    else:
        assert not Path(f"/proc/{pids[0]}").exists(), "the server outlived codex"


def offered(model_server: ModelServer) -> bool:
    return "mcp__probe" in json.dumps(model_server.requests[0].body.get("tools", []))


def test_mcp_early_start_exec_adopts_the_server_it_started(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pids"
    configure(codex_home, pid_file)
    model_server.add(turn(message("done")))
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", *model_server.cli_flags(), "hi"]
    done = subprocess.run(
        argv,
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert offered(model_server)
    assert_started_once_and_ended(pid_file)


def test_mcp_early_start_tui_adopts_the_server_it_started(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    pid_file = tmp_path / "pids"
    configure(codex_home, pid_file)
    model_server.add(turn(message("Zebra42 answers")))
    term = spawn(codex_bin, ["-a", "never", "-s", "read-only", *model_server.cli_flags()], project)
    term.wait_for("Ask Codex to do anything", timeout=60)
    term.child.send("hi\r")
    term.wait_for("Zebra42 answers", timeout=60)
    term.child.send("\x04")
    term.rest()
    assert offered(model_server)
    assert_started_once_and_ended(pid_file)
