"""Issue 23 items 4, 5 and 6 through the real console script: `codex app-server` over a pipe,
the scripted model server, the real sandbox on the real kernel, and a client that answers
approval requests as an editor would.

(A reused call id, item 4, needs `on-failure`, which 0.169's app-server schema no longer
offers: that one runs in the TUI, tests/e2e/test_tui_approval_scope.py.)
- typing into a session that runs outside the sandbox asks, and a decline types nothing
  (item 5);
- a directory swapped for a symlink while a patch's approval is open redirects nothing
  (item 6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.security.test_linux_helpers import linux_sandbox
from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient, Message
from tests.support.sse import apply_patch_call, function_call, message, turn
from tests.unified_exec.support import SID, SessionIdServer

pytestmark = [linux_sandbox]

CONFINED = "[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n"


@pytest.fixture
def model_server() -> Iterator[SessionIdServer]:
    """The scripted server, filling in the background session id for write_stdin."""
    with SessionIdServer() as server:
        yield server


def run_turn(
    client: AppServerClient, policy: str, answer: Callable[[Message], str]
) -> list[Message]:
    """One turn in a workspace-write thread under `policy`; approvals answered by `answer`."""
    client.initialize()
    params = {"approvalPolicy": policy, "sandbox": "workspace-write"}
    thread_id = client.call("thread/start", params)["result"]["thread"]["id"]
    client.request("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]})
    asked: list[Message] = []
    while True:
        msg = client.next(30)
        if msg.get("method", "").endswith("/requestApproval") and "id" in msg:
            asked.append(msg)
            client.send({"id": msg["id"], "result": {"decision": answer(msg)}})
        if msg.get("method") == "turn/completed":
            return asked


def test_app_server_typing_into_an_escalated_session_asks(
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    (codex_home / "config.toml").write_text(CONFINED)
    target = tmp_path / "typed"
    shell = {
        "cmd": "bash --norc --noprofile",
        "tty": True,
        "yield_time_ms": 300,
        "sandbox_permissions": "require_escalated",
        "justification": "a shell",
    }
    typed = f"echo pwned > {target}\n"
    model_server.add(
        turn(function_call("exec_command", shell, "start")),
        turn(function_call("write_stdin", {"session_id": SID, "chars": typed}, "w1")),
        turn(message("done")),
    )
    answers = iter(["accept", "decline"])
    asked = run_turn(app_server(), "on-request", lambda _msg: next(answers))
    assert len(asked) == 2, "typing into a session outside the sandbox was not asked about"
    assert "echo pwned" in str(asked[1]["params"])
    assert not target.exists()


def test_app_server_patch_directory_swapped_during_approval_redirects_nothing(
    app_server: AppServerFactory,
    model_server: SessionIdServer,
    codex_home: Path,
    workspace: Path,
    tmp_path: Path,
) -> None:
    (codex_home / "config.toml").write_text(CONFINED)
    victim = tmp_path / "victim"
    victim.mkdir()
    (workspace / "d").mkdir()
    approved = tmp_path / "approved.txt"
    approved.write_text("old\n")
    patch = (
        "*** Begin Patch\n*** Add File: d/new.txt\n+planted\n"
        f"*** Update File: {approved}\n@@\n-old\n+new\n*** End Patch"
    )
    model_server.add(turn(apply_patch_call(patch, call_id="p1")), turn(message("done")))

    def swap_then_accept(_msg: Message) -> str:
        (workspace / "d").rmdir()
        (workspace / "d").symlink_to(victim)
        return "accept"

    asked = run_turn(app_server(), "on-request", swap_then_accept)
    assert len(asked) == 1
    assert not (victim / "new.txt").exists(), "the write followed a link swapped in after approval"
