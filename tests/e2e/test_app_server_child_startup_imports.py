"""Start-up (issue 29): the TUI's app-server child reaches its first model request without
loading what only later requests need.

A TUI launched with a prompt writes `initialize`, `initialized` and `thread/start` as it
spawns its child, then `history/metadata/read` and the prompt's `turn/start`
(`codex_tui.app.early_turn`): everything the child loads for those is on the way to the
first model request. The probe is that child — spawned as `spawn_app_server` spawns it,
fed as the TUI feeds it, against the scripted model server — with one line in front of
its program that writes the loaded modules at exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from codex_tui.app.app_server_connection import early_requests
from codex_tui.app.app_server_process import BOOT
from codex_tui.app.early_turn import EarlyTurn, launch_input
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

WAIT_S = 30.0
NOT_FOR_A_FIRST_TURN = (
    # the TUI's other methods, their models and the MCP status code
    "codex_core.servers.app_server.tui_methods",
    "codex_core.servers.app_server.model_tui",
    "codex_core.servers.app_server.mcp_status",
    # the queue's methods and models, SQLite (no queue file: nothing waits; whether one
    # exists is all a thread's start and end ask)
    "codex_core.servers.app_server.queue_methods",
    "codex_core.servers.app_server.queue_models",
    "sqlite3",
    # the session listing (thread/list, thread/read) and its SQLite catalog
    "codex_core.frontend.sessions",
    "codex_core.rollout.catalog",
    # httpx: the model client speaks HTTP/1.1 itself (`codex_core.client.http1`)
    "httpx",
    # nor httpx's stack, which the warm-up thread used to load beside the main thread
    "httpcore",
    "anyio",
    # pydantic: the wire models, the protocol and the configuration are light models
    "pydantic",
    "pydantic_core",
)
"""What the child must not load for a new thread's first turn."""


def _child_modules(server: ModelServer, tmp_path: Path) -> list[str]:
    """The modules the child had loaded when it ended after the launch prompt's turn."""
    home, cwd, dump = tmp_path / "home", tmp_path / "work", tmp_path / "modules.json"
    home.mkdir()
    cwd.mkdir()
    keep = (
        "import atexit, json, sys; atexit.register(lambda: open("
        f"{str(dump)!r}, 'w').write(json.dumps(sorted(sys.modules)))); "
    )
    setup = {"config": server.config_overrides(), "flags": {"approval_policy": "never"}}
    env = {**os.environ, "CODEX_HOME": str(home), "HOME": str(tmp_path), "OPENAI_API_KEY": "sk"}
    process = subprocess.Popen(
        [sys.executable, "-I", "-c", keep + BOOT.format(path=list(sys.path)), json.dumps(setup)],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(early_requests(None))
        process.stdin.flush()
        early = EarlyTurn(process, "thread/start", launch_input("hi", []))
        early.start()
        assert early.join(WAIT_S), "no answer to thread/start"
        assert set(early.sent) == {"history/metadata/read", "turn/start"}
        deadline = time.monotonic() + WAIT_S
        while b'"turn/completed"' not in early.read and time.monotonic() < deadline:
            chunk = os.read(process.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            early.read += chunk
        assert b'"turn/completed"' in early.read, early.read[-2000:]
        process.stdin.close()
        assert process.wait(WAIT_S) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(WAIT_S)
    modules: list[str] = json.loads(dump.read_text(encoding="utf-8"))
    return modules


def test_the_tui_child_first_turn_loads_only_what_it_needs(tmp_path: Path) -> None:
    with ModelServer([turn(message("hello"))]) as server:
        modules = _child_modules(server, tmp_path)
        assert len(server.requests) == 1
    assert "codex_core.servers.app_server.history_methods" in modules  # it was asked
    assert [name for name in NOT_FOR_A_FIRST_TURN if name in modules] == []
