"""Per-turn working-tree snapshots and `/undo` for a Session."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codex_core.git_snapshot import Snapshot

# git_snapshot loads in the snapshot's worker thread or for /undo: the first turn's snapshot
# runs beside its first model request, and nothing else here needs it (issue 29).

log = logging.getLogger(__name__)
MAX_SNAPSHOTS = 20
"""Older snapshots are dropped (their refs deleted)."""


class UndoStack:
    """Snapshots taken before each turn, newest last."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.snapshots: list[Snapshot] = []
        self.outside_git: Path | None = None

    async def before_turn(self, cwd: Path) -> None:
        """Snapshot the work tree (in a thread); outside git or on a git error, do nothing."""
        snapshot = await asyncio.to_thread(self._take, cwd)
        if snapshot is None:
            return
        self.outside_git = None
        self.snapshots.append(snapshot)
        while len(self.snapshots) > MAX_SNAPSHOTS:
            await asyncio.to_thread(_drop, self.snapshots.pop(0))

    def _take(self, cwd: Path) -> Snapshot | None:
        """The snapshot (in the worker thread); None outside git or on a git error."""
        from codex_core.git_snapshot import NotAGitRepoError, SnapshotError, take_snapshot

        try:
            return take_snapshot(cwd, self.label)
        except NotAGitRepoError:
            self.outside_git = cwd
            return None
        except SnapshotError as err:
            log.warning("no undo snapshot for this turn: %s", err)
            return None

    async def undo(self) -> str:
        """Restore the newest snapshot; returns one sentence saying what happened.

        Raises:
            SnapshotError: Nothing to undo or git failed (the message says which).
        """
        from codex_core.git_snapshot import SnapshotError, restore_snapshot

        if not self.snapshots:
            if self.outside_git is not None:
                raise SnapshotError(
                    f"/undo needs a git repository: {self.outside_git} is not inside one "
                    "(run `git init` to let Codex snapshot your files)"
                )
            raise SnapshotError("nothing to undo: no turn has changed files in this session yet")
        snapshot = self.snapshots.pop()
        result = await asyncio.to_thread(restore_snapshot, snapshot)
        await asyncio.to_thread(_drop, snapshot)
        count = len(result.restored) + len(result.deleted)
        if not count:
            return "Undo: the files were already as they were before the last turn."
        files = "file" if count == 1 else "files"
        return f"Undo: restored {count} {files} as before the last turn."


def _drop(snapshot: Snapshot) -> None:
    from codex_core.git_snapshot import drop_snapshot

    drop_snapshot(snapshot)
