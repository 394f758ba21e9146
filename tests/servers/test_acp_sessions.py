"""`codex acp`: session list / resume / close and HTTP MCP servers, as the `agent-client-
protocol` SDK in use defines them; a patch's permission request carries its diffs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import acp
import pytest
from acp.schema import HttpMcpServer

from tests.mcp.conftest import namespace_call, serve_http
from tests.servers.test_acp import ASK_FLAGS, RecordingClient, _argv, _run
from tests.servers.test_acp_tools import ADD, FULL_ACCESS, _tool_names
from tests.support.model_server import ModelServer
from tests.support.sse import custom_tool_call, message, turn


@pytest.fixture
def http_mcp() -> Iterator[str]:
    yield from serve_http()


async def _agent(
    model_server: ModelServer,
    codex_home: Path,
    client: RecordingClient,
    body: Any,
    extra: list[str],
) -> Any:
    import os

    from tests.servers.rpc_client import CODEX

    env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}
    async with acp.spawn_agent_process(
        cast(Any, client), str(CODEX), *_argv(model_server, extra), env=env
    ) as (conn, _process):
        init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
        return await asyncio.wait_for(body(conn, init), 60)


def test_acp_advertises_and_serves_session_list_resume_close(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(turn(message("first answer")), turn(message("second answer")))
    client = RecordingClient()

    async def body(conn: Any, init: Any) -> Any:
        caps = init.agent_capabilities
        assert caps.mcp_capabilities.http is True
        sessions = caps.session_capabilities
        assert sessions.list is not None and sessions.resume is not None
        assert sessions.close is not None
        created = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        sid = created.session_id
        await conn.prompt(session_id=sid, prompt=[acp.text_block("remember 42")])
        listed = await conn.list_sessions(cwd=str(workspace))
        await conn.close_session(session_id=sid)
        with pytest.raises(acp.RequestError):
            await conn.prompt(session_id=sid, prompt=[acp.text_block("closed?")])
        await conn.resume_session(session_id=sid, cwd=str(workspace), mcp_servers=[])
        updates_after_resume = len(client.updates)
        result = await conn.prompt(session_id=sid, prompt=[acp.text_block("again")])
        return sid, listed, updates_after_resume, result

    sid, listed, after_resume, result = _run(_agent(model_server, codex_home, client, body, []))
    assert [(s.session_id, s.cwd, s.title) for s in listed.sessions] == [
        (sid, str(workspace), "remember 42")
    ]
    assert listed.sessions[0].updated_at.endswith("Z")
    assert result.stop_reason == "end_turn"
    # Resume continues the conversation without replaying it (load does that).
    kinds = [u.session_update for _, u in client.updates[:after_resume]]
    assert kinds.count("user_message_chunk") == 0
    assert "remember 42" in str(model_server.requests[-1].body["input"])


def test_acp_http_mcp_server_from_the_client_is_used(
    model_server: ModelServer, codex_home: Path, workspace: Path, http_mcp: str
) -> None:
    client = RecordingClient()
    server = HttpMcpServer(name="web", url=http_mcp, headers=[], type="http")

    async def body(conn: Any, _init: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[server])
        sid = session.session_id
        for _ in range(40):
            model_server.add(turn(message("warming up")))
            await conn.prompt(session_id=sid, prompt=[acp.text_block("hello")])
            if "mcp__web.echo" in _tool_names(model_server.requests[-1].body):
                break
            await asyncio.sleep(0.25)
        model_server.add(
            namespace_call("mcp__web", "echo", {"text": "over http"}, "h1"),
            turn(message("echoed")),
        )
        return await conn.prompt(session_id=sid, prompt=[acp.text_block("use echo")])

    result = _run(_agent(model_server, codex_home, client, body, FULL_ACCESS))
    assert result.stop_reason == "end_turn"
    outputs = [i for i in model_server.requests[-1].body["input"] if i.get("call_id") == "h1"]
    assert "echo: over http" in str(outputs[-1]["output"])


def test_acp_patch_permission_carries_the_diff(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(turn(custom_tool_call("apply_patch", ADD, call_id="p1")), turn(message("ok")))
    client = RecordingClient("allow_once")

    async def body(conn: Any, _init: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        return await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("go")])

    result = _run(_agent(model_server, codex_home, client, body, ASK_FLAGS))
    assert result.stop_reason == "end_turn"
    tool_call, _options = client.permission_requests[0]
    path = str(workspace / "hello.txt")
    assert (tool_call.kind, tool_call.status, tool_call.title) == (
        "edit",
        "pending",
        f"Edit {path}",
    )
    assert [loc.path for loc in tool_call.locations] == [path]
    diffs = [c for c in tool_call.content if c.type == "diff"]
    assert [(d.path, d.new_text) for d in diffs] == [(path, "hello\n")]
    assert path in tool_call.raw_input["changes"]
