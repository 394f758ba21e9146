"""`approvalPolicy: {"granular": {...}}` on the app-server and `approval_policy = { granular =
{...} }` in config.toml, as codex-rust 0.169 takes them (tests/fixtures/app_server_granular_0169.json):
the object form needs `experimentalApi`, the thread reports it with every setting filled in,
the rollout's turn_context records it, and each setting decides whether its kind of request
is asked about or rejected unasked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

FIXTURE = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "app_server_granular_0169.json").read_text()
)


def _client(app_server: AppServerFactory, experimental: bool = True) -> AppServerClient:
    client = app_server()
    params = {
        "clientInfo": {"name": "tests", "version": "1.0"},
        "capabilities": {"experimentalApi": experimental},
    }
    assert "result" in client.call("initialize", params)
    client.send({"method": "initialized"})
    return client


def _escalation(outside: Path) -> list[Any]:
    args = {
        "cmd": f"touch {outside}/x",
        "sandbox_permissions": "require_escalated",
        "justification": "Touch outside?",
    }
    return [turn(function_call("exec_command", args, call_id="e1")), turn(message("done"))]


def _run_turn(client: AppServerClient, thread_id: str) -> list[str]:
    """Start a turn, decline every approval request; the server requests' methods."""
    asked: list[str] = []
    params = {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]}
    assert "result" in client.call("turn/start", params)
    while True:
        msg = client.next(timeout=60)
        if "id" in msg and "method" in msg:
            asked.append(msg["method"])
            client.send({"id": msg["id"], "result": {"decision": "decline"}})
        if msg.get("method") == "turn/completed":
            return asked


def _turn_context_policies(codex_home: Path) -> list[Any]:
    return [
        record["payload"]["approval_policy"]
        for path in codex_home.glob("sessions/**/*.jsonl")
        for record in map(json.loads, path.read_text().splitlines())
        if record["type"] == "turn_context"
    ]


def _workspace_repo(workspace: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True, timeout=30)


@pytest.mark.parametrize("case", ["thread_start", "sandbox_approval_false"])
def test_granular_thread_start_as_0169(
    case: str,
    app_server: AppServerFactory,
    model_server: ModelServer,
    workspace: Path,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    seen = FIXTURE[case]
    outside = tmp_path / "outside"
    outside.mkdir()
    _workspace_repo(workspace)
    model_server.add(*_escalation(outside))
    client = _client(app_server)
    started = client.call("thread/start", {"cwd": str(workspace), **seen["params"]})["result"]
    assert started["approvalPolicy"] == seen["approvalPolicy"]
    asked = _run_turn(client, started["thread"]["id"])
    assert client.close() == 0
    if seen["escalation"].startswith("asked"):
        assert asked == ["item/commandExecution/requestApproval"]
    else:
        assert asked == []
    assert list(outside.iterdir()) == []
    assert _turn_context_policies(codex_home) == [seen["approvalPolicy"]]


def test_granular_from_config_toml_as_0169(
    app_server: AppServerFactory,
    model_server: ModelServer,
    workspace: Path,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    seen = FIXTURE["config_toml"]
    (codex_home / "config.toml").write_text(seen["config"] + "\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    _workspace_repo(workspace)
    model_server.add(*_escalation(outside))
    client = _client(app_server, experimental=seen["experimentalApi"])
    params = {"cwd": str(workspace), "sandbox": "workspace-write"}
    started = client.call("thread/start", params)["result"]
    assert started["approvalPolicy"] == seen["approvalPolicy"]
    assert _run_turn(client, started["thread"]["id"]) == ["item/commandExecution/requestApproval"]
    assert client.close() == 0
    assert _turn_context_policies(codex_home) == [seen["approvalPolicy"]]


def test_granular_param_errors_as_0169(app_server: AppServerFactory, workspace: Path) -> None:
    errors = FIXTURE["errors"]
    granular = {"granular": {"sandbox_approval": True, "rules": False, "mcp_elicitations": True}}
    plain = _client(app_server, experimental=False)
    answer = plain.call("thread/start", {"cwd": str(workspace), "approvalPolicy": granular})
    assert answer["error"] == errors["thread/start without experimentalApi"]
    thread_id = plain.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    params = {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}]}
    answer = plain.call("turn/start", {**params, "approvalPolicy": granular})
    assert answer["error"] == errors["turn/start without experimentalApi"]
    assert plain.close() == 0

    client = _client(app_server)
    missing = {"granular": {"sandbox_approval": True, "rules": False}}
    answer = client.call("thread/start", {"cwd": str(workspace), "approvalPolicy": missing})
    assert answer["error"] == errors["missing mcp_elicitations"]
    two = {**granular, "x": 1}
    answer = client.call("thread/start", {"cwd": str(workspace), "approvalPolicy": two})
    assert answer["error"] == errors["two keys"]
    assert client.close() == 0


def test_granular_at_turn_start_sticks_for_the_turn(
    app_server: AppServerFactory,
    model_server: ModelServer,
    workspace: Path,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    seen = FIXTURE["sandbox_approval_false"]
    outside = tmp_path / "outside"
    outside.mkdir()
    _workspace_repo(workspace)
    model_server.add(*_escalation(outside))
    client = _client(app_server)
    params = {"cwd": str(workspace), "sandbox": "workspace-write"}
    thread_id = client.call("thread/start", params)["result"]["thread"]["id"]
    start = {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]}
    answer = client.call(
        "turn/start", {**start, **{"approvalPolicy": seen["params"]["approvalPolicy"]}}
    )
    assert "result" in answer
    while client.next(timeout=60).get("method") != "turn/completed":
        pass
    assert client.close() == 0
    assert list(outside.iterdir()) == []  # rejected unasked: no server request was answered
    assert _turn_context_policies(codex_home) == [seen["approvalPolicy"]]


def test_granular_on_resume_and_fork_as_0169(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    seen = FIXTURE["resume_and_fork"]
    model_server.add(turn(message("hi")))
    first = _client(app_server)
    thread_id = first.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    first.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}]})
    first.notification("turn/completed", timeout=60)
    assert first.close() == 0
    second = _client(app_server)
    for method in ("thread/resume", "thread/fork"):
        params = {"threadId": thread_id, "approvalPolicy": seen["approvalPolicy_param"]}
        assert second.call(method, params)["result"]["approvalPolicy"] == seen["approvalPolicy"]
    assert second.close() == 0
