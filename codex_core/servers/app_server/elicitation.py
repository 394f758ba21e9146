"""MCP elicitations as the app-server's `mcpServer/elicitation/request` server request.

The question comes from the item projection (`ElicitationRequested`, which the translator
turns into an `ElicitationAsk`). Params and response follow 0.169's `McpServerElicitationRequestParams` /
`McpServerElicitationRequestResponse` (`../shared/conformance/app_server/`); an answer the
client cannot express validly declines.
"""

from __future__ import annotations

import logging
from typing import Any

from codex_core.items.notices import ElicitationRequested
from codex_core.protocol import ElicitationAction, ResolveElicitationOp

log = logging.getLogger(__name__)

METHOD = "mcpServer/elicitation/request"
_ACTIONS: tuple[ElicitationAction, ...] = ("accept", "decline", "cancel")


def request_params(
    request: ElicitationRequested, thread_id: str, turn_id: str | None
) -> dict[str, Any]:
    """The server request's params for one elicitation."""
    params: dict[str, Any] = {
        "threadId": thread_id,
        "turnId": turn_id,
        "serverName": request.server_name,
        "mode": request.mode,
        "_meta": None,
        "message": request.message,
    }
    if request.mode == "url":
        params["url"] = request.url or ""
        params["elicitationId"] = request.elicitation_id or ""
    else:
        params["requestedSchema"] = _sorted_schema(
            request.requested_schema or {"type": "object", "properties": {}}
        )
    return params


def answer_op(request: ElicitationRequested, result: Any) -> ResolveElicitationOp:
    """The op for the client's response (`{action, content?}`); anything else declines."""
    action: ElicitationAction = "decline"
    content: dict[str, Any] | None = None
    if isinstance(result, dict) and result.get("action") in _ACTIONS:
        action = result["action"]
        if action == "accept" and isinstance(result.get("content"), dict):
            content = result["content"]
    else:
        log.warning("unusable elicitation answer %r; declining", result)
    return ResolveElicitationOp(
        server_name=request.server_name,
        request_id=request.request_id,
        decision=action,
        content=content,
    )


_NUMBERS = ("minimum", "maximum", "default")


def _float(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


_FIELD_ORDER = ("type", "title", "description", "format", "minLength", "maxLength")


def _sorted_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Properties by name, each with its keys in the order 0.169 writes them."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return schema
    ordered: dict[str, Any] = {}
    for name in sorted(properties):
        spec = properties[name]
        if isinstance(spec, dict):
            first = {key: spec[key] for key in _FIELD_ORDER if key in spec}
            spec = {**first, **{k: v for k, v in spec.items() if k not in first}}
            if spec.get("type") == "number":  # 0.169 holds these as floats (`0.0`)
                spec = {k: _float(v) if k in _NUMBERS else v for k, v in spec.items()}
        ordered[name] = spec
    return {**schema, "properties": ordered}
