"""`mcpServerStatus/list`: the configured MCP servers, what they said and offer, as 0.169.

With a `threadId` the thread's live connections answer (their `runtimeStatus` says how they
are); without one the servers of the configuration are started for the question, listed and
stopped again, and `runtimeStatus` is null — as codex-rust 0.169 answers (compared side by
side: same fields, nulls included). `detail: "toolsAndAuthOnly"` leaves the resource
listings out.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codex_core.servers.app_server import model_tui as t
from codex_core.servers.app_server.context import ServerContext

if TYPE_CHECKING:  # the MCP SDK loads when a client first asks (and threads with servers)
    from codex_core.mcp.manager import McpConnectionManager

THREAD_WAIT_SECONDS = 10.0
"""How long (from the thread's start) a thread's servers still starting are waited for
(0.169's default startup timeout)."""

RUNTIME = {"ready": "connected", "starting": "starting", "failed": "failed"}


async def mcp_server_status_list(
    server: ServerContext, params: t.ListMcpServerStatusParams
) -> t.ListMcpServerStatusResponse:
    """The servers of a loaded thread, or of the configuration when no thread is named."""
    if params.threadId is not None:
        manager = server.thread(params.threadId).session.mcp
        if manager is None:
            return t.ListMcpServerStatusResponse(data=[])
        await manager.wait_ready(THREAD_WAIT_SECONDS)  # as 0.169: starting ones are waited for
        return t.ListMcpServerStatusResponse(data=await _entries(manager, params, runtime=True))
    from codex_core.config import load_config
    from codex_core.mcp.launch import startup_timeout
    from codex_core.mcp.manager import McpConnectionManager

    config = load_config(None, server.cli_overrides)
    servers = {
        name: cfg
        for name, cfg in config.mcp_servers.items()
        if params.serverName in (None, name) and cfg.enabled
    }
    if not servers:
        return t.ListMcpServerStatusResponse(data=[])
    manager = McpConnectionManager(servers, environ=os.environ, cwd=str(config.cwd))
    try:
        manager.start()
        longest = max(startup_timeout(cfg) for cfg in servers.values())
        await manager.wait_ready(longest)
        return t.ListMcpServerStatusResponse(data=await _entries(manager, params, runtime=False))
    finally:
        await asyncio.shield(manager.aclose(hurry=True))


async def _entries(
    manager: McpConnectionManager, params: t.ListMcpServerStatusParams, *, runtime: bool
) -> list[t.McpServerStatusEntry]:
    entries = []
    for summary in manager.summaries():
        if params.serverName not in (None, summary.name):
            continue
        conn = manager.connection(summary.name)
        info = conn.server_info if conn else None
        caps = conn.capabilities if conn else None
        resources: list[Any] = []
        templates: list[Any] = []
        if params.detail != "toolsAndAuthOnly" and caps is not None and caps.resources:
            resources = await _listing(manager, summary.name, "resources/list", "resources")
            templates = await _listing(
                manager, summary.name, "resources/templates/list", "resourceTemplates"
            )
        url = conn.config.url if conn else None
        entries.append(
            t.McpServerStatusEntry(
                name=summary.name,
                runtimeStatus=RUNTIME.get(summary.status, "notStarted") if runtime else None,  # type: ignore[arg-type]
                pluginId=None,
                httpOrigin=_origin(url) if url else None,
                serverInfo=_server_info(info) if info is not None else None,
                serverCapabilities=(
                    caps.model_dump(mode="json", by_alias=True, exclude_none=True)
                    if caps is not None
                    else None
                ),
                toolListMeta=None,
                tools={tool["name"]: tool for tool in manager.tool_catalog(summary.name)},
                toolsError=summary.error,
                resources=resources,
                resourceTemplates=templates,
                authStatus="unsupported",
            )
        )
    return entries


async def _listing(manager: McpConnectionManager, server: str, method: str, key: str) -> list[Any]:
    from codex_core.mcp.resources import all_pages

    found: list[Any] = []
    for page in await all_pages(manager, server, method):
        found.extend(
            entry.model_dump(mode="json", by_alias=True, exclude_none=True)
            for entry in getattr(page, key)
        )
    return found


def _server_info(info: Any) -> dict[str, Any]:
    """The server's `initialize` answer about itself, every field of 0.169's shape."""
    fields = ("name", "title", "version", "description", "icons", "websiteUrl")
    dumped = info.model_dump(mode="json", by_alias=True)
    return {name: dumped.get(name) for name in fields}


def _origin(url: str) -> str | None:
    """`scheme://host[:port]` of an HTTP server's URL (no credentials, path or query)."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
