"""The installed, enabled plugins of a session (`[plugins."<id>"] enabled = true` with a copy
under CODEX_HOME/plugins/cache), and the MCP servers they bring."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core.plugins import store
from codex_core.plugins.manifest import PluginManifest, inside, load_table, read_manifest
from codex_core.plugins.names import PluginError, check_name


@dataclass(frozen=True)
class InstalledPlugin:
    """One enabled plugin as installed."""

    plugin_id: str
    name: str
    marketplace: str
    root: Path
    """Its copy: `plugins/cache/<marketplace>/<name>/<version>`."""
    manifest: PluginManifest
    data: Path

    @property
    def env(self) -> dict[str, str]:
        """What its hooks get in their environment (and `${NAME}` in their commands)."""
        root, data = str(self.root), str(self.data)
        return {
            "PLUGIN_ROOT": root,
            "CLAUDE_PLUGIN_ROOT": root,
            "PLUGIN_DATA": data,
            "CLAUDE_PLUGIN_DATA": data,
        }


def installed_plugins(
    codex_home: Path, table: Mapping[str, Any] | None
) -> tuple[list[InstalledPlugin], list[str]]:
    """The enabled installed plugins, and one line per one that cannot be used."""
    found: list[InstalledPlugin] = []
    problems: list[str] = []
    for ident, entry in (table or {}).items():
        if not isinstance(entry, Mapping) or entry.get("enabled", True) is not True:
            continue
        try:
            found.append(_load(codex_home, str(ident)))
        except PluginError as err:
            problems.append(f"plugin `{ident}`: {err}")
    return found, problems


def _load(codex_home: Path, ident: str) -> InstalledPlugin:
    name, _, market = ident.partition("@")
    check_name(name, "plugin")
    check_name(market, "marketplace")
    folder = store.plugin_cache(codex_home, market, name)
    versions = (
        sorted(
            (p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()),
            key=lambda p: p.stat().st_mtime,
        )
        if folder.is_dir() and not folder.is_symlink()
        else []
    )
    if not versions:
        raise PluginError("not installed (run `codex plugin add` again)")
    root = versions[-1]
    return InstalledPlugin(
        plugin_id=ident,
        name=name,
        marketplace=market,
        root=root,
        manifest=read_manifest(root),
        data=store.data_dir(codex_home, market, name),
    )


def plugin_mcp_servers(plugins: list[InstalledPlugin]) -> tuple[dict[str, Any], list[str]]:
    """`{name: McpServerConfig}` of the plugins' MCP servers; a bad entry is one warning.

    As in 0.169: a relative `cwd` is taken inside the plugin's copy, a server without one
    starts in the session's cwd, and `${PLUGIN_ROOT}` is not expanded.
    """
    from codex_core.config.mcp_servers import mcp_servers_from_toml
    from codex_core.config.schema import ConfigToml

    servers: dict[str, Any] = {}
    warnings: list[str] = []
    for plugin in plugins:
        try:
            table = load_table(plugin.manifest.mcp_servers, "mcpServers")
        except PluginError as err:
            warnings.append(f"plugin `{plugin.plugin_id}`: {err}")
            continue
        for name, raw in table.items():
            if name in servers:
                warnings.append(f"skipping duplicate plugin MCP server name `{name}`")
                continue
            try:
                if not isinstance(raw, Mapping):
                    raise PluginError("expected an object")
                entry = {str(k): v for k, v in raw.items() if k != "type"}
                if isinstance(entry.get("cwd"), str):
                    entry["cwd"] = str(inside(plugin.root, entry["cwd"], "MCP server cwd"))
                parsed = ConfigToml.model_validate({"mcp_servers": {name: entry}})
            except Exception as err:  # pydantic's ValidationError, PluginError
                first = str(err).splitlines()[0]
                warnings.append(f"plugin `{plugin.plugin_id}`: MCP server `{name}`: {first}")
                continue
            servers.update(mcp_servers_from_toml(parsed))
    return servers, warnings
