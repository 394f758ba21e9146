"""An empty `.git` directory above the working directory is no repository (issue 26).

0.169 follows git: a `.git` that is not a valid git directory marks nothing. A killed
sandbox can leave such a mount point in `/tmp`; before the fix, every test directory under
it counted as inside a repository rooted at `/tmp` for the exec git check, AGENTS.md
discovery and turn diffs. Each of those lookups is checked here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.frontend.git import find_git_root
from codex_core.git_repo import find_repo
from codex_core.git_snapshot import NotAGitRepoError, work_tree_root
from codex_core.instructions import project_doc_paths


@pytest.fixture
def under_empty_dot_git(tmp_path: Path) -> Path:
    """`tmp/.git` empty, `tmp/AGENTS.md`, and a project directory `tmp/project` below."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("above the project: not ours")
    project = tmp_path / "project"
    project.mkdir()
    (project / "AGENTS.md").write_text("the project's")
    return project


def test_empty_dot_git_above_is_not_a_repository_for_the_exec_git_check(
    under_empty_dot_git: Path,
) -> None:
    assert find_git_root(under_empty_dot_git) != under_empty_dot_git.parent


def test_empty_dot_git_above_does_not_widen_agents_md_discovery(
    under_empty_dot_git: Path,
) -> None:
    assert under_empty_dot_git.parent / "AGENTS.md" not in project_doc_paths(under_empty_dot_git)
    assert under_empty_dot_git / "AGENTS.md" in project_doc_paths(under_empty_dot_git)


def test_empty_dot_git_above_is_no_work_tree_for_turn_diffs_and_git_facts(
    under_empty_dot_git: Path,
) -> None:
    repo = find_repo(under_empty_dot_git)
    assert repo is None or repo.work_tree != under_empty_dot_git.parent
    if repo is None:
        with pytest.raises(NotAGitRepoError):
            work_tree_root(under_empty_dot_git)
