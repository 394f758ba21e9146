"""`codex mcp list|get|add|remove`: manage the `[mcp_servers.*]` of config.toml."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from codex_core.config import ConfigError
from codex_core.config.loader import CONFIG_TOML, find_codex_home, read_config_toml
from codex_core.config.overrides import apply_override, parse_cli_overrides
from codex_core.config.types import McpServerConfig


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(f"{self.prog}: {message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    """`codex mcp <list|get|add|remove>`."""
    parser = _Parser(prog="codex mcp", description="Manage MCP servers in config.toml.")
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    sub = parser.add_subparsers(dest="action", required=True, parser_class=_Parser)
    listing = sub.add_parser("list", help="list configured MCP servers")
    listing.add_argument("--json", action="store_true", help="print JSON")
    get = sub.add_parser("get", help="show one MCP server")
    get.add_argument("name")
    get.add_argument("--json", action="store_true", help="print JSON")
    add = sub.add_parser(
        "add",
        help="add (or replace) an MCP server",
        usage="codex mcp add [OPTIONS] NAME (--url URL | -- COMMAND...)",
    )
    add.add_argument("name")
    add.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    add.add_argument("--url", help="URL of a streamable HTTP MCP server")
    add.add_argument("--bearer-token-env-var", metavar="ENV_VAR")
    remove = sub.add_parser("remove", help="remove an MCP server")
    remove.add_argument("name")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run `codex mcp ...`; returns the exit code."""
    try:
        words = list(argv)
        command: list[str] = []
        if "--" in words:  # everything after `--` is the server's command line
            cut = words.index("--")
            words, command = words[:cut], words[cut + 1 :]
        args = build_parser().parse_args(words)
        args.command = command
        if command and args.action != "add":
            raise _Usage(f"codex mcp {args.action}: unexpected arguments: {' '.join(command)}")
        home = find_codex_home()
        match args.action:
            case "list":
                return _list(_servers(home, args.config), args.json)
            case "get":
                return _get(_servers(home, args.config), args.name, args.json)
            case "add":
                return _add(home, args)
            case "remove":
                return _remove(home, args.name)
    except _Usage as err:
        print(str(err), file=sys.stderr)
        return 2
    except ConfigError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    return 2


def _servers(home: Path, overrides: list[str]) -> dict[str, McpServerConfig]:
    from codex_core.config.mcp_servers import mcp_servers_from_toml
    from codex_core.config.schema import ConfigToml, McpServerToml, sweep_unknown_keys

    _, data = read_config_toml(home / CONFIG_TOML)
    for key, value in parse_cli_overrides(overrides):
        apply_override(data, key, value)
    raw = data.get("mcp_servers") or {}
    if not isinstance(raw, dict):
        raise ConfigError("mcp_servers must be a table; fix config.toml")
    tables: dict[str, Any] = {}
    for name, entry in raw.items():
        if isinstance(entry, dict):
            tables[name], _ = sweep_unknown_keys(entry, McpServerToml, ("mcp_servers", name))
    try:
        toml = ConfigToml.model_validate({"mcp_servers": tables})
    except ValueError as err:
        raise ConfigError(f"invalid [mcp_servers] in config.toml: {err}") from err
    return mcp_servers_from_toml(toml)


def _masked(config: McpServerConfig) -> str:
    parts = [f"{k}=*****" for k in sorted(config.env or {})]
    parts += [f"{k}=*****" for k in config.env_vars]
    return ", ".join(parts) or "-"


_AUTH_LABELS = {
    "unsupported": "Unsupported",
    "not_logged_in": "Not logged in",
    "bearer_token": "Bearer token",
    "o_auth": "OAuth",
    "unknown": "Unknown",
}


def _auth(config: McpServerConfig) -> tuple[str, str]:
    """(label, status): an HTTP server without credentials is probed for OAuth (auth_status)."""
    from codex_core.mcp.oauth_probe import auth_status

    status = auth_status(config, os.environ)
    return _AUTH_LABELS[status], status


def _transport(config: McpServerConfig) -> dict[str, Any]:
    if config.url is not None:
        return {
            "type": "streamable_http",
            "url": config.url,
            "bearer_token_env_var": config.bearer_token_env_var,
            "http_headers": config.http_headers,
            "env_http_headers": config.env_http_headers,
            "http_headers_helper": None,
        }
    return {
        "type": "stdio",
        "command": config.command,
        "args": config.args,
        "env": config.env,
        "env_vars": config.env_vars,
        "cwd": config.cwd,
    }


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in [header, *rows]
    ]


