"""`codex app-server`: an MCP server's elicitation as the `mcpServer/elicitation/request`
server request (schema-checked), with the sequence codex-rust 0.169 sends around it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.conftest import namespace_call, outputs_by_call, write_config
from tests.mcp.reference import ReferenceServers, reference_servers
from tests.servers.conftest import AppServerFactory
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e
__all__ = ["reference_servers"]


def test_app_server_forwards_elicitation_and_returns_the_answer(
    app_server: AppServerFactory,
    model_server: ModelServer,
    codex_home: Path,
    workspace: Path,
    reference_servers: ReferenceServers,
) -> None:
    write_config(codex_home, reference_servers.toml("everything", reference_servers.everything))
    model_server.add(
        namespace_call("mcp__everything", "trigger_elicitation_request", {}, "e1"),
        turn(message("ok")),
    )
    client = app_server()
    client.initialize()
    thread_id = client.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    client.request("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]})
    seen: list[str] = []
    asked = None
    while True:
        msg = client.next(60)
        method = str(msg.get("method", ""))
        if method == "thread/status/changed":
            method += " " + ",".join(msg["params"]["status"].get("activeFlags") or [])
        seen.append(method)
        if msg.get("method") == "mcpServer/elicitation/request":
            asked = msg["params"]
            content = {"name": "Ada", "check": True, "email": "a@b.co", "integer": 3}
            client.send({"id": msg["id"], "result": {"action": "accept", "content": content}})
        if msg.get("method") == "turn/completed":
            break
    assert client.close() == 0
    assert asked is not None
    assert (asked["threadId"], asked["serverName"], asked["mode"]) == (
        thread_id,
        "everything",
        "form",
    )
    assert asked["message"] == "Please provide inputs for the following fields:"
    assert asked["requestedSchema"]["required"] == ["name"]
    properties = asked["requestedSchema"]["properties"]
    assert list(properties) == sorted(properties)
    assert properties["number"]["minimum"] == 0.0
    start = seen.index("mcpServer/elicitation/request")
    assert seen[start - 1 : start + 3] == [
        "thread/status/changed waitingOnApproval",
        "mcpServer/elicitation/request",
        "serverRequest/resolved",
        "thread/status/changed ",
    ]
    output = outputs_by_call(model_server)["e1"]
    assert output[1] == {
        "type": "input_text",
        "text": "✅ User provided the requested information!",
    }
    assert "- Name: Ada" in output[2]["text"]
