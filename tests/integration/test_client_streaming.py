"""ModelClient against the scripted server over real HTTP: both wire APIs, items, usage, headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from codex_core.client import (
    Completed,
    ModelClient,
    OutputItemDone,
    OutputTextDelta,
    Prompt,
    ReasoningSummaryDelta,
    ResponseEvent,
    ToolSpec,
)
from codex_core.model_provider import built_in_model_providers
from codex_core.protocol.common import TokenUsage
from codex_core.protocol.items import (
    CustomToolCall,
    FunctionCall,
    FunctionCallOutput,
    Message,
    Reasoning,
    user_message,
)
from tests.support import sse
from tests.support.model_server import ModelServer
from tests.support.sse import Wire

SHELL = ToolSpec(
    "shell", "Run a command.", {"type": "object", "properties": {"command": {"type": "array"}}}
)
PROMPT = Prompt("You are a test.", [user_message("hello")], [SHELL])
WIRES: list[Wire] = ["responses", "chat"]


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as running:
        yield running
        running.check_pairing()


async def collect(client: ModelClient, prompt: Prompt = PROMPT) -> list[ResponseEvent]:
    try:
        return [event async for event in client.stream(prompt)]
    finally:
        await client.aclose()


def client_for(server: ModelServer, wire: Wire, **kwargs: Any) -> ModelClient:
    kwargs.setdefault("api_key", "sk-test")
    kwargs.setdefault("session_id", "sess-1")
    return ModelClient(server.provider(wire), "gpt-5", **kwargs)


def done_items(events: list[ResponseEvent]) -> list[Any]:
    return [e.item for e in events if isinstance(e, OutputItemDone)]


@pytest.mark.parametrize("wire", WIRES)
async def test_client_streams_text_deltas_then_the_message(server: ModelServer, wire: Wire) -> None:
    server.add(sse.turn(sse.message("Hello there, friend.")))
    events = await collect(client_for(server, wire))
    deltas = [e.delta for e in events if isinstance(e, OutputTextDelta)]
    assert deltas == ["Hello ", "there, ", "friend."]
    [item] = done_items(events)
    assert (
        isinstance(item, Message)
        and item.role == "assistant"
        and item.text() == "Hello there, friend."
    )
    assert isinstance(events[-1], Completed)


@pytest.mark.parametrize("wire", WIRES)
async def test_client_returns_function_calls(server: ModelServer, wire: Wire) -> None:
    server.add(
        sse.turn(
            sse.shell_call(["bash", "-lc", "echo hi"], call_id="c1"),
            sse.function_call("update_plan", {"plan": []}, call_id="c2"),
        )
    )
    items = done_items(await collect(client_for(server, wire)))
    assert [
        (i.name, json.loads(i.arguments), i.call_id) for i in items if isinstance(i, FunctionCall)
    ] == [
        ("shell", {"command": ["bash", "-lc", "echo hi"]}, "c1"),
        ("update_plan", {"plan": []}, "c2"),
    ]


@pytest.mark.parametrize("wire", WIRES)
async def test_client_parses_usage(server: ModelServer, wire: Wire) -> None:
    server.add(
        sse.turn(
            sse.message("ok"), usage=sse.usage(input=1200, output=80, cached=1000, reasoning=30)
        )
    )
    completed = (await collect(client_for(server, wire)))[-1]
    assert isinstance(completed, Completed)
    assert completed.token_usage == TokenUsage(
        input_tokens=1200,
        cached_input_tokens=1000,
        output_tokens=80,
        reasoning_output_tokens=30,
        total_tokens=1280,
    )


@pytest.mark.parametrize("wire", WIRES)
async def test_client_streams_reasoning(server: ModelServer, wire: Wire) -> None:
    server.add(sse.turn(sse.reasoning("Checking the files"), sse.message("done")))
    events = await collect(client_for(server, wire))
    assert [e.delta for e in events if isinstance(e, ReasoningSummaryDelta)] == [
        "Checking the files"
    ]
    reasoning = done_items(events)[0]
    assert isinstance(reasoning, Reasoning) and reasoning.summary[0].text == "Checking the files"


async def test_client_responses_keeps_encrypted_reasoning_for_replay(server: ModelServer) -> None:
    server.add(
        sse.turn(sse.reasoning("plan", encrypted_content="opaque-blob"), sse.message("done"))
    )
    server.add(sse.turn(sse.message("again")))
    items = done_items(
        await collect(client_for(server, "responses", effort="medium", summary="auto"))
    )
    await collect(client_for(server, "responses"), Prompt("x", [user_message("hi"), *items], []))
    replayed = server.requests[1].body["input"][1]
    assert replayed == {
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "plan"}],
        "encrypted_content": "opaque-blob",
    }
    assert server.requests[0].body["include"] == ["reasoning.encrypted_content"]


@pytest.mark.parametrize("wire", WIRES)
async def test_client_custom_tool_call_arrives_per_wire(server: ModelServer, wire: Wire) -> None:
    server.add(
        sse.turn(
            sse.custom_tool_call("apply_patch", "*** Begin Patch\n*** End Patch", call_id="p1")
        )
    )
    [item] = done_items(await collect(client_for(server, wire)))
    if wire == "responses":
        assert item == CustomToolCall(
            name="apply_patch",
            input="*** Begin Patch\n*** End Patch",
            call_id="p1",
            id=item.id,
            status="completed",
        )
    else:
        assert isinstance(item, FunctionCall)
        assert json.loads(item.arguments) == {"input": "*** Begin Patch\n*** End Patch"}


async def test_client_sends_responses_headers_query_params_and_body(server: ModelServer) -> None:
    server.add(sse.turn(sse.message("ok")))
    provider = server.provider(
        "responses", query_params={"api-version": "2025-04-01"}, http_headers={"X-Team": "blue"}
    )
    await collect(ModelClient(provider, "gpt-5", session_id="sess-42", api_key="sk-abc"))
    [request] = server.requests
    assert request.path == "/v1/responses"
    assert request.query == "api-version=2025-04-01"
    assert request.header("authorization") == "Bearer sk-abc"
    assert request.header("openai-beta") == "responses=experimental"
    assert request.header("session_id") == "sess-42"
    assert request.header("originator") == "codex_cli_py"
    assert request.header("accept") == "text/event-stream"
    assert request.header("x-team") == "blue"
    assert request.body["prompt_cache_key"] == "sess-42"
    assert request.body["input"] == [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}
    ]


async def test_client_sends_chat_body_to_chat_completions(server: ModelServer) -> None:
    server.add(sse.turn(sse.message("ok")))
    await collect(client_for(server, "chat"))
    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.header("openai-beta") is None
    assert request.body["messages"] == [
        {"role": "system", "content": "You are a test."},
        {"role": "user", "content": "hello"},
    ]
    assert request.body["tools"][0]["function"]["name"] == "shell"


async def test_client_oss_provider_sends_no_authorization(
    server: ModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_OSS_BASE_URL", server.base_url)
    oss = built_in_model_providers()["oss"]
    server.add(sse.turn(sse.message("local")))
    await collect(ModelClient(oss, "gpt-oss:20b", provider_id="oss", session_id="s", api_key=None))
    assert server.requests[0].header("authorization") is None


@pytest.mark.parametrize("wire", WIRES)
async def test_client_tool_outputs_round_trip_paired(server: ModelServer, wire: Wire) -> None:
    server.add(sse.turn(sse.shell_call(["ls"], call_id="c1")), sse.turn(sse.message("listed")))
    items = done_items(await collect(client_for(server, wire)))
    history = [user_message("hello"), *items, FunctionCallOutput(call_id="c1", output="a.txt")]
    await collect(client_for(server, wire), Prompt("x", history, [SHELL]))
    server.check_pairing()
    body = server.requests[1].body
    last = body["input"][-1] if wire == "responses" else body["messages"][-1]
    expected = (
        {"type": "function_call_output", "call_id": "c1", "output": "a.txt"}
        if wire == "responses"
        else {"role": "tool", "tool_call_id": "c1", "content": "a.txt"}
    )
    assert last == expected
