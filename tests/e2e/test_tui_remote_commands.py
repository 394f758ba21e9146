"""`codex --remote`: the TUI's commands that are requests of their own — `/undo`, `/mcp`,
`/ps`, `/stop`, `/review` and the message history's ↑ recall — work against a real
`codex app-server` on a websocket (with a token), on the server's thread and files."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.test_tui_commands import send_line
from tests.e2e.test_tui_remote import (
    TOKEN_ENV,
    _start_with_token,
    _tui,
    server_cwd,
    server_home,
    servers,
)
from tests.e2e.test_tui_review import FINDINGS
from tests.servers.ws_client import ServerProcess
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn, usage

pytestmark = [pytest.mark.e2e]
__all__ = ["server_cwd", "server_home", "servers"]  # fixtures shared with test_tui_remote


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout


def test_tui_remote_undo_mcp_ps_stop_review_and_history(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    _git(server_cwd, "init", "-q")
    _git(server_cwd, "config", "user.email", "u@e")
    _git(server_cwd, "config", "user.name", "u")
    (server_cwd / "notes.txt").write_text("original\n")
    _git(server_cwd, "add", ".")
    _git(server_cwd, "commit", "-qm", "init")
    model_server.add(
        turn(
            shell_call(["bash", "-lc", "echo clobbered > notes.txt"]),
            usage=usage(input=100, output=5),
        ),
        turn(message("Changed the notes."), usage=usage(input=100, output=5)),
        turn(message(json.dumps(FINDINGS))),
    )
    server = _start_with_token(servers, model_server, server_home, server_cwd, tmp_path)
    local = tmp_path / "local"
    local.mkdir()
    flags = ["-a", "never", "-s", "danger-full-access"]
    remote = ["--remote", server.url, "--remote-auth-token-env", TOKEN_ENV, *flags]
    term = _tui(codex_bin, remote, local)
    term.wait_for("Ask Codex to do anything")
    send_line(term, "change the notes")
    term.wait_for("Changed the notes.")
    assert (server_cwd / "notes.txt").read_text() == "clobbered\n"

    send_line(term, "/undo")
    term.wait_for("Undo: restored 1 file")
    assert (server_cwd / "notes.txt").read_text() == "original\n"
    send_line(term, "/mcp")
    term.wait_for("No MCP servers are configured")
    send_line(term, "/ps")
    term.wait_for("No background terminals are running.")
    send_line(term, "/stop")
    term.wait_for("No background terminals were running; nothing to stop.")

    (server_cwd / "m.py").write_text("def add(a, b):\n    return a - b\n")
    send_line(term, "/review")
    term.wait_for("What should the reviewer look at?", timeout=30)
    term.child.send("\x1b[B")  # down: the uncommitted changes
    time.sleep(0.3)
    term.child.send("\r")
    term.wait_for("Subtraction instead of addition", timeout=45)
    term.wait_for("Worked for", timeout=30)

    # The server's message history: a new thread recalls the first prompt with ↑.
    send_line(term, "/new")
    term.wait_for("Ask Codex to do anything")
    time.sleep(1.0)
    term.child.send("\x1b[A")
    term.wait_for("› change the notes")
    lines = (server_home / "history.jsonl").read_text().splitlines()
    assert [json.loads(line)["text"] for line in lines] == ["change the notes"]
    term.child.send("\x15")  # clear the composer
    term.child.send("\x04")
    tail = term.rest()
    assert "Traceback" not in tail
