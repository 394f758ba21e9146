"""Local plugins (issue 25) through the real `codex plugin` commands and `codex exec`.

The commands' messages, JSON, files and config entries are those `codex-rust plugin` 0.169
printed and wrote for the same marketplace; an installed plugin's skill is listed to the
model (`<plugin>:<skill>` under the marketplace's cache root) and injected on `$name`, its MCP
server's tools are offered, its hook runs once trusted (key `<plugin id>:hooks/hooks.json:…`,
the plain hook hash as 0.169 records it) with PLUGIN_ROOT / PLUGIN_DATA set. Removing the
plugin and the marketplace leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from codex_core.config.edit import set_hook_state
from codex_core.config.loader import read_config_toml
from codex_core.hooks.sources import load_hooks
from tests.mcp.conftest import namespace_call
from tests.support.model_server import ModelServer
from tests.support.plugin_market import git_commit_all, git_http_server, make_marketplace
from tests.support.sse import message, turn


def codex(codex_bin: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(codex_bin), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
    )


def exec_run(codex_bin: Path, server: ModelServer, cwd: Path, prompt: str) -> None:
    done = codex(
        codex_bin,
        "exec",
        "--skip-git-repo-check",
        "-s",
        "danger-full-access",
        *server.cli_flags(),
        "-m",
        "mock-model",
        prompt,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr


def tree(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


def texts(body: dict[str, Any], role: str) -> list[str]:
    return [
        part.get("text", "")
        for item in body["input"]
        if item.get("type") == "message" and item.get("role") == role
        for part in item["content"]
    ]


def test_plugins_local_marketplace_install_use_remove(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    market = tmp_path / "market"
    make_marketplace(market, records)
    work = tmp_path / "work"
    work.mkdir()
    added = codex(codex_bin, "plugin", "marketplace", "add", str(market))
    assert added.returncode == 0, added.stderr
    assert added.stdout == (
        f"Added marketplace `localmk` from {market}.\nInstalled marketplace root: {market}\n"
    )
    again = codex(codex_bin, "plugin", "marketplace", "add", str(market), "--json")
    assert json.loads(again.stdout) == {
        "marketplaceName": "localmk",
        "installedRoot": str(market),
        "alreadyAdded": True,
    }
    listed = codex(codex_bin, "plugin", "list")
    assert listed.stdout == (
        f"Marketplace `localmk`\n{market}/.agents/plugins/marketplace.json\n\n"
        "PLUGIN        STATUS         VERSION  SOURCE\n"
        f"demo@localmk  not installed           {market}/plugins/demo\n"
    )
    installed = codex(codex_bin, "plugin", "add", "demo@localmk", "--json")
    assert installed.returncode == 0, installed.stderr
    root = codex_home / "plugins" / "cache" / "localmk" / "demo" / "0.1.0"
    assert json.loads(installed.stdout) == {
        "pluginId": "demo@localmk",
        "name": "demo",
        "marketplaceName": "localmk",
        "version": "0.1.0",
        "installedPath": str(root),
        "authPolicy": "ON_INSTALL",
    }
    assert (root / "skills" / "demo-skill" / "SKILL.md").is_file()
    config = (codex_home / "config.toml").read_text()
    assert config == (
        f'[marketplaces.localmk]\nsource_type = "local"\nsource = "{market}"\n\n'
        '[plugins."demo@localmk"]\nenabled = true\n'
    )
    assert "installed, enabled  0.1.0" in codex(codex_bin, "plugin", "list").stdout

    # untrusted: the plugin's hook does not run; its skill and MCP server are there anyway
    model_server.add(turn(message("first")))
    exec_run(codex_bin, model_server, work, "hello")
    assert not list(records.iterdir())

    _, data = read_config_toml(codex_home / "config.toml")
    [hook] = load_hooks(codex_home, data.get("hooks", {}), None, data["plugins"]).hooks
    assert hook.key == "demo@localmk:hooks/hooks.json:user_prompt_submit:0:0"
    set_hook_state(codex_home, hook.key, trusted_hash=hook.current_hash)

    model_server.add(
        namespace_call("mcp__plugecho", "echo", {"text": "hi"}, "c1"), turn(message("done"))
    )
    exec_run(codex_bin, model_server, work, "please use $demo:demo-skill")
    first = model_server.requests[1].body
    listing = next(t for t in texts(first, "developer") if t.startswith("<skills_instructions>"))
    cache = codex_home / "plugins" / "cache" / "localmk"
    assert f"- `r0` = `{cache}`" in listing
    assert (
        "- demo:demo-skill: A demo skill (file: r0/demo/0.1.0/skills/demo-skill/SKILL.md)"
        in listing
    )
    injected = [t for t in texts(first, "user") if t.startswith("<skill>")]
    assert injected == [
        "<skill>\n<name>demo:demo-skill</name>\n"
        f"<path>{root}/skills/demo-skill/SKILL.md</path>\n"
        "---\nname: demo-skill\ndescription: A demo skill\n---\n\nBODY-OF-DEMO-SKILL\n\n</skill>"
    ]
    assert any(t.get("name") == "mcp__plugecho" for t in first["tools"]), [
        t.get("name") for t in first["tools"]
    ]
    outputs = [
        i["output"]
        for i in model_server.requests[2].body["input"]
        if i.get("type") == "function_call_output"
    ]
    assert outputs and "echo: hi" in str(outputs[0])
    [payload] = [json.loads(p.read_text()) for p in records.glob("ups.*.json")]
    assert payload["prompt"] == "please use $demo:demo-skill"
    env = dict(
        line.split("=", 1)
        for p in records.glob("ups.*.env")
        for line in p.read_text().splitlines()
        if "=" in line
    )
    assert env["PLUGIN_ROOT"] == env["CLAUDE_PLUGIN_ROOT"] == str(root)
    assert env["PLUGIN_DATA"] == str(codex_home / "plugins" / "data" / "demo-localmk")

    removed = codex(codex_bin, "plugin", "remove", "demo@localmk")
    assert removed.returncode == 0, removed.stderr
    assert removed.stdout == "Removed plugin `demo` from marketplace `localmk`.\n"
    assert not (codex_home / "plugins").exists()
    gone = codex(codex_bin, "plugin", "marketplace", "remove", "localmk")
    assert gone.stdout == "Removed marketplace `localmk`.\n"
    _, data = read_config_toml(codex_home / "config.toml")
    assert data == {}
    assert codex(codex_bin, "plugin", "marketplace", "list").stdout == (
        "No plugin marketplaces in scope.\n"
    )


def test_plugins_git_marketplace_is_cloned_and_removed(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    make_marketplace(repo, tmp_path, name="gitmk", plugin="tool")
    git_commit_all(repo)
    served = tmp_path / "served"
    served.mkdir()
    with git_http_server(repo, served) as url:
        added = codex(codex_bin, "plugin", "marketplace", "add", url)
        assert added.returncode == 0, added.stderr
        clone = codex_home / ".tmp" / "marketplaces" / "gitmk"
        assert added.stdout == (
            f"Added marketplace `gitmk` from {url}.\nInstalled marketplace root: {clone}\n"
        )
        assert (clone / ".agents" / "plugins" / "marketplace.json").is_file()
        listing = json.loads(codex(codex_bin, "plugin", "marketplace", "list", "--json").stdout)
        assert listing == {
            "marketplaces": [
                {
                    "name": "gitmk",
                    "root": str(clone),
                    "marketplaceSource": {"sourceType": "git", "source": url},
                }
            ]
        }
        upgrade = ("plugin", "marketplace", "upgrade")
        assert codex(codex_bin, *upgrade).stdout == (
            "All configured Git marketplaces are already up to date.\n"
        )
        (repo / "NEWS").write_text("more\n")
        git_commit_all(repo)
        bare = served / "market.git"
        subprocess.run(["git", "-C", str(repo), "push", "-q", str(bare), "HEAD"], check=True)
        subprocess.run(["git", "-C", str(bare), "update-server-info"], check=True)
        assert codex(codex_bin, *upgrade, "gitmk").stdout == (
            f"Upgraded 1 marketplace(s).\nInstalled marketplace root: {clone}\n"
        )
        assert (clone / "NEWS").is_file()
        unknown = codex(codex_bin, *upgrade, "nope")
        assert (unknown.returncode, unknown.stderr) == (
            1,
            "Error: marketplace `nope` is not configured as a Git marketplace\n",
        )
    installed = codex(codex_bin, "plugin", "add", "tool", "--marketplace", "gitmk")
    assert installed.returncode == 0, installed.stderr
    assert (codex_home / "plugins" / "cache" / "gitmk" / "tool" / "0.1.0").is_dir()
    removed = codex(codex_bin, "plugin", "marketplace", "remove", "gitmk")
    assert removed.stdout == (
        f"Removed marketplace `gitmk`.\nRemoved installed marketplace root: {clone}\n"
    )
    assert not clone.exists()
    assert codex(codex_bin, "plugin", "marketplace", "upgrade").stdout == (
        "No configured Git marketplaces to upgrade.\n"
    )
    codex(codex_bin, "plugin", "remove", "tool@gitmk")
    _, data = read_config_toml(codex_home / "config.toml")
    assert data == {}
    assert tree(codex_home / "plugins") == []
