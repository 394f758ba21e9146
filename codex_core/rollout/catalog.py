"""A SQLite cache of rollout heads keyed by (path, size, mtime), so listings skip unchanged files.

It is only a cache: a missing, corrupt or unwritable catalog is rebuilt or bypassed, and the
rollout files stay the source of truth.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from codex_core.private_files import touch_private
from codex_core.rollout.head import Head

log = logging.getLogger(__name__)

CATALOG_NAME = "sessions_catalog.sqlite"
_SCHEMA_VERSION = 4  # 4: an object source (`{"subagent": …}`) is cached as its key
_COLUMNS = "session_id, created_at, cwd, git_branch, model_provider, source, preview, problem"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS heads (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    {", ".join(f"{name.strip()} TEXT" for name in _COLUMNS.split(","))}
);
CREATE TABLE IF NOT EXISTS dirs (
    path TEXT PRIMARY KEY,
    mtime_ns INTEGER NOT NULL,
    scanned_ns INTEGER NOT NULL,
    names TEXT NOT NULL
);
"""
_BATCH = 500

CachedHead = tuple[int, int, Head]  # (size, mtime_ns, head)
CachedDir = tuple[int, int, list[str]]  # (mtime_ns, scanned_ns, rollout file names)


class Catalog:
    """The heads cache at `$CODEX_HOME/sessions_catalog.sqlite`; falls back to memory."""

    def __init__(self, codex_home: Path) -> None:
        """Open (creating or rebuilding if needed) the catalog under `codex_home`."""
        self.path = Path(codex_home) / CATALOG_NAME
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        for attempt in range(2):
            try:
                return self._connect(str(self.path))
            except sqlite3.DatabaseError as err:
                if attempt == 0 and self.path.exists():
                    log.info("session catalog %s is unusable (%s); rebuilding it", self.path, err)
                    self._remove_files()
                    continue
                log.info("session catalog %s cannot be used (%s); using memory", self.path, err)
        return self._connect(":memory:")

    @staticmethod
    def _connect(target: str) -> sqlite3.Connection:
        if target != ":memory:":
            try:
                touch_private(Path(target))  # sqlite would create it 0644; journals copy its mode
            except OSError as err:
                raise sqlite3.OperationalError(f"cannot create {target}: {err}") from None
        db = sqlite3.connect(target, timeout=1.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA synchronous=OFF")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version != _SCHEMA_VERSION:
                db.execute("DROP TABLE IF EXISTS heads")
                db.execute("DROP TABLE IF EXISTS dirs")
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version={_SCHEMA_VERSION}")
            db.execute("SELECT count(*) FROM heads LIMIT 1").fetchone()
            db.execute("SELECT count(*) FROM dirs LIMIT 1").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _remove_files(self) -> None:
        for suffix in ("", "-journal", "-wal", "-shm"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except OSError:
                pass

    def get_many(self, paths: list[str]) -> dict[str, CachedHead]:
        """Cached heads for those of `paths` the catalog knows."""
        found: dict[str, CachedHead] = {}
        try:
            for start in range(0, len(paths), _BATCH):
                chunk = paths[start : start + _BATCH]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT path, size, mtime_ns, {_COLUMNS} FROM heads WHERE path IN ({marks})",
                    chunk,
                )
                for path, size, mtime_ns, *fields in rows:
                    found[path] = (size, mtime_ns, Head(*fields))
        except sqlite3.DatabaseError as err:
            self._recover(err)
        return found

    def put_many(self, rows: Iterable[tuple[str, int, int, Head]]) -> None:
        """Store freshly read heads; a busy or broken catalog just skips caching."""
        values = [
            (
                path,
                size,
                mtime_ns,
                head.session_id,
                head.created_at,
                head.cwd,
                head.git_branch,
                head.model_provider,
                head.source,
                head.preview,
                head.problem,
            )
            for path, size, mtime_ns, head in rows
        ]
        if not values:
            return
        try:
            self._db.execute("BEGIN")
            self._db.executemany(
                f"INSERT OR REPLACE INTO heads (path, size, mtime_ns, {_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            )
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as err:
            self._recover(err)

    def get_dirs(self) -> dict[str, CachedDir]:
        """Every cached folder listing."""
        try:
            rows = self._db.execute("SELECT path, mtime_ns, scanned_ns, names FROM dirs")
            return {
                path: (mtime_ns, scanned_ns, names.split("\n") if names else [])
                for path, mtime_ns, scanned_ns, names in rows
            }
        except sqlite3.DatabaseError as err:
            self._recover(err)
            return {}

    def put_dirs(self, rows: Iterable[tuple[str, int, int, list[str]]]) -> None:
        """Remember folder listings as of `scanned_ns`."""
        values = [(path, mtime, scanned, "\n".join(names)) for path, mtime, scanned, names in rows]
        if not values:
            return
        try:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO dirs VALUES (?, ?, ?, ?)", values)
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as err:
            self._recover(err)

    def prune(self, existing: set[str]) -> None:
        """Forget rows of files that no longer exist, when they are a noticeable share."""
        try:
            (count,) = self._db.execute("SELECT count(*) FROM heads").fetchone()
            if count <= len(existing) * 1.1 + 100:
                return
            stale = [
                (path,)
                for (path,) in self._db.execute("SELECT path FROM heads")
                if path not in existing
            ]
            self._db.execute("BEGIN")
            self._db.executemany("DELETE FROM heads WHERE path = ?", stale)
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError as err:
            self._recover(err)

    def _recover(self, err: sqlite3.DatabaseError) -> None:
        """A busy database is skipped this time; a corrupt one is rebuilt."""
        if self._db.in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.DatabaseError:
                pass
        if isinstance(err, sqlite3.OperationalError) and "locked" in str(err):
            log.debug("session catalog busy: %s", err)
            return
        log.info("session catalog %s failed (%s); rebuilding it", self.path, err)
        self.close()
        self._remove_files()
        self._db = self._open()

    def close(self) -> None:
        """Close the database connection."""
        try:
            self._db.close()
        except sqlite3.Error:
            pass
