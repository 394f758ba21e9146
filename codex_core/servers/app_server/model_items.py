"""Thread items and user input on the wire (`ThreadItem`, `UserInput`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from codex_core.lite import Field, model_serializer
from codex_core.servers.app_server.wire import WireModel

ItemStatus = Literal["inProgress", "completed", "failed", "declined"]


# ------------------------------------------------------------------ user input


class TextUserInput(WireModel):
    """Text the user typed."""

    type: Literal["text"] = "text"
    text: str
    text_elements: list[Any] = Field(default_factory=list)


class ImageUserInput(WireModel):
    """An image by URL (or `data:` URL)."""

    type: Literal["image"] = "image"
    url: str


class LocalImageUserInput(WireModel):
    """An image file on the server's disk."""

    type: Literal["localImage"] = "localImage"
    path: str


class MentionUserInput(WireModel):
    """A mention of a file or resource, passed to the model as its path."""

    type: Literal["mention"] = "mention"
    name: str
    path: str


UserInput = Annotated[
    TextUserInput | ImageUserInput | LocalImageUserInput | MentionUserInput,
    Field(discriminator="type"),
]


# ------------------------------------------------------------------ items


class _Item(WireModel):
    id: str
    startedAtMs: int | None = None
    completedAtMs: int | None = None


class UserMessageItem(_Item):
    """What the user sent."""

    type: Literal["userMessage"] = "userMessage"
    content: list[UserInput]
    clientId: str | None = None
    """The id the client gave the message (`clientUserMessageId`); left out when none."""

    @model_serializer(mode="wrap")
    def _without_empty_client_id(self, handler: Callable[[Any], Any]) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("clientId") is None:
            data.pop("clientId", None)
        return data


class AgentMessageItem(_Item):
    """An assistant message (streamed by `item/agentMessage/delta`)."""

    type: Literal["agentMessage"] = "agentMessage"
    text: str = ""


class ReasoningItem(_Item):
    """Reasoning summary parts (streamed by `item/reasoning/summaryTextDelta`)."""

    type: Literal["reasoning"] = "reasoning"
    summary: list[str] = Field(default_factory=list)
    content: list[str] = Field(default_factory=list)


class CommandAction(WireModel):
    """What a command does; this server does not parse commands, so always `unknown`."""

    type: Literal["unknown"] = "unknown"
    command: str


class CommandExecutionItem(_Item):
    """A shell command the model ran (or asked to run)."""

    type: Literal["commandExecution"] = "commandExecution"
    command: str
    cwd: str
    processId: str | None = None
    source: Literal["agent", "userShell", "unifiedExecStartup", "unifiedExecInteraction"] = "agent"
    status: ItemStatus = "inProgress"
    commandActions: list[CommandAction] = Field(default_factory=list)
    aggregatedOutput: str | None = None
    exitCode: int | None = None
    durationMs: int | None = None


class AddKind(WireModel):
    """The patch creates the file."""

    type: Literal["add"] = "add"


class DeleteKind(WireModel):
    """The patch deletes the file."""

    type: Literal["delete"] = "delete"


class UpdateKind(WireModel):
    """The patch edits (and maybe moves) the file."""

    type: Literal["update"] = "update"
    move_path: str | None = None


PatchChangeKind = Annotated[AddKind | DeleteKind | UpdateKind, Field(discriminator="type")]


class FileUpdateChange(WireModel):
    """One file of a patch: its path, kind and diff (or content for add/delete)."""

    path: str
    kind: PatchChangeKind
    diff: str


class FileChangeItem(_Item):
    """A patch the model applied (or asked to apply)."""

    type: Literal["fileChange"] = "fileChange"
    changes: list[FileUpdateChange]
    status: ItemStatus = "inProgress"


class McpToolCallItem(_Item):
    """A call to an MCP server's tool."""

    type: Literal["mcpToolCall"] = "mcpToolCall"
    server: str
    tool: str
    status: Literal["inProgress", "completed", "failed"] = "inProgress"
    arguments: Any = None
    result: Any = None
    error: Any = None
    durationMs: int | None = None


class ContextCompactionItem(_Item):
    """The conversation was compacted."""

    type: Literal["contextCompaction"] = "contextCompaction"


class WebSearchItem(_Item):
    """A hosted web search; `query` is known once it ends."""

    type: Literal["webSearch"] = "webSearch"
    query: str = ""
    action: dict[str, Any] | None = None
    """0.169's `WebSearchAction`: `search`, `openPage`, `findInPage` or `other`."""


class EnteredReviewModeItem(_Item):
    """A review began (`review/start`); `review` names what is reviewed."""

    type: Literal["enteredReviewMode"] = "enteredReviewMode"
    review: str


class ExitedReviewModeItem(_Item):
    """A review ended; `review` is the reviewer's answer as shown."""

    type: Literal["exitedReviewMode"] = "exitedReviewMode"
    review: str


ThreadItem = Annotated[
    UserMessageItem
    | AgentMessageItem
    | ReasoningItem
    | CommandExecutionItem
    | FileChangeItem
    | McpToolCallItem
    | ContextCompactionItem
    | WebSearchItem
    | EnteredReviewModeItem
    | ExitedReviewModeItem,
    Field(discriminator="type"),
]
