"""The workspace's files for the `@` popup: walked once off the event loop, then filtered fast.

In a git work tree the list comes from `git ls-files` (tracked plus untracked files that
.gitignore does not exclude); elsewhere from a directory walk that skips hidden directories.
Filtering is incremental: a query that extends the previous one only filters the previous
matches.
"""

from __future__ import annotations

import heapq
import os
import subprocess
import threading
from pathlib import Path

from codex_tui.app import gitignore
from codex_tui.app.fuzzy import rank_key, subsequence_pattern

WALK_CHUNK = 1000
"""Files are published to searchers in chunks of this many while the walk runs."""
MAX_FILES = 500_000


class FileIndex:
    """Relative paths of a workspace's files (thread-safe to read while the walk runs)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: list[str] = []
        self.done = threading.Event()
        self._last: tuple[str, int, list[str]] | None = None

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
        try:
            proc = subprocess.Popen(
                ["git", "ls-files", "-z", *which],
                cwd=self.root,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.DEVNULL,
            )
        except OSError:
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
                self.paths.extend(chunk)
                chunk = []
        self.paths.extend(chunk)
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
                self.paths.extend(chunk)
                chunk = []
            if len(self.paths) + len(chunk) >= MAX_FILES:
                break
        self.paths.extend(chunk)

    def search(self, query: str, limit: int = 20) -> list[str]:
        """The best `limit` matches for `query` among the files listed so far."""
        count = len(self.paths)
        last = self._last
        if last is not None and last[1] == count and query.startswith(last[0]):
            pool = last[2]
        else:
            pool = self.paths[:count]
        if query:
            search = subsequence_pattern(query).search
            matched = [p for p in pool if search(p)]
        else:
            matched = pool
        self._last = (query, count, matched)
        if not query:
            return heapq.nsmallest(limit, matched, key=lambda p: (p.count("/"), len(p), p))
        return heapq.nsmallest(limit, matched, key=lambda p: rank_key(query, p))


def _read_gitignore(directory: str, base: str) -> list[gitignore.Rule]:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8") as file:
            return gitignore.parse(file.read(), base)
    except (OSError, UnicodeDecodeError):
        return []
