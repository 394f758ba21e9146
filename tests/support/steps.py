"""Script steps of the scripted model server, their builders, and their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.support import sse
from tests.support.sse import Event, Renderable


@dataclass(frozen=True)
class DropAfter:
    """Send the first `n` events, then cut the connection mid-body."""

    step: Renderable | list[Event]
    n: int


@dataclass(frozen=True)
class HttpError:
    """Answer with an HTTP error status, body and headers."""

    status: int
    body: str | dict[str, Any] = ""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Hang:
    """Send headers and `events`, then go silent for `seconds` and close (or before headers)."""

    seconds: float
    events: list[Event] = field(default_factory=list)
    before_headers: bool = False


@dataclass(frozen=True)
class Garbage:
    """Answer with arbitrary bytes; `raw` skips the HTTP status line and headers entirely."""

    data: bytes
    content_type: str = "text/event-stream"
    status: int = 200
    raw: bool = False


@dataclass(frozen=True)
class Slow:
    """Serve `step` with a pause between events, so streaming can be watched."""

    step: Renderable | list[Event]
    interval_s: float


Step = Renderable | list[Event] | DropAfter | HttpError | Hang | Garbage | Slow


def drop_after(step: Renderable | list[Event], n: int) -> DropAfter:
    """A step that sends `n` events of `step` then drops the connection."""
    return DropAfter(step, n)


def http_error(
    status: int, body: str | dict[str, Any] = "", headers: dict[str, str] | None = None
) -> HttpError:
    """A step answering `status`, e.g. `http_error(429, headers={"Retry-After": "2"})`."""
    return HttpError(status, body, headers or {})


def api_error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> HttpError:
    """An OpenAI-style JSON error body `{"error": {code, type, message}}` with `status`."""
    return HttpError(
        status, {"error": {"code": code, "type": code, "message": message}}, headers or {}
    )


def hang(
    seconds: float, events: list[Event] | None = None, *, before_headers: bool = False
) -> Hang:
    """A step that goes silent for `seconds` (after headers and `events`, or before headers)."""
    return Hang(seconds, events or [], before_headers)


def garbage(
    data: bytes = b"<html>oops</html>",
    content_type: str = "text/event-stream",
    *,
    status: int = 200,
    raw: bool = False,
) -> Garbage:
    """A step answering arbitrary bytes."""
    return Garbage(data, content_type, status, raw)


def slow(step: Renderable | list[Event], interval_s: float) -> Slow:
    """A step streamed with `interval_s` between events."""
    return Slow(step, interval_s)


# ------------------------------------------------------------------ JSON scripts


def _item_from_json(spec: dict[str, Any]) -> sse.OutputItem:
    if "message" in spec:
        return sse.message(spec["message"])
    if "reasoning" in spec:
        return sse.reasoning(spec["reasoning"])
    if "shell" in spec:
        return sse.shell_call(spec["shell"], spec.get("call_id"))
    if "function_call" in spec:
        call = spec["function_call"]
        return sse.function_call(call["name"], call.get("arguments", {}), call.get("call_id"))
    if "custom_tool_call" in spec:
        call = spec["custom_tool_call"]
        return sse.custom_tool_call(call["name"], call["input"], call.get("call_id"))
    raise ValueError(f"unknown item in script: {spec}")


def step_from_json(spec: dict[str, Any]) -> Step:
    """A step from its JSON form, e.g. `{"turn": [{"message": "hi"}], "usage": {"input": 3}}`."""
    if "turn" in spec:
        used = spec.get("usage")
        return sse.turn(
            *(_item_from_json(i) for i in spec["turn"]), usage=sse.usage(**used) if used else None
        )
    if "failure" in spec:
        return sse.failure(
            spec["failure"]["code"], spec["failure"].get("message", "scripted failure")
        )
    if "http_error" in spec:
        err = spec["http_error"]
        return http_error(err["status"], err.get("body", ""), err.get("headers"))
    if "drop_after" in spec:
        inner = step_from_json(spec["drop_after"])
        assert isinstance(inner, sse.Turn | sse.Failure), "drop_after wraps a turn or failure"
        return drop_after(inner, spec["drop_after"]["n"])
    if "hang" in spec:
        return hang(float(spec["hang"]))
    raise ValueError(f"unknown step in script: {spec}")
