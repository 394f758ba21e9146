"""The Responses API wire format: request body and the SSE events of a streamed response."""

from __future__ import annotations

import json
import logging
from typing import Any

from codex_core.client.errors import StreamDisconnected
from codex_core.client.events import (
    Completed,
    Created,
    OutputItemAdded,
    OutputItemDone,
    OutputTextDelta,
    ReasoningSummaryDelta,
    ReasoningSummaryPartAdded,
    ResponseEvent,
)
from codex_core.client.failures import not_json_error, response_failed_error
from codex_core.client.prompt import Prompt
from codex_core.client.sse import SseEvent
from codex_core.client.usage import usage_from_responses
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.items import ResponseItem, parse_response_item

log = logging.getLogger(__name__)


def input_item_to_wire(item: ResponseItem) -> dict[str, Any]:
    """One history item as request input: ids are dropped, as nothing is stored server-side."""
    wire = item.to_wire()
    wire.pop("id", None)
    if wire.get("type") == "reasoning":
        # Raw reasoning text is never sent back; the encrypted content carries it.
        wire.pop("content", None)
    return wire


def responses_body(
    prompt: Prompt,
    model: str,
    *,
    session_id: str,
    effort: str | None,
    summary: str | None,
    verbosity: str | None = None,
) -> dict[str, Any]:
    """The JSON body of `POST {base_url}/responses`."""
    body: dict[str, Any] = {
        "model": model,
        "instructions": prompt.instructions,
        "input": [input_item_to_wire(item) for item in prompt.input],
        "tools": [tool.to_responses() for tool in prompt.tools],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "store": False,
        "stream": True,
        "prompt_cache_key": session_id,
    }
    reasoning: dict[str, str] = {}
    if effort:
        reasoning["effort"] = effort
    if summary and summary != "none":
        reasoning["summary"] = summary
    if reasoning:
        body["reasoning"] = reasoning
        body["include"] = ["reasoning.encrypted_content"]
    text: dict[str, Any] = {}
    if verbosity:
        text["verbosity"] = verbosity
    if prompt.output_schema is not None:
        text["format"] = {
            "type": "json_schema",
            "name": "codex_output_schema",
            "schema": prompt.output_schema,
            "strict": True,
        }
    if text:
        body["text"] = text
    return body


class ResponsesStream:
    """Translates Responses SSE events into ResponseEvents; `done` once the response completed."""

    def __init__(self, provider: ModelProviderInfo) -> None:
        self._provider = provider
        self.done = False

    def feed(self, sse: SseEvent) -> list[ResponseEvent]:
        """Handle one SSE event; raises the matching error for `response.failed`."""
        if self.done:
            return []
        try:
            data = json.loads(sse.data)
        except ValueError:
            raise not_json_error(self._provider, sse.data) from None
        if not isinstance(data, dict):
            raise not_json_error(self._provider, sse.data)
        kind = data.get("type") or sse.event
        match kind:
            case "response.created":
                return [Created()]
            case "response.output_text.delta":
                return [OutputTextDelta(str(data.get("delta", "")))]
            case "response.reasoning_summary_text.delta":
                return [ReasoningSummaryDelta(str(data.get("delta", "")))]
            case "response.reasoning_summary_part.added":
                return [ReasoningSummaryPartAdded()]
            case "response.output_item.added" | "response.output_item.done":
                item = parse_response_item(data.get("item"))
                if item is None:
                    log.debug("skipping unknown output item: %s", data.get("item"))
                    return []
                if kind == "response.output_item.added":
                    return [OutputItemAdded(item)]
                return [OutputItemDone(item)]
            case "response.completed":
                self.done = True
                response = data.get("response")
                response = response if isinstance(response, dict) else {}
                return [
                    Completed(
                        response_id=str(response.get("id") or ""),
                        token_usage=usage_from_responses(response.get("usage")),
                    )
                ]
            case "response.failed":
                raise response_failed_error(data, self._provider)
            case _:
                # An open set, not a closed union (so no assert_never): `response.in_progress`,
                # the `….done` twins of deltas, content parts and kinds newer than this client
                # carry nothing the turn uses, and must not fail the stream.
                return []

    def finish(self) -> list[ResponseEvent]:
        """End of the body: without `response.completed` the stream counts as dropped."""
        if not self.done:
            raise StreamDisconnected(
                "The model stream closed before the response completed; check your network."
            )
        return []
