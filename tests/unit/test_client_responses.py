"""Responses API request bodies and the translation of its SSE events."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from codex_core.client import (
    Completed,
    ContextWindowExceeded,
    Created,
    InvalidResponse,
    OutputItemDone,
    OutputTextDelta,
    Prompt,
    QuotaExceeded,
    ReasoningSummaryDelta,
    ReasoningSummaryPartAdded,
    ResponseFailed,
    StreamDisconnected,
    ToolSpec,
)
from codex_core.client.responses import ResponsesStream, responses_body
from codex_core.client.sse import SseEvent
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.common import TokenUsage
from codex_core.protocol.items import FunctionCall, Reasoning, parse_response_item, user_message

PROVIDER = ModelProviderInfo(name="OpenAI", wire_api="responses", env_key="OPENAI_API_KEY")
TOOL = ToolSpec("shell", "Run a command.", {"type": "object", "properties": {}})


def _event(payload: Mapping[str, Any]) -> SseEvent:
    return SseEvent(str(payload["type"]), json.dumps(payload))


def test_responses_body_has_the_codex_request_shape() -> None:
    prompt = Prompt("be brief", [user_message("hi")], [TOOL])
    body = responses_body(prompt, "gpt-5", session_id="sess-1", effort="high", summary="auto")
    assert body == {
        "model": "gpt-5",
        "instructions": "be brief",
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
        ],
        "tools": [
            {
                "type": "function",
                "name": "shell",
                "description": "Run a command.",
                "strict": False,
                "parameters": {"type": "object", "properties": {}},
            }
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "reasoning": {"effort": "high", "summary": "auto"},
        "store": False,
        "stream": True,
        "include": ["reasoning.encrypted_content"],
        "prompt_cache_key": "sess-1",
    }


def test_responses_body_omits_reasoning_when_not_configured() -> None:
    body = responses_body(
        Prompt("x", [], []), "gpt-4.1", session_id="s", effort=None, summary="none"
    )
    assert "reasoning" not in body
    assert "include" not in body


def test_responses_body_replays_reasoning_verbatim_without_ids() -> None:
    raw = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "plan"}],
        "encrypted_content": "gAAAA-opaque",
        "future_field": {"kept": True},
    }
    item = parse_response_item(raw)
    assert item is not None
    body = responses_body(Prompt("x", [item], []), "m", session_id="s", effort=None, summary=None)
    assert body["input"] == [{k: v for k, v in raw.items() if k != "id"}]


def test_responses_stream_translates_a_full_response() -> None:
    stream = ResponsesStream(PROVIDER)
    call = {
        "type": "function_call",
        "id": "fc_1",
        "name": "shell",
        "arguments": "{}",
        "call_id": "c1",
    }
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 40},
        "output_tokens": 20,
        "output_tokens_details": {"reasoning_tokens": 5},
        "total_tokens": 120,
    }
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {"id": "r1"}},
        {"type": "response.reasoning_summary_part.added"},
        {"type": "response.reasoning_summary_text.delta", "delta": "thinking"},
        {"type": "response.output_text.delta", "delta": "Hel"},
        {"type": "response.in_progress"},
        {"type": "response.output_item.done", "item": call},
        {"type": "response.output_item.done", "item": {"type": "a_future_item", "id": "x"}},
        {"type": "response.completed", "response": {"id": "r1", "usage": usage}},
    ]
    out = [e for payload in events for e in stream.feed(_event(payload))]
    assert out == [
        Created(),
        ReasoningSummaryPartAdded(),
        ReasoningSummaryDelta("thinking"),
        OutputTextDelta("Hel"),
        OutputItemDone(FunctionCall(id="fc_1", name="shell", arguments="{}", call_id="c1")),
        Completed(
            "r1",
            TokenUsage(
                input_tokens=100,
                cached_input_tokens=40,
                output_tokens=20,
                reasoning_output_tokens=5,
                total_tokens=120,
            ),
        ),
    ]
    assert stream.done
    assert stream.finish() == []


def test_responses_stream_keeps_unknown_fields_of_items() -> None:
    stream = ResponsesStream(PROVIDER)
    item = {"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": "e", "new": [1]}
    [event] = stream.feed(_event({"type": "response.output_item.done", "item": item}))
    assert isinstance(event, OutputItemDone) and isinstance(event.item, Reasoning)
    assert event.item.to_wire() == item


def test_responses_stream_uses_the_event_name_when_data_lacks_a_type() -> None:
    stream = ResponsesStream(PROVIDER)
    assert stream.feed(SseEvent("response.output_text.delta", '{"delta": "x"}')) == [
        OutputTextDelta("x")
    ]


def test_responses_stream_without_completed_is_a_disconnect() -> None:
    stream = ResponsesStream(PROVIDER)
    stream.feed(_event({"type": "response.created", "response": {}}))
    with pytest.raises(StreamDisconnected):
        stream.finish()


@pytest.mark.parametrize(
    ("code", "error_type", "retryable"),
    [
        ("context_length_exceeded", ContextWindowExceeded, False),
        ("insufficient_quota", QuotaExceeded, False),
        ("rate_limit_exceeded", ResponseFailed, True),
        ("server_error", ResponseFailed, True),
        ("invalid_prompt", ResponseFailed, False),
    ],
)
def test_responses_failed_maps_codes_to_errors(
    code: str, error_type: type[Exception], retryable: bool
) -> None:
    stream = ResponsesStream(PROVIDER)
    payload = {"type": "response.failed", "response": {"error": {"code": code, "message": "nope"}}}
    with pytest.raises(error_type) as info:
        stream.feed(_event(payload))
    assert getattr(info.value, "retryable", False) is retryable
    assert "\n" not in str(info.value)


def test_responses_failed_rate_limit_carries_the_suggested_delay() -> None:
    stream = ResponsesStream(PROVIDER)
    error = {
        "code": "rate_limit_exceeded",
        "message": "Rate limit reached. Please try again in 1.5s.",
    }
    with pytest.raises(ResponseFailed) as info:
        stream.feed(_event({"type": "response.failed", "response": {"error": error}}))
    assert info.value.retry_after == 1.5


def test_responses_stream_rejects_non_json_data_in_one_line() -> None:
    stream = ResponsesStream(PROVIDER)
    with pytest.raises(InvalidResponse, match="not JSON") as info:
        stream.feed(SseEvent(None, "<html><body>Bad gateway</body></html>"))
    assert "\n" not in str(info.value)
