"""A scripted model server whose `write_stdin` calls follow the session id codex handed out.

Session ids are chosen by the agent (the Codex CLI picks random ones), so a script cannot
know them in advance: a function call whose arguments hold the placeholder `"$SID"` gets
the id from the latest `Process running with session ID N` output in the request.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from tests.support.model_server import ModelServer, _Handler
from tests.support.sse import FunctionCallOut, Turn

SID = "$SID"
_RUNNING = re.compile(r"Process running with session ID (\d+)")


def latest_session_id(body: Any) -> int | None:
    """The last live session id announced in the request's tool outputs."""
    found: int | None = None
    if not isinstance(body, dict):
        return None
    for item in body.get("input", []):
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            output = item.get("output")
            text = output if isinstance(output, str) else json.dumps(output)
            for match in _RUNNING.finditer(text):
                found = int(match.group(1))
    return found


def tool_outputs(body: Any) -> dict[str, str]:
    """call_id → output text of every function_call_output in a request body."""
    outputs: dict[str, str] = {}
    for item in body.get("input", []) if isinstance(body, dict) else []:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            output = item.get("output")
            outputs[item["call_id"]] = output if isinstance(output, str) else json.dumps(output)
    return outputs


class SessionIdServer(ModelServer):
    """ModelServer that replaces `"$SID"` in the next step's call arguments."""

    def handle(self, handler: _Handler) -> None:
        """Peek at the request, patch the next step, then serve as usual."""
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        sid = latest_session_id(body)
        with self._lock:
            if sid is not None and self._steps and isinstance(self._steps[0], Turn):
                self._steps[0] = _substitute(self._steps[0], sid)
        socket_file = handler.rfile
        handler.rfile = _Replay(raw)  # type: ignore[assignment]
        try:
            super().handle(handler)
        finally:
            handler.rfile = socket_file


def _substitute(step: Turn, sid: int) -> Turn:
    items = tuple(
        dataclasses.replace(item, arguments=item.arguments.replace(f'"{SID}"', str(sid)))
        if isinstance(item, FunctionCallOut)
        else item
        for item in step.items
    )
    return dataclasses.replace(step, items=items)


class _Replay:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, n: int = -1) -> bytes:
        out, self.data = (self.data, b"") if n < 0 else (self.data[:n], self.data[n:])
        return out
