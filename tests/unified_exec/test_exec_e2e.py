"""Unified exec through the real `codex exec` console script against the scripted server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import uuid
from pathlib import Path
from typing import Any

from tests.support.sse import function_call, message, turn, usage
from tests.unified_exec.support import SID, SessionIdServer, tool_outputs

WALL = re.compile(r"Wall time: (\d+\.\d{4}) seconds")


def run_exec(
    codex_bin: Path,
    calls: list[tuple[str, dict[str, Any]]],
    cwd: Path,
    codex_home: Path,
    *flags: str,
) -> tuple[subprocess.CompletedProcess[str], dict[str, str], list[dict[str, Any]]]:
    """Run one `codex exec --json` turn making `calls`; returns (process, outputs, JSON lines)."""
    with SessionIdServer() as server:
        for index, (name, args) in enumerate(calls):
            server.add(turn(function_call(name, args, call_id=f"c{index}")))
        server.add(turn(message("done"), usage=usage(input=1, output=1)))
        env = {**os.environ, "OPENAI_API_KEY": "sk-test", "CODEX_HOME": str(codex_home)}
        done = subprocess.run(
            [str(codex_bin), "exec", "--json", "--skip-git-repo-check", *server.cli_flags(),
             *flags, "go"],
            cwd=cwd, capture_output=True, text=True, timeout=120, env=env,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        server.check_pairing()
        outputs = tool_outputs(server.requests[-1].body)
        tools = {t.get("name") for t in server.requests[0].body["tools"]}
        assert {"exec_command", "write_stdin"} <= tools and "shell" not in tools
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return done, outputs, lines


def wall(output: str) -> float:
    found = WALL.search(output)
    assert found, output
    return float(found.group(1))


def test_unified_exec_python_repl_fed_with_write_stdin(
    codex_bin: Path, tmp_path: Path, codex_home: Path
) -> None:
    done, out, lines = run_exec(
        codex_bin,
        [
            ("exec_command", {"cmd": "python3 -i -q", "tty": True, "yield_time_ms": 1500}),
            ("write_stdin", {"session_id": SID, "chars": "print(6*7)\n", "yield_time_ms": 1000}),
            ("write_stdin", {"session_id": SID, "chars": "exit()\n", "yield_time_ms": 3000}),
            ("write_stdin", {"session_id": SID, "chars": "1\n"}),
        ],
        tmp_path,
        codex_home,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"Process running with session ID \d+", out["c0"]), out["c0"]
    assert ">>> " in out["c0"]
    assert "\n42\r\n" in out["c1"] and wall(out["c1"]) < 1.5, out["c1"]
    assert "Process exited with code 0" in out["c2"] and wall(out["c2"]) < 2.5
    assert out["c3"].startswith("write_stdin failed: Unknown process id ")
    [item] = [x["item"] for x in lines if x["type"] == "item.completed" and "command" in x["item"]]
    assert item["command"].endswith("-lc 'python3 -i -q'") and item["exit_code"] == 0
    assert "42" in item["aggregated_output"]


def test_unified_exec_background_server_polled(
    codex_bin: Path, tmp_path: Path, codex_home: Path
) -> None:
    script = (
        "python3 -u -c \"import time; print('listening'); time.sleep(1); "
        "print('request served'); time.sleep(60)\""
    )
    done, out, _ = run_exec(
        codex_bin,
        [
            ("exec_command", {"cmd": script, "yield_time_ms": 400}),
            ("write_stdin", {"session_id": SID, "chars": "", "yield_time_ms": 5000}),
            ("exec_command", {"cmd": "echo meanwhile"}),
        ],
        tmp_path,
        codex_home,
    )
    assert done.returncode == 0, done.stderr
    assert "Process running with session ID" in out["c0"] and "listening" in out["c0"]
    assert "request served" in out["c1"] and "listening" not in out["c1"]
    assert 4.9 < wall(out["c1"]) < 6.5
    assert "Process exited with code 0" in out["c2"] and "meanwhile" in out["c2"]


def test_unified_exec_sessions_killed_when_the_session_ends(
    codex_bin: Path, tmp_path: Path, codex_home: Path
) -> None:
    token = f"{uuid.uuid4().int % 10**6}.{uuid.uuid4().int % 997}"
    done, out, _ = run_exec(
        codex_bin,
        [
            ("exec_command", {"cmd": f"sleep {token} & sleep {token}", "yield_time_ms": 300}),
            ("exec_command", {"cmd": f"exec sleep {token}", "tty": True, "yield_time_ms": 300}),
        ],
        tmp_path,
        codex_home,
        "--sandbox",
        "danger-full-access",
    )
    assert done.returncode == 0, done.stderr
    assert "Process running" in out["c0"] and "Process running" in out["c1"]
    left = []
    for proc in Path("/proc").iterdir():
        try:
            if token.encode() in (proc / "cmdline").read_bytes():
                left.append(proc.name)
        except OSError:
            continue
    assert left == []


def test_unified_exec_pty_session_is_sandboxed(
    codex_bin: Path, tmp_path: Path, codex_home: Path
) -> None:
    done, out, _ = run_exec(
        codex_bin,
        [("exec_command", {"cmd": "touch made.txt; tty", "tty": True, "yield_time_ms": 3000})],
        tmp_path,
        codex_home,
        "--sandbox",
        "read-only",
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "made.txt").exists()
    assert re.search(r"Read-only file system|Permission denied", out["c0"]), out["c0"]
    assert "not a tty" not in out["c0"]
