"""`codex app-server` end to end, tools: file-change approvals with the fileChange item and
the turn diff, plan updates, token usage and command output deltas — over a real pipe
against the scripted model server, every message checked against the Codex 0.169 schema.
The message sequences are the ones the Rust Codex CLI 0.169 sends for the same script
(see tests/servers/rust_compare.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.servers.conftest import AppServerFactory
from tests.servers.rpc_client import AppServerClient, Message
from tests.support.model_server import ModelServer
from tests.support.sse import (
    custom_tool_call,
    function_call,
    message,
    turn,
    update_plan_call,
    usage,
)

ADD = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"
UPDATE = "*** Begin Patch\n*** Update File: hello.txt\n@@\n-hello\n+hello again\n*** End Patch\n"


def _thread(client: AppServerClient, **params: Any) -> str:
    client.initialize()
    thread_id = str(client.call("thread/start", params)["result"]["thread"]["id"])
    client.notification("thread/started")
    return thread_id


def _turn(client: AppServerClient, thread_id: str, text: str, decision: str = "") -> list[Message]:
    """Run a turn, answering every approval request with `decision`; its messages."""
    client.request("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": text}]})
    first = len(client.received)
    while True:
        msg = client.next(30)
        if msg.get("method", "").endswith("/requestApproval") and "id" in msg:
            assert decision, f"unexpected approval request {msg}"
            client.send({"id": msg["id"], "result": {"decision": decision}})
        if msg.get("method") == "turn/completed":
            return client.received[first:]


def _label(msg: Message) -> str:
    method = str(msg.get("method", "response" if "result" in msg else "error"))
    item = (msg.get("params") or {}).get("item")
    if isinstance(item, dict) and item.get("type") == "fileChange":
        return f"{method} fileChange/{item['status']}"
    if method == "thread/status/changed":
        status = msg["params"]["status"]
        return f"{method} {status['type']}{status.get('activeFlags') or ''}"
    return method


def _patch_turn(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, decision: str
) -> tuple[list[str], list[Message]]:
    model_server.add(turn(custom_tool_call("apply_patch", ADD, call_id="p1")))
    if decision == "acceptForSession":
        model_server.add(turn(custom_tool_call("apply_patch", UPDATE, call_id="p2")))
    model_server.add(turn(message("patched")))
    client = app_server()
    thread_id = _thread(
        client, cwd=str(workspace), approvalPolicy="untrusted", sandbox="workspace-write"
    )
    seen = _turn(client, thread_id, "patch it", decision)
    assert client.close() == 0
    fc = [
        label for label in map(_label, seen) if label.startswith("item/") and "fileChange" in label
    ]
    return fc, seen


ASKED = ["item/started fileChange/inProgress", "item/fileChange/requestApproval"]


@pytest.mark.parametrize("decision", ["accept", "acceptForSession"])
def test_app_server_patch_approval_accept_applies(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, decision: str
) -> None:
    labels, seen = _patch_turn(app_server, model_server, workspace, decision)
    after_session = ["item/started fileChange/inProgress", "item/completed fileChange/completed"]
    assert labels == [
        *ASKED,
        "item/completed fileChange/completed",
        *(after_session if decision == "acceptForSession" else []),
    ]
    expected = "hello again\n" if decision == "acceptForSession" else "hello\n"
    assert (workspace / "hello.txt").read_text() == expected
    sequence = [_label(m) for m in seen]
    start = sequence.index("item/started fileChange/inProgress")
    assert sequence[start : start + 6] == [
        "item/started fileChange/inProgress",
        "thread/status/changed active['waitingOnApproval']",
        "item/fileChange/requestApproval",
        "serverRequest/resolved",
        "thread/status/changed active",
        "item/completed fileChange/completed",
    ]
    started = seen[start]["params"]["item"]
    assert started["id"] == "p1"
    assert started["changes"] == [
        {"path": str(workspace / "hello.txt"), "kind": {"type": "add"}, "diff": "hello\n"}
    ]
    ask = seen[start + 2]["params"]
    assert (ask["itemId"], ask["turnId"]) == ("p1", seen[start]["params"]["turnId"])
    diffs = [m["params"]["diff"] for m in seen if m.get("method") == "turn/diff/updated"]
    assert diffs and "+++ b/" in diffs[-1] and diffs[-1].endswith(f"+{expected}")
    outputs = [i for i in model_server.requests[1].body["input"] if i.get("call_id") == "p1"]
    assert outputs[-1]["type"] == "custom_tool_call_output"
    assert "Success" in outputs[-1]["output"]


def test_app_server_patch_approval_decline_leaves_files(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    labels, seen = _patch_turn(app_server, model_server, workspace, "decline")
    assert labels == [*ASKED, "item/completed fileChange/declined"]
    assert not (workspace / "hello.txt").exists()
    assert not [m for m in seen if m.get("method") == "turn/diff/updated"]
    assert seen[-1]["params"]["turn"]["status"] == "completed"
    outputs = [i for i in model_server.requests[1].body["input"] if i.get("call_id") == "p1"]
    assert outputs[-1]["output"] == "patch rejected by user"


def test_app_server_patch_approval_cancel_interrupts_turn(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    labels, seen = _patch_turn(app_server, model_server, workspace, "cancel")
    # As Codex 0.169: the item is never completed; the turn ends interrupted.
    assert labels == ASKED
    assert not (workspace / "hello.txt").exists()
    done = seen[-1]["params"]["turn"]
    assert (done["status"], done["itemsView"]) == ("interrupted", "notLoaded")
    assert len(model_server.requests) == 1


def test_app_server_plan_and_token_usage(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    plan = [("read the code", "completed"), ("write the fix", "in_progress"), ("test", "pending")]
    model_server.add(
        turn(update_plan_call(plan, "u1", "two steps left"), usage=usage(input=100, output=10)),
        turn(message("planned"), usage=usage(input=150, output=5)),
    )
    client = app_server()
    thread_id = _thread(client, cwd=str(workspace))
    seen = _turn(client, thread_id, "plan it")
    turn_id = seen[0]["result"]["turn"]["id"]
    plans = [m["params"] for m in seen if m.get("method") == "turn/plan/updated"]
    assert plans == [
        {
            "threadId": thread_id,
            "turnId": turn_id,
            "explanation": "two steps left",
            "plan": [
                {"step": "read the code", "status": "completed"},
                {"step": "write the fix", "status": "inProgress"},
                {"step": "test", "status": "pending"},
            ],
        }
    ]
    usages = [m["params"] for m in seen if m.get("method") == "thread/tokenUsage/updated"]
    assert [u["turnId"] for u in usages] == [turn_id] * len(usages)
    last = usages[-1]["tokenUsage"]
    assert (last["last"]["inputTokens"], last["last"]["outputTokens"]) == (150, 5)
    assert (last["total"]["inputTokens"], last["total"]["outputTokens"]) == (250, 15)
    assert last["total"]["totalTokens"] == 265
    methods = [m.get("method") for m in seen]
    assert methods.index("turn/plan/updated") < methods.index("item/agentMessage/delta")
    assert methods.index("thread/tokenUsage/updated") < methods.index("turn/completed")
    assert client.close() == 0


def test_app_server_command_output_deltas(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    script = "echo one; sleep 0.3; echo two"
    model_server.add(
        turn(function_call("exec_command", {"cmd": script}, "s1")), turn(message("ran"))
    )
    client = app_server()
    thread_id = _thread(
        client, cwd=str(workspace), approvalPolicy="never", sandbox="danger-full-access"
    )
    seen = _turn(client, thread_id, "run")
    command = [m for m in seen if (m.get("params") or {}).get("itemId") == "s1"]
    command += [
        m
        for m in seen
        if m.get("method", "").startswith("item/") and m["params"].get("item", {}).get("id") == "s1"
    ]
    command.sort(key=seen.index)
    methods = [m["method"] for m in command]
    assert methods[0] == "item/started" and methods[-1] == "item/completed"
    deltas = [m["params"]["delta"] for m in command if m["method"].endswith("/outputDelta")]
    assert len(deltas) >= 2, "the two lines arrive as separate deltas (0.3 s apart)"
    assert "".join(deltas).endswith("one\ntwo\n")
    done = command[-1]["params"]["item"]
    assert (done["status"], done["exitCode"]) == ("completed", 0)
    assert done["aggregatedOutput"].endswith("one\ntwo\n")
    assert client.close() == 0
