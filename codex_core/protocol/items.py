"""Responses API items: the conversation history sent to and received from the model."""

import json
import logging
from typing import Annotated, Any, Literal

from codex_core import lite
from codex_core.lite import ConfigDict, Field, Model, TypeAdapter
from codex_core.policies import empty_list

log = logging.getLogger(__name__)


class _Wire(Model):
    """Base for wire models: unknown fields are kept so newer servers round-trip."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    def to_wire(self) -> dict[str, Any]:
        """Serialise for a request body or a rollout line, dropping unset optionals."""
        return self.model_dump(mode="json", exclude_none=True)


class InputText(_Wire):
    """Text typed by the user or injected by codex (instructions, environment context)."""

    type: Literal["input_text"] = "input_text"
    text: str


class InputImage(_Wire):
    """An image attached to a user message, as a URL or a `data:` URL."""

    type: Literal["input_image"] = "input_image"
    image_url: str
    detail: str | None = None
    """`high` for images codex reads from disk, as the Codex CLI sends them."""


class OutputText(_Wire):
    """Text written by the model."""

    type: Literal["output_text"] = "output_text"
    text: str


ContentItem = Annotated[InputText | InputImage | OutputText, Field(discriminator="type")]


class Message(_Wire):
    """A message of the conversation (`user`, `assistant`, `system` or `developer`)."""

    type: Literal["message"] = "message"
    id: str | None = None
    role: str
    content: list[ContentItem]

    def text(self) -> str:
        """All text parts joined, images skipped."""
        return "".join(c.text for c in self.content if not isinstance(c, InputImage))


class SummaryText(_Wire):
    """One part of a reasoning summary."""

    type: Literal["summary_text"] = "summary_text"
    text: str


class ReasoningText(_Wire):
    """Raw reasoning content, when the provider exposes it."""

    type: Literal["reasoning_text", "text"] = "reasoning_text"
    text: str


class Reasoning(_Wire):
    """A reasoning item; `encrypted_content` is replayed verbatim on the next request."""

    type: Literal["reasoning"] = "reasoning"
    id: str = ""
    summary: list[SummaryText] = Field(default_factory=empty_list)
    content: list[ReasoningText] | None = None
    encrypted_content: str | None = None


class FunctionCall(_Wire):
    """A function tool call; `arguments` is the JSON text the model produced."""

    type: Literal["function_call"] = "function_call"
    id: str | None = None
    name: str
    namespace: str | None = None
    """The namespace tool the function belongs to (MCP servers: `mcp__<server>`)."""
    arguments: str
    call_id: str


class FunctionCallOutput(_Wire):
    """The output of a function tool call, paired with it by `call_id`."""

    type: Literal["function_call_output"] = "function_call_output"
    call_id: str
    output: str | list[dict[str, Any]]
    """Text, or content parts (`input_text`, `input_image`) as MCP results are sent."""


class CustomToolCall(_Wire):
    """A freeform (grammar) tool call whose input is raw text, such as a patch."""

    type: Literal["custom_tool_call"] = "custom_tool_call"
    id: str | None = None
    status: str | None = None
    call_id: str
    name: str
    input: str


class CustomToolCallOutput(_Wire):
    """The output of a custom tool call."""

    type: Literal["custom_tool_call_output"] = "custom_tool_call_output"
    call_id: str
    output: str


class LocalShellAction(_Wire):
    """The command of a `local_shell_call`."""

    type: Literal["exec"] = "exec"
    command: list[str]
    timeout_ms: int | None = None
    working_directory: str | None = None
    env: dict[str, str] | None = None
    user: str | None = None


class LocalShellCall(_Wire):
    """The built-in local shell tool call of some models."""

    type: Literal["local_shell_call"] = "local_shell_call"
    id: str | None = None
    call_id: str | None = None
    status: str = "completed"
    action: LocalShellAction


class WebSearchCall(_Wire):
    """A search the hosted `web_search` tool ran; kept in history and sent back as is."""

    type: Literal["web_search_call"] = "web_search_call"
    id: str | None = None
    status: str | None = None
    action: dict[str, Any] | None = None
    """`{"type": "search", "query": …}` and the like."""


ResponseItem = Annotated[
    Message
    | Reasoning
    | FunctionCall
    | FunctionCallOutput
    | CustomToolCall
    | CustomToolCallOutput
    | LocalShellCall
    | WebSearchCall,
    Field(discriminator="type"),
]

_RESPONSE_ITEM: TypeAdapter[ResponseItem] = TypeAdapter(
    ResponseItem, config=ConfigDict(defer_build=True)
)
KNOWN_ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)


def parse_response_item(data: Any) -> ResponseItem | None:
    """Parse one item; unknown or malformed items give None (newer servers add types)."""
    if not isinstance(data, dict) or data.get("type") not in KNOWN_ITEM_TYPES:
        return None
    if data.get("type") == "function_call_output" and not isinstance(data.get("output"), str):
        # Some writers store the output as {"content": ..., "success": ...}.
        out = data.get("output")
        content = out.get("content") if isinstance(out, dict) else out
        data = {**data, "output": content if isinstance(content, str) else json.dumps(content)}
    try:
        return _RESPONSE_ITEM.validate_python(data)
    except lite.ValidationError as err:
        log.debug("skipping malformed response item: %s", err)
        return None


def user_message(text: str, images: list[str] | None = None) -> Message:
    """A user message with text and optional image URLs."""
    content: list[InputText | InputImage | OutputText] = [InputText(text=text)]
    content.extend(InputImage(image_url=url) for url in images or [])
    return Message(role="user", content=content)


def assistant_message(text: str) -> Message:
    """An assistant message with one text part."""
    return Message(role="assistant", content=[OutputText(text=text)])
