"""plugin.json's `hooks` and `mcpServers` forms (issue 25): a path, a list of paths or the
object itself; paths must stay inside the plugin; an MCP server's relative `cwd` is inside
the installed copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codex_core.hooks.sources import load_hooks
from codex_core.plugins.discovery import installed_plugins, plugin_mcp_servers
from codex_core.plugins.manifest import read_manifest
from codex_core.plugins.names import PluginError

RUN = {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}


def plugin(home: Path, manifest: dict[str, object]) -> Path:
    root = home / "plugins" / "cache" / "mk" / "demo" / "1.0"
    (root / ".codex-plugin").mkdir(parents=True)
    (root / ".codex-plugin" / "plugin.json").write_text(json.dumps({"name": "demo", **manifest}))
    return root


def keys(home: Path) -> list[str]:
    return [h.key for h in load_hooks(home, {}, None, {"demo@mk": {"enabled": True}}).hooks]


def test_plugin_manifest_hooks_as_list_or_object(tmp_path: Path) -> None:
    root = plugin(tmp_path, {"hooks": ["./hooks/a.json", "hooks/b.json"]})
    (root / "hooks").mkdir()
    for name in ("a", "b"):
        (root / "hooks" / f"{name}.json").write_text(json.dumps({"hooks": RUN}))
    assert keys(tmp_path) == [
        "demo@mk:hooks/a.json:user_prompt_submit:0:0",
        "demo@mk:hooks/b.json:user_prompt_submit:0:0",
    ]
    (root / ".codex-plugin" / "plugin.json").write_text(
        json.dumps({"name": "demo", "hooks": {"hooks": RUN}})
    )
    assert keys(tmp_path) == ["demo@mk:.codex-plugin/plugin.json:user_prompt_submit:0:0"]


@pytest.mark.parametrize("field", ["hooks", "skills", "mcpServers"])
def test_plugin_manifest_paths_stay_inside(tmp_path: Path, field: str) -> None:
    (tmp_path / "secret").mkdir()
    root = plugin(tmp_path / "home", {field: "../../../../../../secret"})
    with pytest.raises(PluginError, match="must stay within"):
        read_manifest(root)


def test_plugin_mcp_servers_as_0169_starts_them(tmp_path: Path) -> None:
    """Checked with codex-rust 0.169: `"cwd": "."` is the plugin's copy; without a cwd the
    server starts in the session's; `${PLUGIN_ROOT}` stays as written."""
    servers_json = {
        "tool": {"command": "./bin/server", "cwd": ".", "args": ["${PLUGIN_ROOT}"]},
        "plain": {"command": "server"},
        "escape": {"command": "x", "cwd": "../../../.."},
        "bad": {"args": []},
    }
    root = plugin(tmp_path, {"mcpServers": {"mcpServers": servers_json}})
    found, problems = installed_plugins(tmp_path, {"demo@mk": {"enabled": True}})
    assert problems == []
    servers, warnings = plugin_mcp_servers(found)
    assert list(servers) == ["tool", "plain"]
    assert (servers["tool"].cwd, servers["tool"].args) == (str(root), ["${PLUGIN_ROOT}"])
    assert servers["plain"].cwd is None
    assert [w.split(": ")[1] for w in warnings] == ["MCP server `escape`", "MCP server `bad`"]


def test_plugin_broken_hooks_or_mcp_file_is_one_warning(tmp_path: Path) -> None:
    root = plugin(tmp_path, {})
    (root / "hooks").mkdir()
    (root / "hooks" / "hooks.json").write_text("{not json")
    (root / ".mcp.json").write_text("[1, 2]")
    catalog = load_hooks(tmp_path, {}, None, {"demo@mk": {"enabled": True}})
    assert catalog.hooks == []
    [warning] = catalog.warnings
    assert warning.startswith("plugin `demo@mk`: failed to parse ") and "\n" not in warning
    found, _ = installed_plugins(tmp_path, {"demo@mk": {"enabled": True}})
    servers, [trouble] = plugin_mcp_servers(found)
    assert servers == {} and trouble.startswith("plugin `demo@mk`: ") and "\n" not in trouble
