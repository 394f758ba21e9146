"""The workspace's files for the `@` popup: walked once off the event loop, then filtered fast.

In a git work tree the list comes from `git ls-files` (tracked plus untracked files that
.gitignore does not exclude); elsewhere from a directory walk that skips hidden directories.
Filtering is incremental: a query that extends the previous one only filters the previous
matches. Each path's lower-cased form and where its file name starts are kept beside it, and
ranking fills the rows from the best kind of match down (file name starts with the query,
holds it, path starts with it, holds it, subsequence), so a first key on 100,000 files costs
one pass, not a ranking key per match.
"""

from __future__ import annotations

import heapq
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

from codex_core.host_git import HostGit, HostGitError, find_repo
from codex_tui.app import gitignore
from codex_tui.app.fuzzy import lowered_subsequence

WALK_CHUNK = 1000
"""Files are published to searchers in chunks of this many while the walk runs."""
MAX_FILES = 500_000


class FileIndex:
    """Relative paths of a workspace's files (thread-safe to read while the walk runs)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: list[str] = []
        self.done = threading.Event()
        self._lower: list[str] = []
        """`paths` lower-cased (published before `paths` grows, so always as long)."""
        self._name_at: list[int] = []
        """Where each path's file name starts."""
        self._last: tuple[str, int, list[int]] | None = None

    def walk(self) -> None:
        """List the files (blocking: call from a worker thread)."""
        try:
            if not self._git_files():
                self._walk_dirs()
        finally:
            self.done.set()

    def _git_files(self) -> bool:
        # Tracked files come from the index at once; untracked ones need a directory walk.
        seen: set[str] = set()
        if not self._git_list(["--cached"], seen):
            return False
        self._git_list(["--others", "--exclude-standard"], seen)
        return True

    def _git_list(self, which: list[str], seen: set[str]) -> bool:
        # Through codex's private git directory: the repository's own config never runs.
        repo = find_repo(self.root)
        if repo is None:
            return False
        try:
            git = HostGit(repo)
            index = {"GIT_INDEX_FILE": str(repo.git_dir / "index")}
            proc = subprocess.Popen(
                [git.git, "--no-pager", "ls-files", "-z", *which],
                cwd=self.root,
                env=git.env(index),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, HostGitError):
            return False
        assert proc.stdout is not None
        data = proc.stdout.read()
        if proc.wait() != 0:
            return False
        chunk: list[str] = []
        for raw in data.split(b"\0"):
            if not raw:
                continue
            path = raw.decode("utf-8", "surrogateescape")
            if path in seen:
                continue
            seen.add(path)
            chunk.append(path)
            if len(chunk) >= WALK_CHUNK:
                self._publish(chunk)
                chunk = []
        self._publish(chunk)
        return True

    def _walk_dirs(self) -> None:
        root = str(self.root)
        chunk: list[str] = []
        rules: dict[str, list[gitignore.Rule]] = {}
        for directory, dirs, files in os.walk(root):
            relative = os.path.relpath(directory, root)
            base = "" if relative == "." else relative
            prefix = base + "/" if base else ""
            # The .gitignore files of this directory and its parents apply here.
            parent = rules.get(os.path.dirname(base) if base else "", []) if base else []
            here = parent + _read_gitignore(directory, base)
            rules[base] = here
            dirs[:] = sorted(
                d
                for d in dirs
                if not d.startswith(".") and not gitignore.ignored(here, prefix + d, True)
            )
            chunk.extend(
                prefix + name
                for name in files
                if not here or not gitignore.ignored(here, prefix + name, False)
            )
            if len(chunk) >= WALK_CHUNK:
                self._publish(chunk)
                chunk = []
            if len(self.paths) + len(chunk) >= MAX_FILES:
                break
        self._publish(chunk)

    def _publish(self, chunk: list[str]) -> None:
        """Make `chunk` searchable (the lists readers index grow before `paths` does)."""
        lowered = [path.lower() for path in chunk]
        self._name_at.extend(path.rfind("/") + 1 for path in lowered)
        self._lower.extend(lowered)
        self.paths.extend(chunk)

    def search(self, query: str, limit: int = 20) -> list[str]:
        """The best `limit` matches for `query` among the files listed so far, ranked as
        `fuzzy.rank_key` ranks them (ties in listing order)."""
        count = len(self.paths)
        paths = self.paths
        if not query:
            return heapq.nsmallest(limit, paths[:count], key=lambda p: (p.count("/"), len(p), p))
        query = query.lower()
        lower = self._lower
        last = self._last
        if last is not None and last[1] == count and query.startswith(last[0]):
            pool: list[int] | range = last[2]
        else:
            pool = range(count)
        search = lowered_subsequence(query).search
        matched = [i for i in pool if search(lower[i])]
        self._last = (query, count, matched)
        return [paths[i] for i in self._best(query, matched, limit)]

    def _best(self, query: str, matched: list[int], limit: int) -> list[int]:
        """The `limit` best of `matched`: by kind of match, then shorter name and path.

        The kinds, best first: the file name starts with the query, holds it further on,
        the path starts with it, holds it, holds it only as a subsequence. Each kind is one
        pass over the matches, and the passes stop once the rows are filled.
        """
        lower, name_at = self._lower, self._name_at

        def passes() -> Iterator[list[int]]:
            yield [i for i in matched if lower[i].startswith(query, name_at[i])]
            yield [i for i in matched if lower[i].find(query, name_at[i]) > name_at[i]]
            yield [
                i
                for i in matched
                if lower[i].startswith(query) and lower[i].find(query, name_at[i]) < 0
            ]
            yield [
                i
                for i in matched
                if query in lower[i]
                and not lower[i].startswith(query)
                and lower[i].find(query, name_at[i]) < 0
            ]
            yield [i for i in matched if query not in lower[i]]

        chosen: list[int] = []
        for bucket in passes():
            chosen += heapq.nsmallest(limit - len(chosen), bucket, key=self._size)
            if len(chosen) >= limit:
                break
        return chosen

    def _size(self, i: int) -> tuple[int, int]:
        return (len(self._lower[i]) - self._name_at[i], len(self._lower[i]))


def _read_gitignore(directory: str, base: str) -> list[gitignore.Rule]:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8") as file:
            return gitignore.parse(file.read(), base)
    except (OSError, UnicodeDecodeError):
        return []
