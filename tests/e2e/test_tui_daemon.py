"""The TUI and the app-server daemon, in a pseudo-terminal: attached to the daemon
(`codex --remote unix://`, its control socket), a turn goes on after the terminal closes and
`resume` shows it finished; `--no-daemon` (0.169's flag) runs the session here, no daemon."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.test_tui_session import spawn
from tests.servers.ws_client import WsClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn
from tests.support.steps import slow

pytestmark = [pytest.mark.e2e]


def _configure(home: Path, model_server: ModelServer) -> None:
    lines = [
        f"{key} = {value}"
        for key, _, value in (pair.partition("=") for pair in model_server.config_overrides())
    ]
    (home / "config.toml").write_text("\n".join([*lines, 'model = "gpt-5.1-codex"', ""]))


def _daemon(codex_bin: Path, home: Path, command: str) -> dict[str, object]:
    done = subprocess.run(
        [str(codex_bin), "app-server", "daemon", command],
        env={**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_tui_on_the_daemon_turn_goes_on_after_the_terminal_closes(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    words = " ".join(f"tick{i}" for i in range(120))
    model_server.add(slow(turn(message(words)), 0.02), turn(message("Welcome back.")))
    _configure(codex_home, model_server)
    assert _daemon(codex_bin, codex_home, "start")["status"] == "started"
    project = tmp_path / "project"
    project.mkdir()

    term = spawn(codex_bin, ["--remote", "unix://"], project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("stream please\r")
    term.wait_for("tick3")
    term.child.close(force=True)  # the terminal goes away mid-turn (SIGHUP, then SIGKILL)

    # The daemon finishes the turn and records it.
    watcher = WsClient(
        "", None, socket=codex_home / "app-server-control" / "app-server-control.sock"
    )
    watcher.initialize()
    listed = watcher.call("thread/list", {})["result"]["data"]
    assert len(listed) == 1
    thread_id = listed[0]["id"]
    deadline = time.monotonic() + 30
    while True:
        read = watcher.call("thread/read", {"threadId": thread_id, "includeTurns": True})
        turns = read["result"]["thread"]["turns"]
        if turns and turns[-1]["status"] == "completed":
            break
        assert time.monotonic() < deadline, turns
        time.sleep(0.2)
    watcher.close()

    term = spawn(codex_bin, ["--remote", "unix://", "resume", thread_id], project)
    term.wait_for("tick119")  # the whole answer, streamed while no terminal watched
    term.child.send("hello again\r")
    term.wait_for("Welcome back.")
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    tail = term.rest()
    assert re.search(rf"resume {thread_id}", tail), tail[-1500:]
    assert _daemon(codex_bin, codex_home, "stop")["status"] == "stopped"


def test_tui_no_daemon_runs_the_session_here(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("Answered without a daemon.")))
    flags = ["--no-daemon", "-s", "danger-full-access", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.child.send("hi\r")
    term.wait_for("Answered without a daemon.")
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    tail = term.rest()
    assert re.search(r"To continue this session, run codex resume [0-9a-f-]{36}", tail), tail
    assert not (codex_home / "app-server-control").exists()
