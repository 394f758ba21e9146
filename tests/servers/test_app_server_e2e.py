"""`codex app-server` end to end: the console script over a real pipe, the scripted model
server behind it, and every message it sends checked against the Codex 0.169 schema."""

from __future__ import annotations

import json
import platform
from pathlib import Path

from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, reasoning, shell_call, turn, usage
from tests.support.steps import slow


def _start_thread(client: AppServerClient, **params: object) -> str:
    result = client.call("thread/start", params)["result"]
    started = client.notification("thread/started")
    assert started["params"]["thread"]["id"] == result["thread"]["id"]
    return str(result["thread"]["id"])


def _run_turn(client: AppServerClient, thread_id: str, text: str) -> list[dict[str, object]]:
    response = client.call(
        "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": text}]}
    )
    assert response["result"]["turn"]["status"] == "inProgress"
    first = len(client.received)
    client.notification("turn/completed")
    return client.received[first:]


def test_app_server_handshake(app_server: AppServerFactory, codex_home: Path) -> None:
    client = app_server()
    early = client.call("thread/start", {})
    assert early["error"] == {"code": -32600, "message": "Not initialized"}
    result = client.initialize()["result"]
    assert result["userAgent"].startswith("tests/")
    assert result["codexHome"] == str(codex_home)
    assert result["platformFamily"] == "unix"
    assert result["platformOs"] == platform.system().lower()
    again = client.call("initialize", {"clientInfo": {"name": "tests", "version": "1.0"}})
    assert again["error"] == {"code": -32600, "message": "Already initialized"}
    # String ids are echoed unchanged; a `jsonrpc` member is accepted.
    client.send({"jsonrpc": "2.0", "id": "uuid-1", "method": "model/list", "params": {}})
    listed = client.wait_for(lambda m: m.get("id") == "uuid-1")
    assert listed["result"]["data"][0]["model"] == "gpt-5.1-codex"
    assert client.close() == 0


def test_app_server_bad_input_keeps_serving(app_server: AppServerFactory) -> None:
    client = app_server()
    client.initialize()
    client.send_raw("this is not json")
    client.send_raw("[1, 2]")
    client.send_raw('{"foo": 1}')
    assert client.quiet_for(0.5) == []  # dropped without a reply, as Codex does
    unknown = client.call("nope/nope", {})
    assert unknown["error"]["code"] == -32600
    assert unknown["error"]["message"].startswith("Invalid request: unknown variant `nope/nope`")
    bad = client.call("thread/start", {"cwd": 5})
    assert bad["error"]["code"] == -32600
    assert bad["error"]["message"].startswith("Invalid request: invalid type: integer `5`")
    # 0.169 no longer offers `on-failure` to clients (its server answers the same -32600).
    retired = client.call("thread/start", {"approvalPolicy": "on-failure"})
    assert retired["error"]["code"] == -32600
    assert retired["error"]["message"].startswith("Invalid request: unknown variant `on-failure`")
    missing = client.call("turn/start", {"input": []})
    assert missing["error"]["message"] == "Invalid request: missing field `threadId`"
    assert _start_thread(client)  # still serving
    assert client.close() == 0


def test_app_server_turn_streams_items(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    model_server.add(
        turn(reasoning("thinking"), message("hello there"), usage=usage(input=10, output=2))
    )
    client = app_server()
    client.initialize()
    thread_id = _start_thread(client, cwd=str(workspace))
    seen = _run_turn(client, thread_id, "hi")
    methods = [m.get("method") for m in seen]
    assert methods[0] == "thread/status/changed"
    assert methods[1] == "turn/started"
    assert "item/reasoning/summaryTextDelta" in methods
    assert "item/agentMessage/delta" in methods
    assert "thread/tokenUsage/updated" in methods
    user = next(m for m in seen if m.get("method") == "item/completed")
    assert user["params"]["item"]["content"] == [
        {"type": "text", "text": "hi", "text_elements": []}
    ]
    completed = seen[-1]["params"]["turn"]
    assert completed["status"] == "completed"
    assert completed["items"][0]["text"] == "hello there"
    assert model_server.requests[0].body["input"][-1]["content"][0]["text"] == "hi"
    assert client.close() == 0


def _approval_turn(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, decision: str
) -> list[dict[str, object]]:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo made > made.txt"], call_id="c1")),
        turn(message("done")),
    )
    client = app_server()
    client.initialize()
    thread_id = _start_thread(
        client, cwd=str(workspace), approvalPolicy="untrusted", sandbox="workspace-write"
    )
    client.request(
        "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "make it"}]}
    )
    ask = client.wait_for(lambda m: m.get("method") == "item/commandExecution/requestApproval")
    assert ask["params"]["itemId"] == "c1"
    assert ask["params"]["command"] == "bash -lc 'echo made > made.txt'"
    client.send({"id": ask["id"], "result": {"decision": decision}})
    resolved = client.notification("serverRequest/resolved")
    assert resolved["params"] == {"threadId": thread_id, "requestId": ask["id"]}
    first = len(client.received)
    client.notification("turn/completed")
    seen = client.received[first:]
    assert client.close() == 0
    return seen


