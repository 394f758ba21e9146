"""`codex plugin` beside `codex-rust plugin` 0.169 (issue 25): for the same local marketplace
both print the same text and JSON, exit with the same codes, write the same config.toml and
the same installed files, and leave the same nothing behind (ours also removes the emptied
cache folders and its own pin file, which 0.169 does not have)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from codex_core.config.edit import set_hook_state
from codex_core.config.loader import read_config_toml
from codex_core.hooks.sources import load_hooks
from tests.compat.conftest import Cli, user_texts
from tests.support.model_server import ModelServer
from tests.support.plugin_market import git_commit_all, git_http_server, make_marketplace
from tests.support.sse import message, turn

CODEX = str(Path(sys.executable).parent / "codex")

STEPS: list[tuple[str, ...]] = [
    ("plugin", "marketplace", "list"),
    ("plugin", "marketplace", "add", "{MARKET}"),
    ("plugin", "marketplace", "add", "{MARKET}", "--json"),
    ("plugin", "marketplace", "list"),
    ("plugin", "marketplace", "list", "--json"),
    ("plugin", "list"),
    ("plugin", "list", "--available", "--json"),
    ("plugin", "add", "demo@localmk", "--json"),
    ("plugin", "list"),
    ("plugin", "list", "--json"),
    ("plugin", "add", "nope@localmk"),
    ("plugin", "add", "demo", "--marketplace", "nomk"),
    ("plugin", "remove", "demo@localmk", "--json"),
    ("plugin", "add", "demo", "-m", "localmk"),
    ("plugin", "remove", "demo@localmk"),
    ("plugin", "marketplace", "remove", "localmk"),
    ("plugin", "marketplace", "remove", "localmk"),
    ("plugin", "list"),
]


def run_all(
    binary: str, home: Path, market: Path, steps: list[tuple[str, ...]] = STEPS
) -> list[tuple[int, str, str, str, list[str]]]:
    env = {**os.environ, "CODEX_HOME": str(home), "RUST_BACKTRACE": "0", "RUST_LOG": "off"}
    seen = []
    for step in steps:
        args = [a.replace("{MARKET}", str(market)) for a in step]
        done = subprocess.run(
            [binary, *args], capture_output=True, text=True, timeout=60, env=env, cwd=market
        )
        config = home / "config.toml"
        text = config.read_text().strip() if config.exists() else ""
        cache = home / "plugins" / "cache"
        files = sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file())
        first_error = (done.stderr.strip().splitlines() or [""])[0]
        seen.append(
            (
                done.returncode,
                done.stdout.replace(str(home), "{HOME}"),
                first_error,
                text.replace(str(home), "{HOME}"),
                files,
            )
        )
    return seen


def test_plugins_commands_match_codex_rust(
    rust_bin: str, shared_home: Path, tmp_path: Path
) -> None:
    market = tmp_path / "market"
    make_marketplace(market, tmp_path)
    ours_home = Path(tempfile.mkdtemp(prefix="ours-", dir=shared_home.parent))
    try:
        ours = run_all(CODEX, ours_home, market)
    finally:
        shutil.rmtree(ours_home, ignore_errors=True)
    theirs = run_all(rust_bin, shared_home, market)
    for step, mine, rust in zip(STEPS, ours, theirs, strict=True):
        assert mine == rust, step


GIT_STEPS: list[tuple[str, ...]] = [
    ("plugin", "marketplace", "add", "{URL}"),
    ("plugin", "marketplace", "add", "{URL}", "--json"),
    ("plugin", "marketplace", "list", "--json"),
    ("plugin", "add", "tool@gitmk"),
    ("plugin", "list"),
    ("plugin", "marketplace", "remove", "gitmk"),
    ("plugin", "list"),
    ("plugin", "remove", "tool@gitmk"),
]


def test_plugins_git_marketplace_matches_codex_rust(
    rust_bin: str, shared_home: Path, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    make_marketplace(repo, tmp_path, name="gitmk", plugin="tool")
    manifest = repo / "plugins" / "tool" / ".codex-plugin" / "plugin.json"
    manifest.write_text('{"name": "tool"}')  # no version: installed as `local`
    git_commit_all(repo)
    served = tmp_path / "served"
    served.mkdir()
    ours_home = Path(tempfile.mkdtemp(prefix="ours-", dir=shared_home.parent))
    try:
        with git_http_server(repo, served) as url:
            steps = [tuple(a.replace("{URL}", url) for a in s) for s in GIT_STEPS]
            ours = run_all(CODEX, ours_home, tmp_path, steps)
            theirs = run_all(rust_bin, shared_home, tmp_path, steps)
    finally:
        shutil.rmtree(ours_home, ignore_errors=True)
    assert "gitmk/tool/local/.codex-plugin/plugin.json" in theirs[3][4]
    for step, mine, rust in zip(GIT_STEPS, ours, theirs, strict=True):
        assert mine == rust, step


def _skills_text(body: dict[str, Any]) -> str:
    """The skills list of a request up to its roots and entries (0.169 follows them with a
    `### How to use skills` section of its own prose, which ours leaves out)."""
    text = next(
        part["text"]
        for item in body["input"]
        if item.get("type") == "message" and item.get("role") == "developer"
        for part in item["content"]
        if part.get("text", "").startswith("<skills_instructions>")
    )
    return text.split("### How to use skills")[0].removesuffix("</skills_instructions>").rstrip()


def test_plugin_installed_by_codex_rust_joins_our_session(
    rust_bin: str, shared_home: Path, project: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    market = tmp_path / "market"
    make_marketplace(market, records)
    rust = Cli(rust_bin, shared_home)
    for args in (("marketplace", "add", str(market)), ("add", "demo@localmk")):
        assert rust.run("plugin", *args, cwd=project).returncode == 0
    for folder, name in (
        (shared_home / "skills", "aa-user"),
        (project / ".agents" / "skills", "aa-repo"),
    ):
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {name}\n---\n")
    _, data = read_config_toml(shared_home / "config.toml")
    [hook] = load_hooks(shared_home, {}, None, data["plugins"]).hooks
    set_hook_state(shared_home, hook.key, trusted_hash=hook.current_hash)
    model_server.add(turn(message("one")), turn(message("two")))
    prompt = "use $demo:demo-skill"
    assert rust.exec(model_server, prompt, cwd=project).returncode == 0
    assert len(list(records.glob("ups.*.json"))) == 1  # 0.169 ran the plugin hook we trusted
    ours = Cli(CODEX, shared_home).exec(model_server, prompt, cwd=project)
    assert ours.returncode == 0, ours.stderr
    assert len(list(records.glob("ups.*.json"))) == 2
    theirs_text, ours_text = (_skills_text(r.body) for r in model_server.requests[-2:])
    assert "- demo:demo-skill: A demo skill (file: r" in ours_text
    assert ours_text == theirs_text
    injected = [
        [t for t in user_texts(r.body) if t.startswith("<skill>")]
        for r in model_server.requests[-2:]
    ]
    assert injected[0] == injected[1] and len(injected[0]) == 1
    assert injected[0][0].startswith("<skill>\n<name>demo:demo-skill</name>\n<path>")
