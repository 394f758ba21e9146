"""An MCP tool result as the model gets it back, and as frontends show it.

The Codex CLI answers an MCP call with `Wall time: <s> seconds\nOutput:` followed by the
result: successful structured content as compact JSON in one string; otherwise a list of
content parts (text as `input_text`, images as `input_image` data URLs), errors included as
text. Results larger than `MAX_RESULT_CHARS` are cut with a note, so one runaway tool cannot
flood the context window.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, assert_never

from mcp import types

MAX_RESULT_CHARS = 256 * 1024
IMAGE_OMITTED = "image content omitted because it could not be processed"

ModelOutput = str | list[dict[str, Any]]


def _header(wall_time: float) -> str:
    return f"Wall time: {wall_time:.4f} seconds\nOutput:"


def truncate_text(text: str, limit: int = MAX_RESULT_CHARS) -> str:
    """`text`, or its head and tail around a note saying how much was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    omitted = len(text) - 2 * half
    note = f"\n[… {omitted} characters truncated: the tool result was {len(text)} characters] \n"
    return text[:half] + note + text[-half:]


def error_output(message: str, wall_time: float) -> ModelOutput:
    """What the model gets for a call that failed before producing a result."""
    return [_text_part(_header(wall_time)), _text_part(truncate_text(message))]


def result_output(
    result: types.CallToolResult, wall_time: float, detail: str = "high"
) -> ModelOutput:
    """What the model gets for a result the server returned; images go at `detail`."""
    if result.structuredContent is not None and not result.isError:
        text = json.dumps(result.structuredContent, separators=(",", ":"), ensure_ascii=False)
        return f"{_header(wall_time)}\n{truncate_text(text)}"
    parts = [_text_part(_header(wall_time))]
    budget = MAX_RESULT_CHARS
    for block in result.content:
        part = _content_part(block, detail)
        if part["type"] == "input_text":
            text = str(part["text"])
            part = _text_part(truncate_text(text, max(budget, 1024)))
            budget = max(0, budget - len(text))
        parts.append(part)
    return parts


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "input_text", "text": text}


def _content_part(block: types.ContentBlock, detail: str) -> dict[str, Any]:
    match block:
        case types.TextContent():
            return _text_part(block.text)
        case types.ImageContent():
            if _is_base64(block.data) and block.mimeType.startswith("image/"):
                return {
                    "type": "input_image",
                    "image_url": f"data:{block.mimeType};base64,{block.data}",
                    "detail": detail,
                }
            return _text_part(IMAGE_OMITTED)
        case types.AudioContent() | types.ResourceLink() | types.EmbeddedResource():
            # The whole block as compact JSON, so a resource keeps its URI and MIME type.
            return _text_part(
                _compact(
                    _in_codex_order(block.model_dump(mode="json", by_alias=True, exclude_none=True))
                )
            )
        case _ as unreachable:
            assert_never(unreachable)


_KEY_ORDER = (
    "type",
    "resource",
    "uri",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "text",
    "blob",
    "data",
    "annotations",
    "icons",
    "_meta",
)


def _in_codex_order(value: Any) -> Any:
    """A dumped MCP block with its keys in the order the Codex CLI serializes them."""
    if not isinstance(value, dict):
        return value
    ordered = {key: _in_codex_order(value[key]) for key in _KEY_ORDER if key in value}
    ordered.update({k: _in_codex_order(v) for k, v in value.items() if k not in ordered})
    return ordered


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _is_base64(data: str) -> bool:
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def display_result(result: types.CallToolResult) -> dict[str, Any]:
    """The result for `mcp_tool_call_end`: a CallToolResult `{content, structuredContent?,
    isError}` in the MCP spelling, as Codex events carry it.

    Text beyond the cap is truncated here too, so a 10 MB result never reaches a renderer.
    """
    content: list[dict[str, Any]] = []
    for block in result.content:
        item = block.model_dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(item.get("text"), str):
            item["text"] = truncate_text(item["text"])
        content.append(item)
    shown: dict[str, Any] = {"content": content}
    if result.structuredContent is not None:
        shown["structuredContent"] = result.structuredContent
    shown["isError"] = bool(result.isError)
    return shown


def output_text(output: ModelOutput) -> str:
    """The text of a model output, for wire formats that only take strings (Chat)."""
    if isinstance(output, str):
        return output
    texts = [str(p.get("text", "")) for p in output if p.get("type") == "input_text"]
    if any(p.get("type") == "input_image" for p in output):
        texts.append("[image omitted: this provider takes only text in tool results]")
    return "\n".join(texts)
