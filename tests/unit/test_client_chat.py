"""Chat Completions: history → messages, and stream chunks → Responses-style events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from codex_core.client import (
    Completed,
    ContextWindowExceeded,
    Created,
    OutputItemAdded,
    OutputItemDone,
    OutputTextDelta,
    Prompt,
    ReasoningSummaryDelta,
    ResponseEvent,
    StreamDisconnected,
    ToolSpec,
)
from codex_core.client.chat import ChatStream, chat_body, chat_messages
from codex_core.client.sse import SseEvent
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.common import TokenUsage
from codex_core.protocol.items import (
    CustomToolCall,
    CustomToolCallOutput,
    FunctionCall,
    FunctionCallOutput,
    InputImage,
    InputText,
    Message,
    Reasoning,
    ResponseItem,
    SummaryText,
    assistant_message,
    user_message,
)

PROVIDER = ModelProviderInfo(name="Ollama", wire_api="chat")


def test_chat_messages_convert_the_whole_history() -> None:
    history: list[ResponseItem] = [
        user_message("list files"),
        Reasoning(summary=[SummaryText(text="I should run ls")]),
        FunctionCall(name="shell", arguments='{"command":["ls"]}', call_id="c1"),
        FunctionCall(name="shell", arguments='{"command":["pwd"]}', call_id="c2"),
        FunctionCallOutput(call_id="c1", output="a.txt"),
        FunctionCallOutput(call_id="c2", output="/w"),
        CustomToolCall(name="apply_patch", input="*** Begin Patch", call_id="c3"),
        CustomToolCallOutput(call_id="c3", output="ok"),
        assistant_message("Done."),
    ]
    assert chat_messages(Prompt("sys", history, [])) == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "list files"},
        {
            "role": "assistant",
            "content": None,
            "reasoning": "I should run ls",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "shell", "arguments": '{"command":["ls"]}'},
                },
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "shell", "arguments": '{"command":["pwd"]}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "a.txt"},
        {"role": "tool", "tool_call_id": "c2", "content": "/w"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c3",
                    "type": "function",
                    "function": {
                        "name": "apply_patch",
                        "arguments": json.dumps({"input": "*** Begin Patch"}),
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c3", "content": "ok"},
        {"role": "assistant", "content": "Done."},
    ]


def test_chat_messages_send_images_as_content_parts_and_developer_as_system() -> None:
    history: list[ResponseItem] = [
        Message(role="developer", content=[InputText(text="rules")]),
        Message(
            role="user",
            content=[InputText(text="see"), InputImage(image_url="data:image/png;base64,AA")],
        ),
    ]
    assert chat_messages(Prompt("sys", history, []))[1:] == [
        {"role": "system", "content": "rules"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "see"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}},
            ],
        },
    ]


def test_chat_body_asks_for_a_stream_with_usage_and_function_tools() -> None:
    tool = ToolSpec("shell", "Run.", {"type": "object"})
    body = chat_body(Prompt("sys", [user_message("hi")], [tool]), "gpt-oss:20b")
    assert body["model"] == "gpt-oss:20b"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["tools"] == [
        {
            "type": "function",
            "function": {"name": "shell", "description": "Run.", "parameters": {"type": "object"}},
        }
    ]


def _chunk(
    delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any
) -> SseEvent:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return SseEvent(None, json.dumps({"id": "chatcmpl-1", "choices": choices, **extra}))


def _feed(stream: ChatStream, events: list[SseEvent]) -> list[ResponseEvent]:
    return [out for event in events for out in stream.feed(event)]


def test_chat_stream_accumulates_text_reasoning_and_tool_calls() -> None:
    stream = ChatStream(PROVIDER)
    events = _feed(
        stream,
        [
            _chunk({"role": "assistant", "reasoning_content": "hmm"}),
            _chunk({"content": "Run"}),
            _chunk({"content": "ning"}),
            _chunk(
                {
                    "tool_calls": [
                        {"index": 0, "id": "c1", "function": {"name": "shell", "arguments": ""}}
                    ]
                }
            ),
            _chunk(
                {
                    "tool_calls": [
                        {
                            "index": 1,
                            "id": "c2",
                            "function": {"name": "shell", "arguments": '{"comm'},
                        }
                    ]
                }
            ),
            _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"command":["ls"]}'}}]}),
            _chunk({"tool_calls": [{"index": 1, "function": {"arguments": 'and":["pwd"]}'}}]}),
            _chunk({}, "tool_calls"),
            _chunk(
                None,
                usage={
                    "prompt_tokens": 9,
                    "completion_tokens": 4,
                    "total_tokens": 13,
                    "prompt_tokens_details": {"cached_tokens": 2},
                },
            ),
            SseEvent(None, "[DONE]"),
        ],
    )
    assert events == [
        Created(),
        ReasoningSummaryDelta("hmm"),
        OutputItemAdded(assistant_message("")),
        OutputTextDelta("Run"),
        OutputTextDelta("ning"),
        OutputItemDone(Reasoning(summary=[SummaryText(text="hmm")])),
        OutputItemDone(assistant_message("Running")),
        OutputItemDone(FunctionCall(name="shell", arguments='{"command":["ls"]}', call_id="c1")),
        OutputItemDone(FunctionCall(name="shell", arguments='{"command":["pwd"]}', call_id="c2")),
        Completed(
            "chatcmpl-1",
            TokenUsage(input_tokens=9, cached_input_tokens=2, output_tokens=4, total_tokens=13),
        ),
    ]
    assert stream.done


def test_chat_stream_ending_after_finish_reason_without_done_completes() -> None:
    stream = ChatStream(PROVIDER)
    _feed(stream, [_chunk({"content": "hi"}, "stop")])
    assert stream.finish() == [
        OutputItemDone(assistant_message("hi")),
        Completed("chatcmpl-1", None),
    ]


def test_chat_stream_ending_without_done_or_finish_reason_is_a_disconnect() -> None:
    stream = ChatStream(PROVIDER)
    _feed(stream, [_chunk({"content": "hi"})])
    with pytest.raises(StreamDisconnected):
        stream.finish()


def test_chat_stream_gives_tool_calls_without_ids_an_id() -> None:
    stream = ChatStream(PROVIDER)
    events = _feed(
        stream,
        [
            _chunk(
                {"tool_calls": [{"index": 0, "function": {"name": "shell", "arguments": "{}"}}]},
                "tool_calls",
            ),
            SseEvent(None, "[DONE]"),
        ],
    )
    calls = [e.item for e in events if isinstance(e, OutputItemDone)]
    assert (
        len(calls) == 1
        and isinstance(calls[0], FunctionCall)
        and calls[0].call_id.startswith("call_")
    )


def test_chat_stream_error_object_maps_to_the_matching_error() -> None:
    stream = ChatStream(PROVIDER)
    error = {"error": {"code": "context_length_exceeded", "message": "too long"}}
    with pytest.raises(ContextWindowExceeded):
        stream.feed(SseEvent(None, json.dumps(error)))
