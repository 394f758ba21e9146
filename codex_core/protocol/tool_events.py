"""Events of tools the model calls outside the command/patch path: MCP calls and web searches.

Shapes as the Codex protocol (0.169) serialises them, so they read the same in either tool:

- `mcp_tool_call_begin {call_id, invocation: {server, tool, arguments}}`;
- `mcp_tool_call_end {call_id, invocation, duration: {secs, nanos}, result}` where `result`
  is `{"Ok": CallToolResult}` (`{content, structuredContent?, isError}`) or
  `{"Err": message}`;
- `web_search_begin {call_id}` and `web_search_end {call_id, query, action}`.

Rollouts written before this shape carry flat MCP events (`server`, `tool`, `arguments`,
`result` with `structured_content`/`is_error`, `error`); they are read into the same models.
"""

from typing import Any, Literal

from codex_core.lite import Field, model_validator
from codex_core.protocol.common import _Model


class McpInvocation(_Model):
    """Which tool of which server was called, with what."""

    server: str
    """The server's name in `[mcp_servers.<name>]`."""
    tool: str
    """The tool's name as the server gives it."""
    arguments: Any = None
    """The call's arguments (a JSON object), or None."""


class McpDuration(_Model):
    """A duration as Rust's `std::time::Duration` serialises: whole seconds plus nanoseconds."""

    secs: int = 0
    nanos: int = 0

    @classmethod
    def of_seconds(cls, seconds: float) -> "McpDuration":
        """The duration of `seconds` (non-negative)."""
        total = max(0, round(seconds * 1_000_000_000))
        return cls(secs=total // 1_000_000_000, nanos=total % 1_000_000_000)

    @property
    def millis(self) -> int:
        """The duration in whole milliseconds."""
        return self.secs * 1000 + self.nanos // 1_000_000


def _legacy_invocation(data: dict[str, Any]) -> dict[str, Any]:
    """A flat event (`server`, `tool`, `arguments` at the top) with an `invocation` added."""
    if "invocation" in data or "server" not in data:
        return data
    invocation = {"server": data.get("server"), "tool": data.get("tool")}
    invocation["arguments"] = data.get("arguments")
    return {**data, "invocation": invocation}


def _legacy_result(result: Any, error: Any) -> dict[str, Any]:
    """The `{"Ok": …}` / `{"Err": …}` result of a flat end event."""
    if isinstance(error, str) and error:
        return {"Err": error}
    if not isinstance(result, dict):
        return {"Err": "no result recorded"}
    ok: dict[str, Any] = {"content": result.get("content") or []}
    structured = result.get("structuredContent", result.get("structured_content"))
    if structured is not None:
        ok["structuredContent"] = structured
    ok["isError"] = bool(result.get("isError", result.get("is_error", False)))
    return {"Ok": ok}


class _InvokedTool:
    """`server`, `tool` and `arguments` of an MCP event, read from its `invocation`."""

    invocation: McpInvocation

    @property
    def server(self) -> str:
        """The invoked server."""
        return self.invocation.server

    @property
    def tool(self) -> str:
        """The invoked tool."""
        return self.invocation.tool

    @property
    def arguments(self) -> Any:
        """The call's arguments."""
        return self.invocation.arguments


class McpToolCallBeginEvent(_InvokedTool, _Model):
    """An MCP tool call starts."""

    type: Literal["mcp_tool_call_begin"] = "mcp_tool_call_begin"
    call_id: str
    invocation: McpInvocation

    @model_validator(mode="before")
    @classmethod
    def _read_flat(cls, data: Any) -> Any:
        return _legacy_invocation(data) if isinstance(data, dict) else data


class McpToolCallEndEvent(_InvokedTool, _Model):
    """An MCP tool call finished: a result from the server, or an error message."""

    type: Literal["mcp_tool_call_end"] = "mcp_tool_call_end"
    call_id: str
    invocation: McpInvocation
    duration: McpDuration = Field(default_factory=McpDuration)
    result: dict[str, Any]
    """`{"Ok": {content, structuredContent?, isError}}` or `{"Err": message}`."""
    read_only: bool | None = None
    """True when the tool carries the `readOnlyHint` annotation (0.169's rollout items record
    it as `readOnlyHint`); None otherwise."""

    @model_validator(mode="before")
    @classmethod
    def _read_flat(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = _legacy_invocation(data)
        result = data.get("result")
        if not (isinstance(result, dict) and len(result) == 1 and set(result) <= {"Ok", "Err"}):
            data = {**data, "result": _legacy_result(result, data.get("error"))}
        return data

    @classmethod
    def ok(
        cls,
        call_id: str,
        invocation: McpInvocation,
        seconds: float,
        result: dict[str, Any],
        *,
        read_only: bool = False,
    ) -> "McpToolCallEndEvent":
        """The end of a call the server answered (`result` is a CallToolResult, camelCase)."""
        return cls(
            call_id=call_id,
            invocation=invocation,
            duration=McpDuration.of_seconds(seconds),
            result={"Ok": result},
            read_only=read_only or None,
        )

    @classmethod
    def err(
        cls,
        call_id: str,
        invocation: McpInvocation,
        seconds: float,
        message: str,
        *,
        read_only: bool = False,
    ) -> "McpToolCallEndEvent":
        """The end of a call that produced no result (refused, timed out, server gone)."""
        return cls(
            call_id=call_id,
            invocation=invocation,
            duration=McpDuration.of_seconds(seconds),
            result={"Err": message},
            read_only=read_only or None,
        )

    @property
    def error(self) -> str | None:
        """The error message when the call produced no result."""
        err = self.result.get("Err")
        return None if err is None else str(err)

    @property
    def tool_result(self) -> dict[str, Any] | None:
        """The server's CallToolResult (`content`, `structuredContent`, `isError`), if any."""
        ok = self.result.get("Ok")
        return ok if isinstance(ok, dict) else None

    @property
    def is_success(self) -> bool:
        """A result came back and the server did not flag it as an error."""
        ok = self.tool_result
        return ok is not None and not ok.get("isError", False)


class WebSearchBeginEvent(_Model):
    """The hosted web_search tool started a search (`call_id` is the item's id)."""

    type: Literal["web_search_begin"] = "web_search_begin"
    call_id: str


class WebSearchEndEvent(_Model):
    """The hosted web_search tool finished a search."""

    type: Literal["web_search_end"] = "web_search_end"
    call_id: str
    query: str = ""
    action: dict[str, Any] | None = None
    """`{"type": "search", "query": …}`, `{"type": "open_page", "url": …}` and the like."""


def web_search_query(action: dict[str, Any] | None) -> str:
    """The text a search action stands for: its query, the page opened, or the pattern found."""
    if not isinstance(action, dict):
        return ""
    for key in ("query", "url", "pattern"):
        value = action.get(key)
        if isinstance(value, str):
            return value
    queries = action.get("queries")
    if isinstance(queries, list) and queries and isinstance(queries[0], str):
        return queries[0]
    return ""


__all__ = [
    "McpDuration",
    "McpInvocation",
    "McpToolCallBeginEvent",
    "McpToolCallEndEvent",
    "WebSearchBeginEvent",
    "WebSearchEndEvent",
    "web_search_query",
]
