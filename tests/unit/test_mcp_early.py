"""Stdio MCP servers started before the session (issue 29): same launch, adopted or ended."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest
from mcp.client.stdio import get_default_environment

from codex_core.config.types import McpServerConfig
from codex_core.mcp import early
from codex_core.mcp.connection import ServerConnection


def transport_launch(config: McpServerConfig, cwd: str) -> early.Launch:
    """What the session's connection and stdio transport launch for `config`."""
    params = ServerConnection("s", config, os.environ, cwd)._stdio_params()
    env = {**get_default_environment(), **(params.env or {})}
    return early.launch_key([params.command, *params.args], env, params.cwd)


@pytest.mark.parametrize(
    "config",
    [
        McpServerConfig(command="npx", args=["-y", "server"]),
        McpServerConfig(
            command="python",
            args=["s.py", "stdio"],
            env={"PATH": "/opt/bin", "TOKEN_X": "1"},
            env_vars=["CODEX_EARLY_TEST"],
            cwd="~/sub",
        ),
        McpServerConfig(command="./run", cwd="/abs/dir"),
    ],
)
def test_mcp_early_launch_is_the_one_the_session_makes(
    config: McpServerConfig, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CODEX_EARLY_TEST", "from the user")
    monkeypatch.setenv("SHELL", "() { evil; }")  # shell functions are never passed on
    cwd = str(tmp_path)
    assert early.stdio_launch(config, os.environ, cwd) == transport_launch(config, cwd)


def test_mcp_early_server_is_adopted_only_for_the_same_launch(tmp_path: Path) -> None:
    config = McpServerConfig(command=sys.executable, args=["-c", "import time; time.sleep(30)"])

    async def scenario() -> None:
        await early.start_early({"s": config}, os.environ, str(tmp_path))
        argv, env, cwd = early.stdio_launch(config, os.environ, str(tmp_path))
        assert early.claim([*argv, "other"], dict(env), cwd) is None
        assert early.claim(list(argv), {**dict(env), "EXTRA": "1"}, cwd) is None
        process = early.claim(list(argv), dict(env), cwd)
        assert process is not None and process.returncode is None
        assert early.claim(list(argv), dict(env), cwd) is None  # adopted once
        process.kill()
        await process.aclose()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_mcp_early_servers_nobody_adopts_are_ended_with_their_group(tmp_path: Path) -> None:
    child_pid_file = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time; "
        "child = subprocess.Popen(['sleep', '30']); "
        f"open({str(child_pid_file)!r}, 'w').write(str(child.pid)); time.sleep(30)"
    )
    config = McpServerConfig(command=sys.executable, args=["-c", script])

    async def scenario() -> int:
        await early.start_early(
            {"s": config, "off": McpServerConfig(command="x", enabled=False)},
            os.environ,
            str(tmp_path),
        )
        for _ in range(200):
            if child_pid_file.exists() and child_pid_file.read_text():
                break
            await asyncio.sleep(0.05)
        started = list(early._started)
        assert len(started) == 1  # the disabled server was not started
        await early.discard_unclaimed()
        assert started[0][1].returncode is not None
        return int(child_pid_file.read_text())

    child = asyncio.run(asyncio.wait_for(scenario(), 30))
    deadline = time.monotonic() + 5  # the group got SIGTERM: the server's own child ends too
    while alive(child):
        assert time.monotonic() < deadline, "the early server's child outlived it"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_mcp_early_a_missing_command_is_left_for_the_session_to_report(tmp_path: Path) -> None:
    config = McpServerConfig(command=str(tmp_path / "no-such-server"))
    asyncio.run(early.start_early({"s": config}, os.environ, str(tmp_path)))
    assert early._started == []


def test_mcp_early_server_that_never_answers_is_ended_at_once_on_stop(tmp_path: Path) -> None:
    # A server that never answers `initialize` has no session to leave: stopping it must not
    # wait out the grace a ready server gets (it kept `codex exec` ~7 s past its answer).
    pid_file = tmp_path / "pid"
    script = (
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    )
    config = McpServerConfig(command=sys.executable, args=["-c", script])

    async def scenario() -> float:
        conn = ServerConnection("stuck", config, os.environ, str(tmp_path))
        conn.start()
        deadline = time.monotonic() + 30
        while not pid_file.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert conn.status == "starting"
        began = time.monotonic()
        await conn.stop()
        return time.monotonic() - began

    took = asyncio.run(scenario())
    assert took < 2.0  # the grace of a ready server is 5 s
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        for _ in range(100):  # the child is reaped by the transport; give the kernel a moment
            os.kill(pid, 0)
            time.sleep(0.02)
