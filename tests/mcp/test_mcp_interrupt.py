"""Ctrl+C (a real SIGINT) during an MCP tool call in `codex exec`, against codex-rust 0.169.

Recorded from 0.169 in `tests/fixtures/exec_interrupt_0169/`: it exits 1 at once, its JSONL
stops after the call's `item.started`, its human output ends with `turn interrupted`. Ours
prints the same lines, then completes the started item (`failed`) and the turn
(`turn.failed`) — the README says why — and leaves no server process behind.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.mcp.conftest import namespace_call, stdio_entry, write_config
from tests.support.model_server import ModelServer

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent.parent / "fixtures" / "exec_interrupt_0169"


def _gone(pid: int) -> bool:
    """Exited (a zombie waiting for a reaper counts: it runs nothing)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _interrupt_hanging_call(
    codex_bin: Path, server: ModelServer, home: Path, cwd: Path, *extra: str
) -> tuple[subprocess.CompletedProcess[str], float, list[int]]:
    """Run `codex exec` until the `hang` tool is running, SIGINT it; returns the process, the
    seconds it took to exit after the signal, and the pids of the server and its child."""
    pids, child_pids = cwd / "server.pid", cwd / "child.pid"
    env_line = f'env = {{ MCP_TEST_PID_FILE = "{pids}", MCP_TEST_CHILD_PID_FILE = "{child_pids}" }}'
    write_config(home, stdio_entry("probe", env_line))
    server.add(namespace_call("mcp__probe", "hang", {}, "c1"))
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", *extra, *server.cli_flags(), "hang"]
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not server.requests:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the model was never asked"
            time.sleep(0.05)
        time.sleep(0.5)  # the call reaches the server
        proc.send_signal(signal.SIGINT)
        signalled = time.monotonic()
        out, err = proc.communicate(timeout=20)
        took = time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    done = subprocess.CompletedProcess(argv, proc.returncode, out, err)
    return done, took, [int(p) for f in (pids, child_pids) for p in f.read_text().split()]


def _assert_all_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + 2
    while not all(_gone(pid) for pid in pids):
        assert time.monotonic() < deadline, "an MCP server process outlived codex exec"
        time.sleep(0.05)


def test_exec_json_sigint_during_mcp_call_exits_1_at_once_like_0169(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    done, took, pids = _interrupt_hanging_call(
        codex_bin, model_server, codex_home, tmp_path, "--json"
    )
    assert done.returncode == 1, done.stderr
    assert took < 3, f"codex exec took {took:.2f}s to stop"
    assert "Traceback" not in done.stderr
    _assert_all_gone(pids)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    thread_id = lines[0]["thread_id"]
    recorded = (FIXTURES / "mcp_call_json.jsonl").read_text().replace("THREAD_ID", thread_id)
    expected = [json.loads(line) for line in recorded.splitlines()]
    assert lines[: len(expected)] == expected
    started = expected[-1]["item"]
    assert lines[len(expected) :] == [
        {"type": "item.completed", "item": {**started, "status": "failed"}},
        {"type": "turn.failed", "error": {"message": "turn interrupted"}},
    ]
    [rollout] = codex_home.glob(f"sessions/*/*/*/rollout-*{thread_id}.jsonl")
    records = [json.loads(line) for line in rollout.read_text().splitlines()]
    [output] = [
        r["payload"]["output"]
        for r in records
        if r["type"] == "response_item" and r["payload"]["type"] == "function_call_output"
    ]
    assert re.fullmatch(r"aborted by user after \d+\.\ds", output)  # 0.169's words


def test_exec_human_sigint_during_mcp_call_says_turn_interrupted_and_exits_1(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    done, took, pids = _interrupt_hanging_call(codex_bin, model_server, codex_home, tmp_path)
    assert done.returncode == 1, done.stderr
    assert took < 3, f"codex exec took {took:.2f}s to stop"
    _assert_all_gone(pids)
    recorded = (FIXTURES / "mcp_call_human_stderr_tail.txt").read_text().splitlines()
    assert done.stderr.splitlines()[-1] == recorded[-1] == "turn interrupted"
    assert "Traceback" not in done.stderr
