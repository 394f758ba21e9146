"""Git root discovery in the frontend kit."""

from __future__ import annotations

from pathlib import Path

from codex_core.frontend import GitRootCache, find_git_root, project_root


def test_frontend_git_root_is_nearest_ancestor_with_dot_git(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    deep = tmp_path / "repo" / "a" / "b"
    deep.mkdir(parents=True)
    assert find_git_root(deep) == tmp_path / "repo"
    assert find_git_root(tmp_path / "repo") == tmp_path / "repo"


def test_frontend_git_root_accepts_a_dot_git_file(tmp_path: Path) -> None:
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/wt\n")
    assert find_git_root(tmp_path / "wt") == tmp_path / "wt"


def test_frontend_git_root_none_outside_a_repo(tmp_path: Path) -> None:
    root = find_git_root(tmp_path)
    assert root is None or (root / ".git").exists()


def test_frontend_git_project_root_falls_back_to_cwd(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "src").mkdir()
    assert project_root(tmp_path / "repo" / "src") == (tmp_path / "repo", True)
    plain = tmp_path / "plain"
    plain.mkdir()
    if find_git_root(plain) is None:
        assert project_root(plain) == (plain, False)


def test_frontend_git_cache_answers_once_per_directory(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    cache = GitRootCache()
    assert cache.root_of(tmp_path) == tmp_path
    (tmp_path / ".git").rmdir()
    assert cache.root_of(tmp_path) == tmp_path  # memoised
