"""`codex acp` over a real pipe, driven by the official `acp` SDK's client side."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import acp
import pytest
from acp.schema import AllowedOutcome, DeniedOutcome

from tests.servers.conftest import MODEL_FLAGS
from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer
from tests.support.sse import message, reasoning, shell_call, turn
from tests.support.steps import slow


class RecordingClient:
    """An ACP client that records updates and answers permission requests with `answer`."""

    def __init__(self, answer: str | None = "allow_once") -> None:
        self.answer = answer
        self.updates: list[tuple[str, Any]] = []
        self.permission_requests: list[Any] = []

    async def request_permission(
        self, options: list[Any], session_id: str, tool_call: Any, **_: Any
    ) -> acp.RequestPermissionResponse:
        self.permission_requests.append((tool_call, options))
        if self.answer is None:
            return acp.RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return acp.RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=self.answer)
        )

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        self.updates.append((session_id, update))

    def kinds(self) -> list[str]:
        return [u.session_update for _, u in self.updates]

    def text(self, kind: str) -> str:
        return "".join(u.content.text for _, u in self.updates if u.session_update == kind)

    def on_connect(self, conn: Any) -> None:
        pass


ASK_FLAGS = ["-c", 'approval_policy="untrusted"', "-c", 'sandbox_mode="workspace-write"']


def _argv(model_server: ModelServer, extra: list[str]) -> list[str]:
    return [*model_server.cli_flags(), *MODEL_FLAGS, *extra, "acp"]


async def _with_agent(
    model_server: ModelServer,
    codex_home: Path,
    client: RecordingClient,
    body: Any,
    extra: list[str] | None = None,
) -> Any:
    env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}
    async with acp.spawn_agent_process(
        client, str(CODEX), *_argv(model_server, extra or []), env=env
    ) as (
        conn,
        _process,
    ):
        init = await conn.initialize(protocol_version=acp.PROTOCOL_VERSION)
        assert init.agent_capabilities is not None
        assert init.agent_capabilities.load_session is True
        assert init.agent_capabilities.prompt_capabilities.image is True
        return await asyncio.wait_for(body(conn), 30)


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_acp_prompt_streams_updates(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(turn(reasoning("pondering"), message("hello from codex")))
    client = RecordingClient()

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        assert [m.id for m in session.modes.available_modes] == ["read-only", "auto", "full-access"]
        return await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("hi")])

    result = _run(_with_agent(model_server, codex_home, client, body))
    assert result.stop_reason == "end_turn"
    assert client.text("agent_message_chunk") == "hello from codex"
    assert client.text("agent_thought_chunk") == "pondering"
    assert model_server.requests[0].body["input"][-1]["content"][0]["text"] == "hi"


@pytest.mark.parametrize(("answer", "runs"), [("allow_once", True), ("reject_once", False)])
def test_acp_permission_allow_and_reject(
    model_server: ModelServer, codex_home: Path, workspace: Path, answer: str, runs: bool
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo made > made.txt"], call_id="c1")),
        turn(message("done")),
    )
    client = RecordingClient(answer)

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        return await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("go")])

    result = _run(_with_agent(model_server, codex_home, client, body, ASK_FLAGS))
    # Reject stops the turn, as Zed's Codex adapter does (the prompt ends `cancelled`).
    assert result.stop_reason == ("end_turn" if runs else "cancelled")
    tool_call, options = client.permission_requests[0]
    assert tool_call.tool_call_id == "c1"
    # The request carries the whole tool call, so a client can draw the prompt from it.
    assert (tool_call.kind, tool_call.status, tool_call.title) == (
        "execute",
        "pending",
        "echo made > made.txt",
    )
    assert [loc.path for loc in tool_call.locations] == [str(workspace)]
    assert tool_call.raw_input["command"] == ["bash", "-lc", "echo made > made.txt"]
    assert tool_call.raw_input["call_id"] == "c1"
    assert [o.kind for o in options] == ["allow_once", "allow_always", "reject_once"]
    assert (workspace / "made.txt").exists() is runs
    starts = [u for _, u in client.updates if u.session_update == "tool_call"]
    assert (starts[0].kind, starts[0].title) == ("execute", "echo made > made.txt")
    final = [u for _, u in client.updates if u.session_update == "tool_call_update"][-1]
    assert final.status == ("completed" if runs else "failed")


def test_acp_set_mode_full_access_runs_without_asking(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo made > made.txt"], call_id="c1")),
        turn(message("done")),
    )
    client = RecordingClient(None)

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        assert session.modes.current_mode_id == "auto"
        await conn.set_session_mode(session_id=session.session_id, mode_id="full-access")
        return await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("go")])

    result = _run(_with_agent(model_server, codex_home, client, body, ASK_FLAGS))
    assert result.stop_reason == "end_turn"
    assert client.permission_requests == []
    assert (workspace / "made.txt").exists()
    modes = [
        u.current_mode_id for _, u in client.updates if u.session_update == "current_mode_update"
    ]
    assert modes == ["full-access"]


def test_acp_cancel_stops_with_cancelled(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    chunks = [f"w{i} " for i in range(200)]
    model_server.add(slow(turn(message("".join(chunks), chunks=chunks)), 0.05))
    client = RecordingClient()

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        running = asyncio.ensure_future(
            conn.prompt(session_id=session.session_id, prompt=[acp.text_block("long")])
        )
        while "agent_message_chunk" not in client.kinds():
            await asyncio.sleep(0.02)
        await conn.cancel(session_id=session.session_id)
        return await running

    result = _run(_with_agent(model_server, codex_home, client, body))
    assert result.stop_reason == "cancelled"


def test_acp_load_session_replays_history(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(turn(message("the answer is 42")), turn(message("still 42")))
    first = RecordingClient()

    async def create(conn: Any) -> str:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("question")])
        return str(session.session_id)

    session_id = _run(_with_agent(model_server, codex_home, first, create))
    second = RecordingClient()

    async def load(conn: Any) -> Any:
        await conn.load_session(cwd=str(workspace), session_id=session_id, mcp_servers=[])
        replayed = list(second.kinds())
        await conn.prompt(session_id=session_id, prompt=[acp.text_block("again")])
        return replayed

    replayed = _run(_with_agent(model_server, codex_home, second, load))
    assert replayed[:2] == ["user_message_chunk", "agent_message_chunk"]
    assert second.updates[0][1].content.text == "question"
    assert second.updates[1][1].content.text == "the answer is 42"
    assert "the answer is 42" in str(model_server.requests[-1].body["input"])
