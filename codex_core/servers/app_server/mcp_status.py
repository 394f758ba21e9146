"""`mcpServerStatus/list`: the configured MCP servers, what they said and offer, as 0.169.

With a `threadId` the thread's live connections answer (their `runtimeStatus` says how they
are); without one the servers of the configuration are started for the question, listed and
stopped again, and `runtimeStatus` is null — as codex-rust 0.169 answers (compared side by
side: same fields, nulls included). `detail: "toolsAndAuthOnly"` leaves the resource
listings out.

`authStatus` is `oauth_probe.auth_status` (HTTP servers without credentials are probed, in
threads, all at once). As 0.169: a disabled server is listed too (no tools, `runtimeStatus`
`disabled` in a thread), and a thread's server that failed while its URL wants OAuth is
`authenticationRequired`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codex_core.servers.app_server import model_tui as t
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.wire import RpcError

if TYPE_CHECKING:  # the MCP SDK loads when a client first asks (and threads with servers)
    from codex_core.config.types import McpServerConfig
    from codex_core.mcp.manager import McpConnectionManager

THREAD_WAIT_SECONDS = 10.0
"""How long (from the thread's start) a thread's servers still starting are waited for
(0.169's default startup timeout)."""

RUNTIME = {"ready": "connected", "starting": "starting", "failed": "failed"}
AUTH = {
    "unsupported": "unsupported",
    "not_logged_in": "notLoggedIn",
    "bearer_token": "bearerToken",
    "o_auth": "oAuth",
    "unknown": "unknown",
}


async def mcp_server_status_list(
    server: ServerContext, params: t.ListMcpServerStatusParams
) -> t.ListMcpServerStatusResponse:
    """The servers of a loaded thread, or of the configuration when no thread is named."""
    if params.threadId is not None:
        session = server.thread(params.threadId).session
        configured, after = _page(session.config.mcp_servers, params)
        manager = session.mcp
        if manager is not None:  # as 0.169: starting ones are waited for
            await manager.wait_ready(THREAD_WAIT_SECONDS)
        data = await _entries(manager, configured, params, runtime=True)
        return t.ListMcpServerStatusResponse(data=data, nextCursor=after)
    from codex_core.config import load_config
    from codex_core.mcp.launch import startup_timeout
    from codex_core.mcp.manager import McpConnectionManager

    config = load_config(None, server.cli_overrides)
    configured, after = _page(config.mcp_servers, params)  # only this page's servers start
    enabled = {name: cfg for name, cfg in configured.items() if cfg.enabled}
    if not enabled:
        data = await _entries(None, configured, params)
        return t.ListMcpServerStatusResponse(data=data, nextCursor=after)
    manager = McpConnectionManager(enabled, environ=os.environ, cwd=str(config.cwd))
    try:
        manager.start()
        longest = max(startup_timeout(cfg) for cfg in enabled.values())
        await manager.wait_ready(longest)
        data = await _entries(manager, configured, params, runtime=False)
        return t.ListMcpServerStatusResponse(data=data, nextCursor=after)
    finally:
        await asyncio.shield(manager.aclose(hurry=True))


def _page(
    servers: Mapping[str, McpServerConfig], params: t.ListMcpServerStatusParams
) -> tuple[dict[str, McpServerConfig], str | None]:
    """The page of servers (by name) `cursor` and `limit` ask for, and the next cursor — as
    0.169: the cursor is the index to start at, a limit below 1 counts as 1, no limit is all.

    Raises:
        RpcError: The cursor is not an index, or lies past the end (0.169's messages).
    """
    names = sorted(name for name in servers if params.serverName in (None, name))
    start = 0
    if params.cursor is not None:
        if not params.cursor.isascii() or not params.cursor.isdigit():
            raise RpcError(f"invalid cursor: {params.cursor}")
        start = int(params.cursor)
        if start > len(names):
            raise RpcError(f"cursor {start} exceeds total MCP servers {len(names)}")
    end = len(names) if params.limit is None else min(len(names), start + max(params.limit, 1))
    after = str(end) if end < len(names) else None
    return {name: servers[name] for name in names[start:end]}, after


async def _entries(
    manager: McpConnectionManager | None,
    configured: Mapping[str, McpServerConfig],
    params: t.ListMcpServerStatusParams,
    *,
    runtime: bool = False,
) -> list[t.McpServerStatusEntry]:
    """One entry per configured server (those `manager` runs and the disabled ones), by name."""
    from codex_core.mcp.oauth_probe import auth_status

    names = sorted(configured)
    found = await asyncio.gather(
        *(asyncio.to_thread(auth_status, configured[name], os.environ) for name in names)
    )
    auth = {name: AUTH[status] for name, status in zip(names, found, strict=True)}
    summaries = {s.name: s for s in manager.summaries()} if manager is not None else {}
    entries = []
    for name in names:
        summary = summaries.get(name)
        if summary is None:  # disabled: listed, never started
            url = configured[name].url
            entries.append(
                t.McpServerStatusEntry(
                    name=name,
                    runtimeStatus="disabled" if runtime else None,
                    httpOrigin=_origin(url) if url else None,
                    tools={},
                    authStatus=auth[name],  # type: ignore[arg-type]
                )
            )
            continue
        assert manager is not None
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
        status = RUNTIME.get(summary.status, "notStarted")
        if status == "failed" and auth[name] == "notLoggedIn":
            status = "authenticationRequired"
        entries.append(
            t.McpServerStatusEntry(
                name=summary.name,
                runtimeStatus=status if runtime else None,  # type: ignore[arg-type]
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
                authStatus=auth[name],  # type: ignore[arg-type]
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
