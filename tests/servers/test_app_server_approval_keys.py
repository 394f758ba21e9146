"""Issue 23 items 4 and 5 through the real console script (`codex app-server` over a pipe,
the scripted model server, the real sandbox on the real kernel): what one approval covers.

- a command approved for the session covers that argv in that cwd only: the same
  `./job.sh` in another directory is asked about again (item 4);
- typing into a background terminal is a command: one approval covers one write, a
  session whose sandbox grants more than the turn's (another cwd, or no sandbox at all)
  refuses writes under `never`, and under `untrusted` every write asks (item 5).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.security.test_linux_helpers import linux_sandbox
from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient, Message
from tests.support.sse import Turn, function_call, message, turn
from tests.unified_exec.support import SID, SessionIdServer, tool_outputs

pytestmark = [linux_sandbox]

CONFINED = "[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n"
REFUSED = "write_stdin rejected: approval required by policy"
SHELL = {"cmd": "bash --norc --noprofile", "tty": True, "yield_time_ms": 300}


@pytest.fixture
def model_server() -> Iterator[SessionIdServer]:
    """The scripted server, filling in the background session id for write_stdin."""
    server = SessionIdServer()
    with server:
        yield server


class Thread:
    """One app-server thread; approval requests are answered from a list, in order."""

    def __init__(self, client: AppServerClient, answers: list[str], **params: Any) -> None:
        client.initialize()
        self.client = client
        self.answers = answers
        self.asked: list[Message] = []
        self.id = client.call("thread/start", params)["result"]["thread"]["id"]

    def turn(self, **overrides: Any) -> None:
        """Run one turn to its end (overrides go into turn/start)."""
        text = [{"type": "text", "text": "go"}]
        self.client.request("turn/start", {"threadId": self.id, "input": text, **overrides})
        while True:
            msg = self.client.next(30)
            if msg.get("method", "").endswith("/requestApproval") and "id" in msg:
                self.asked.append(msg)
                assert self.answers, f"unexpected approval request: {msg['params']}"
                self.client.send({"id": msg["id"], "result": {"decision": self.answers.pop(0)}})
            if msg.get("method") == "turn/completed":
                return


def write(chars: str, call_id: str) -> Turn:
    """A write_stdin call into the latest background session."""
    args = {"session_id": SID, "chars": chars, "yield_time_ms": 500}
    return turn(function_call("write_stdin", args, call_id))


def test_app_server_session_approval_covers_one_cwd(
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    workspace: Path,
    tmp_path: Path,
) -> None:
    (codex_home / "config.toml").write_text(CONFINED)
    target = tmp_path / "pwned"
    for name, body in (("a", "true"), ("b", f"echo pwned > {target}")):
        (workspace / name).mkdir()
        (workspace / name / "job.sh").write_text(f"#!/bin/sh\n{body}\n")
        (workspace / name / "job.sh").chmod(0o755)
    escalated = {"cmd": "./job.sh", "sandbox_permissions": "require_escalated"}
    model_server.add(
        turn(function_call("exec_command", {**escalated, "workdir": "a"}, "c1")),
        turn(function_call("exec_command", {**escalated, "workdir": "b"}, "c2")),
        turn(message("done")),
    )
    thread = Thread(
        app_server(),
        ["acceptForSession", "decline"],
        approvalPolicy="on-request",
        sandbox="workspace-write",
    )
    thread.turn()
    assert len(thread.asked) == 2, "an approval for a/job.sh let b/job.sh run unasked"
    assert not target.exists()


def test_app_server_each_write_into_an_escalated_session_asks(
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    (codex_home / "config.toml").write_text(CONFINED)
    first, second = tmp_path / "first", tmp_path / "second"
    shell = {**SHELL, "sandbox_permissions": "require_escalated", "justification": "a shell"}
    model_server.add(
        turn(function_call("exec_command", shell, "start")),
        write(f"echo one > {first}\n", "w1"),
        write(f"echo two > {second}\n", "w2"),
        turn(message("done")),
    )
    thread = Thread(
        app_server(),
        ["accept", "accept", "decline"],
        approvalPolicy="on-request",
        sandbox="workspace-write",
    )
    thread.turn()
    assert len(thread.asked) == 3, "an approved write covered the next one"
    assert f"echo two > {second}" in str(thread.asked[2]["params"])
    assert first.read_text() == "one\n"
    assert not second.exists()
    assert tool_outputs(model_server.requests[-1].body)["w2"] == "write_stdin rejected by user"


@pytest.mark.parametrize("narrowed", ["cwd", "sandbox"])
def test_app_server_narrower_turn_refuses_writes_under_never(
    narrowed: str,
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    workspace: Path,
    tmp_path: Path,
) -> None:
    """A shell started in the sandbox of cwd a/, then a turn in b/; or started under
    danger-full-access, then a workspace-write turn. Both under `never`."""
    (codex_home / "config.toml").write_text(CONFINED)
    (workspace / "a").mkdir()
    (workspace / "b").mkdir()
    target = workspace / "a" / "typed" if narrowed == "cwd" else tmp_path / "typed"
    model_server.add(
        turn(function_call("exec_command", SHELL, "start")),
        turn(message("started")),
        write(f"echo pwned > {target}\n", "w1"),
        turn(message("done")),
    )
    if narrowed == "cwd":
        start: dict[str, Any] = {"sandbox": "workspace-write", "cwd": str(workspace / "a")}
        later: dict[str, Any] = {"cwd": str(workspace / "b")}
    else:
        start = {"sandbox": "danger-full-access"}
        confined = {"excludeSlashTmp": True, "excludeTmpdirEnvVar": True}
        later = {"sandboxPolicy": {"type": "workspaceWrite", **confined}}
    thread = Thread(app_server(), [], approvalPolicy="never", **start)
    thread.turn()
    thread.turn(**later)
    assert tool_outputs(model_server.requests[-1].body)["w1"] == REFUSED
    assert not target.exists()


def test_app_server_untrusted_asks_for_every_write(
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    workspace: Path,
) -> None:
    """Under `untrusted` a sandboxed shell's input is a command like any other."""
    (codex_home / "config.toml").write_text(CONFINED)
    target = workspace / "typed"
    model_server.add(
        turn(function_call("exec_command", SHELL, "start")),
        write(f"echo pwned > {target}\n", "w1"),
        write("", "poll"),
        turn(message("done")),
    )
    thread = Thread(
        app_server(), ["accept", "decline"], approvalPolicy="untrusted", sandbox="workspace-write"
    )
    thread.turn()
    assert len(thread.asked) == 2, "typing under untrusted was not asked about"
    assert "echo pwned" in str(thread.asked[1]["params"])
    assert not target.exists()
