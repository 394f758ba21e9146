"""Working-tree snapshots in a side ref, for `/undo`: never the user's index, HEAD or branches.

A snapshot is a commit of every tracked and untracked, not ignored, file as it is on disk,
built through a private index file (a copy of the user's, so unchanged files are not
hashed again) and kept alive by a ref under `refs/codex/snapshots/`. Restoring writes the
snapshot's version of each path that changed since, and deletes the files created since;
ignored files are left alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SNAPSHOT_REF_PREFIX = "refs/codex/snapshots/"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Codex",
    "GIT_AUTHOR_EMAIL": "codex@localhost",
    "GIT_COMMITTER_NAME": "Codex",
    "GIT_COMMITTER_EMAIL": "codex@localhost",
}
GIT_TIMEOUT_SECONDS = 60


class SnapshotError(Exception):
    """Git refused or is missing; the message says what failed."""


class NotAGitRepoError(SnapshotError):
    """The directory is not inside a git work tree."""


@dataclass(frozen=True)
class Snapshot:
    """A snapshot commit of the work tree rooted at `root`."""

    root: Path
    commit: str
    ref: str


@dataclass(frozen=True)
class RestoreResult:
    """What a restore changed: paths written back and paths deleted (relative to the root)."""

    restored: list[str]
    deleted: list[str]


def _git(
    args: list[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    stdin: bytes | None = None,
    ok: tuple[int, ...] = (0,),
) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", **(env or {})},
            input=stdin,
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except FileNotFoundError as err:
        raise SnapshotError("git is not installed") from err
    except subprocess.TimeoutExpired as err:
        raise SnapshotError(f"git {args[0]} took longer than {GIT_TIMEOUT_SECONDS}s") from err
    if done.returncode not in ok:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise SnapshotError(f"git {args[0]} failed: {message[-1] if message else done.returncode}")
    return done.stdout


def work_tree_root(cwd: Path) -> Path:
    """The top of the git work tree containing `cwd`.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
    """
    try:
        out = _git(["rev-parse", "--show-toplevel"], cwd)
    except SnapshotError as err:
        raise NotAGitRepoError(f"{cwd} is not inside a git repository") from err
    return Path(out.decode().strip())


@contextmanager
def _private_index(root: Path) -> Iterator[dict[str, str]]:
    """An environment pointing git at a temporary copy of the repository's index."""
    with tempfile.TemporaryDirectory(prefix="codex-snapshot-") as tmp:
        index = Path(tmp) / "index"
        real = Path(
            _git(["rev-parse", "--path-format=absolute", "--git-path", "index"], root)
            .decode()
            .strip()
        )
        if real.is_file():
            shutil.copyfile(real, index)
        yield {"GIT_INDEX_FILE": str(index)}


def _tree_of_work_tree(root: Path) -> str:
    with _private_index(root) as env:
        _git(["add", "--all", "--", "."], root, env)
        return _git(["write-tree"], root, env).decode().strip()


def take_snapshot(cwd: Path, label: str) -> Snapshot:
    """Record the work tree as it is now in a commit under `refs/codex/snapshots/<label>/`.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
        SnapshotError: Git failed.
    """
    root = work_tree_root(cwd)
    tree = _tree_of_work_tree(root)
    parents: list[str] = []
    try:
        head = _git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root).decode().strip()
        parents = ["-p", head]
    except SnapshotError:
        pass  # an unborn branch: the snapshot has no parent
    commit = (
        _git(["commit-tree", tree, *parents], root, IDENTITY, stdin=b"codex snapshot\n")
        .decode()
        .strip()
    )
    ref = f"{SNAPSHOT_REF_PREFIX}{label}/{time.time_ns()}"
    _git(["update-ref", ref, commit], root)
    return Snapshot(root, commit, ref)


def _changed(root: Path, old: str, new: str, kinds: str) -> list[str]:
    out = _git(
        [
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--name-only",
            f"--diff-filter={kinds}",
            old,
            new,
        ],
        root,
    )
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def restore_snapshot(snapshot: Snapshot) -> RestoreResult:
    """Put the work tree back as it was in `snapshot`; the user's index and HEAD stay as they are.

    Raises:
        SnapshotError: Git failed.
    """
    root = snapshot.root
    tree = f"{snapshot.commit}^{{tree}}"
    now = _tree_of_work_tree(root)
    created = _changed(root, tree, now, "A")
    changed = _changed(root, tree, now, "MDT")
    for relative in created:
        path = root / relative
        if path.is_file() or path.is_symlink():
            path.unlink()
            _prune_empty_dirs(path.parent, root)
    if changed:
        with tempfile.TemporaryDirectory(prefix="codex-undo-") as tmp:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            _git(["read-tree", tree], root, env)
            _git(
                ["checkout-index", "-f", "-z", "--stdin"],
                root,
                env,
                stdin=b"\0".join(p.encode("utf-8", "surrogateescape") for p in changed),
            )
    return RestoreResult(restored=changed, deleted=created)


def _prune_empty_dirs(directory: Path, root: Path) -> None:
    while directory != root and root in directory.parents:
        try:
            directory.rmdir()
        except OSError:
            return
        directory = directory.parent


def drop_snapshot(snapshot: Snapshot) -> None:
    """Delete the snapshot's ref (the commit is then garbage for git gc)."""
    try:
        _git(["update-ref", "-d", snapshot.ref], snapshot.root)
    except SnapshotError:
        pass


def working_tree_diff(cwd: Path) -> str:
    """`git diff` against HEAD (the empty tree before the first commit) plus new files.

    What `/diff` shows: tracked changes and untracked, not ignored, files as additions.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
        SnapshotError: git failed or is missing.
    """
    root = work_tree_root(cwd)
    try:
        _git(["rev-parse", "--verify", "--quiet", "HEAD"], root)
        base = "HEAD"
    except SnapshotError:
        base = _git(["hash-object", "-t", "tree", "/dev/null"], root).decode().strip()
    parts = [_git(["diff", "--no-color", base, "--"], root)]
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    for path in sorted(p for p in untracked.split(b"\0") if p):
        new_file = ["diff", "--no-color", "--no-index", "--", "/dev/null", path.decode()]
        parts.append(_git(new_file, root, ok=(0, 1)))
    return b"".join(parts).decode("utf-8", "replace")
