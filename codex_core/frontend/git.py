"""Finding the git work tree a directory belongs to (the project root frontends show)."""

from __future__ import annotations

from pathlib import Path

from codex_core.git_repo import git_dir_of


def is_git_marker(dot_git: Path) -> bool:
    """Whether a `.git` entry marks a work tree: git's own test of a git directory.

    A `.git` file must point at one (linked worktrees, submodules). An empty `.git`
    directory is what a sandbox leaves as a mount point (`/tmp/.git` while a sandbox with
    /tmp writable runs, or after one was killed); git does not take it for a repository,
    and neither does Codex CLI 0.169.
    """
    return git_dir_of(dot_git) is not None


def find_git_root(directory: Path) -> Path | None:
    """The nearest ancestor of `directory` (inclusive) holding a `.git` entry, or None.

    A `.git` file counts too (linked worktrees, submodules). The path is made absolute
    but symlinks are kept, so the answer matches what the user typed.
    """
    start = directory.expanduser().absolute()
    for candidate in (start, *start.parents):
        if is_git_marker(candidate / ".git"):
            return candidate
    return None


def project_root(cwd: Path) -> tuple[Path, bool]:
    """The git work tree containing `cwd` (and True), or `cwd` itself (and False)."""
    root = find_git_root(cwd)
    if root is not None:
        return root, True
    return cwd.expanduser().absolute(), False


class GitRootCache:
    """`find_git_root` memoised per directory, for callers that ask about many files."""

    def __init__(self) -> None:
        self._roots: dict[Path, Path | None] = {}

    def root_of(self, directory: Path) -> Path | None:
        """The git root of `directory`, computed once."""
        if directory not in self._roots:
            self._roots[directory] = find_git_root(directory)
        return self._roots[directory]
