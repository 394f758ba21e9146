"""`codex acp` over a real pipe with the `acp` SDK's client side: MCP servers handed by the
client, images and resources in prompts, "allow always", tool calls with kind, title,
locations and diffs, plans, and `session/load` replaying patches."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import acp
from acp.schema import (
    EmbeddedResourceContentBlock,
    McpServerStdio,
    ResourceContentBlock,
    TextResourceContents,
)

from tests.mcp.conftest import SERVER, namespace_call
from tests.servers.test_acp import ASK_FLAGS, RecordingClient, _run, _with_agent
from tests.support.model_server import ModelServer
from tests.support.sse import custom_tool_call, message, shell_call, turn, update_plan_call

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
ADD = "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"
FULL_ACCESS = ["-c", 'approval_policy="never"', "-c", 'sandbox_mode="danger-full-access"']


def _updates(client: RecordingClient, kind: str) -> list[Any]:
    return [u for _, u in client.updates if u.session_update == kind]


def _tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools", []):
        names.append(str(tool.get("name")))
        names += [f"{tool['name']}.{t['name']}" for t in tool.get("tools", [])]
    return names


def test_acp_client_mcp_server_tools_reach_model_and_run(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    client = RecordingClient()
    server = McpServerStdio(
        name="probe", command=sys.executable, args=[str(SERVER), "stdio"], env=[]
    )

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[server])
        sid = session.session_id
        # A client-supplied server is optional: requests go out without its tools until it
        # is up (~1 s wait on the first one), so warm up until a request offers them.
        for _ in range(40):
            model_server.add(turn(message("warming up")))
            await conn.prompt(session_id=sid, prompt=[acp.text_block("hello")])
            if "mcp__probe.echo" in _tool_names(model_server.requests[-1].body):
                break
            await asyncio.sleep(0.25)
        model_server.add(
            namespace_call("mcp__probe", "echo", {"text": "from acp"}, "m1"),
            turn(message("echoed")),
        )
        return await conn.prompt(session_id=sid, prompt=[acp.text_block("use echo")])

    result = _run(_with_agent(model_server, codex_home, client, body, FULL_ACCESS))
    assert result.stop_reason == "end_turn"
    assert "mcp__probe.echo" in _tool_names(model_server.requests[-2].body)
    outputs = [i for i in model_server.requests[-1].body["input"] if i.get("call_id") == "m1"]
    assert "echo: from acp" in json.dumps(outputs[-1]["output"])
    start = next(u for u in _updates(client, "tool_call") if u.tool_call_id == "m1")
    assert (start.title, start.kind, start.raw_input) == (
        "probe.echo",
        "other",
        {"text": "from acp"},
    )
    end = [u for u in _updates(client, "tool_call_update") if u.tool_call_id == "m1"][-1]
    assert end.status == "completed"


def test_acp_prompt_with_image_and_resources_reaches_model(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    notes = workspace / "notes.md"
    notes.write_text("remember the milk\n")
    model_server.add(turn(message("seen")))
    client = RecordingClient()
    prompt = [
        acp.text_block("look at these"),
        acp.image_block(PNG, "image/png"),
        ResourceContentBlock(type="resource_link", name="notes.md", uri=notes.as_uri()),
        EmbeddedResourceContentBlock(
            type="resource",
            resource=TextResourceContents(uri="file:///virtual/spec.txt", text="spec body"),
        ),
    ]

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        return await conn.prompt(session_id=session.session_id, prompt=prompt)

    result = _run(_with_agent(model_server, codex_home, client, body))
    assert result.stop_reason == "end_turn"
    content = model_server.requests[0].body["input"][-1]["content"]
    images = [part["image_url"] for part in content if part["type"] == "input_image"]
    assert images == [f"data:image/png;base64,{PNG}"]
    texts = "\n".join(part["text"] for part in content if part["type"] == "input_text")
    assert "look at these" in texts
    assert f"@{notes}" in texts
    assert '<context ref="file:///virtual/spec.txt">\nspec body\n</context>' in texts


def test_acp_allow_always_is_remembered_for_the_session(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    command = ["bash", "-lc", "echo again >> log.txt"]
    model_server.add(
        turn(shell_call(command, call_id="c1")),
        turn(shell_call(command, call_id="c2")),
        turn(message("twice")),
    )
    client = RecordingClient("allow_always")

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        return await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("go")])

    result = _run(_with_agent(model_server, codex_home, client, body, ASK_FLAGS))
    assert result.stop_reason == "end_turn"
    assert [call.tool_call_id for call, _ in client.permission_requests] == ["c1"]
    assert (workspace / "log.txt").read_text() == "again\nagain\n"
    ends = {u.tool_call_id: u.status for u in _updates(client, "tool_call_update")}
    assert ends == {"c1": "completed", "c2": "completed"}


def _diff_of(update: Any) -> tuple[str, str, str | None]:
    diff = update.content[0]
    return diff.path, diff.new_text, diff.old_text


def test_acp_patch_tool_call_and_plan_then_load_replays_the_diff(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    plan = [("write hello", "in_progress"), ("check it", "pending")]
    model_server.add(
        turn(update_plan_call(plan, "u1", "two steps")),
        turn(custom_tool_call("apply_patch", ADD, call_id="p1")),
        turn(message("patched")),
    )
    first = RecordingClient("allow_once")

    async def create(conn: Any) -> str:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("patch it")])
        return str(session.session_id)

    session_id = _run(_with_agent(model_server, codex_home, first, create, ASK_FLAGS))
    assert (workspace / "hello.txt").read_text() == "hello\n"
    plans = _updates(first, "plan")
    assert [(e.content, e.status) for e in plans[0].entries] == [
        ("write hello", "in_progress"),
        ("check it", "pending"),
    ]
    asked, _options = first.permission_requests[0]
    assert asked.tool_call_id == "p1"
    start = next(u for u in _updates(first, "tool_call") if u.tool_call_id == "p1")
    target = str(workspace / "hello.txt")
    assert (start.kind, start.title, start.status) == ("edit", f"Edit {target}", "pending")
    assert [loc.path for loc in start.locations] == [target]
    assert _diff_of(start) == (target, "hello\n", None)
    final = [u for u in _updates(first, "tool_call_update") if u.tool_call_id == "p1"][-1]
    assert final.status == "completed"

    second = RecordingClient()

    async def load(conn: Any) -> None:
        await conn.load_session(cwd=str(workspace), session_id=session_id, mcp_servers=[])

    _run(_with_agent(model_server, codex_home, second, load))
    replayed = next(u for u in _updates(second, "tool_call") if u.tool_call_id == "p1")
    assert (replayed.kind, replayed.title, replayed.status) == (
        "edit",
        f"Edit {target}",
        "completed",
    )
    assert [loc.path for loc in replayed.locations] == [target]
    assert _diff_of(replayed) == (target, "hello\n", None)
    kinds = [u.session_update for _, u in second.updates]
    assert kinds.index("user_message_chunk") < kinds.index("tool_call")
    assert kinds.index("tool_call") < kinds.index("agent_message_chunk")
