"""Working-tree snapshots in a side ref, for `/undo`: never the user's index, HEAD or branches.

A snapshot is a commit of every tracked and untracked, not ignored, file as it is on disk,
built through a private index file (a copy of the user's, so unchanged files are not
hashed again) and kept alive by a ref under `refs/codex/snapshots/` of codex's private git
directory for the repository (`codex_core.host_git`: git never reads the repository's own
configuration, so nothing the model planted runs on the host). Restoring writes the
snapshot's version of each path that changed since, and deletes the files created since;
ignored files are left alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from codex_core.host_git import HostGit, HostGitError, Repo, find_repo, read_head

SNAPSHOT_REF_PREFIX = "refs/codex/snapshots/"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Codex",
    "GIT_AUTHOR_EMAIL": "codex@localhost",
    "GIT_COMMITTER_NAME": "Codex",
    "GIT_COMMITTER_EMAIL": "codex@localhost",
}


class SnapshotError(Exception):
    """Git refused or is missing; the message says what failed."""


class NotAGitRepoError(SnapshotError):
    """The directory is not inside a git work tree."""


@dataclass(frozen=True)
class Snapshot:
    """A snapshot commit of the work tree rooted at `root` (kept in codex's shadow repo)."""

    root: Path
    commit: str
    ref: str
    repo: Repo


@dataclass(frozen=True)
class RestoreResult:
    """What a restore changed: paths written back and paths deleted (relative to the root)."""

    restored: list[str]
    deleted: list[str]


def _host_git(cwd: Path) -> HostGit:
    """The host git of the repository containing `cwd`.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
        SnapshotError: git is missing or the shadow directory cannot be made.
    """
    repo = find_repo(cwd)
    if repo is None:
        raise NotAGitRepoError(f"{cwd} is not inside a git repository")
    try:
        return HostGit(repo)
    except (HostGitError, OSError) as err:
        raise SnapshotError(str(err)) from err


def _git(
    git: HostGit,
    args: list[str],
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    ok: tuple[int, ...] = (0,),
) -> bytes:
    try:
        return git.run(args, env=env, stdin=stdin, ok=ok)
    except HostGitError as err:
        raise SnapshotError(str(err)) from err


def work_tree_root(cwd: Path) -> Path:
    """The top of the git work tree containing `cwd`.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
    """
    repo = find_repo(cwd)
    if repo is None:
        raise NotAGitRepoError(f"{cwd} is not inside a git repository")
    return repo.work_tree


def _tree_of_work_tree(git: HostGit) -> str:
    for copy in (True, False):  # a user index git cannot read alone (split index): start empty
        with git.index_copy(copy) as env:
            try:
                _git(git, ["add", "--all", "--", "."], env)
                return _git(git, ["write-tree"], env).decode().strip()
            except SnapshotError:
                if not copy:
                    raise
    raise AssertionError("unreachable")


def take_snapshot(cwd: Path, label: str) -> Snapshot:
    """Record the work tree as it is now in a commit under `refs/codex/snapshots/<label>/`.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
        SnapshotError: Git failed.
    """
    git = _host_git(cwd)
    tree = _tree_of_work_tree(git)
    head, _ = read_head(git.repo)
    parents = ["-p", head] if head else []
    try:
        commit = _git(git, ["commit-tree", tree, *parents], IDENTITY, stdin=b"codex snapshot\n")
    except SnapshotError:
        if not parents:
            raise
        # HEAD's commit is not readable through the alternates: keep the snapshot parentless.
        commit = _git(git, ["commit-tree", tree], IDENTITY, stdin=b"codex snapshot\n")
    ref = f"{SNAPSHOT_REF_PREFIX}{label}/{time.time_ns()}"
    _git(git, ["update-ref", ref, commit.decode().strip()])
    return Snapshot(git.repo.work_tree, commit.decode().strip(), ref, git.repo)


def _changed(git: HostGit, old: str, new: str, kinds: str) -> list[str]:
    out = _git(
        git,
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
    )
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def restore_snapshot(snapshot: Snapshot) -> RestoreResult:
    """Put the work tree back as it was in `snapshot`; the user's index and HEAD stay as they are.

    Raises:
        SnapshotError: Git failed.
    """
    root = snapshot.root
    try:
        git = HostGit(snapshot.repo)
    except (HostGitError, OSError) as err:
        raise SnapshotError(str(err)) from err
    tree = f"{snapshot.commit}^{{tree}}"
    now = _tree_of_work_tree(git)
    created = _changed(git, tree, now, "A")
    changed = _changed(git, tree, now, "MDT")
    for relative in created:
        path = root / relative
        if path.is_file() or path.is_symlink():
            path.unlink()
            _prune_empty_dirs(path.parent, root)
    if changed:
        with git.index_copy(copy_user_index=False) as env:
            _git(git, ["read-tree", tree], env)
            _git(
                git,
                ["checkout-index", "-f", "-z", "--stdin"],
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
        _git(HostGit(snapshot.repo), ["update-ref", "-d", snapshot.ref])
    except (SnapshotError, HostGitError, OSError):
        pass


def working_tree_diff(cwd: Path) -> str:
    """`git diff` against HEAD (the empty tree before the first commit) plus new files.

    What `/diff` shows: tracked changes and untracked, not ignored, files as additions.

    Raises:
        NotAGitRepoError: `cwd` is not inside a work tree.
        SnapshotError: git failed or is missing.
    """
    git = _host_git(cwd)
    head, _ = read_head(git.repo)
    base = head or _git(git, ["hash-object", "-t", "tree", "/dev/null"]).decode().strip()
    with git.index_copy() as env:
        parts = [
            _git(git, ["diff", "--no-color", "--no-ext-diff", "--no-textconv", base, "--"], env)
        ]
        untracked = _git(git, ["ls-files", "--others", "--exclude-standard", "-z"], env)
    for path in sorted(p for p in untracked.split(b"\0") if p):
        new_file = ["diff", "--no-color", "--no-index", "--", "/dev/null", path.decode()]
        parts.append(_git(git, new_file, ok=(0, 1)))
    return b"".join(parts).decode("utf-8", "replace")
