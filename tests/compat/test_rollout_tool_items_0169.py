"""MCP calls and web searches in 0.169-layout rollouts: `McpToolCall` and `WebSearch` items.

Codex 0.169 records each MCP call as an `item_completed` `McpToolCall` item (`readOnlyHint`
only for read-only tools, `result` or `error: {message}`, `status: failed` also for a result
flagged `isError`) and each hosted search as a `WebSearch` item; both directions are checked:
ours replays its files, it resumes ours, and ours writes the items as it does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from codex_core.items import Event, Projection
from codex_core.items.notices import ItemCompleted
from codex_core.protocol import parse_event_msg
from codex_core.rollout import read_rollout, reconstruct
from codex_core.rollout.item_record import rollout_item
from codex_core.rollout.turn_items import display_events
from tests.compat.conftest import (
    Cli,
    install_fixture,
    rollout_of,
    rollout_records,
    thread_id,
    user_texts,
)
from tests.mcp.conftest import namespace_call
from tests.support.model_server import ModelServer, Step
from tests.support.sse import message, responses_event, turn

MCP = "01a20d47-ea87-7290-a107-2ca0df95c1d8"  # echo, weather, fail (isError), hang (timed out)
SEARCH = "01a20d29-9488-7da1-968a-3fe3cbdfeb35"  # a web_search_call item
SERVER = Path(__file__).parent.parent / "mcp" / "server.py"


def items_of(path: Path, kind: str) -> list[dict[str, Any]]:
    """The `item_completed` items of one kind in a rollout, in order."""
    return [
        r["payload"]["item"]
        for r in rollout_records(path)
        if r["type"] == "event_msg"
        and r["payload"].get("type") == "item_completed"
        and r["payload"]["item"]["type"] == kind
    ]


def test_rollout_0169_mcp_and_search_items_replay_as_their_events(tmp_path: Path) -> None:
    mcp = reconstruct(read_rollout(install_fixture(tmp_path, MCP)))
    ends = [e for e in mcp.events if e["type"] == "mcp_tool_call_end"]
    assert [(e["call_id"], e["invocation"]["tool"], e.get("read_only")) for e in ends] == [
        ("c1", "echo", True),
        ("c2", "weather", None),
        ("c3", "fail", True),
        ("c4", "hang", True),
    ]
    assert ends[0]["result"] == {
        "Ok": {
            "content": [{"type": "text", "text": "echo: hi"}],
            "structuredContent": {"result": "echo: hi"},
            "isError": False,
        }
    }
    assert ends[2]["result"]["Ok"]["isError"] is True
    assert ends[3]["result"]["Err"].startswith("tool call error: tool call failed for `probe/hang`")
    assert ends[3]["duration"]["secs"] == 2
    search = reconstruct(read_rollout(install_fixture(tmp_path, SEARCH)))
    assert [e for e in search.events if e["type"] == "web_search_end"] == [
        {
            "type": "web_search_end",
            "call_id": "ws_1",
            "query": "python asyncio",
            "action": {"type": "search", "query": "python asyncio"},
        }
    ]


def test_rollout_0169_mcp_and_search_items_survive_a_round_trip(tmp_path: Path) -> None:
    """Each recorded item, read as our event and written back, is the item 0.169 wrote."""
    recorded = [
        *items_of(install_fixture(tmp_path, MCP), "McpToolCall"),
        *items_of(install_fixture(tmp_path, SEARCH), "WebSearch"),
    ]
    assert len(recorded) == 5
    for item in recorded:
        [event] = display_events({"type": "item_completed", "item": item})
        msg = parse_event_msg(event)
        assert msg is not None
        [done] = [
            n for n in Projection().feed(Event(id="t", msg=msg)) if isinstance(n, ItemCompleted)
        ]
        assert rollout_item(done.item, cwd="/") == item


def search_then_mcp_calls() -> list[Step]:
    """A web search, then MCP calls that succeed, fail (`isError`) and time out."""
    search = {
        "type": "web_search_call",
        "id": "ws_9",
        "status": "completed",
        "action": {"type": "search", "query": "mcp spec"},
    }
    created, echo, completed = namespace_call("mcp__probe", "echo", {"text": "hi"}, "c1")
    searched = responses_event(
        {"type": "response.output_item.done", "output_index": 0, "item": search}
    )
    return [
        [created, searched, echo, completed],
        namespace_call("mcp__probe", "weather", {"city": "Paris"}, "c2"),
        namespace_call("mcp__probe", "fail", {}, "c3"),
        namespace_call("mcp__probe", "hang", {}, "c4"),
        turn(message("done")),
    ]


def write_mcp_config(home: Path) -> None:
    (home / "config.toml").write_text(
        "[mcp_servers.probe]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f"args = {json.dumps([str(SERVER), 'stdio'])}\n"
        'default_tools_approval_mode = "approve"\n'
        "tool_timeout_sec = 1\n"
        "required = true\n"  # wait for it however loaded the machine is
    )


def shape(item: dict[str, Any]) -> dict[str, Any]:
    """An item with what differs between runs (timings, error wording) blanked."""
    blank = {**item, "duration": "…"} if "duration" in item else dict(item)
    if "error" in blank:
        blank["error"] = {"message": "…"}
    return blank


def test_rollout_ours_writes_mcp_and_search_items_as_0169_and_it_resumes_them(
    ours: Cli, rust: Cli, model_server: ModelServer, project: Path
) -> None:
    write_mcp_config(ours.home)
    model_server.add(*search_then_mcp_calls())
    done = ours.exec(model_server, "--json", "use the tools", cwd=project)
    assert done.returncode == 0, done.stderr
    ours_id = thread_id(done.stdout)
    model_server.add(*search_then_mcp_calls())
    theirs = rust.exec(model_server, "--json", "use the tools", cwd=project)
    assert theirs.returncode == 0, theirs.stderr
    ours_path, rust_path = (
        rollout_of(ours.home, ours_id),
        rollout_of(rust.home, thread_id(theirs.stdout)),
    )
    for kind in ("McpToolCall", "WebSearch"):
        assert [shape(i) for i in items_of(ours_path, kind)] == [
            shape(i) for i in items_of(rust_path, kind)
        ], kind
    [hung] = [i for i in items_of(ours_path, "McpToolCall") if i["tool"] == "hang"]
    assert "result" not in hung and hung["status"] == "failed" and hung["error"]["message"]

    # 0.169 resumes our file: the calls, outputs and the search reach its next request.
    model_server.add(turn(message("resumed by rust")))
    again = rust.exec(model_server, "--json", "resume", ours_id, "next?", cwd=project)
    assert again.returncode == 0, again.stderr
    body = model_server.bodies[-1]
    assert user_texts(body)[-1] == "next?"
    kinds = [(i["type"], i.get("call_id") or i.get("id")) for i in body["input"]]
    for expected in [("web_search_call", "ws_9"), ("function_call", "c1")]:
        assert expected in kinds
    assert ("function_call_output", "c4") in kinds
