"""The checks of `codex doctor` that reach out: the model provider over HTTP and the
configured MCP servers, each bounded by a timeout.

The provider probes send no credentials: a HEAD to the inference route (any HTTP answer
means reachable) and a GET of `/models` (2xx, 401 or 403 mean the base URL is the API's
root; 404 means the prefix is wrong), as 0.169 probes. MCP servers are started exactly as a
session would start them from the same config (the user's config.toml and `-c`), listed and
stopped; none comes from the workspace.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Mapping
from typing import TYPE_CHECKING

from codex_core.doctor import Check, DetailValue, redact_url

if TYPE_CHECKING:
    from codex_core.config import Config
    from codex_core.config.types import McpServerConfig

PROBE_TIMEOUT_SEC = 5.0
MCP_START_CAP_SEC = 10.0


def provider_reachability(config: Config, timeout: float = PROBE_TIMEOUT_SEC) -> Check:
    """Probe the active provider's inference route and its `/models` route."""
    import httpx

    provider = config.model_provider
    base = provider.resolved_base_url()
    route = "responses" if provider.wire_api == "responses" else "chat/completions"
    label = f"{provider.name} API"
    details: dict[str, DetailValue] = {
        "model provider": config.model_provider_id,
        "wire API": provider.wire_api,
    }
    params = dict(provider.query_params or {})
    try:
        with httpx.Client(timeout=timeout, follow_redirects=False) as client:
            try:
                head = client.head(f"{base}/{route}", params=params)
            except httpx.HTTPError as err:
                details[f"{label} inference URL"] = (
                    f"{redact_url(f'{base}/{route}')} {_failure(err)} (required)"
                )
                return _unreachable(details)
            details[f"{label} inference URL"] = (
                f"{redact_url(f'{base}/{route}')} reachable (HTTP {head.status_code})"
            )
            try:
                models = client.get(f"{base}/models", params=params)
            except httpx.HTTPError as err:
                details[f"{label} route probe"] = f"{redact_url(f'{base}/models')} {_failure(err)}"
                return _unreachable(details)
    except ValueError as err:  # an unusable base_url
        details["base_url"] = f"not usable: {err}"
        return _unreachable(details, "Set base_url of the provider to an http(s) URL.")
    probe = f"{redact_url(f'{base}/models')} returned HTTP {models.status_code}"
    details[f"{label} route probe"] = probe
    if models.status_code == 404:
        return Check(
            "network.provider_reachability",
            "reachability",
            "fail",
            "provider base URL route returned 404 - verify the configured API prefix",
            details,
            "Set base_url to the provider's API root (for example https://api.openai.com/v1).",
        )
    if models.is_success or models.status_code in (401, 403):
        return Check(
            "network.provider_reachability",
            "reachability",
            "ok",
            "active provider endpoints are reachable over HTTP",
            details,
        )
    return Check(
        "network.provider_reachability",
        "reachability",
        "warning",
        f"the provider answered HTTP {models.status_code} to GET /models",
        details,
        "Check the provider's status and base_url.",
    )


def _failure(err: Exception) -> str:
    import httpx

    if isinstance(err, httpx.TimeoutException):
        return "timed out"
    if isinstance(err, httpx.ConnectError):
        return "connect failed"
    return f"failed ({err.__class__.__name__})"


def _unreachable(
    details: dict[str, DetailValue],
    remediation: str = "Check proxy, VPN, firewall, DNS and custom CA settings, and base_url.",
) -> Check:
    return Check(
        "network.provider_reachability",
        "reachability",
        "fail",
        "one or more required provider endpoints are unreachable over HTTP",
        details,
        remediation,
    )


def mcp_servers(config: Config, environ: Mapping[str, str]) -> Check:
    """Start every enabled MCP server, list its tools and stop it again."""
    servers = config.mcp_servers
    enabled = {name: cfg for name, cfg in servers.items() if cfg.enabled}
    details: dict[str, DetailValue] = {
        "configured servers": str(len(servers)),
        "disabled servers": str(len(servers) - len(enabled)),
    }
    if not enabled:
        return Check("mcp.config", "mcp", "ok", "no MCP servers to start", details)
    results = asyncio.run(_start_all(enabled, environ, str(config.cwd)))
    broken = [name for name, (ok, _) in results.items() if not ok]
    for name, (_, text) in sorted(results.items()):
        details[name] = text
    if not broken:
        return Check("mcp.config", "mcp", "ok", f"{len(enabled)} MCP server(s) started", details)
    required = [name for name in broken if enabled[name].required]
    return Check(
        "mcp.config",
        "mcp",
        "fail" if required else "warning",
        f"MCP server(s) failed to start: {', '.join(sorted(broken))}",
        details,
        "Fix [mcp_servers.<name>] in config.toml (command, args, env, url), or set "
        "enabled = false for the server.",
    )


async def _start_all(
    servers: Mapping[str, McpServerConfig], environ: Mapping[str, str], cwd: str
) -> dict[str, tuple[bool, str]]:
    results = await asyncio.gather(
        *(_start_one(name, cfg, environ, cwd) for name, cfg in servers.items())
    )
    return dict(zip(servers, results, strict=True))


async def _start_one(
    name: str, cfg: McpServerConfig, environ: Mapping[str, str], cwd: str
) -> tuple[bool, str]:
    """(started, what happened) for one server."""
    from codex_core.mcp.connection import ServerConnection
    from codex_core.mcp.launch import startup_timeout

    if cfg.command is not None and not _resolvable(cfg.command, environ, cwd):
        return False, f"stdio command {cfg.command!r} is not found or not executable"
    conn = ServerConnection(name, cfg, environ, cwd)
    conn.start()
    limit = min(startup_timeout(cfg), MCP_START_CAP_SEC)
    try:
        await asyncio.wait_for(conn.ready.wait(), limit + 2)
    except TimeoutError:
        conn.error = conn.error or f"did not start within {limit:g}s"
    try:
        if conn.status == "ready":
            return True, f"started ({len(conn.tools)} tools)"
        return False, conn.error or conn.status
    finally:
        await conn.stop(hurry=True)


def _resolvable(command: str, environ: Mapping[str, str], cwd: str) -> bool:
    if os.sep in command:
        path = command if os.path.isabs(command) else os.path.join(cwd, command)
        return os.path.isfile(path) and os.access(path, os.X_OK)
    return shutil.which(command, path=environ.get("PATH")) is not None
