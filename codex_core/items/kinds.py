"""The items of a thread, in the 0.169 app-server's `ThreadItem` kinds (`type` names alike).

Each item is an immutable snapshot: `ItemStarted` carries it as it began, `ItemCompleted` as
it ended. Fields are those of the app-server schema in snake_case, plus what a frontend needs
that the wire form drops (a command's argv, its stdout and stderr apart), so every frontend
renders from the item alone. New kinds (hook runs, skill injections) are new classes here and
new members of `ThreadItem`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeAlias

from codex_core.protocol.common import FileChange

ItemStatus = Literal["inProgress", "completed", "failed", "declined"]
"""Where a tool item stands; a turn that is interrupted fails the items it leaves open."""


@dataclass(frozen=True)
class UserMessageItem:
    """What the user sent."""

    type: ClassVar[Literal["userMessage"]] = "userMessage"
    id: str
    text: str
    images: tuple[str, ...] = ()


@dataclass(frozen=True)
class AgentMessageItem:
    """An assistant message; streamed as `AgentMessageDelta`s that join to `text`."""

    type: ClassVar[Literal["agentMessage"]] = "agentMessage"
    id: str
    text: str = ""


@dataclass(frozen=True)
class ReasoningItem:
    """A reasoning summary: its parts as streamed, and the whole text as the model gave it."""

    type: ClassVar[Literal["reasoning"]] = "reasoning"
    id: str
    summary: tuple[str, ...] = ()
    """The non-empty parts (the whole text as one part when nothing was streamed)."""
    text: str = ""


@dataclass(frozen=True)
class CommandExecutionItem:
    """A command the model ran, or asked to run; `id` is the tool call's id."""

    type: ClassVar[Literal["commandExecution"]] = "commandExecution"
    id: str
    command: tuple[str, ...]
    cwd: str
    status: ItemStatus = "inProgress"
    aggregated_output: str = ""
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    duration_ms: int | None = None
    timed_out: bool = False
    interrupted: bool = False
    """Killed because the user interrupted the turn."""


@dataclass(frozen=True)
class FileChangeItem:
    """A patch the model applied, or asked to apply; `id` is the tool call's id."""

    type: ClassVar[Literal["fileChange"]] = "fileChange"
    id: str
    changes: Mapping[str, FileChange] = field(default_factory=dict)
    status: ItemStatus = "inProgress"
    stdout: str = ""
    stderr: str = ""


@dataclass(frozen=True)
class McpToolCallItem:
    """A call of an MCP server's tool; `id` is the tool call's id."""

    type: ClassVar[Literal["mcpToolCall"]] = "mcpToolCall"
    id: str
    server: str
    tool: str
    arguments: Any = None
    status: ItemStatus = "inProgress"
    result: dict[str, Any] | None = None
    """The server's CallToolResult (`{content, structuredContent?, isError}`), if it answered."""
    error: str | None = None
    duration_ms: int | None = None
    duration_ns: int | None = None
    """The exact duration, as rollouts record it (`{secs, nanos}`)."""
    read_only: bool = False


@dataclass(frozen=True)
class WebSearchItem:
    """A hosted web search; the query is known only when it ends."""

    type: ClassVar[Literal["webSearch"]] = "webSearch"
    id: str
    query: str = ""
    action: dict[str, Any] | None = None


@dataclass(frozen=True)
class ContextCompactionItem:
    """The conversation was compacted (a `/compact` turn)."""

    type: ClassVar[Literal["contextCompaction"]] = "contextCompaction"
    id: str


ThreadItem: TypeAlias = (
    UserMessageItem
    | AgentMessageItem
    | ReasoningItem
    | CommandExecutionItem
    | FileChangeItem
    | McpToolCallItem
    | WebSearchItem
    | ContextCompactionItem
)
"""Every item kind the projection yields."""

ToolItem: TypeAlias = CommandExecutionItem | FileChangeItem | McpToolCallItem | WebSearchItem
"""Items keyed by a tool call's id (they pair with the model's calls)."""
