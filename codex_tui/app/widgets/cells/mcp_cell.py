"""A call to an MCP server's tool and its result."""

from __future__ import annotations

import json
from typing import Any

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.formatting import excerpt, format_duration, truncate_line


class McpCell(Static):
    """`Calling server.tool(args)`, then `Called …` with the result's head and tail."""

    def __init__(self, call_id: str, server: str, tool: str, arguments: Any) -> None:
        self.call_id = call_id
        self.title = f"{server}.{tool}({_compact(arguments)})"
        self.result: str | None = None
        self.error: str | None = None
        self.failed = False
        self.took = ""
        super().__init__(self._content())

    def finish(self, result: Any, error: str | None, duration_ms: int | None = None) -> None:
        """Show the outcome: the server's result (a result flagged `isError` shows as a
        failure) or the error that left the call without one."""
        self.error = error
        self.result = "" if result is None else _text(result)
        self.failed = error is not None or (
            isinstance(result, dict) and bool(result.get("isError"))
        )
        self.took = f" · {format_duration(duration_ms)}" if duration_ms is not None else ""
        self.update(self._content())

    def _content(self) -> Content:
        if self.result is None and self.error is None:
            return Content.assemble(("• ", "$accent"), ("Calling ", "bold"), self.title)
        colour = "$error" if self.failed else "$success"
        parts: list[str | tuple[str, str]] = [("● ", colour), ("Called ", "bold"), self.title]
        if self.took:
            parts.append((self.took, "$text-muted"))
        out = excerpt(self.error or self.result or "")
        gutter = "  └ "
        lines = out.head + ([f"… +{out.omitted} lines"] if out.omitted else []) + out.tail
        for line in lines:
            parts += [
                "\n",
                (gutter, "$text-muted"),
                (line, "$error" if self.failed else "$text-muted"),
            ]
            gutter = "    "
        return Content.assemble(*parts)


def _compact(arguments: Any) -> str:
    if arguments in (None, {}, ""):
        return ""
    return truncate_line(json.dumps(arguments, ensure_ascii=False), 80)


def _text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, dict) and isinstance(result.get("content"), list):
        texts = [c.get("text", "") for c in result["content"] if isinstance(c, dict)]
        return "\n".join(t for t in texts if t)
    return json.dumps(result, ensure_ascii=False, indent=1)
