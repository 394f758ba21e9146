"""A server that comes up mid-turn joins the turn's later requests; MCP events in the Codex shape.

Observed with codex-rust 0.169: with a server that takes 3 s to start, the turn's first
request (sent after its ~1 s wait) has no `mcp__slow`, the follow-up request of the same
turn has it. Its rollouts record a call as `{"call_id", "invocation": {server, tool,
arguments}, "duration": {secs, nanos}, "result": {"Ok": CallToolResult} | {"Err": msg}}`
as events, and its 0.169-layout rollouts as `McpToolCall` items.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from codex_core.protocol import McpToolCallEndEvent, parse_event_msg
from tests.mcp.conftest import namespace_call, run_exec, stdio_entry, write_config
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn
from tests.support.steps import slow

pytestmark = pytest.mark.e2e


def tool_names(body: dict[str, Any]) -> list[str]:
    return [str(t.get("name") or t.get("type")) for t in body.get("tools", [])]


def test_late_server_joins_the_same_turn(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(
        codex_home, stdio_entry("slow", 'env = { MCP_TEST_START_DELAY = "3" }', required=False)
    )
    plan = function_call("update_plan", {"plan": [{"step": "wait", "status": "pending"}]}, "p1")
    model_server.add(
        slow(turn(plan), 1.5),  # the first response takes several seconds
        namespace_call("mcp__slow", "echo", {"text": "late"}, "c1"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    first, second, third = (r.body for r in model_server.requests)
    assert "mcp__slow" not in tool_names(first)
    assert "mcp__slow" in tool_names(second) and "mcp__slow" in tool_names(third)
    outputs = {i["call_id"]: i["output"] for i in third["input"] if "output" in i}
    assert "echo: late" in json.dumps(outputs["c1"])


def rollout_items(home: Path, kind: str) -> list[dict[str, Any]]:
    (path,) = home.glob("sessions/*/*/*/rollout-*.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [
        r["payload"]["item"]
        for r in records
        if r["type"] == "event_msg"
        and r["payload"].get("type") == "item_completed"
        and r["payload"]["item"]["type"] == kind
    ]


def test_rollout_records_mcp_calls_as_0169_items(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(
        namespace_call("mcp__probe", "echo", {"text": "hi"}, "c1"),
        namespace_call("mcp__probe", "fail", {"reason": "bad"}, "c2"),
        namespace_call("mcp__probe", "weather", {"city": "Oslo"}, "c3"),  # refused under exec
        turn(message("done")),
    )
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    items = rollout_items(codex_home, "McpToolCall")
    for item in items:
        assert set(item["duration"]) == {"secs", "nanos"}
    echo, fail, refused = ({k: v for k, v in i.items() if k != "duration"} for i in items)
    assert echo == {
        "type": "McpToolCall",
        "id": "c1",
        "server": "probe",
        "tool": "echo",
        "arguments": {"text": "hi"},
        "readOnlyHint": True,
        "status": "completed",
        "result": {
            "content": [{"type": "text", "text": "echo: hi"}],
            "structuredContent": {"result": "echo: hi"},
            "isError": False,
        },
    }
    assert (fail["status"], fail["result"]) == (
        "failed",
        {"content": [{"type": "text", "text": "Error executing tool fail: bad"}], "isError": True},
    )
    assert refused["status"] == "failed" and "readOnlyHint" not in refused
    assert "result" not in refused and refused["error"]["message"]


def test_flat_mcp_events_of_older_rollouts_still_read() -> None:
    flat_ok = {
        "type": "mcp_tool_call_end",
        "call_id": "c1",
        "server": "probe",
        "tool": "echo",
        "result": {
            "content": [{"type": "text", "text": "echo: hi"}],
            "structured_content": None,
            "is_error": True,
        },
    }
    flat_err = {
        "type": "mcp_tool_call_end",
        "call_id": "c2",
        "server": "probe",
        "tool": "hang",
        "error": "tool call error: timed out",
    }
    ok, err = parse_event_msg(flat_ok), parse_event_msg(flat_err)
    assert isinstance(ok, McpToolCallEndEvent) and isinstance(err, McpToolCallEndEvent)
    assert ok.result == {"Ok": {"content": [{"type": "text", "text": "echo: hi"}], "isError": True}}
    assert (ok.server, ok.tool, ok.is_success, ok.error) == ("probe", "echo", False, None)
    assert err.result == {"Err": "tool call error: timed out"} and err.error == err.result["Err"]
    # and the Codex shape reads back unchanged
    assert parse_event_msg(ok.to_wire()) == ok
