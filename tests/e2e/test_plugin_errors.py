"""Bad plugin inputs through the real `codex plugin` command (issue 25): each is one `Error:`
line and exit code 1, never a traceback — and no name, version, path or symlink makes codex
write outside CODEX_HOME's plugin folders."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from codex_core.config.edit import set_hook_state
from codex_core.config.loader import read_config_toml
from codex_core.hooks.sources import load_hooks
from tests.support.plugin_market import make_marketplace


def codex(codex_bin: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(codex_bin), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=dict(os.environ),
    )


def error(codex_bin: Path, *args: str) -> str:
    done = codex(codex_bin, *args)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("Error: "), done.stderr
    return done.stderr.strip()


@pytest.fixture
def market(tmp_path: Path, codex_bin: Path) -> Path:
    root = tmp_path / "market"
    make_marketplace(root, tmp_path)
    assert codex(codex_bin, "plugin", "marketplace", "add", str(root)).returncode == 0
    return root


def entries(root: Path, plugins: list[dict[str, object]], name: str = "localmk") -> None:
    path = root / ".agents" / "plugins" / "marketplace.json"
    path.write_text(json.dumps({"name": name, "plugins": plugins}))


def local(name: str, path: str) -> dict[str, object]:
    return {"name": name, "source": {"source": "local", "path": path}}


def test_plugin_errors_are_one_line(codex_bin: Path, market: Path, tmp_path: Path) -> None:
    assert error(codex_bin, "plugin", "add", "nope@localmk") == (
        "Error: plugin `nope` was not found in marketplace `localmk`"
    )
    assert error(codex_bin, "plugin", "add", "demo@other") == (
        "Error: plugin `demo` was not found in marketplace `other`"
    )
    assert error(codex_bin, "plugin", "add", "demo") == (
        "Error: plugin requires --marketplace unless passed as <plugin>@<marketplace>"
    )
    (market / "plugins" / "bare").mkdir()
    (market / "plugins" / "broken" / ".codex-plugin").mkdir(parents=True)
    (market / "plugins" / "broken" / ".codex-plugin" / "plugin.json").write_text("{nope")
    entries(
        market,
        [
            local("demo", "./plugins/demo"),
            local("bare", "./plugins/bare"),
            local("broken", "./plugins/broken"),
        ],
    )
    assert error(codex_bin, "plugin", "add", "bare@localmk") == "Error: missing plugin.json"
    assert error(codex_bin, "plugin", "add", "broken@localmk").startswith(
        "Error: failed to parse plugin.json: "
    )
    bad = tmp_path / "badjson"
    (bad / ".agents" / "plugins").mkdir(parents=True)
    (bad / ".agents" / "plugins" / "marketplace.json").write_text("{nope")
    assert error(codex_bin, "plugin", "marketplace", "add", str(bad)).startswith(
        f"Error: failed to parse marketplace file `{bad}/.agents/plugins/marketplace.json`: "
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "does not contain a supported manifest" in error(
        codex_bin, "plugin", "marketplace", "add", str(empty)
    )
    assert error(codex_bin, "plugin", "marketplace", "add", str(tmp_path / "missing")).startswith(
        "Error: failed to resolve local marketplace source path"
    )
    assert error(codex_bin, "plugin", "marketplace", "remove", "nope") == (
        "Error: marketplace `nope` is not configured or installed"
    )
    (tmp_path / "home-config").mkdir()
    assert not (Path(os.environ["CODEX_HOME"]) / "plugins").exists()


def test_plugin_names_and_paths_never_leave_codex_home(
    codex_bin: Path, market: Path, tmp_path: Path, codex_home: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    assert error(codex_bin, "plugin", "add", "../evil@localmk").startswith(
        "Error: invalid plugin name: only ASCII letters"
    )
    assert error(codex_bin, "plugin", "remove", "demo@../../outside").startswith(
        "Error: invalid marketplace name"
    )
    evil = tmp_path / "evilmarket"
    make_marketplace(evil, tmp_path, name="evilmk")
    entries(evil, [local("demo", "./plugins/demo")], name="../../outside")
    assert error(codex_bin, "plugin", "marketplace", "add", str(evil)).startswith(
        "Error: invalid marketplace name"
    )
    # an entry leaving the marketplace root is skipped; a version that is a path is refused
    (market / "plugins" / "demo" / "link").symlink_to(outside)
    entries(market, [local("demo", "./plugins/demo"), local("escape", "./../outside")])
    listed = codex(codex_bin, "plugin", "list").stdout
    assert "escape" not in listed and "demo@localmk" in listed
    assert error(codex_bin, "plugin", "add", "escape@localmk").startswith("Error: plugin `escape`")
    assert "links outside the plugin" in error(codex_bin, "plugin", "add", "demo@localmk")
    (market / "plugins" / "demo" / "link").unlink()
    manifest = market / "plugins" / "demo" / ".codex-plugin" / "plugin.json"
    manifest.write_text(json.dumps({"name": "demo", "version": "../../../../outside/x"}))
    assert error(codex_bin, "plugin", "add", "demo@localmk").startswith(
        "Error: invalid plugin version in plugin.json"
    )
    manifest.write_text(json.dumps({"name": "demo", "version": "1.0"}))
    # a symlink planted where the cache goes is not written through
    cache = codex_home / "plugins" / "cache"
    cache.mkdir(parents=True)
    (cache / "localmk").symlink_to(outside)
    assert "symlink" in error(codex_bin, "plugin", "add", "demo@localmk")
    assert "symlink" in error(codex_bin, "plugin", "remove", "demo@localmk")
    assert list(outside.iterdir()) == []
    (cache / "localmk").unlink()
    assert codex(codex_bin, "plugin", "add", "demo@localmk").returncode == 0
    assert (cache / "localmk" / "demo" / "1.0" / ".codex-plugin" / "plugin.json").is_file()


def test_plugin_hook_stops_running_when_its_installed_files_change(
    codex_bin: Path, market: Path, codex_home: Path
) -> None:
    assert codex(codex_bin, "plugin", "add", "demo@localmk").returncode == 0
    _, data = read_config_toml(codex_home / "config.toml")
    [hook] = load_hooks(codex_home, {}, None, data["plugins"]).hooks
    set_hook_state(codex_home, hook.key, trusted_hash=hook.current_hash)
    _, data = read_config_toml(codex_home / "config.toml")
    catalog = load_hooks(codex_home, data["hooks"], None, data["plugins"])
    assert catalog.trust(catalog.hooks[0]) == "trusted"
    assert catalog.runnable("UserPromptSubmit")
    script = codex_home / "plugins" / "cache" / "localmk" / "demo" / "0.1.0" / "hooks" / "record.sh"
    script.write_text("#!/bin/sh\necho changed\n")  # same command, other program
    catalog = load_hooks(codex_home, data["hooks"], None, data["plugins"])
    assert catalog.trust(catalog.hooks[0]) == "modified"
    assert not catalog.runnable("UserPromptSubmit")
    # reinstalling (the user's act) records the copy anew; its trust is the user's again
    assert codex(codex_bin, "plugin", "add", "demo@localmk").returncode == 0
    catalog = load_hooks(codex_home, data["hooks"], None, data["plugins"])
    assert catalog.trust(catalog.hooks[0]) == "trusted"
    # a disabled plugin brings nothing
    disabled = {"demo@localmk": {"enabled": False}}
    assert load_hooks(codex_home, data["hooks"], None, disabled).hooks == []
