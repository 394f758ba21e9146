"""MCP tools as the model sees them: one namespace per server (Responses), flat names (Chat).

Names follow the Codex CLI: a server `docs` becomes the namespace `mcp__docs`; a tool name is
reduced to `[A-Za-z0-9_]` (so `get.page-v2` is offered as `get_page_v2`); Chat Completions,
which has no namespaces, gets `mcp__docs__get_page_v2`, capped at 64 characters (the limit
of OpenAI-compatible function names) with a hash suffix that keeps capped names distinct.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from codex_core.client import ToolSpec

MCP_PREFIX = "mcp__"
NAME_SEPARATOR = "__"
MAX_FLAT_NAME = 64
_INVALID = re.compile(r"[^A-Za-z0-9_]")


@dataclass(frozen=True)
class McpToolInfo:
    """One tool of one server, with the names the model uses for it."""

    server: str
    tool: str
    model_name: str
    flat_name: str
    description: str
    parameters: dict[str, Any]
    read_only: bool = False
    title: str | None = None
    no_side_effects: bool = False
    """`destructiveHint` and `openWorldHint` both false: runs without asking, as 0.169."""


def sanitize_name(name: str) -> str:
    """`name` with every character outside `[A-Za-z0-9_]` replaced by `_`."""
    return _INVALID.sub("_", name) or "_"


def namespace_of(server: str) -> str:
    """The namespace tool name of a server: `mcp__<server>`."""
    return MCP_PREFIX + sanitize_name(server)


def cap_name(name: str, limit: int = MAX_FLAT_NAME) -> str:
    """`name`, or when longer than `limit` its head plus `_` and 12 hex digits of its SHA-1."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(name.encode()).hexdigest()[:12]
    return f"{name[: limit - 13]}_{digest}"


def assign_names(
    server: str, tools: list[tuple[str, str, dict[str, Any], bool, str | None]]
) -> list[McpToolInfo]:
    """Model-facing names for a server's tools `(name, description, schema, read_only, title)`.

    Two tools whose names clean up the same keep distinct names (a hash suffix on the later).
    """
    infos: list[McpToolInfo] = []
    taken: set[str] = set()
    for tool, description, parameters, read_only, title in tools:
        model_name = sanitize_name(tool)
        if model_name in taken:
            model_name = cap_name(f"{model_name}_{hashlib.sha1(tool.encode()).hexdigest()}", 64)
        taken.add(model_name)
        flat = cap_name(f"{namespace_of(server)}{NAME_SEPARATOR}{model_name}")
        infos.append(
            McpToolInfo(server, tool, model_name, flat, description, parameters, read_only, title)
        )
    return infos


@dataclass
class NamespaceToolSpec(ToolSpec):
    """A Responses `namespace` tool grouping one server's function tools."""

    tools: list[McpToolInfo] = field(default_factory=list)

    def to_responses(self) -> dict[str, Any]:
        """`{"type": "namespace", "name", "description", "tools": [function tools]}`."""
        return {
            "type": "namespace",
            "name": self.name,
            "description": self.description,
            "tools": [
                {
                    "type": "function",
                    "name": info.model_name,
                    "description": info.description,
                    "strict": False,
                    "parameters": info.parameters,
                }
                for info in sorted(self.tools, key=lambda info: info.model_name)
            ],
        }

    def to_chat(self) -> dict[str, Any]:
        """Chat has no namespaces: use `chat_tool_specs` instead of this."""
        raise TypeError("namespace tools cannot be sent to Chat Completions; use flat specs")


def namespace_description(server: str, instructions: str | None) -> str:
    """The server's instructions, or the Codex CLI's stock sentence."""
    if instructions and instructions.strip():
        return instructions.strip()
    return f"Tools in the {namespace_of(server)} namespace."


def responses_tool_specs(
    tools: list[McpToolInfo], instructions: dict[str, str | None]
) -> list[ToolSpec]:
    """One namespace tool per server (servers in name order) for the Responses API."""
    by_server: dict[str, list[McpToolInfo]] = {}
    for info in tools:
        by_server.setdefault(info.server, []).append(info)
    return [
        NamespaceToolSpec(
            name=namespace_of(server),
            description=namespace_description(server, instructions.get(server)),
            parameters={},
            tools=by_server[server],
        )
        for server in sorted(by_server)
    ]


def chat_tool_specs(tools: list[McpToolInfo]) -> list[ToolSpec]:
    """Flat `mcp__<server>__<tool>` function tools, sorted, for Chat Completions."""
    return [
        ToolSpec(name=info.flat_name, description=info.description, parameters=info.parameters)
        for info in sorted(tools, key=lambda info: info.flat_name)
    ]
