"""Loading a session's hooks: the user's `hooks.json` and config.toml, a trusted project's,
and those of the installed, enabled plugins.

Both user sources load when both exist, with 0.169's warning; a project's
`.codex/hooks.json` only when the project is trusted (silently ignored otherwise); a plugin's
hooks file (`hooks/hooks.json` in its installed copy, or what its plugin.json names). The
order of the list is 0.169's display order: by event, then source, group and handler.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from codex_core.hooks.catalog import EVENTS, HookCatalog, PluginOrigin, hooks_from_table

HOOKS_FILE = "hooks.json"
_EVENT_ORDER = {name: index for index, name in enumerate(EVENTS)}
_SOURCE_ORDER = {"user": 0, "project": 1, "plugin": 2}


def load_hooks(
    codex_home: Path,
    config_hooks: Mapping[str, Any],
    project_root: Path | None,
    plugins: Mapping[str, Any] | None = None,
) -> HookCatalog:
    """Every hook for a session.

    Args:
        codex_home: CODEX_HOME (its `hooks.json`, and `config.toml` for inline hooks).
        config_hooks: The `[hooks]` table of the user's config.toml (events and `state`).
        project_root: A trusted project's root, whose `.codex/hooks.json` joins; None if
            the project is not trusted.
        plugins: The `[plugins]` table of config.toml (installed plugins and whether each
            is enabled).
    """
    catalog = HookCatalog()
    state = config_hooks.get("state")
    if isinstance(state, Mapping):
        catalog.state = {str(k): v for k, v in state.items() if isinstance(v, Mapping)}
    user_file = codex_home / HOOKS_FILE
    from_file = _read_hooks_file(user_file, catalog)
    inline = {k: v for k, v in config_hooks.items() if k != "state"}
    if from_file is not None:
        hooks_from_table(from_file, "user", user_file, catalog)
    if inline:
        hooks_from_table(inline, "user", codex_home / "config.toml", catalog)
    if from_file and inline:
        catalog.warnings.append(
            f"loading hooks from both {user_file} and {codex_home / 'config.toml'}; "
            "prefer a single representation for this layer"
        )
    if project_root is not None:
        project_file = project_root / ".codex" / HOOKS_FILE
        from_project = _read_hooks_file(project_file, catalog)
        if from_project is not None:
            hooks_from_table(from_project, "project", project_file, catalog)
    if plugins:
        _plugin_hooks(codex_home, plugins, catalog)
    catalog.hooks.sort(key=lambda h: (_EVENT_ORDER[h.event.name], _SOURCE_ORDER[h.source]))
    return catalog


def _plugin_hooks(codex_home: Path, table: Mapping[str, Any], catalog: HookCatalog) -> None:
    from codex_core.plugins.discovery import installed_plugins
    from codex_core.plugins.manifest import load_table
    from codex_core.plugins.names import PluginError
    from codex_core.plugins.store import read_pin, tree_hash, write_pin

    found, _ = installed_plugins(codex_home, table)  # unusable ones: silent, as 0.169
    for plugin in found:
        if not plugin.manifest.hooks:
            continue
        content = tree_hash(plugin.root)  # only plugins with hooks pay for hashing their copy
        pin = read_pin(codex_home, plugin.plugin_id)
        if pin is None:  # installed by the other tool: the copy is pinned when first seen
            try:
                write_pin(codex_home, plugin.plugin_id, content)
            except (PluginError, OSError):
                pass
            pin = content
        for relative, source in plugin.manifest.hooks:
            try:
                hooks = load_table(source, "hooks")
            except PluginError as err:
                catalog.warnings.append(f"plugin `{plugin.plugin_id}`: {err}; its hooks do not run")
                continue
            origin = PluginOrigin(
                plugin_id=plugin.plugin_id,
                key_source=f"{plugin.plugin_id}:{relative}",
                env=tuple(sorted(plugin.env.items())),
                content_hash=content,
                pinned=pin == content,
            )
            path = source if isinstance(source, Path) else plugin.root / relative
            hooks_from_table(hooks, "plugin", path, catalog, origin)


def _read_hooks_file(path: Path, catalog: HookCatalog) -> Mapping[str, Any] | None:
    """The `hooks` table of a hooks.json, None when there is none; a bad file is one warning."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return None
    except OSError as err:
        catalog.warnings.append(f"{path}: cannot read it ({err.strerror}); its hooks do not run")
        return None
    try:
        data = json.loads(text)
    except ValueError as err:
        catalog.warnings.append(f"{path}: invalid JSON ({err}); its hooks do not run")
        return None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        catalog.warnings.append(f"{path}: no `hooks` object; its hooks do not run")
        return None
    return hooks
