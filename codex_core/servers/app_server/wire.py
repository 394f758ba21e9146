"""The JSON-RPC envelope as Codex sends it: no `jsonrpc` member, JSON Lines framing."""

from __future__ import annotations

import json
import time
from typing import Any

from codex_core.lite import ConfigDict, Model

INVALID_REQUEST = -32600
"""The code Codex 0.169 answers unknown methods, bad params and handshake misuse with."""
INTERNAL_ERROR = -32603

RequestId = str | int


class WireModel(Model):
    """Base of every wire model: field names are the wire's camelCase names."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


class ParamsModel(WireModel):
    """Base of request params: unknown fields are accepted (newer clients send more)."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class RpcError(Exception):
    """A request fails with `{code, message}`; the server answers it and keeps serving."""

    def __init__(self, message: str, code: int = INVALID_REQUEST) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def invalid_request(detail: str) -> RpcError:
    """The error Codex answers for unknown methods and ill-typed params."""
    return RpcError(f"Invalid request: {detail}")


class Incoming:
    """One parsed client line: a request, a notification or a response to our request."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.id: RequestId | None = raw.get("id")
        self.method: str | None = raw.get("method") if isinstance(raw.get("method"), str) else None
        self.params: Any = raw.get("params")

    @property
    def is_request(self) -> bool:
        """Has a method and an id."""
        return self.method is not None and self.id is not None

    @property
    def is_notification(self) -> bool:
        """Has a method and no id."""
        return self.method is not None and "id" not in self.raw

    @property
    def is_response(self) -> bool:
        """Answers one of our requests (`result` or `error`)."""
        return (
            self.method is None
            and self.id is not None
            and ("result" in self.raw or "error" in self.raw)
        )


def parse_line(line: bytes | str) -> Incoming | None:
    """A client line, or None when it is not a JSON-RPC message (Codex drops those)."""
    try:
        raw = json.loads(line)
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    incoming = Incoming(raw)
    if not (incoming.is_request or incoming.is_notification or incoming.is_response):
        return None
    if incoming.id is not None and not isinstance(incoming.id, str | int):
        return None
    return incoming


def now_ms() -> int:
    """Milliseconds since the epoch (`emittedAtMs`, `startedAtMs`)."""
    return int(time.time() * 1000)


def response(request_id: RequestId, result: Any) -> dict[str, Any]:
    """`{id, result}`."""
    return {"id": request_id, "result": result}


def error(request_id: RequestId, err: RpcError) -> dict[str, Any]:
    """`{id, error: {code, message}}`."""
    return {"id": request_id, "error": {"code": err.code, "message": err.message}}


def notification(method: str, params: Any) -> dict[str, Any]:
    """`{method, params, emittedAtMs}`."""
    return {"method": method, "params": params, "emittedAtMs": now_ms()}


def server_request(request_id: int, method: str, params: Any) -> dict[str, Any]:
    """`{id, method, params}` from the server to the client."""
    return {"id": request_id, "method": method, "params": params}