def _list(servers: dict[str, McpServerConfig], as_json: bool) -> int:
    names = sorted(servers)
    if as_json:
        entries = [
            {
                "name": n,
                "enabled": servers[n].enabled,
                "disabled_reason": None,
                "transport": _transport(servers[n]),
                "startup_timeout_sec": servers[n].startup_timeout_sec,
                "tool_timeout_sec": servers[n].tool_timeout_sec,
                "auth_status": _auth(servers[n])[1],
            }
            for n in names
        ]
        print(json.dumps(entries, indent=2))
        return 0
    if not names:
        print("No MCP servers configured yet. Try `codex mcp add my-tool -- my-command`.")
        return 0
    status = {n: "enabled" if servers[n].enabled else "disabled" for n in names}
    stdio = [
        [
            n,
            c.command or "",
            " ".join(c.args) or "-",
            _masked(c),
            c.cwd or "-",
            status[n],
            _auth(c)[0],
        ]
        for n in names
        if (c := servers[n]).url is None
    ]
    http = [
        [n, c.url or "", c.bearer_token_env_var or "-", status[n], _auth(c)[0]]
        for n in names
        if (c := servers[n]).url is not None
    ]
    blocks: list[list[str]] = []
    if stdio:
        blocks.append(_table(["Name", "Command", "Args", "Env", "Cwd", "Status", "Auth"], stdio))
    if http:
        blocks.append(_table(["Name", "Url", "Bearer Token Env Var", "Status", "Auth"], http))
    print("\n\n".join("\n".join(block) for block in blocks))
    return 0


def _get(servers: dict[str, McpServerConfig], name: str, as_json: bool) -> int:
    config = servers.get(name)
    if config is None:
        print(f"Error: No MCP server named '{name}' found.", file=sys.stderr)
        return 1
    if as_json:
        entry = {
            "name": name,
            "enabled": config.enabled,
            "disabled_reason": None,
            "transport": _transport(config),
            "enabled_tools": config.enabled_tools,
            "disabled_tools": config.disabled_tools,
            "startup_timeout_sec": config.startup_timeout_sec,
            "tool_timeout_sec": config.tool_timeout_sec,
        }
        print(json.dumps(entry, indent=2))
        return 0
    if not config.enabled:
        print(f"{name} (disabled)")
        return 0
    lines = [name, "  enabled: true"]
    if config.enabled_tools is not None:
        lines.append(f"  enabled_tools: {', '.join(config.enabled_tools)}")
    if config.disabled_tools is not None:
        lines.append(f"  disabled_tools: {', '.join(config.disabled_tools)}")
    if config.url is not None:
        headers = ", ".join(f"{k}=*****" for k in sorted(config.http_headers or {})) or "-"
        env_headers = (
            ", ".join(f"{k}={v}" for k, v in sorted((config.env_http_headers or {}).items())) or "-"
        )
        lines += [
            "  transport: streamable_http",
            f"  url: {config.url}",
            f"  bearer_token_env_var: {config.bearer_token_env_var or '-'}",
            f"  http_headers: {headers}",
            f"  env_http_headers: {env_headers}",
            "  http_headers_helper: -",
        ]
    else:
        lines += [
            "  transport: stdio",
            f"  command: {config.command}",
            f"  args: {' '.join(config.args) or '-'}",
            f"  cwd: {config.cwd or '-'}",
            f"  env: {_masked(config)}",
        ]
    if config.startup_timeout_sec is not None:
        lines.append(f"  startup_timeout_sec: {config.startup_timeout_sec:g}")
    if config.tool_timeout_sec is not None:
        lines.append(f"  tool_timeout_sec: {config.tool_timeout_sec:g}")
    lines.append(f"  remove: codex mcp remove {name}")
    print("\n".join(lines))
    return 0


def _add(home: Path, args: argparse.Namespace) -> int:
    from codex_core.mcp.config_edit import add_http_server, add_stdio_server
    from codex_core.mcp.launch import valid_server_name

    name: str = args.name
    if not valid_server_name(name):
        print(
            f"Error: invalid server name '{name}' (use letters, numbers, '-', '_', ':', '@', '/', '.')",
            file=sys.stderr,
        )
        return 1
    command: list[str] = args.command
    env: dict[str, str] = {}
    for pair in args.env:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _Usage(
                f"codex mcp add: invalid value '{pair}' for '--env <KEY=VALUE>': "
                "environment entries must be in KEY=VALUE form"
            )
        env[key] = value
    if args.url is not None:
        if command:
            raise _Usage("codex mcp add: give either --url URL or -- COMMAND..., not both")
        if env:
            raise _Usage("codex mcp add: --env is only valid with stdio servers (-- COMMAND...)")
        add_http_server(home, name, args.url, args.bearer_token_env_var)
    else:
        if not command:
            raise _Usage(
                "codex mcp add: the following required arguments were not provided: "
                "<COMMAND|--url <URL>>"
            )
        if args.bearer_token_env_var:
            raise _Usage("codex mcp add: --bearer-token-env-var is only valid with --url")
        add_stdio_server(home, name, command, env or None)
    print(f"Added global MCP server '{name}'.")
    return 0


def _remove(home: Path, name: str) -> int:
    from codex_core.mcp.config_edit import remove_server

    if remove_server(home, name):
        print(f"Removed global MCP server '{name}'.")
    else:
        print(f"No MCP server named '{name}' found.")
    return 0
