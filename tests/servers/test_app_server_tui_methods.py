"""The app-server methods the TUI needs beyond turns, over a real pipe: 0.169's
`mcpServerStatus/list` and `review/start` (checked against 0.169's schema) and the codex
extensions `thread/undo`, `thread/backgroundTerminals/*` and `history/*`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.mcp.conftest import stdio_entry
from tests.servers.conftest import AppServerFactory
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FINDINGS = {
    "findings": [],
    "overall_correctness": "patch is correct",
    "overall_explanation": "Nothing to fix.",
    "overall_confidence_score": 0.9,
}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def test_app_server_mcp_server_status_list_as_0169(
    app_server: AppServerFactory, codex_home: Path
) -> None:
    (codex_home / "config.toml").write_text(stdio_entry("t"))
    client = app_server()
    client.initialize()
    thread = client.call("thread/start", {})["result"]["thread"]["id"]
    listed = client.call("mcpServerStatus/list", {"threadId": thread}, timeout=60)["result"]
    [server] = listed["data"]
    assert (server["name"], server["runtimeStatus"], server["authStatus"]) == (
        "t",
        "connected",
        "unsupported",
    )
    assert (server["resources"], server["resourceTemplates"], server["toolsError"]) == (
        [],
        [],
        None,
    )
    echo = server["tools"]["echo"]
    # What the MCP server said, as 0.169 shows it (seen side by side: tests/servers/rust_compare).
    assert echo["inputSchema"]["title"] == "echoArguments"
    assert echo["annotations"] == {"readOnlyHint": True}
    assert "title" not in echo
    assert server["serverInfo"]["name"] == "test"
    assert list(server) == list(_rust_status()["data"][0])  # 0.169's fields, in its order


def _rust_status() -> dict[str, Any]:
    """codex-rust 0.169's answer to `mcpServerStatus/list {}` with this server configured."""
    loaded: dict[str, Any] = json.loads((FIXTURES / "mcp_server_status_0169.json").read_text())
    return loaded


def test_app_server_mcp_server_status_without_a_thread_as_0169(
    app_server: AppServerFactory, codex_home: Path
) -> None:
    """No thread: the configured servers start for the question and stop again; the answer
    is 0.169's (recorded from codex-rust with the same server), but for the SDK's version."""
    (codex_home / "config.toml").write_text(stdio_entry("t"))
    client = app_server()
    client.initialize()
    listed = client.call("mcpServerStatus/list", {}, timeout=60)["result"]
    expected = _rust_status()
    for answer in (listed, expected):
        answer["data"][0]["serverInfo"].pop("version")
    assert listed == expected
    brief = client.call("mcpServerStatus/list", {"detail": "toolsAndAuthOnly"}, timeout=60)
    assert brief["result"]["data"][0]["tools"] == expected["data"][0]["tools"]
    other = client.call("mcpServerStatus/list", {"serverName": "nope"}, timeout=60)
    assert other["result"] == {"data": [], "nextCursor": None}
    assert client.close() == 0  # the server it started for the question is gone with it


def test_app_server_review_start_runs_a_review_turn(
    app_server: AppServerFactory, model_server: ModelServer
) -> None:
    model_server.add(turn(message(json.dumps(FINDINGS))))
    client = app_server()
    client.initialize()
    thread = client.call("thread/start", {})["result"]["thread"]["id"]
    target = {"type": "custom", "instructions": "look at the notes"}
    started = client.call("review/start", {"threadId": thread, "target": target})["result"]
    assert started["reviewThreadId"] == thread
    done = client.notification("turn/completed", timeout=60)
    assert done["params"]["turn"]["id"] == started["turn"]["id"]
    assert done["params"]["turn"]["items"][-1]["text"] == "Nothing to fix."
    assert '"overall_correctness"' in model_server.bodies[0]["instructions"]
    bad = client.call("review/start", {"threadId": thread, "target": {"type": "later"}})
    assert bad["error"]["code"] == -32600


def test_app_server_undo_terminals_and_history_extensions(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, codex_home: Path
) -> None:
    _git(workspace, "init", "-q")
    _git(workspace, "config", "user.email", "u@e")
    _git(workspace, "config", "user.name", "u")
    (workspace / "notes.txt").write_text("original\n")
    _git(workspace, "add", ".")
    _git(workspace, "commit", "-qm", "init")
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo clobbered > notes.txt"])), turn(message("Done."))
    )
    client = app_server()
    client.checker = None  # codex extensions: not in 0.169's schema
    client.initialize()
    started = client.call(
        "thread/start", {"approvalPolicy": "never", "sandbox": "danger-full-access"}
    )
    thread = started["result"]["thread"]["id"]
    params = {"threadId": thread, "input": [{"type": "text", "text": "clobber"}]}
    client.call("turn/start", params)
    client.notification("turn/completed", timeout=60)
    assert (workspace / "notes.txt").read_text() == "clobbered\n"
    undone = client.call("thread/undo", {"threadId": thread})["result"]
    assert undone["message"].startswith("Undo: restored 1 file")
    assert (workspace / "notes.txt").read_text() == "original\n"

    listed = client.call("thread/backgroundTerminals/list", {"threadId": thread})["result"]
    assert listed == {"data": []}
    cleaned = client.call("thread/backgroundTerminals/clean", {"threadId": thread})["result"]
    assert cleaned == {"stopped": [], "unknownProcessId": None}
    gone = {"threadId": thread, "processId": "7"}
    stopped = client.call("thread/backgroundTerminals/terminate", gone)["result"]
    assert stopped == {"stopped": [], "unknownProcessId": "7"}

    client.call("history/append", {"threadId": thread, "text": "remember me"})
    meta = client.call("history/metadata/read", {"threadId": thread})["result"]
    assert meta["entryCount"] == 1
    read = {"threadId": thread, "logId": meta["logId"], "offset": 0}
    assert client.call("history/entry/read", read)["result"] == {"entry": "remember me"}
    past = {**read, "offset": 5}
    assert client.call("history/entry/read", past)["result"] == {"entry": None}
    lines = (codex_home / "history.jsonl").read_text().splitlines()
    assert [json.loads(line)["text"] for line in lines] == ["remember me"]
    unknown = client.call("thread/undo", {"threadId": "nope"})
    assert unknown["error"]["message"] == "Invalid request: thread not found: nope"


def test_app_server_background_messages_go_to_the_tui_only(
    app_server: AppServerFactory, model_server: ModelServer, codex_home: Path
) -> None:
    (codex_home / "config.toml").write_text("[[skills.config]]\nenabled = false\n")
    model_server.add(turn(message("one")), turn(message("two")))
    seen: dict[str, list[str]] = {}
    for name in ("codex-tui", "tests"):
        client = app_server()
        if name == "codex-tui":
            client.checker = None  # the extension is not in 0.169's schema
        hello = {"clientInfo": {"name": name, "version": "1.0"}}
        client.call("initialize", hello)
        client.send({"method": "initialized"})
        thread = client.call("thread/start", {})["result"]["thread"]["id"]
        client.call("turn/start", {"threadId": thread, "input": [{"type": "text", "text": "hi"}]})
        client.notification("turn/completed", timeout=60)
        seen[name] = [
            m["params"]["message"]
            for m in client.received
            if m.get("method") == "thread/backgroundMessage"
        ]
    problem = "ignoring skills.config entry without a path or name selector"
    assert seen == {"codex-tui": [problem], "tests": []}
