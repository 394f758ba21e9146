"""`codex app-server` end to end, turn input and thread listing: images (a local path and a
data URL) reaching the model as `input_image`, per-turn overrides (model, cwd, approval
policy, sandbox) that take effect and stick, `thread/list` pages and its cwd filter — over
a real pipe against the scripted model server, every message schema-checked."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient, Message
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()


def _thread(client: AppServerClient, **params: Any) -> str:
    thread_id = str(client.call("thread/start", params)["result"]["thread"]["id"])
    client.notification("thread/started")
    return thread_id


def _turn(
    client: AppServerClient, thread_id: str, *inputs: dict[str, Any], **overrides: Any
) -> list[Message]:
    """Run a turn to its end (approval requests are declined); its messages."""
    response = client.call("turn/start", {"threadId": thread_id, "input": [*inputs], **overrides})
    assert "result" in response, response
    first = len(client.received)
    while True:
        msg = client.next(30)
        if msg.get("method", "").endswith("/requestApproval") and "id" in msg:
            client.send({"id": msg["id"], "result": {"decision": "decline"}})
        if msg.get("method") == "turn/completed":
            return client.received[first:]


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _environment(body: dict[str, Any]) -> str:
    texts = [
        part.get("text", "")
        for item in body["input"]
        if item.get("type") == "message"
        for part in item.get("content", [])
    ]
    return [t for t in texts if "<environment_context>" in t][-1]


def test_app_server_turn_with_images(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    (workspace / "dot.png").write_bytes(PNG)
    model_server.add(turn(message("a dot")))
    client = app_server()
    client.initialize()
    thread_id = _thread(client, cwd=str(workspace))
    local = {"type": "localImage", "path": str(workspace / "dot.png")}
    remote = {"type": "image", "url": PNG_URL}
    seen = _turn(client, thread_id, _text("what is this?"), local, remote)
    user = next(
        m["params"]["item"]
        for m in seen
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "userMessage"
    )
    assert user["content"] == [
        {"type": "text", "text": "what is this?", "text_elements": []},
        {"type": "localImage", "path": str(workspace / "dot.png")},
        {"type": "image", "url": PNG_URL},
    ]
    sent = model_server.requests[0].body["input"][-1]
    images = [part for part in sent["content"] if part["type"] == "input_image"]
    assert [image["image_url"] for image in images] == [PNG_URL, PNG_URL]
    texts = [part["text"] for part in sent["content"] if part["type"] == "input_text"]
    assert f'<image name=[Image #1] path="{workspace / "dot.png"}">' in texts
    assert "what is this?" in texts
    assert seen[-1]["params"]["turn"]["status"] == "completed"
    assert client.close() == 0


def test_app_server_turn_with_unreadable_image_fails_turn(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    """The turn fails with an error instead of hanging. (Codex 0.169 sends the turn with a
    note in place of the image; this core refuses unreadable images.)"""
    client = app_server()
    client.initialize()
    thread_id = _thread(client, cwd=str(workspace))
    missing = {"type": "localImage", "path": str(workspace / "missing.png")}
    response = client.call("turn/start", {"threadId": thread_id, "input": [_text("x"), missing]})
    turn_id = response["result"]["turn"]["id"]
    error = client.notification("error")["params"]
    assert (error["turnId"], error["willRetry"]) == (turn_id, False)
    assert "missing.png" in error["error"]["message"]
    done = client.notification("turn/completed")["params"]["turn"]
    assert (done["id"], done["status"]) == (turn_id, "failed")
    assert model_server.requests == []
    assert _thread(client, cwd=str(workspace))  # still serving
    assert client.close() == 0


def test_app_server_turn_overrides_take_effect_and_stick(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    sub = workspace / "sub"
    sub.mkdir()
    model_server.add(
        turn(message("one")),
        turn(function_call("exec_command", {"cmd": "pwd"}, "pwd")),
        turn(function_call("exec_command", {"cmd": "touch made.txt"}, "touch")),
        turn(message("two")),
        turn(message("three")),
    )
    client = app_server()
    client.initialize()
    thread_id = _thread(
        client, cwd=str(workspace), approvalPolicy="never", sandbox="danger-full-access"
    )
    _turn(client, thread_id, _text("first"))
    seen = _turn(
        client,
        thread_id,
        _text("second"),
        model="gpt-5.2",
        cwd=str(sub),
        approvalPolicy="untrusted",
        sandboxPolicy={"type": "readOnly"},
    )
    bodies = [r.body for r in model_server.requests]
    assert [b["model"] for b in bodies] == ["gpt-5.1-codex", "gpt-5.2", "gpt-5.2", "gpt-5.2"]
    environment = _environment(bodies[1])
    assert f"<cwd>{sub}</cwd>" in environment
    assert "<approval_policy>untrusted</approval_policy>" in environment
    assert "<sandbox_mode>read-only</sandbox_mode>" in environment
    pwd = next(i for i in bodies[2]["input"] if i.get("call_id") == "pwd" and "output" in i)
    assert pwd["output"].rstrip().endswith(str(sub))
    # `touch` is not known to be safe: under `untrusted` it is asked, and declined.
    asks = [m for m in seen if m.get("method") == "item/commandExecution/requestApproval"]
    assert [a["params"]["itemId"] for a in asks] == ["touch"]
    assert asks[0]["params"]["cwd"] == str(sub)
    assert not (sub / "made.txt").exists()
    # The overrides stick for the next turn.
    _turn(client, thread_id, _text("third"))
    assert model_server.requests[-1].body["model"] == "gpt-5.2"
    resumed = client.call("thread/resume", {"threadId": thread_id, "excludeTurns": True})
    result = resumed["result"]
    assert (result["model"], result["cwd"], result["approvalPolicy"]) == (
        "gpt-5.2",
        str(sub),
        "untrusted",
    )
    assert result["sandbox"]["type"] == "readOnly"
    assert client.close() == 0


def test_app_server_thread_list_pages_and_cwd_filter(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    other = workspace / "other"
    other.mkdir()
    model_server.add(*(turn(message(f"answer {i}")) for i in range(3)))
    client = app_server()
    client.initialize()
    ids = []
    for i, cwd in enumerate([workspace, workspace, other]):
        ids.append(_thread(client, cwd=str(cwd)))
        _turn(client, ids[-1], _text(f"question {i}"))
    first = client.call("thread/list", {"limit": 2})["result"]
    assert [t["id"] for t in first["data"]] == [ids[2], ids[1]]
    assert [t["preview"] for t in first["data"]] == ["question 2", "question 1"]
    assert isinstance(first["nextCursor"], str)
    second = client.call("thread/list", {"limit": 2, "cursor": first["nextCursor"]})["result"]
    assert [t["id"] for t in second["data"]] == [ids[0]]
    assert second["nextCursor"] is None
    filtered = client.call("thread/list", {"cwd": str(other)})["result"]
    assert [t["id"] for t in filtered["data"]] == [ids[2]]
    assert filtered["data"][0]["cwd"] == str(other)
    in_workspace = client.call("thread/list", {"cwd": str(workspace), "limit": 1})["result"]
    assert [t["id"] for t in in_workspace["data"]] == [ids[1]]
    rest = client.call(
        "thread/list", {"cwd": str(workspace), "limit": 1, "cursor": in_workspace["nextCursor"]}
    )["result"]
    assert [t["id"] for t in rest["data"]] == [ids[0]]
    bad = client.call("thread/list", {"cursor": "not a cursor"})
    assert bad["error"]["code"] == -32600
    assert json.dumps(client.call("thread/list", {})["result"]["data"]).count('"id"') >= 3
    assert client.close() == 0
