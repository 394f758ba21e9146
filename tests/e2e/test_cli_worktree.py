"""`--worktree` through the real console script with a local repository: where the worktree
goes, what it holds and how it is registered, compared with what the Codex CLI 0.169 did in
the same situation (tests/fixtures/cli_0169/worktree.json); and nothing of the repository
runs on the host while it is made (hooks, fsmonitor, filters).

`python -m tests.e2e.test_cli_worktree record` reruns the situation with `codex-rust` and
rewrites the fixture.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

RECORDED = Path(__file__).parent.parent / "fixtures" / "cli_0169" / "worktree.json"
SAFE_GIT = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *SAFE_GIT, *args], cwd=cwd, capture_output=True, text=True, timeout=30, check=True
    )
    return done.stdout


def make_repo(base: Path) -> Path:
    """A repository with one commit, then an edit, an untracked file and a sub directory."""
    repo = base / "project"
    (repo / "sub").mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    (repo / "a.txt").write_text("committed\n")
    (repo / "sub" / "b.txt").write_text("in sub\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "init")
    (repo / "a.txt").write_text("edited, not committed\n")
    (repo / "untracked.txt").write_text("new\n")
    return repo


def run_exec(
    binary: str, home: Path, cwd: Path, server: ModelServer, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
    env["RUST_BACKTRACE"] = "0"
    return subprocess.run(
        [binary, "exec", *server.cli_flags(), "-c", 'model="gpt-5.5"', *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
    )


def request_cwd(body: dict[str, Any]) -> str:
    for item in body["input"]:
        for part in item.get("content") or []:
            found = re.search(r"<cwd>(.*?)</cwd>", str(part.get("text", "")))
            if found:
                return found.group(1)
    raise AssertionError("no <cwd> in the request")


def facts(binary: str, home: Path, base: Path, server: ModelServer) -> dict[str, Any]:
    """What `exec --worktree` did, in terms both binaries can be compared on."""
    repo = make_repo(base)
    server.add(turn(message("ok")))
    before = len(server.requests)
    done = run_exec(binary, home, repo / "sub", server, "--worktree", "hi")
    assert done.returncode == 0, done.stderr
    cwd = Path(request_cwd(server.requests[before].body))
    tree = cwd.parent
    listed = git(repo, "worktree", "list", "--porcelain").split("\n\n")
    entry = next(block for block in listed if block.startswith(f"worktree {tree}"))
    outside = base / "not-a-repo"
    outside.mkdir()
    refused = run_exec(binary, home, outside, server, "--skip-git-repo-check", "--worktree", "hi")
    return {
        "cwd": re.sub(r"/worktrees/[0-9a-f]{4}/", "/worktrees/<hex4>/", str(cwd)).replace(
            str(home), "<CODEX_HOME>"
        ),
        "registered_detached_at_head": entry.splitlines()[1:]
        == [f"HEAD {git(repo, 'rev-parse', 'HEAD').strip()}", "detached"],
        "a.txt": (tree / "a.txt").read_text(),
        "untracked carried": (tree / "untracked.txt").exists(),
        "status in worktree": git(tree, "status", "--porcelain"),
        "outside a repository": {"exit": refused.returncode, "requests": len(server.requests)},
        "kept after the run": tree.is_dir(),
    }


def test_cli_worktree_where_and_what_as_0169(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    ours = facts(str(codex_bin), codex_home, tmp_path, model_server)
    recorded = json.loads(RECORDED.read_text())["facts"]
    assert ours == recorded


def test_cli_worktree_runs_nothing_of_the_repository(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    repo = make_repo(tmp_path)
    marker = tmp_path / "ran"
    script = f'#!/bin/sh\necho "$0" >> {marker}\ncat\n'
    for name in ("post-checkout", "reference-transaction", "post-index-change"):
        hook = repo / ".git" / "hooks" / name
        hook.write_text(script)
        hook.chmod(0o755)
    helper = repo / "planted.sh"
    helper.write_text(script)
    helper.chmod(0o755)
    with (repo / ".git" / "config").open("a") as config:
        config.write(f'[core]\n\tfsmonitor = {helper}\n[filter "evil"]\n\tsmudge = {helper}\n')
    (repo / ".gitattributes").write_text("*.txt filter=evil\n")
    git(repo, "add", ".gitattributes")
    git(repo, "-c", "filter.evil.clean=cat", "commit", "-qm", "attributes")
    model_server.add(turn(message("ok")))

    done = run_exec(str(codex_bin), codex_home, repo, model_server, "--worktree", "hi")

    assert done.returncode == 0, done.stderr
    assert not marker.exists(), marker.read_text()
    [tree] = (codex_home / "worktrees").glob("*/project")
    assert (tree / "a.txt").read_text() == "committed\n"
    git(repo, "worktree", "remove", str(tree))  # git can clean it up like its own
    assert not tree.exists()


def test_cli_worktree_without_a_commit_is_one_line(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    done = run_exec(str(codex_bin), codex_home, repo, model_server, "--worktree", "hi")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: ") and len(done.stderr.strip().splitlines()) == 1
    assert model_server.requests == []
    assert not list((repo / ".git").glob("worktrees/*"))


def record() -> None:
    """Run the situation with codex-rust and write the fixture (needs `codex-rust` on PATH)."""
    import pwd
    import shutil
    import tempfile

    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    work = Path(tempfile.mkdtemp(prefix="work-", dir=base))
    try:
        with ModelServer() as server:
            found = facts("codex-rust", home, work, server)
        version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
        RECORDED.write_text(
            json.dumps({"recorded_with": version.stdout.strip(), "facts": found}, indent=1) + "\n"
        )
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
