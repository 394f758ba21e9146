"""Builders for scripted model output that renders to Responses SSE events or chat chunks.

A test writes a turn once and the scripted server serves it in the wire format the client
asked for::

    turn(shell_call(["bash", "-lc", "echo hi"], call_id="c1"))
    turn(reasoning("Looking around"), message("done"), usage=usage(input=10, output=5))
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

Wire = Literal["responses", "chat"]


@dataclass(frozen=True)
class Event:
    """One SSE event as sent on the wire."""

    data: str
    event: str | None = None

    def encode(self) -> bytes:
        """The event's bytes, ending with the blank line that dispatches it."""
        head = f"event: {self.event}\n" if self.event else ""
        body = "".join(f"data: {line}\n" for line in self.data.split("\n"))
        return (head + body + "\n").encode()


def responses_event(payload: dict[str, Any]) -> Event:
    """A Responses API event; the SSE event name is the payload's `type`."""
    return Event(json.dumps(payload), str(payload["type"]))


def chat_chunk(payload: dict[str, Any]) -> Event:
    """A Chat Completions stream chunk (no event name, like OpenAI's)."""
    return Event(json.dumps(payload))


DONE = Event("[DONE]")


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:12]}"


# ------------------------------------------------------------------ output items


@dataclass(frozen=True)
class MessageOut:
    """An assistant message streamed as text deltas."""

    text: str
    chunks: tuple[str, ...]
    id: str = field(default_factory=lambda: _new_id("msg"))


@dataclass(frozen=True)
class ReasoningOut:
    """A reasoning item with summary parts (and encrypted content, for the Responses API)."""

    summary: tuple[str, ...]
    encrypted_content: str | None = None
    id: str = field(default_factory=lambda: _new_id("rs"))


@dataclass(frozen=True)
class FunctionCallOut:
    """A function tool call; `arguments` is JSON text."""

    name: str
    arguments: str
    call_id: str
    id: str = field(default_factory=lambda: _new_id("fc"))


@dataclass(frozen=True)
class CustomToolCallOut:
    """A freeform tool call (chat renders it as a function call with `{"input": ...}`)."""

    name: str
    input: str
    call_id: str
    id: str = field(default_factory=lambda: _new_id("ctc"))


OutputItem = MessageOut | ReasoningOut | FunctionCallOut | CustomToolCallOut


def message(text: str, *, chunks: list[str] | None = None) -> MessageOut:
    """An assistant message; streamed word by word unless `chunks` are given."""
    pieces = chunks if chunks is not None else re.findall(r"\s*\S+\s*|\s+", text) or [text]
    if "".join(pieces) != text:
        raise ValueError("message chunks must join to the message text")
    return MessageOut(text, tuple(pieces))


def reasoning(*summary: str, encrypted_content: str | None = "encrypted-reasoning") -> ReasoningOut:
    """A reasoning item whose summary has one part per argument."""
    return ReasoningOut(tuple(summary), encrypted_content)


