"""All of a session's MCP servers: started together in the background, stopped together.

Servers start concurrently when the session starts; the first model request waits for them
only briefly (`FIRST_REQUEST_WAIT_SEC` from when they began to start — early, before the
session loaded, in exec and the TUI — as the Codex CLI 0.169 waits from its session's start)
and later requests pick up servers that came up late. A server that fails is reported (`warnings`) and left out; a
`required` one makes `wait_required` fail with a message naming the server and the fix.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from mcp import types
from mcp.client.session import ClientSession

from codex_core.config.types import McpServerConfig
from codex_core.mcp.approval import ApprovalMode
from codex_core.mcp.connection import Elicit, McpCallError, ServerConnection
from codex_core.mcp.launch import ToolFilter, startup_timeout, tool_timeout
from codex_core.mcp.schema import clean_input_schema
from codex_core.mcp.specs import McpToolInfo, assign_names

log = logging.getLogger(__name__)
_T = TypeVar("_T")

FIRST_REQUEST_WAIT_SEC = 1.0


class McpStartupError(Exception):
    """A `required = true` server did not come up."""


@dataclass(frozen=True)
class ServerSummary:
    """A server's state for `/mcp` and the warnings list."""

    name: str
    status: str
    error: str | None
    tools: list[str]


class McpConnectionManager:
    """Starts, lists, calls and stops the configured servers."""

    def __init__(
        self,
        servers: Mapping[str, McpServerConfig],
        *,
        environ: Mapping[str, str],
        cwd: str,
        on_failure: Callable[[str, str], None] | None = None,
        elicit: Elicit | None = None,
    ) -> None:
        self.configs = {name: cfg for name, cfg in servers.items() if cfg.enabled}
        self._connections = {
            name: ServerConnection(name, cfg, environ, cwd, elicit)
            for name, cfg in self.configs.items()
        }
        self._on_failure = on_failure
        self._reported: set[str] = set()
        self._started_at: float | None = None
        self._waiters: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Start every enabled server (returns at once)."""
        from codex_core.mcp.early import take_start_time

        launched_at = take_start_time()
        self._started_at = launched_at or time.monotonic()
        loop = asyncio.get_running_loop()
        for conn in self._connections.values():
            conn.start(launched_at)
            self._waiters.append(loop.create_task(self._watch(conn)))

    async def _watch(self, conn: ServerConnection) -> None:
        await conn.ready.wait()
        self._report(conn)

    def _report(self, conn: ServerConnection) -> None:
        if conn.status == "failed" and conn.name not in self._reported:
            self._reported.add(conn.name)
            if self._on_failure is not None:
                self._on_failure(conn.name, failure_message(conn.name, conn.error))

    @property
    def has_servers(self) -> bool:
        """Whether any enabled server is configured."""
        return bool(self._connections)

    async def wait_ready(self, timeout: float = FIRST_REQUEST_WAIT_SEC) -> None:
        """Wait up to `timeout` seconds (from start-up) for servers still starting."""
        pending = [c.ready for c in self._connections.values() if not c.ready.is_set()]
        if not pending:
            return
        elapsed = time.monotonic() - (self._started_at or time.monotonic())
        remaining = max(0.0, timeout - elapsed)
        if remaining > 0:
            waits = [asyncio.ensure_future(ready.wait()) for ready in pending]
            await asyncio.wait(waits, timeout=remaining)
            for wait in waits:
                wait.cancel()

    async def wait_required(self) -> None:
        """Wait for every `required` server; raise if one of them did not come up.

        Raises:
            McpStartupError: Names the server, why it failed, and the key to change.
        """
        required = [c for c in self._connections.values() if c.config.required]
        for conn in required:
            try:
                await asyncio.wait_for(conn.ready.wait(), startup_timeout(conn.config) + 5)
            except TimeoutError:
                conn.error = conn.error or "timed out starting up"
        for conn in required:
            if conn.status != "ready":
                raise McpStartupError(
                    f"required MCP server {conn.name!r} failed to start: "
                    f"{conn.error or conn.status}; fix [mcp_servers.{conn.name}] in config.toml "
                    "or set required = false"
                )

    def tools(self) -> list[McpToolInfo]:
        """The tools of every server that is up, filtered and named for the model."""
        infos: list[McpToolInfo] = []
        for name in sorted(self._connections):
            conn = self._connections[name]
            if conn.status != "ready":
                continue
            allowed = ToolFilter.of(conn.config)
            entries = [
                (
                    tool.name,
                    tool.description or "",
                    clean_input_schema(tool.inputSchema),
                    bool(tool.annotations and tool.annotations.readOnlyHint),
                    tool.title or (tool.annotations.title if tool.annotations else None),
                )
                for tool in conn.tools
                if allowed.allows(tool.name)
            ]
            named = assign_names(name, entries)
            harmless = {tool.name for tool in conn.tools if _without_side_effects(tool)}
            infos.extend(replace(i, no_side_effects=i.tool in harmless) for i in named)
        return infos

    def instructions(self) -> dict[str, str | None]:
        """Each ready server's `instructions` from its initialize result."""
        return {n: c.instructions for n, c in self._connections.items() if c.status == "ready"}

    def approval_mode(self, server: str, tool: str) -> ApprovalMode | None:
        """The tool's `approval_mode`, else the server's `default_tools_approval_mode`."""
        config = self.configs.get(server)
        if config is None:
            return None
        return config.tool_approval_modes.get(tool) or config.default_tools_approval_mode

    async def call_tool(
        self, server: str, tool: str, arguments: dict[str, Any] | None
    ) -> types.CallToolResult:
        """Call a tool with the server's `tool_timeout_sec`.

        Raises:
            McpCallError: Unknown server, server down, timeout or protocol failure.
        """
        conn = self._connections.get(server)
        if conn is None:
            raise McpCallError(f"unknown MCP server {server!r}")
        try:
            return await conn.call_tool(tool, arguments, tool_timeout(conn.config))
        except McpCallError as err:
            raise McpCallError(f"tool call failed for `{server}/{tool}`: {err}") from err

    async def request(
        self, server: str, send: Callable[[ClientSession], Awaitable[_T]], method: str
    ) -> _T:
        """Run one request (`resources/list`, …) on a server with its `tool_timeout_sec`.

        Raises:
            McpCallError: Unknown server, server down, timeout or an error answer.
        """
        conn = self._connections.get(server)
        if conn is None:
            raise McpCallError(f"unknown MCP server {server!r}")
        return await conn.request(send, tool_timeout(conn.config), method)

    def servers_with_resources(self) -> list[str]:
        """The ready servers that declare the resources capability, by name."""
        return [
            name
            for name, conn in sorted(self._connections.items())
            if conn.status == "ready" and conn.capabilities and conn.capabilities.resources
        ]

    def tool_catalog(self, server: str) -> list[dict[str, Any]]:
        """What `server` said about each of its tools (the MCP `Tool`s, unset fields left
        out), unfiltered: `mcpServerStatus/list` shows them as 0.169 does."""
        conn = self._connections.get(server)
        if conn is None:
            return []
        return [
            tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in conn.tools
        ]

    def connection(self, server: str) -> ServerConnection | None:
        """The connection to `server` (what it said at `initialize`), if it is configured."""
        return self._connections.get(server)

    def summaries(self) -> list[ServerSummary]:
        """Every enabled server's status and tool names, by name."""
        return [
            ServerSummary(n, c.status, c.error, sorted(t.name for t in c.tools))
            for n, c in sorted(self._connections.items())
        ]

    async def aclose(self, *, hurry: bool = False) -> None:
        """Stop every server and wait for the children to end (`hurry`: terminate them now)."""
        for waiter in self._waiters:
            waiter.cancel()
        await asyncio.gather(*(c.stop(hurry=hurry) for c in self._connections.values()))


def _without_side_effects(tool: types.Tool) -> bool:
    """Neither destructive nor reaching the outside world, both hints explicitly false:
    the Codex CLI 0.169 runs such a tool without asking, as a read-only one."""
    hints = tool.annotations
    return bool(hints and hints.destructiveHint is False and hints.openWorldHint is False)


def failure_message(server: str, error: str | None) -> str:
    """The warning shown when a server does not come up."""
    return (
        f"MCP server {server!r} failed to start: {error or 'unknown error'}; its tools are "
        f"unavailable (check [mcp_servers.{server}] in config.toml, or `codex mcp get {server}`)"
    )
