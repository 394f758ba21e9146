"""Renders scripted turns and failures as Responses SSE events or Chat Completions chunks."""

from __future__ import annotations

import json
from typing import Any

from tests.support.sse import (
    DONE,
    CustomToolCallOut,
    Event,
    Failure,
    FunctionCallOut,
    MessageOut,
    OutputItem,
    ReasoningOut,
    Renderable,
    Wire,
    chat_chunk,
    completed,
    created,
    failed,
    output_item_done,
    responses_event,
    text_delta,
)


def item_json(item: OutputItem) -> dict[str, Any]:
    """The finished item as the Responses API reports it in `output_item.done`."""
    match item:
        case MessageOut():
            content = [{"type": "output_text", "text": item.text, "annotations": []}]
            return {
                "type": "message",
                "id": item.id,
                "role": "assistant",
                "status": "completed",
                "content": content,
            }
        case ReasoningOut():
            summary = [{"type": "summary_text", "text": s} for s in item.summary]
            out: dict[str, Any] = {"type": "reasoning", "id": item.id, "summary": summary}
            if item.encrypted_content is not None:
                out["encrypted_content"] = item.encrypted_content
            return out
        case FunctionCallOut():
            return {
                "type": "function_call",
                "id": item.id,
                "status": "completed",
                "name": item.name,
                "arguments": item.arguments,
                "call_id": item.call_id,
            }
        case CustomToolCallOut():
            return {
                "type": "custom_tool_call",
                "id": item.id,
                "status": "completed",
                "name": item.name,
                "input": item.input,
                "call_id": item.call_id,
            }


def _item_events(item: OutputItem, index: int) -> list[Event]:
    done = item_json(item)
    started = {**done, "status": "in_progress"}
    events: list[Event] = []
    match item:
        case MessageOut():
            started["content"] = []
            events.append(
                responses_event(
                    {"type": "response.output_item.added", "output_index": index, "item": started}
                )
            )
            events.extend(text_delta(chunk, item.id) for chunk in item.chunks)
        case ReasoningOut():
            started["summary"] = []
            events.append(
                responses_event(
                    {"type": "response.output_item.added", "output_index": index, "item": started}
                )
            )
            for part, text in enumerate(item.summary):
                base = {"item_id": item.id, "output_index": index, "summary_index": part}
                events.append(
                    responses_event({"type": "response.reasoning_summary_part.added", **base})
                )
                events.append(
                    responses_event(
                        {"type": "response.reasoning_summary_text.delta", **base, "delta": text}
                    )
                )
        case FunctionCallOut():
            started["arguments"] = ""
            events.append(
                responses_event(
                    {"type": "response.output_item.added", "output_index": index, "item": started}
                )
            )
            events.append(
                responses_event(
                    {
                        "type": "response.function_call_arguments.delta",
                        "item_id": item.id,
                        "output_index": index,
                        "delta": item.arguments,
                    }
                )
            )
        case CustomToolCallOut():
            started["input"] = ""
            events.append(
                responses_event(
                    {"type": "response.output_item.added", "output_index": index, "item": started}
                )
            )
    events.append(output_item_done(done, index))
    return events


def responses_events(step: Renderable) -> list[Event]:
    """The Responses API SSE events of a turn or failure."""
    if isinstance(step, Failure):
        return [created("resp_failed"), failed(step.code, step.message, "resp_failed")]
    events = [created(step.response_id)]
    for index, item in enumerate(step.items):
        events.extend(_item_events(item, index))
    events.append(completed(step.response_id, step.usage))
    return events


def _chunk(response_id: str, delta: dict[str, Any], finish_reason: str | None = None) -> Event:
    choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
    return chat_chunk(
        {
            "id": response_id,
            "object": "chat.completion.chunk",
            "model": "scripted",
            "choices": [choice],
        }
    )


def chat_events(step: Renderable) -> list[Event]:
    """The Chat Completions stream chunks of a turn or failure, ending with `[DONE]`."""
    if isinstance(step, Failure):
        return [
            chat_chunk({"error": {"code": step.code, "message": step.message, "type": step.code}})
        ]
    rid = step.response_id.replace("resp_", "chatcmpl-")
    events = [_chunk(rid, {"role": "assistant", "content": ""})]
    calls: list[tuple[str, str, str]] = []
    for item in step.items:
        match item:
            case ReasoningOut():
                events.extend(_chunk(rid, {"reasoning": text}) for text in item.summary)
            case MessageOut():
                events.extend(_chunk(rid, {"content": chunk}) for chunk in item.chunks)
            case FunctionCallOut():
                calls.append((item.call_id, item.name, item.arguments))
            case CustomToolCallOut():
                calls.append((item.call_id, item.name, json.dumps({"input": item.input})))
    for index, (call_id, name, arguments) in enumerate(calls):
        head = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        events.append(_chunk(rid, {"tool_calls": [head]}))
        half = len(arguments) // 2
        for piece in (arguments[:half], arguments[half:]):
            events.append(
                _chunk(rid, {"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            )
    events.append(_chunk(rid, {}, "tool_calls" if calls else "stop"))
    if step.usage is not None:
        events.append(
            chat_chunk(
                {
                    "id": rid,
                    "object": "chat.completion.chunk",
                    "choices": [],
                    "usage": step.usage.chat(),
                }
            )
        )
    events.append(DONE)
    return events


def render(step: Renderable, wire: Wire) -> list[Event]:
    """A turn or failure in the given wire format."""
    return responses_events(step) if wire == "responses" else chat_events(step)
