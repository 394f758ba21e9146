"""`[mcp_servers.*]` in config.toml as resolved settings, for the session config, `codex mcp`
and plugins' own `.mcp.json`-style tables (kept apart from resolve so plugins can use it)."""

from __future__ import annotations

from codex_core.config.schema import ConfigToml
from codex_core.config.types import McpServerConfig


def mcp_servers_from_toml(toml: ConfigToml) -> dict[str, McpServerConfig]:
    """The `[mcp_servers.*]` entries as resolved settings (also used by `codex mcp`)."""
    servers: dict[str, McpServerConfig] = {}
    for name, server in toml.mcp_servers.items():
        startup = server.startup_timeout_sec
        if startup is None and server.startup_timeout_ms is not None:
            startup = server.startup_timeout_ms / 1000
        servers[name] = McpServerConfig(
            command=server.command,
            args=list(server.args),
            env=dict(server.env) if server.env is not None else None,
            env_vars=list(server.env_vars),
            cwd=server.cwd,
            url=server.url,
            bearer_token_env_var=server.bearer_token_env_var,
            http_headers=dict(server.http_headers) if server.http_headers is not None else None,
            env_http_headers=(
                dict(server.env_http_headers) if server.env_http_headers is not None else None
            ),
            enabled=server.enabled,
            required=server.required,
            startup_timeout_sec=startup,
            tool_timeout_sec=server.tool_timeout_sec,
            enabled_tools=list(server.enabled_tools) if server.enabled_tools is not None else None,
            disabled_tools=(
                list(server.disabled_tools) if server.disabled_tools is not None else None
            ),
            default_tools_approval_mode=server.default_tools_approval_mode,
            tool_approval_modes={
                tool: entry.approval_mode
                for tool, entry in server.tools.items()
                if entry.approval_mode is not None
            },
        )
    return servers
