"""`codex plugin add` / `remove`: copy a marketplace's plugin into CODEX_HOME and record it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core.plugins import config_edit, marketplace, store
from codex_core.plugins.manifest import read_manifest
from codex_core.plugins.names import PluginError, plugin_id


@dataclass(frozen=True)
class Installed:
    """What `codex plugin add` did."""

    plugin_id: str
    name: str
    marketplace: str
    version: str
    path: Path


def install(
    codex_home: Path, marketplaces: Mapping[str, Any], plugin: str, market_name: str
) -> Installed:
    """Install (or reinstall) `plugin` from the marketplace `market_name`."""
    try:
        market = marketplace.find(codex_home, marketplaces, market_name)
    except marketplace.NotConfigured:
        raise PluginError(
            f"plugin `{plugin}` was not found in marketplace `{market_name}`"
        ) from None
    entry = market.entry(plugin)
    manifest = read_manifest(entry.source)
    if manifest.name != plugin:
        raise PluginError(
            f"plugin.json name `{manifest.name}` does not match the marketplace entry `{plugin}`"
        )
    folder = store.plugin_cache(codex_home, market.name, plugin)
    dest = folder / manifest.version
    store.copy_plugin(entry.source, dest, codex_home)
    for other in folder.iterdir():
        if other.name != manifest.version:
            store.remove_tree(other, store.plugins_dir(codex_home))
    ident = plugin_id(plugin, market.name)
    store.write_pin(codex_home, ident, store.tree_hash(dest))
    config_edit.enable_plugin(codex_home, ident)
    return Installed(ident, plugin, market.name, manifest.version, dest)


def uninstall(codex_home: Path, plugin: str, market_name: str) -> str:
    """Remove the installed copy, its data and pin, and its config entries; returns the id."""
    ident = plugin_id(plugin, market_name)
    base = store.plugins_dir(codex_home)
    store.remove_tree(store.plugin_cache(codex_home, market_name, plugin), base)
    store.remove_tree(store.data_dir(codex_home, market_name, plugin), base)
    pin = store.pin_file(codex_home, ident)
    store.guard(pin, base)
    pin.unlink(missing_ok=True)
    for leftover in (
        store.cache_root(codex_home, market_name),
        store.data_dir(codex_home, market_name, plugin).parent,
        pin.parent,
    ):
        store.prune_empty(leftover, base)
    store.prune_empty(base, codex_home)
    config_edit.forget_plugin(codex_home, ident)
    return ident
