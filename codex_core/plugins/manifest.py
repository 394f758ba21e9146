"""The two files plugins are made of: a marketplace's `marketplace.json` and a plugin's
`.codex-plugin/plugin.json` (0.169's layout; `source` entries of kind `local` only)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core.plugins.names import PluginError, check_name, check_version

MARKETPLACE_FILE = Path(".agents") / "plugins" / "marketplace.json"
MANIFEST_FILE = Path(".codex-plugin") / "plugin.json"
DEFAULT_SKILLS = "skills"
DEFAULT_MCP = ".mcp.json"
DEFAULT_HOOKS = "hooks/hooks.json"


@dataclass(frozen=True)
class MarketplaceEntry:
    """One plugin a marketplace offers."""

    name: str
    source: Path
    """The plugin's folder (absolute, inside the marketplace root)."""


@dataclass(frozen=True)
class Marketplace:
    """A marketplace file and the plugins it offers (entries that cannot be used are left out)."""

    name: str
    root: Path
    file: Path
    plugins: tuple[MarketplaceEntry, ...]
    skipped: tuple[str, ...] = ()

    def entry(self, plugin: str) -> MarketplaceEntry:
        for entry in self.plugins:
            if entry.name == plugin:
                return entry
        raise PluginError(f"plugin `{plugin}` was not found in marketplace `{self.name}`")


@dataclass(frozen=True)
class PluginManifest:
    """What `.codex-plugin/plugin.json` says, with its paths resolved inside the plugin."""

    name: str
    version: str
    description: str | None
    skills: Path | None
    mcp_servers: dict[str, Any] | Path | None
    hooks: tuple[tuple[str, dict[str, Any] | Path], ...]
    """(where, as it appears in hook keys: `hooks/hooks.json`; the file or inline object)."""


def _read_json(path: Path, what: str) -> Any:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise PluginError(f"missing {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise PluginError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}") from None
    try:
        return json.loads(text)
    except ValueError as err:
        raise PluginError(f"failed to parse {what}: {err}") from None


def read_marketplace(root: Path) -> Marketplace:
    """The marketplace whose root is `root`."""
    path = root / MARKETPLACE_FILE
    if not path.is_file():
        raise PluginError(
            f"invalid marketplace file `{root}`: marketplace root does not contain a supported "
            "manifest"
        )
    data = _read_json(path, f"marketplace file `{path}`")
    if not isinstance(data, dict):
        raise PluginError(f"invalid marketplace file `{path}`: expected a JSON object")
    name = check_name(data.get("name"), "marketplace")
    raw = data.get("plugins", [])
    if not isinstance(raw, list):
        raise PluginError(
            f"invalid marketplace file `{path}`: marketplace plugins must be an array"
        )
    plugins: list[MarketplaceEntry] = []
    skipped: list[str] = []
    for item in raw:
        try:
            plugins.append(_entry(item, root))
        except PluginError as err:
            skipped.append(f"skipping invalid marketplace plugin in {path}: {err}")
    return Marketplace(name, root, path, tuple(plugins), tuple(skipped))


def _entry(item: Any, root: Path) -> MarketplaceEntry:
    if not isinstance(item, dict):
        raise PluginError("expected an object")
    name = check_name(item.get("name"), "plugin")
    source = item.get("source")
    if isinstance(source, dict):
        if source.get("source") != "local":
            raise PluginError(f"plugin `{name}` has an unsupported source")
        source = source.get("path")
    if not isinstance(source, str) or not source:
        raise PluginError("local plugin source path must not be empty")
    if not source.startswith("./"):
        raise PluginError("local plugin source path must start with `./`")
    return MarketplaceEntry(name, inside(root, source, "local plugin source path"))


def inside(root: Path, relative: str, what: str) -> Path:
    """`root / relative`, refused when it (after symlinks) leaves `root`."""
    if os.path.isabs(relative):
        raise PluginError(f"{what} must be relative")
    target = Path(os.path.normpath(root / relative))
    real_root = os.path.realpath(root)
    real = os.path.realpath(target)
    if real != real_root and not real.startswith(real_root + os.sep):
        raise PluginError(f"{what} must stay within {root}")
    return target


def read_manifest(plugin_root: Path) -> PluginManifest:
    """The plugin.json of the plugin in `plugin_root`."""
    data = _read_json(plugin_root / MANIFEST_FILE, "plugin.json")
    if not isinstance(data, dict):
        raise PluginError("failed to parse plugin.json: expected a JSON object")
    name = check_name(data.get("name"), "plugin")
    description = data.get("description")
    return PluginManifest(
        name=name,
        version=check_version(data.get("version")),
        description=description if isinstance(description, str) else None,
        skills=_path_field(plugin_root, data.get("skills"), DEFAULT_SKILLS, "skills"),
        mcp_servers=_table_or_path(plugin_root, data.get("mcpServers"), DEFAULT_MCP, "mcpServers"),
        hooks=_hooks(plugin_root, data.get("hooks")),
    )


def _hooks(root: Path, value: Any) -> tuple[tuple[str, dict[str, Any] | Path], ...]:
    """plugin.json `hooks`: a path, a list of paths, or the hooks object itself."""
    if isinstance(value, dict):
        return ((MANIFEST_FILE.as_posix(), value),)
    entries = value if isinstance(value, list) else [value]
    found: list[tuple[str, dict[str, Any] | Path]] = []
    for entry in entries:
        path = _path_field(root, entry, DEFAULT_HOOKS, "hooks")
        if path is not None:
            relative = os.path.normpath(entry if isinstance(entry, str) else DEFAULT_HOOKS)
            found.append((relative.replace(os.sep, "/"), path))
    return tuple(found)


def _path_field(root: Path, value: Any, default: str, what: str) -> Path | None:
    if value is not None and not isinstance(value, str):
        raise PluginError(f"plugin.json `{what}` must be a path")
    path = inside(root, value or default, f"plugin.json `{what}`")
    return path if path.exists() else None


def _table_or_path(root: Path, value: Any, default: str, what: str) -> dict[str, Any] | Path | None:
    if isinstance(value, dict):
        return value
    return _path_field(root, value, default, what)


def load_table(source: dict[str, Any] | Path | None, key: str) -> dict[str, Any]:
    """The `key` object of a plugin's `.mcp.json` / `hooks.json` (or of the inline object)."""
    if source is None:
        return {}
    data = source if isinstance(source, dict) else _read_json(source, str(source))
    if not isinstance(data, dict):
        raise PluginError(f"{source}: expected a JSON object")
    inner = data.get(key, data if key == "mcpServers" else None)
    if not isinstance(inner, dict):
        raise PluginError(f"{source}: no `{key}` object")
    return inner