def function_call(
    name: str, arguments: dict[str, Any] | str, call_id: str | None = None
) -> FunctionCallOut:
    """A function call; dict arguments are JSON-encoded."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return FunctionCallOut(name, text, call_id or _new_id("call"))


def shell_call(command: list[str], call_id: str | None = None, **extra: Any) -> FunctionCallOut:
    """A call of the `shell` tool, e.g. `shell_call(["bash", "-lc", "ls"], call_id="c1")`."""
    return function_call("shell", {"command": command, **extra}, call_id)


def apply_patch_call(patch: str, call_id: str | None = None) -> FunctionCallOut:
    """A call of the `apply_patch` function tool with the patch as `input`."""
    return function_call("apply_patch", {"input": patch}, call_id)


def update_plan_call(
    plan: list[tuple[str, str]], call_id: str | None = None, explanation: str | None = None
) -> FunctionCallOut:
    """A call of `update_plan` from (step, status) pairs."""
    args: dict[str, Any] = {"plan": [{"step": s, "status": st} for s, st in plan]}
    if explanation is not None:
        args["explanation"] = explanation
    return function_call("update_plan", args, call_id)


def custom_tool_call(name: str, input: str, call_id: str | None = None) -> CustomToolCallOut:
    """A freeform tool call, such as `custom_tool_call("apply_patch", patch_text)`."""
    return CustomToolCallOut(name, input, call_id or _new_id("call"))


# ------------------------------------------------------------------ usage, turns, failures


@dataclass(frozen=True)
class Usage:
    """Token counts reported when the response completes."""

    input_tokens: int = 0
    cached_input_tokens: int = 0
    output_tokens: int = 0
    reasoning_output_tokens: int = 0
    total_tokens: int | None = None

    @property
    def total(self) -> int:
        """The total, computed when not given."""
        return (
            self.total_tokens
            if self.total_tokens is not None
            else self.input_tokens + self.output_tokens
        )

    def responses(self) -> dict[str, Any]:
        """As `response.usage` of the Responses API."""
        return {
            "input_tokens": self.input_tokens,
            "input_tokens_details": {"cached_tokens": self.cached_input_tokens},
            "output_tokens": self.output_tokens,
            "output_tokens_details": {"reasoning_tokens": self.reasoning_output_tokens},
            "total_tokens": self.total,
        }

    def chat(self) -> dict[str, Any]:
        """As `usage` of a Chat Completions chunk."""
        return {
            "prompt_tokens": self.input_tokens,
            "completion_tokens": self.output_tokens,
            "total_tokens": self.total,
            "prompt_tokens_details": {"cached_tokens": self.cached_input_tokens},
            "completion_tokens_details": {"reasoning_tokens": self.reasoning_output_tokens},
        }


def usage(
    input: int = 0,
    output: int = 0,
    *,
    cached: int = 0,
    reasoning: int = 0,
    total: int | None = None,
) -> Usage:
    """Token usage, e.g. `usage(input=100, output=20, cached=50)`."""
    return Usage(input, cached, output, reasoning, total)


@dataclass(frozen=True)
class Turn:
    """One complete model response, servable in either wire format."""

    items: tuple[OutputItem, ...]
    usage: Usage | None = None
    response_id: str = field(default_factory=lambda: _new_id("resp"))


def turn(*items: OutputItem, usage: Usage | None = None, response_id: str | None = None) -> Turn:
    """A complete response made of `items`."""
    return Turn(items, usage, response_id or _new_id("resp"))


@dataclass(frozen=True)
class Failure:
    """A response that fails: `response.failed` (Responses) or an error chunk (chat)."""

    code: str
    message: str


def failure(code: str, message: str = "scripted failure") -> Failure:
    """A failed response, e.g. `failure("context_length_exceeded", "too long")`."""
    return Failure(code, message)


Renderable = Turn | Failure


# ------------------------------------------------------------------ raw Responses API events


def created(response_id: str = "resp_1") -> Event:
    """`response.created`."""
    return responses_event({"type": "response.created", "response": {"id": response_id}})


def completed(response_id: str = "resp_1", usage: Usage | None = None) -> Event:
    """`response.completed`, with usage when given."""
    response: dict[str, Any] = {"id": response_id}
    if usage is not None:
        response["usage"] = usage.responses()
    return responses_event({"type": "response.completed", "response": response})


def failed(code: str, message: str, response_id: str = "resp_1") -> Event:
    """`response.failed` with `error{code, message}`."""
    error = {"code": code, "message": message}
    return responses_event(
        {"type": "response.failed", "response": {"id": response_id, "error": error}}
    )


def output_item_done(item: dict[str, Any], output_index: int = 0) -> Event:
    """`response.output_item.done` carrying a raw item dict."""
    return responses_event(
        {"type": "response.output_item.done", "output_index": output_index, "item": item}
    )


def text_delta(delta: str, item_id: str = "msg_1") -> Event:
    """`response.output_text.delta`."""
    return responses_event(
        {"type": "response.output_text.delta", "item_id": item_id, "delta": delta}
    )