def test_app_server_approval_accept_runs(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    seen = _approval_turn(app_server, model_server, workspace, "accept")
    assert (workspace / "made.txt").read_text() == "made\n"
    done = next(
        m["params"]["item"]
        for m in seen
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "commandExecution"
    )
    assert (done["status"], done["exitCode"]) == ("completed", 0)


def test_app_server_approval_decline_does_not_run(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    seen = _approval_turn(app_server, model_server, workspace, "decline")
    assert not (workspace / "made.txt").exists()
    done = next(
        m["params"]["item"]
        for m in seen
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "commandExecution"
    )
    assert done["status"] == "declined"
    outputs = [i for i in model_server.requests[1].body["input"] if i.get("call_id") == "c1"]
    assert outputs[-1]["type"] == "function_call_output"


def test_app_server_interrupt_during_stream(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    chunks = [f"word{i} " for i in range(200)]
    model_server.add(slow(turn(message("".join(chunks), chunks=chunks)), 0.05))
    client = app_server()
    client.initialize()
    thread_id = _start_thread(client, cwd=str(workspace))
    turn_id = client.call(
        "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "long"}]}
    )["result"]["turn"]["id"]
    client.notification("item/agentMessage/delta")
    assert client.call("turn/interrupt", {"threadId": thread_id, "turnId": turn_id})["result"] == {}
    completed = client.notification("turn/completed", timeout=5)
    assert completed["params"]["turn"]["status"] == "interrupted"
    assert client.close() == 0


def test_app_server_list_and_resume_in_second_process(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("first answer")), turn(message("second answer")))
    first = app_server()
    first.initialize()
    thread_id = _start_thread(first, cwd=str(workspace))
    _run_turn(first, thread_id, "remember 42")
    assert first.close() == 0

    second = app_server()
    second.initialize()
    listed = second.call("thread/list", {"limit": 10, "cwd": str(workspace)})["result"]
    assert [t["id"] for t in listed["data"]] == [thread_id]
    assert listed["data"][0]["preview"] == "remember 42"
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert second.call("thread/list", {"cwd": str(other)})["result"]["data"] == []
    resumed = second.call("thread/resume", {"threadId": thread_id})["result"]
    assert resumed["thread"]["id"] == thread_id
    texts = [i.get("text") for t in resumed["thread"]["turns"] for i in t["items"]]
    assert "first answer" in texts
    _run_turn(second, thread_id, "what was it?")
    history = json.dumps(model_server.requests[-1].body["input"])
    assert "remember 42" in history and "first answer" in history
    read = second.call("thread/read", {"threadId": thread_id, "includeTurns": True})["result"]
    assert len(read["thread"]["turns"]) == 2
    assert second.close() == 0


def test_app_server_fork_archive_compact_and_files(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "main_module.py").write_text("x = 1\n")
    model_server.add(turn(message("one")), turn(message("summary of it all")))
    client = app_server()
    client.initialize()
    thread_id = _start_thread(client, cwd=str(workspace))
    _run_turn(client, thread_id, "hello")
    assert client.call("thread/compact/start", {"threadId": thread_id})["result"] == {}
    done = client.notification("turn/completed")
    assert done["params"]["turn"]["status"] == "completed"
    forked = client.call("thread/fork", {"threadId": thread_id})["result"]["thread"]
    assert forked["id"] != thread_id and forked["forkedFromId"] == thread_id
    client.notification("thread/started")
    assert client.call("thread/archive", {"threadId": thread_id})["result"] == {}
    client.notification("thread/archived")
    listed = client.call("thread/list", {})["result"]["data"]
    assert thread_id not in [t["id"] for t in listed]
    archived = client.call("thread/list", {"archived": True})["result"]["data"]
    assert [t["id"] for t in archived] == [thread_id]
    found = client.call("fuzzyFileSearch", {"query": "mainmod", "roots": [str(workspace)]})
    assert found["result"]["files"][0]["path"] == "src/main_module.py"
    assert client.close() == 0


def test_app_server_every_message_matches_schema(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    """A session with approvals, output and usage; `next()` checks each message it reads."""
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo out > out.txt"], call_id="c1")),
        turn(reasoning("r"), message("ok"), usage=usage(input=5, output=1)),
    )
    client = app_server()
    client.initialize()
    thread_id = _start_thread(client, cwd=str(workspace), approvalPolicy="untrusted")
    client.call("model/list", {})
    client.request(
        "turn/start",
        {
            "threadId": thread_id,
            "input": [{"type": "text", "text": "go"}],
            "sandboxPolicy": {"type": "workspaceWrite", "networkAccess": False},
            "effort": "low",
        },
    )
    ask = client.wait_for(lambda m: m.get("method") == "item/commandExecution/requestApproval")
    client.send({"id": ask["id"], "result": {"decision": "acceptForSession"}})
    client.notification("turn/completed")
    client.call("thread/read", {"threadId": thread_id, "includeTurns": True})
    client.call("thread/list", {"limit": 1})
    client.call("turn/interrupt", {"threadId": thread_id, "turnId": "nope"})
    assert client.checker is not None and client.checker.checked == len(client.received)
    assert client.close() == 0
