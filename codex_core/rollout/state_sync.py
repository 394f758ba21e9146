"""Keeping Codex 0.169's `state_5.sqlite` row of a thread in step when its rollout moves or goes.

`codex archive`, `unarchive` and `delete` move or remove the rollout file; 0.169 lists threads
from this database, so its row follows: `archived`, `archived_at` and `rollout_path` on a move,
the row (and its dependent rows, by the schema's cascades) removed on delete. As with
registration, only a database of a schema we know is touched, and any problem is one warning
in the log: the file on disk stays the truth.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

from codex_core.rollout.state_db import KNOWN_SCHEMA_VERSIONS, STATE_DB_NAME

log = logging.getLogger(__name__)
_BUSY_TIMEOUT_SECONDS = 2.0


def _write(codex_home: Path, statement: str, params: dict[str, object]) -> bool:
    """Run one statement in its own transaction; False when nothing could be written."""
    path = Path(codex_home) / STATE_DB_NAME
    if not path.is_file():
        return False
    try:
        db = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=rw",
            uri=True,
            timeout=_BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
        )
    except sqlite3.Error as err:
        log.warning("state_5.sqlite: cannot open it (%s)", err)
        return False
    try:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("BEGIN IMMEDIATE")
        (version,) = db.execute("SELECT MAX(version) FROM _sqlx_migrations").fetchone()
        if version not in KNOWN_SCHEMA_VERSIONS:
            db.execute("ROLLBACK")
            log.warning("state_5.sqlite has schema version %s; left alone", version)
            return False
        db.execute(statement, params)
        db.execute("COMMIT")
        return True
    except sqlite3.Error as err:
        log.warning("state_5.sqlite: cannot update it (%s)", err)
        return False
    finally:
        db.close()


def record_move(
    codex_home: Path,
    session_id: str,
    rollout: Path,
    *,
    archived: bool,
    touched_at: float | None = None,
) -> bool:
    """Point the thread's row at its new rollout path and archive state; `touched_at` also
    sets `updated_at` (0.169's unarchive makes the thread recent again)."""
    params: dict[str, object] = {
        "id": session_id,
        "path": str(Path(rollout).resolve()),
        "archived": 1 if archived else 0,
        "archived_at": int(time.time()) if archived else None,
    }
    touch = ""
    if touched_at is not None:
        touch = ", updated_at = :updated_at, updated_at_ms = :updated_at_ms"
        params.update(updated_at=int(touched_at), updated_at_ms=int(touched_at * 1000))
    return _write(
        codex_home,
        "UPDATE threads SET rollout_path = :path, archived = :archived, "
        f"archived_at = :archived_at{touch} WHERE id = :id",
        params,
    )


def forget_thread(codex_home: Path, session_id: str) -> bool:
    """Remove the thread's row (a deleted session)."""
    return _write(codex_home, "DELETE FROM threads WHERE id = :id", {"id": session_id})
