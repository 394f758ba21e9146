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

from tests.support.plugin_market import git_commit_all, git_http_server, make_marketplace

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
