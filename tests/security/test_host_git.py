"""Issue 23 item 2: git the core runs on the host never executes what the model planted.

The model writes the workspace (and, under workspace-write, /tmp and $TMPDIR); anything it
leaves there — a repository config, an enclosing repository found by upward discovery,
`.gitattributes`, a `git` on a relative PATH entry — must stay inert when codex takes its
`/undo` snapshot, shows `/diff`, records git facts or lists files for `@` search. The
end-to-end case runs `codex exec` (snapshot + git info on the host) against the scripted
model server; the others call the same host-side functions directly.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from codex_core.git_repo import find_repo, read_head
from codex_core.git_snapshot import restore_snapshot, take_snapshot, working_tree_diff
from codex_core.review.targets import merge_base
from codex_core.rollout.git_info import collect_git_info
from codex_tui.app.file_search import FileIndex
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

from .test_linux_helpers import CODEX

# Each value runs `touch MARKER` if git ever executes it (MARKER is substituted).
PLANTED = {
    "core.fsmonitor": "[core]\n\tfsmonitor = touch MARKER\n",
    "clean filter": "[filter \"x\"]\n\tclean = sh -c 'touch MARKER; cat'\n\trequired = true\n",
    "process filter": "[filter \"x\"]\n\tprocess = sh -c 'touch MARKER'\n",
    "smudge filter": "[filter \"x\"]\n\tsmudge = sh -c 'touch MARKER; cat'\n",
    "diff.external": "[diff]\n\texternal = sh -c 'touch MARKER'\n",
    "textconv": '[diff "x"]\n\ttextconv = sh -c \'touch MARKER; cat "$1"\' --\n',
    "core.pager": "[core]\n\tpager = sh -c 'touch MARKER; cat'\n[pager]\n\tdiff = true\n",
    "hooksPath": "[core]\n\thooksPath = HOOKS\n",
    "sshCommand": "[core]\n\tsshCommand = sh -c 'touch MARKER'\n",
    "include.path": "[include]\n\tpath = INCLUDED\n",
}


def git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True
    ).stdout


def plant(repo_dir: Path, key: str, marker: Path) -> None:
    """A repository at `repo_dir` whose config (and work tree) carry the planted `key`."""
    git(repo_dir, "init", "-q")
    (repo_dir / "tracked.txt").write_text("one\n")
    (repo_dir / ".gitattributes").write_text("* filter=x diff=x\n")
    git(repo_dir, "add", ".")
    git(repo_dir, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init")
    hooks = repo_dir / ".git" / "evil-hooks"
    hooks.mkdir()
    for name in ("pre-commit", "post-checkout", "post-index-change", "reference-transaction"):
        for where in (hooks, repo_dir / ".git" / "hooks"):
            (where / name).write_text(f"#!/bin/sh\ntouch {marker}\n")
            (where / name).chmod(0o755)
    included = repo_dir / ".git" / "included"
    included.write_text(f"[core]\n\tfsmonitor = touch {marker}\n")
    text = PLANTED[key].replace("MARKER", str(marker)).replace("HOOKS", str(hooks))
    with open(repo_dir / ".git" / "config", "a") as fh:
        fh.write(text.replace("INCLUDED", str(included)))
    (repo_dir / "tracked.txt").write_text("two\n")  # a change for diff, add and filters
    (repo_dir / "new.txt").write_text("new\n")


def exercise(cwd: Path, codex_home: Path) -> None:
    """Every host-side git path codex has, run in `cwd`."""
    snapshot = take_snapshot(cwd, "t")
    working_tree_diff(cwd)
    collect_git_info(cwd)
    found = find_repo(cwd)
    branch = read_head(found)[1] if found is not None else None
    assert branch is not None and merge_base(cwd, branch) is not None  # `codex review --base`
    index = FileIndex(cwd)
    index.walk()
    (cwd / "tracked.txt").write_text("three\n")
    restore_snapshot(snapshot)


@pytest.mark.parametrize("key", sorted(PLANTED))
def test_planted_repository_config_never_runs(tmp_path: Path, key: str, codex_home: Path) -> None:
    repo, marker = tmp_path / "ws", tmp_path / "ran"
    repo.mkdir()
    plant(repo, key, marker)
    exercise(repo, codex_home)
    assert not marker.exists(), f"{key} from the repository's .git/config ran on the host"
    assert (repo / "tracked.txt").read_text() == "two\n"  # the snapshot restored it


@pytest.mark.parametrize("key", ["core.fsmonitor", "clean filter", "textconv"])
def test_enclosing_repository_found_upward_stays_inert(
    tmp_path: Path, key: str, codex_home: Path
) -> None:
    """A planted $TMPDIR/.git (or any parent's) above a workspace that has none."""
    scratch, marker = tmp_path / "tmpdir", tmp_path / "ran"
    scratch.mkdir()
    plant(scratch, key, marker)
    ws = scratch / "project"
    ws.mkdir()
    (ws / "tracked.txt").write_text("mine\n")
    exercise(ws, codex_home)
    assert not marker.exists(), f"{key} of an enclosing repository ran on the host"


def test_git_on_a_relative_or_workspace_path_entry_is_never_run(
    tmp_path: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, marker = tmp_path / "ws", tmp_path / "ran"
    repo.mkdir()
    plant(repo, "core.fsmonitor", marker)
    bin_dir = repo / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    fake = bin_dir / "git"
    fake.write_text(f'#!/bin/sh\ntouch {marker}\nexec /usr/bin/env -i PATH=/usr/bin git "$@"\n')
    fake.chmod(0o755)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", f"node_modules/.bin:{bin_dir}:{os.environ['PATH']}")
    exercise(repo, codex_home)
    assert not marker.exists(), "a git planted in the workspace was executed"


@pytest.mark.parametrize("where", ["repository", "enclosing"])
def test_codex_exec_snapshot_and_git_info_run_nothing_planted(tmp_path: Path, where: str) -> None:
    """The real console script: a turn takes the /undo snapshot and records git info."""
    marker = tmp_path / "ran"
    top = tmp_path / "top"
    top.mkdir()
    plant(top, "core.fsmonitor", marker)
    with open(top / ".git" / "config", "a") as fh:
        fh.write(PLANTED["clean filter"].replace("MARKER", str(marker)))
    ws = top if where == "repository" else top / "project"
    ws.mkdir(exist_ok=True)
    home = tmp_path / "home"
    home.mkdir()
    with ModelServer() as server:
        server.add(turn(message("done")))
        argv = [str(CODEX), "exec", "--skip-git-repo-check", *server.cli_flags("responses"), "hi"]
        env = dict(os.environ, CODEX_HOME=str(home), OPENAI_API_KEY="sk-test")
        proc = subprocess.run(
            argv,
            cwd=ws,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists(), "planted git config ran on the host during codex exec"
