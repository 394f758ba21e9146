"""Walking CODEX_HOME's session folders for rollout files, newest date folder first."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from codex_core.rollout.format import ARCHIVED_DIR, SESSIONS_DIR, parse_rollout_name


def _numeric_dirs_desc(parent: str) -> list[str]:
    """Sub-directories of `parent` named by digits, largest number first."""
    try:
        with os.scandir(parent) as entries:
            found = [e.name for e in entries if e.name.isdigit() and e.is_dir()]
    except OSError:
        return []
    found.sort(key=int, reverse=True)
    return [os.path.join(parent, name) for name in found]


def _utf8(name: str) -> bool:
    try:
        name.encode()
    except UnicodeEncodeError:
        return False
    return True


def _rollout_entries(folder: str) -> Iterator[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                # A name that is not valid UTF-8 (surrogate-escaped) is no rollout of ours.
                if name.startswith("rollout-") and name.endswith(".jsonl") and _utf8(name):
                    yield entry
    except OSError:
        return


def day_dirs(codex_home: Path) -> Iterator[str]:
    """`sessions/YYYY/MM/DD` folders, newest day first."""
    for year in _numeric_dirs_desc(os.path.join(codex_home, SESSIONS_DIR)):
        for month in _numeric_dirs_desc(year):
            yield from _numeric_dirs_desc(month)


def rollout_entries(codex_home: Path, include_archived: bool = False) -> Iterator[os.DirEntry[str]]:
    """Directory entries of every rollout file (`rollout-*.jsonl`), newest day folder first.

    Args:
        codex_home: The CODEX_HOME directory.
        include_archived: Also yield files in `archived_sessions/`.
    """
    for folder in day_dirs(codex_home):
        yield from _rollout_entries(folder)
    if include_archived:
        yield from _rollout_entries(os.path.join(codex_home, ARCHIVED_DIR))


def rollout_names(folder: str) -> list[str]:
    """Names of the rollout files directly in `folder` (empty if it cannot be read)."""
    return [entry.name for entry in _rollout_entries(folder)]


def session_folders(codex_home: Path, include_archived: bool = False) -> list[str]:
    """Every folder that holds rollouts: day folders newest first, then the archive."""
    folders = list(day_dirs(codex_home))
    if include_archived:
        archive = os.path.join(codex_home, ARCHIVED_DIR)
        if os.path.isdir(archive):
            folders.append(archive)
    return folders


def session_id_of(name: str) -> str | None:
    """The session id in a rollout file name, if the name follows the convention."""
    parsed = parse_rollout_name(name)
    return parsed[1] if parsed else None
