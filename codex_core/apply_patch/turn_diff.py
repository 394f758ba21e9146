"""TurnDiffTracker: a git-style diff of every file a turn's patches touched."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from codex_core.apply_patch.udiff import split_keep_newlines, unified_hunks
from codex_core.frontend.git import GitRootCache

ZERO_OID = "0" * 40
DEV_NULL = "/dev/null"
RENAME_THRESHOLD = 50  # percent similarity, as git's default


@dataclass(frozen=True)
class _Snapshot:
    """A file's bytes and git mode (`100644`/`100755`), or `data=None` when absent."""

    data: bytes | None
    mode: str = "100644"


def _snapshot(path: Path) -> _Snapshot:
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return _Snapshot(None)
        data = path.read_bytes()
    except OSError:
        return _Snapshot(None)
    return _Snapshot(data, "100755" if info.st_mode & 0o111 else "100644")


def _blob_oid(data: bytes | None) -> str:
    if data is None:
        return ZERO_OID
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _as_text(data: bytes | None) -> str | None:
    """The text of a file for diffing, or None when it looks binary."""
    if data is None:
        return ""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _similarity(old: bytes, new: bytes) -> int:
    if old == new:
        return 100
    old_text, new_text = _as_text(old), _as_text(new)
    if old_text is None or new_text is None:
        return 0
    a, b = split_keep_newlines(old_text), split_keep_newlines(new_text)
    import difflib  # only for a renamed file's similarity: off the first request's path

    return int(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() * 100)


class TurnDiffTracker:
    """Remembers each file's content at its first touch in a turn and diffs it against disk.

    Call `on_patch_begin` before every patch of the turn with all the paths it touches
    (including move destinations); `unified_diff` then compares those baselines with the
    files as they are now. Paths show relative to their git repository when in one.
    """

    def __init__(self) -> None:
        self._baselines: dict[Path, _Snapshot] = {}
        self._git_roots = GitRootCache()

    def on_patch_begin(self, paths: Iterable[Path]) -> None:
        """Record the current content of every path not seen earlier in this turn.

        Args:
            paths: absolute paths the coming patch adds, deletes, updates or moves to.
        """
        for path in paths:
            key = Path(os.path.abspath(path))
            if key not in self._baselines:
                self._baselines[key] = _snapshot(key)

    def unified_diff(self) -> str | None:
        """The whole turn's changes as a git-style unified diff, or None if nothing changed."""
        current = {path: _snapshot(path) for path in self._baselines}
        changed = [p for p in self._baselines if self._baselines[p] != current[p]]
        gone = [
            p for p in changed if self._baselines[p].data is not None and current[p].data is None
        ]
        new = [
            p for p in changed if self._baselines[p].data is None and current[p].data is not None
        ]
        pairs = self._pair_renames(gone, new, current)
        renamed_from = {old for old, _ in pairs}
        renamed_to = {target: old for old, target in pairs}
        sections: list[tuple[str, str]] = []
        for path in changed:
            if path in renamed_from:
                continue
            old_path = renamed_to.get(path, path)
            shown = self._display(path)
            section = self._file_diff(
                self._display(old_path), shown, self._baselines[old_path], current[path]
            )
            sections.append((shown, section))
        if not sections:
            return None
        sections.sort(key=lambda item: item[0])
        return "".join(text for _, text in sections)

    def _pair_renames(
        self, gone: list[Path], new: list[Path], current: dict[Path, _Snapshot]
    ) -> list[tuple[Path, Path]]:
        """Match deleted baselines with new files that hold similar content, best first."""
        candidates: list[tuple[int, Path, Path]] = []
        for old in gone:
            for target in new:
                old_data, new_data = self._baselines[old].data, current[target].data
                assert old_data is not None and new_data is not None
                score = _similarity(old_data, new_data)
                if score >= RENAME_THRESHOLD:
                    candidates.append((score, old, target))
        candidates.sort(key=lambda item: (-item[0], str(item[1]), str(item[2])))
        pairs: list[tuple[Path, Path]] = []
        used: set[Path] = set()
        for _, old, target in candidates:
            if old not in used and target not in used:
                used.update((old, target))
                pairs.append((old, target))
        return pairs

    def _file_diff(self, old_name: str, new_name: str, before: _Snapshot, after: _Snapshot) -> str:
        out = [f"diff --git a/{old_name} b/{new_name}\n"]
        old_oid, new_oid = _blob_oid(before.data), _blob_oid(after.data)
        if before.data is None:
            out.append(f"new file mode {after.mode}\n")
            out.append(f"index {old_oid}..{new_oid}\n")
        elif after.data is None:
            out.append(f"deleted file mode {before.mode}\n")
            out.append(f"index {old_oid}..{new_oid}\n")
        else:
            if old_name != new_name:
                score = _similarity(before.data, after.data)
                out.append(f"similarity index {score}%\n")
                out.append(f"rename from {old_name}\nrename to {new_name}\n")
            if before.mode != after.mode:
                out.append(f"old mode {before.mode}\nnew mode {after.mode}\n")
            if before.data == after.data:
                return "".join(out)
            mode = f" {after.mode}" if before.mode == after.mode else ""
            out.append(f"index {old_oid}..{new_oid}{mode}\n")
        left = DEV_NULL if before.data is None else f"a/{old_name}"
        right = DEV_NULL if after.data is None else f"b/{new_name}"
        old_text, new_text = _as_text(before.data), _as_text(after.data)
        if old_text is None or new_text is None:
            out.append(f"Binary files {left} and {right} differ\n")
            return "".join(out)
        hunks = unified_hunks(old_text, new_text, context=3)
        if hunks:
            out.append(f"--- {left}\n+++ {right}\n{hunks}")
        return "".join(out)

    def _display(self, path: Path) -> str:
        root = self._git_roots.root_of(path.parent)
        if root is not None:
            return path.relative_to(root).as_posix()
        return path.as_posix().lstrip("/")  # as `git diff --no-index` shows absolute paths
