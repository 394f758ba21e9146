"""The TUI's session lives in a child process (`codex app-server` on stdio): whichever side
dies, nothing is left behind and the user is told, in one line, without a hang."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn
from tests.support.steps import slow

pytestmark = pytest.mark.e2e

APP_SERVER_CHILD = b"codex_core.servers.app_server.local"
"""In the command line of the TUI's app-server child (`app_server_process.BOOT`)."""


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid → (parent pid, command line) of every process."""
    table: dict[int, tuple[int, bytes]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        table[int(entry)] = (int(stat[1]), cmdline)
    return table


def _session_process_of(tui: int, timeout: float = 20) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid, (parent, cmdline) in _processes().items():
            if parent == tui and APP_SERVER_CHILD in cmdline:
                return pid
        time.sleep(0.05)
    raise AssertionError("the TUI started no app-server process")


def _alive(marker: bytes) -> list[int]:
    return [pid for pid, (_, cmdline) in _processes().items() if marker in cmdline]


def _wait_gone(marker: bytes, seconds: float = 15) -> list[int]:
    deadline = time.monotonic() + seconds
    while (pids := _alive(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pids


def test_tui_killed_takes_its_session_process_and_commands_along(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    n = 940000 + os.getpid() % 1000
    model_server.add(turn(shell_call(["bash", "-c", f"sleep {n}"])), turn(message("never")))
    flags = ["-a", "never", "-s", "danger-full-access", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    session = _session_process_of(term.child.pid)
    term.child.send("run the long command\r")
    deadline = time.monotonic() + 20
    while not _alive(f"sleep\0{n}".encode()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive(f"sleep\0{n}".encode()), "the command never started"

    os.kill(term.child.pid, signal.SIGKILL)
    term.child.wait()

    assert _wait_gone(f"sleep\0{n}".encode()) == []
    deadline = time.monotonic() + 15
    while session in _processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session not in _processes()


def test_tui_says_so_when_its_session_process_dies(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    flags = ["-a", "never", "-s", "read-only", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("directory:")  # the session is configured
    os.kill(_session_process_of(term.child.pid), signal.SIGKILL)
    tail = term.rest(timeout=20)
    term.child.wait()
    assert term.child.exitstatus == 1
    assert (
        "codex: The session stopped unexpectedly: the app-server process was killed (SIGKILL); "
        "see " in tail
    )
    assert "Traceback" not in tail


def test_tui_says_so_when_its_app_server_dies_mid_turn(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    model_server.add(slow(turn(message(" ".join(f"tick{i}" for i in range(400)))), 0.05))
    flags = ["-a", "never", "-s", "read-only", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    server = _session_process_of(term.child.pid)
    term.child.send("stream\r")
    term.wait_for("tick3")
    os.kill(server, signal.SIGKILL)
    started = time.monotonic()
    tail = term.rest(timeout=20)
    term.child.wait()
    assert time.monotonic() - started < 10
    assert term.child.exitstatus == 1
    lines = [line for line in tail.splitlines() if "stopped unexpectedly" in line]
    assert lines == [
        "codex: The session stopped unexpectedly: the app-server process was killed (SIGKILL); "
        f"see {lines[0].rsplit('see ', 1)[1]}"
    ]
    assert "Traceback" not in tail
