"""The plugin entries of CODEX_HOME/config.toml, written with tomlkit (comments and layout kept):
`[marketplaces.<name>]` (`source_type`, `source`, `ref`) and `[plugins."<id>"] enabled`."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import Table

from codex_core.config.atomic import atomic_write
from codex_core.config.errors import ConfigError, toml_syntax_error

CONFIG_TOML = "config.toml"


def read_config(codex_home: Path) -> tuple[str, dict[str, Any]]:
    """CODEX_HOME/config.toml's text and table (empty when missing); a bad file is one
    ConfigError line. (Plain tomllib: `codex plugin` does not load the config schema.)"""
    path = codex_home / CONFIG_TOML
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return "", {}
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot read it ({err.strerror}); check its permissions"
        ) from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise toml_syntax_error(str(path), err) from None


def _change(codex_home: Path, edit: Callable[[tomlkit.TOMLDocument], None]) -> None:
    text, _ = read_config(codex_home)
    doc = tomlkit.parse(text)
    edit(doc)
    atomic_write(codex_home / CONFIG_TOML, doc.as_string())


def _super(doc: tomlkit.TOMLDocument, name: str) -> Any:
    table = doc.get(name)
    if not isinstance(table, dict):
        table = tomlkit.table(is_super_table=True)
        doc[name] = table
    return table


def _drop_if_empty(doc: tomlkit.TOMLDocument, name: str) -> None:
    table = doc.get(name)
    if isinstance(table, dict) and not table:
        del doc[name]


def add_marketplace(
    codex_home: Path, name: str, source_type: str, source: str, ref: str | None
) -> None:
    """Record `[marketplaces.<name>]` (replacing an earlier entry of that name)."""

    def edit(doc: tomlkit.TOMLDocument) -> None:
        entry = tomlkit.table()
        entry["source_type"] = source_type
        entry["source"] = source
        if ref:
            entry["ref"] = ref
        marketplaces = _super(doc, "marketplaces")
        if name in marketplaces:
            del marketplaces[name]
        marketplaces[name] = entry

    _change(codex_home, edit)


def remove_marketplace(codex_home: Path, name: str) -> None:
    """Remove `[marketplaces.<name>]` (and an emptied `[marketplaces]`)."""

    def edit(doc: tomlkit.TOMLDocument) -> None:
        marketplaces = doc.get("marketplaces")
        if isinstance(marketplaces, dict) and name in marketplaces:
            del marketplaces[name]
        _drop_if_empty(doc, "marketplaces")

    _change(codex_home, edit)


def enable_plugin(codex_home: Path, plugin_id: str) -> None:
    """Record `[plugins."<id>"] enabled = true`."""

    def edit(doc: tomlkit.TOMLDocument) -> None:
        plugins = _super(doc, "plugins")
        entry = plugins.get(plugin_id)
        if isinstance(entry, Table):
            entry["enabled"] = True
        else:
            table = tomlkit.table()
            table["enabled"] = True
            plugins[plugin_id] = table

    _change(codex_home, edit)


def forget_plugin(codex_home: Path, plugin_id: str) -> None:
    """Remove `[plugins."<id>"]` and the `[hooks.state]` records of the plugin's hooks."""

    def edit(doc: tomlkit.TOMLDocument) -> None:
        plugins = doc.get("plugins")
        if isinstance(plugins, dict) and plugin_id in plugins:
            del plugins[plugin_id]
        _drop_if_empty(doc, "plugins")
        hooks = doc.get("hooks")
        state = hooks.get("state") if isinstance(hooks, dict) else None
        if isinstance(hooks, dict) and isinstance(state, dict):
            for key in [k for k in state if str(k).startswith(plugin_id + ":")]:
                del state[key]
            if not state:
                del hooks["state"]
            _drop_if_empty(doc, "hooks")

    _change(codex_home, edit)
