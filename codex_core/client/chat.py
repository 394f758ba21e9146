"""The Chat Completions wire format: history → messages, and stream chunks → ResponseEvents."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any, assert_never

from codex_core.client.errors import StreamDisconnected
from codex_core.client.events import (
    Completed,
    Created,
    OutputItemAdded,
    OutputItemDone,
    OutputTextDelta,
    ReasoningSummaryDelta,
    ResponseEvent,
)
from codex_core.client.failures import not_json_error, response_failed_error
from codex_core.client.prompt import Prompt
from codex_core.client.sse import SseEvent
from codex_core.client.usage import usage_from_chat
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.common import TokenUsage
from codex_core.protocol.items import (
    CustomToolCall,
    CustomToolCallOutput,
    FunctionCall,
    FunctionCallOutput,
    InputImage,
    LocalShellCall,
    Message,
    Reasoning,
    ResponseItem,
    SummaryText,
    WebSearchCall,
    assistant_message,
)

DONE_SENTINEL = "[DONE]"


def _tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _message_content(message: Message) -> str | list[dict[str, Any]]:
    if not any(isinstance(part, InputImage) for part in message.content):
        return message.text()
    parts: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, InputImage):
            parts.append({"type": "image_url", "image_url": {"url": part.image_url}})
        else:
            parts.append({"type": "text", "text": part.text})
    return parts


def _reasoning_text(item: Reasoning) -> str:
    texts = [s.text for s in item.summary] + [c.text for c in item.content or []]
    return "\n\n".join(t for t in texts if t)


def chat_messages(prompt: Prompt) -> list[dict[str, Any]]:
    """The conversation as Chat Completions messages.

    Instructions become the system message; consecutive tool calls are grouped into one
    assistant message; reasoning text rides along on the next assistant message.
    """
    messages: list[dict[str, Any]] = [{"role": "system", "content": prompt.instructions}]
    pending_reasoning = ""
    calls_message: dict[str, Any] | None = None

    def add_assistant(message: dict[str, Any]) -> None:
        nonlocal pending_reasoning
        if pending_reasoning:
            message["reasoning"] = pending_reasoning
            pending_reasoning = ""
        messages.append(message)

    def add_call(call_id: str, name: str, arguments: str) -> None:
        nonlocal calls_message
        if calls_message is None:
            calls_message = {"role": "assistant", "content": None, "tool_calls": []}
            add_assistant(calls_message)
        calls_message["tool_calls"].append(_tool_call(call_id, name, arguments))

    for item in prompt.input:
        if not isinstance(item, FunctionCall | CustomToolCall | LocalShellCall):
            calls_message = None
        match item:
            case Message(role="assistant"):
                add_assistant({"role": "assistant", "content": item.text()})
            case Message(role=role):
                pending_reasoning = ""
                chat_role = "system" if role in ("system", "developer") else "user"
                messages.append({"role": chat_role, "content": _message_content(item)})
            case Reasoning():
                pending_reasoning = _reasoning_text(item)
            case FunctionCall():
                add_call(item.call_id, item.name, item.arguments)
            case CustomToolCall():
                add_call(item.call_id, item.name, json.dumps({"input": item.input}))
            case LocalShellCall():
                call_id = item.call_id or item.id or ""
                add_call(call_id, "local_shell", json.dumps(item.action.to_wire()))
            case FunctionCallOutput() | CustomToolCallOutput():
                content = item.output
                if not isinstance(content, str):  # chat tool messages take text only
                    content = "\n".join(str(p.get("text", "[image omitted]")) for p in content)
                messages.append({"role": "tool", "tool_call_id": item.call_id, "content": content})
            case WebSearchCall():
                pass  # a hosted search of a Responses turn: Chat Completions has no such item
            case _ as unreachable:
                assert_never(unreachable)
    return messages


def chat_body(prompt: Prompt, model: str) -> dict[str, Any]:
    """The JSON body of `POST {base_url}/chat/completions`."""
    body: dict[str, Any] = {
        "model": model,
        "messages": chat_messages(prompt),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if prompt.tools:
        body["tools"] = [tool.to_chat() for tool in prompt.tools]
    if prompt.output_schema is not None:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {
                "name": "codex_output_schema",
                "schema": prompt.output_schema,
                "strict": True,
            },
        }
    return body


@dataclass
class _PendingCall:
    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ChatStream:
    """Accumulates chat chunks and synthesises the Responses-style events at the end."""

    def __init__(self, provider: ModelProviderInfo) -> None:
        self._provider = provider
        self.done = False
        self._started = False
        self._response_id = ""
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._calls: dict[int, _PendingCall] = {}
        self._finish_reason: str | None = None
        self._usage: TokenUsage | None = None

    def feed(self, sse: SseEvent) -> list[ResponseEvent]:
        """Handle one SSE event (a chunk, an error object, or the `[DONE]` sentinel)."""
        if self.done:
            return []
        if sse.data.strip() == DONE_SENTINEL:
            return self._complete()
        try:
            chunk = json.loads(sse.data)
        except ValueError:
            raise not_json_error(self._provider, sse.data) from None
        if not isinstance(chunk, dict):
            raise not_json_error(self._provider, sse.data)
        if chunk.get("error") is not None:
            raise response_failed_error(chunk, self._provider)
        events: list[ResponseEvent] = []
        if not self._started:
            self._started = True
            events.append(Created())
        self._response_id = self._response_id or str(chunk.get("id") or "")
        if chunk.get("usage") is not None:
            self._usage = usage_from_chat(chunk["usage"])
        choices = chunk.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            events.extend(self._choice(choices[0]))
        return events

    def _choice(self, choice: dict[str, Any]) -> list[ResponseEvent]:
        events: list[ResponseEvent] = []
        delta = choice.get("delta")
        delta = delta if isinstance(delta, dict) else {}
        for key in ("reasoning", "reasoning_content"):
            piece = delta.get(key)
            if isinstance(piece, str) and piece:
                self._reasoning.append(piece)
                events.append(ReasoningSummaryDelta(piece))
        content = delta.get("content")
        if isinstance(content, str) and content:
            if not self._text:
                events.append(OutputItemAdded(assistant_message("")))
            self._text.append(content)
            events.append(OutputTextDelta(content))
        for raw in delta.get("tool_calls") or []:
            if isinstance(raw, dict):
                self._tool_call_piece(raw)
        if choice.get("finish_reason"):
            self._finish_reason = str(choice["finish_reason"])
        return events

    def _tool_call_piece(self, raw: dict[str, Any]) -> None:
        index = raw.get("index")
        key = index if isinstance(index, int) else len(self._calls)
        call = self._calls.setdefault(key, _PendingCall())
        if raw.get("id"):
            call.call_id = str(raw["id"])
        function = raw.get("function")
        if isinstance(function, dict):
            if function.get("name") and not call.name:
                call.name = str(function["name"])
            if isinstance(function.get("arguments"), str):
                call.arguments.append(function["arguments"])

    def finish(self) -> list[ResponseEvent]:
        """End of the body: fine after a finish_reason, a dropped stream otherwise."""
        if self.done:
            return []
        if self._finish_reason is None:
            raise StreamDisconnected(
                "The model stream closed before the response completed; check your network."
            )
        return self._complete()

    def _complete(self) -> list[ResponseEvent]:
        self.done = True
        events: list[ResponseEvent] = []
        if self._reasoning:
            text = "".join(self._reasoning)
            events.append(OutputItemDone(Reasoning(summary=[SummaryText(text=text)])))
        if self._text:
            events.append(OutputItemDone(assistant_message("".join(self._text))))
        for index in sorted(self._calls):
            call = self._calls[index]
            call_id = call.call_id or f"call_{uuid.uuid4().hex[:24]}"
            item: ResponseItem = FunctionCall(
                name=call.name, arguments="".join(call.arguments) or "{}", call_id=call_id
            )
            events.append(OutputItemDone(item))
        events.append(Completed(response_id=self._response_id, token_usage=self._usage))
        return events
