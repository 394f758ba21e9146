"""The hosted `web_search` tool: the Responses API runs it; codex only offers it.

As the Codex CLI 0.169 sends it: `{"type": "web_search", "external_web_access": false}` by
default ("cached"), `true` for "live" (`--search`), plus `"indexed_web_access": true` for
"indexed"; absent for "disabled" and on Chat Completions, which has no hosted tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codex_core.client import ToolSpec
from codex_core.config.types import WebSearchMode


@dataclass
class WebSearchTool(ToolSpec):
    """A hosted tool: serialised by type, with no function schema."""

    external_web_access: bool = False
    indexed_web_access: bool = False

    def to_responses(self) -> dict[str, Any]:
        """The tool as the Responses API expects it."""
        tool: dict[str, Any] = {
            "type": "web_search",
            "external_web_access": self.external_web_access,
        }
        if self.indexed_web_access:
            tool["indexed_web_access"] = True
        return tool

    def to_chat(self) -> dict[str, Any]:
        """Never sent: Chat Completions has no hosted tools."""
        raise TypeError("web_search is a hosted tool of the Responses API only")


def web_search_specs(mode: WebSearchMode, wire_api: str) -> list[ToolSpec]:
    """The hosted web search tool for a request, or nothing."""
    if mode == "disabled" or wire_api != "responses":
        return []
    return [
        WebSearchTool(
            name="web_search",
            description="",
            parameters={},
            external_web_access=mode in ("live", "indexed"),
            indexed_web_access=mode == "indexed",
        )
    ]
