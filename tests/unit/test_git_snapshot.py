"""Work-tree snapshots for /undo: restore files, never touch the user's index or HEAD."""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path

import pytest

from codex_core.git_snapshot import (
    SNAPSHOT_REF_PREFIX,
    NotAGitRepoError,
    SnapshotError,
    restore_snapshot,
    take_snapshot,
    working_tree_diff,
)
from codex_core.host_git import HostGit, find_repo
from codex_core.session.undo import UndoStack


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "user.email", "u@example.com")
    git(root, "config", "user.name", "U")
    (root / "a.txt").write_text("one\n")
    (root / ".gitignore").write_text("ignored/\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "init")
    return root


def test_git_snapshot_restores_a_dirty_tree_without_touching_index_or_head(repo: Path) -> None:
    (repo / "a.txt").write_text("dirty but unstaged\n")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")
    (repo / "untracked.txt").write_text("mine\n")
    head, status = git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain")
    index_before = (repo / ".git" / "index").read_bytes()

    snap = take_snapshot(repo / ".", "s1")

    (repo / "a.txt").write_text("changed by the model\n")
    (repo / "untracked.txt").unlink()
    (repo / "new" / "deep").mkdir(parents=True)
    (repo / "new" / "deep" / "made.txt").write_text("x\n")
    (repo / "ignored").mkdir()
    (repo / "ignored" / "cache.bin").write_text("keep\n")

    result = restore_snapshot(snap)

    assert (repo / "a.txt").read_text() == "dirty but unstaged\n"
    assert (repo / "untracked.txt").read_text() == "mine\n"
    assert (repo / "staged.txt").read_text() == "staged\n"
    assert not (repo / "new").exists()
    assert (repo / "ignored" / "cache.bin").read_text() == "keep\n"
    assert sorted(result.restored) == ["a.txt", "untracked.txt"]
    assert result.deleted == ["new/deep/made.txt"]
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == status
    assert (repo / ".git" / "index").read_bytes() == index_before
    assert snap.ref.startswith(SNAPSHOT_REF_PREFIX + "s1/")
    # The snapshot lives in codex's private git directory, never in the user's repository.
    assert HostGit(snap.repo).run(["rev-parse", snap.ref]).decode().strip() == snap.commit
    assert git(repo, "for-each-ref", SNAPSHOT_REF_PREFIX) == ""


def test_git_snapshot_in_an_unborn_repo(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "f.txt").write_text("v1\n")
    snap = take_snapshot(tmp_path, "s")
    (tmp_path / "f.txt").write_text("v2\n")
    restore_snapshot(snap)
    assert (tmp_path / "f.txt").read_text() == "v1\n"


def test_git_snapshot_outside_git_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(NotAGitRepoError):
        take_snapshot(tmp_path, "s")
    stack = UndoStack("s")
    asyncio.run(stack.before_turn(tmp_path))
    with pytest.raises(SnapshotError, match="needs a git repository"):
        asyncio.run(stack.undo())


def test_undo_stack_undoes_the_last_turn_then_says_nothing_left(repo: Path) -> None:
    stack = UndoStack("s")

    async def scenario() -> tuple[str, str]:
        await stack.before_turn(repo)
        (repo / "a.txt").write_text("turn 1\n")
        await stack.before_turn(repo)
        (repo / "a.txt").write_text("turn 2\n")
        first = await stack.undo()
        assert (repo / "a.txt").read_text() == "turn 1\n"
        second = await stack.undo()
        return first, second

    first, second = asyncio.run(scenario())
    assert first == "Undo: restored 1 file as before the last turn."
    assert (repo / "a.txt").read_text() == "one\n"
    assert "1 file" in second
    with pytest.raises(SnapshotError, match="nothing to undo"):
        asyncio.run(stack.undo())
    assert git(repo, "for-each-ref", SNAPSHOT_REF_PREFIX) == ""
    shadow = HostGit(find_repo(repo))  # type: ignore[arg-type]
    assert shadow.run(["for-each-ref", SNAPSHOT_REF_PREFIX]) == b""


def test_working_tree_diff_shows_changes_and_new_files_but_not_ignored(repo: Path) -> None:
    (repo / "a.txt").write_text("two\n")
    (repo / "new.txt").write_text("fresh\n")
    (repo / "ignored").mkdir()
    (repo / "ignored" / "x.txt").write_text("no\n")
    diff = working_tree_diff(repo)
    assert "-one" in diff and "+two" in diff
    assert "+++ b/new.txt" in diff and "+fresh" in diff
    assert "ignored/x.txt" not in diff


def test_working_tree_diff_before_the_first_commit_and_outside_git(tmp_path: Path) -> None:
    unborn = tmp_path / "unborn"
    unborn.mkdir()
    git(unborn, "init", "-q")
    (unborn / "f.txt").write_text("hi\n")
    assert "+hi" in working_tree_diff(unborn)
    with pytest.raises(NotAGitRepoError):
        working_tree_diff(tmp_path)


def test_git_snapshot_diff_sees_an_edit_made_in_the_second_of_the_commit(repo: Path) -> None:
    """ "Racy git": an edit of the same size within the second of the last `git add` has the
    index's stat data; git re-reads such files only while the index looks as new as they
    are. /diff works on a copy of the index, which must keep the index's times (CI once
    showed /diff without the change)."""
    for _ in range(5):
        while time.time() % 1 > 0.2:  # start early in a second: all of it fits in one
            time.sleep(0.05)
        second = int(time.time())
        (repo / "same.txt").write_text("one\n")
        git(repo, "add", "same.txt")
        git(repo, "commit", "-qm", "same")
        (repo / "same.txt").write_text("two\n")
        if int(time.time()) == second:
            break
    time.sleep(1.1)  # the diff runs a second later, as a user's /diff would
    diff = working_tree_diff(repo)
    assert "-one" in diff and "+two" in diff
