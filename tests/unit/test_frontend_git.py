"""Git root discovery in the frontend kit."""

from __future__ import annotations

import shutil
from pathlib import Path

from codex_core.frontend import GitRootCache, find_git_root, project_root


def test_frontend_git_root_is_nearest_ancestor_with_dot_git(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "repo" / ".git" / "objects").mkdir()
    deep = tmp_path / "repo" / "a" / "b"
    deep.mkdir(parents=True)
    assert find_git_root(deep) == tmp_path / "repo"
    assert find_git_root(tmp_path / "repo") == tmp_path / "repo"


def test_frontend_git_root_accepts_a_dot_git_file(tmp_path: Path) -> None:
    linked = tmp_path / "main" / ".git" / "worktrees" / "wt"
    linked.mkdir(parents=True)
    (linked / "HEAD").write_text("ref: refs/heads/wt\n")
    (linked / "commondir").write_text("../..\n")
    (tmp_path / "main" / ".git" / "objects").mkdir()
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text(f"gitdir: {linked}\n")
    assert find_git_root(tmp_path / "wt") == tmp_path / "wt"


def test_frontend_git_root_none_outside_a_repo(tmp_path: Path) -> None:
    root = find_git_root(tmp_path)
    assert root is None or (root / ".git").exists()


def test_frontend_git_project_root_falls_back_to_cwd(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "repo" / ".git" / "objects").mkdir()
    (tmp_path / "repo" / "src").mkdir()
    assert project_root(tmp_path / "repo" / "src") == (tmp_path / "repo", True)
    plain = tmp_path / "plain"
    plain.mkdir()
    if find_git_root(plain) is None:
        assert project_root(plain) == (plain, False)


def test_frontend_git_cache_answers_once_per_directory(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "objects").mkdir()
    cache = GitRootCache()
    assert cache.root_of(tmp_path) == tmp_path
    shutil.rmtree(tmp_path / ".git")
    assert cache.root_of(tmp_path) == tmp_path  # memoised


def test_frontend_git_empty_dot_git_is_no_work_tree(tmp_path: Path) -> None:
    """An empty `.git` (a sandbox's mount point, e.g. a leaked `/tmp/.git`) marks nothing.

    The CI run of 2026-11-25 had such a `/tmp/.git` left by a killed sandbox: every test
    directory under /tmp then counted as inside a repository rooted at /tmp.
    """
    (tmp_path / ".git").mkdir()
    child = tmp_path / "child"
    child.mkdir()
    assert find_git_root(child) is None or find_git_root(child) != tmp_path
    (child / ".git").write_text("gitdir: ../elsewhere\n")
    assert find_git_root(child) != child  # pointing at nothing
    (tmp_path / "elsewhere" / "objects").mkdir(parents=True)
    (tmp_path / "elsewhere" / "HEAD").write_text("ref: refs/heads/main\n")
    assert find_git_root(child) == child  # a .git file counts (worktrees, submodules)
