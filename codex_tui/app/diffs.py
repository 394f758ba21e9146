"""Pure parsing of patches into numbered display lines with per-file added/removed counts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, assert_never

from codex_core.protocol.common import AddChange, DeleteChange, FileChange, UpdateChange
from codex_tui.app.formatting import shorten_path

HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")
LineKind = Literal["add", "remove", "context", "hunk"]


@dataclass(frozen=True)
class DiffLine:
    """One line of a rendered diff: its kind, line number (None for hunk gaps) and text."""

    kind: LineKind
    number: int | None
    text: str


@dataclass(frozen=True)
class FileDiff:
    """A changed file ready for display."""

    path: str
    verb: Literal["Added", "Deleted", "Edited"]
    added: int
    removed: int
    lines: list[DiffLine]
    move_path: str | None = None


def parse_unified_diff(diff: str) -> list[DiffLine]:
    """Numbered lines of a unified diff: new numbers for context/adds, old ones for removals."""
    out: list[DiffLine] = []
    old = new = 0
    seen_hunk = False
    for raw in diff.splitlines():
        match = HUNK.match(raw)
        if match:
            if seen_hunk:
                out.append(DiffLine("hunk", None, "⋮"))
            seen_hunk = True
            old, new = int(match.group(1)), int(match.group(2))
            continue
        if raw.startswith(("---", "+++", "diff ", "index ")) and not seen_hunk:
            continue
        if raw.startswith("\\"):
            continue
        if raw.startswith("+"):
            out.append(DiffLine("add", new, raw[1:]))
            new += 1
        elif raw.startswith("-"):
            out.append(DiffLine("remove", old, raw[1:]))
            old += 1
        else:
            out.append(DiffLine("context", new, raw[1:] if raw.startswith(" ") else raw))
            old += 1
            new += 1
    return out


def file_diff(path: str, change: FileChange) -> FileDiff:
    """Display lines and counts for one file of a patch."""
    match change:
        case AddChange():
            lines = [DiffLine("add", i, text) for i, text in enumerate(_lines(change.content), 1)]
            return FileDiff(path, "Added", len(lines), 0, lines)
        case DeleteChange():
            lines = [
                DiffLine("remove", i, text) for i, text in enumerate(_lines(change.content), 1)
            ]
            return FileDiff(path, "Deleted", 0, len(lines), lines)
        case UpdateChange():
            lines = parse_unified_diff(change.unified_diff)
            added = sum(1 for line in lines if line.kind == "add")
            removed = sum(1 for line in lines if line.kind == "remove")
            return FileDiff(path, "Edited", added, removed, lines, change.move_path)
        case _:
            assert_never(change)


def display_path(path: str, cwd: str | None) -> str:
    """`path` relative to `cwd` when inside it, else with the home directory as `~`."""
    if cwd:
        root = cwd.rstrip("/") + "/"
        if path.startswith(root):
            return path[len(root) :]
    return shorten_path(path)


def patch_files(changes: dict[str, FileChange], cwd: str | None = None) -> list[FileDiff]:
    """Every file of a patch, sorted by path; paths shown relative to `cwd` where possible."""
    return [file_diff(display_path(path, cwd), changes[path]) for path in sorted(changes)]


@dataclass(frozen=True)
class DiffStat:
    """Per-file counts of a git-style multi-file diff."""

    path: str
    added: int
    removed: int


def diff_stats(unified_diff: str) -> list[DiffStat]:
    """Files and +/- counts of a `diff --git` style turn diff."""
    stats: list[DiffStat] = []
    path: str | None = None
    added = removed = 0
    for raw in unified_diff.splitlines():
        if raw.startswith("diff --git "):
            if path is not None:
                stats.append(DiffStat(path, added, removed))
            parts = raw.split(" b/", 1)
            path, added, removed = (parts[1] if len(parts) == 2 else raw[11:]), 0, 0
        elif raw.startswith("+++ ") and path is None:
            path, added, removed = raw[4:].removeprefix("b/"), 0, 0
        elif raw.startswith(("+++", "---")):
            continue
        elif raw.startswith("+"):
            added += 1
        elif raw.startswith("-"):
            removed += 1
    if path is not None:
        stats.append(DiffStat(path, added, removed))
    return stats


def _lines(content: str) -> list[str]:
    return content.rstrip("\n").split("\n") if content else []
