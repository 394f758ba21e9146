"""TurnDiffTracker: git-style diff of a turn's file changes against first-touch baselines."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from codex_core.apply_patch import TurnDiffTracker, apply_patch

ZERO = "0" * 40


def _oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


HELLO = _oid(b"hello\n")
BYE = _oid(b"bye\n")
AB = _oid(b"a\nb")
AC = _oid(b"a\nc")
OLD_PY = _oid(b"one\ntwo\nthree\nfour\n")
NEW_PY = _oid(b"one\ntwo\nthree\n4\n")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A directory marked as a git work tree, so diff paths are shown relative to it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "objects").mkdir()
    return tmp_path


def test_turn_diff_none_when_nothing_changed(repo: Path) -> None:
    (repo / "a.txt").write_text("same\n")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "a.txt", repo / "never-created.txt"])
    assert tracker.unified_diff() is None


def test_turn_diff_added_file(repo: Path) -> None:
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "new.txt"])
    (repo / "new.txt").write_text("hello\n")
    assert tracker.unified_diff() == (
        "diff --git a/new.txt b/new.txt\n"
        "new file mode 100644\n"
        f"index {ZERO}..{HELLO}\n"
        "--- /dev/null\n"
        "+++ b/new.txt\n"
        "@@ -0,0 +1 @@\n"
        "+hello\n"
    )


def test_turn_diff_deleted_file(repo: Path) -> None:
    (repo / "old.txt").write_text("bye\n")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "old.txt"])
    (repo / "old.txt").unlink()
    assert tracker.unified_diff() == (
        "diff --git a/old.txt b/old.txt\n"
        "deleted file mode 100644\n"
        f"index {BYE}..{ZERO}\n"
        "--- a/old.txt\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-bye\n"
    )


def test_turn_diff_updated_file_with_no_newline_markers(repo: Path) -> None:
    (repo / "sub").mkdir()
    target = repo / "sub" / "f.txt"
    target.write_text("a\nb")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([target])
    target.write_text("a\nc")
    assert tracker.unified_diff() == (
        "diff --git a/sub/f.txt b/sub/f.txt\n"
        f"index {AB}..{AC} 100644\n"
        "--- a/sub/f.txt\n"
        "+++ b/sub/f.txt\n"
        "@@ -1,2 +1,2 @@\n"
        " a\n"
        "-b\n"
        "\\ No newline at end of file\n"
        "+c\n"
        "\\ No newline at end of file\n"
    )


def test_turn_diff_rename_with_edit(repo: Path) -> None:
    (repo / "old.py").write_text("one\ntwo\nthree\nfour\n")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "old.py", repo / "new.py"])
    apply_patch(
        "*** Begin Patch\n*** Update File: old.py\n*** Move to: new.py\n@@\n-four\n+4\n"
        "*** End Patch",
        repo,
    )
    diff = tracker.unified_diff()
    assert diff == (
        "diff --git a/old.py b/new.py\n"
        "similarity index 75%\n"
        "rename from old.py\n"
        "rename to new.py\n"
        f"index {OLD_PY}..{NEW_PY} 100644\n"
        "--- a/old.py\n"
        "+++ b/new.py\n"
        "@@ -1,4 +1,4 @@\n"
        " one\n"
        " two\n"
        " three\n"
        "-four\n"
        "+4\n"
    )


def test_turn_diff_pure_rename(repo: Path) -> None:
    (repo / "a.txt").write_text("same\n")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "a.txt", repo / "b.txt"])
    (repo / "a.txt").rename(repo / "b.txt")
    assert tracker.unified_diff() == (
        "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\n"
    )


def test_turn_diff_keeps_first_baseline_across_patches(repo: Path) -> None:
    target = repo / "f.txt"
    target.write_text("v1\n")
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([target])
    target.write_text("v2\n")
    tracker.on_patch_begin([target])
    target.write_text("v3\n")
    diff = tracker.unified_diff()
    assert diff is not None
    assert "-v1\n+v3\n" in diff
    target.write_text("v1\n")
    assert tracker.unified_diff() is None


def test_turn_diff_sorted_by_path_and_binary(repo: Path) -> None:
    tracker = TurnDiffTracker()
    tracker.on_patch_begin([repo / "z.txt", repo / "a.bin"])
    (repo / "z.txt").write_text("z\n")
    (repo / "a.bin").write_bytes(b"\x00\x01")
    diff = tracker.unified_diff()
    assert diff is not None
    assert diff.index("a/a.bin") < diff.index("a/z.txt")
    assert "Binary files /dev/null and b/a.bin differ\n" in diff


def test_turn_diff_outside_a_repository_uses_absolute_paths(tmp_path: Path) -> None:
    tracker = TurnDiffTracker()
    target = tmp_path / "x.txt"
    tracker.on_patch_begin([target])
    target.write_text("x\n")
    diff = tracker.unified_diff()
    assert diff is not None
    shown = target.as_posix().lstrip("/")
    assert diff.startswith(f"diff --git a/{shown} b/{shown}\n")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_turn_diff_replays_with_git_apply(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "keep.txt").write_text("k1\nk2\nk3\nk4\nk5\nk6\nk7\nk8\n")
    (work / "gone.txt").write_text("remove me\n")
    (work / "move.txt").write_text("m1\nm2\nm3\n")
    (work / "tail.txt").write_text("no newline")
    baseline = tmp_path / "baseline"
    shutil.copytree(work, baseline)
    tracker = TurnDiffTracker()
    tracker.on_patch_begin(
        [work / n for n in ("keep.txt", "gone.txt", "move.txt", "moved.txt", "tail.txt", "n.txt")]
    )
    apply_patch(
        "*** Begin Patch\n*** Update File: keep.txt\n@@\n-k2\n+K2\n@@\n-k7\n+K7\n"
        "*** Delete File: gone.txt\n*** Add File: n.txt\n+fresh\n"
        "*** Update File: move.txt\n*** Move to: moved.txt\n@@\n-m3\n+M3\n"
        "*** Update File: tail.txt\n@@\n-no newline\n+now with newline\n*** End Patch",
        work,
    )
    diff = tracker.unified_diff()
    assert diff is not None
    subprocess.run(["git", "apply", "-"], cwd=baseline, input=diff.encode(), check=True)
    for name in ("keep.txt", "n.txt", "moved.txt", "tail.txt"):
        assert (baseline / name).read_bytes() == (work / name).read_bytes()
    assert not (baseline / "gone.txt").exists()
    assert not (baseline / "move.txt").exists()
