"""The thread queue on disk: `$CODEX_HOME/queue_1.sqlite`, laid out as Codex 0.169's (observed).

One row per waiting message in `queued_items` (`id`, `thread_id`, `payload_json`,
`queue_order`, times in ms); the payload is 0.169's
`{"UserInput": {"content": [UserInput…], "client_id": ID}}`. The tables, index, triggers and
the two migration records are the ones 0.169 creates, so either tool can open a file the
other made. Every server process and `codex queue` (no server running) share the file; sqlite
locking keeps them consistent, and a message is taken by deleting its row (one taker wins).

Security: the file is created 0600; an existing one that is a link or another user's is
refused (the queue then lives in memory and a warning is logged). What is queued runs as
the user, so CODEX_HOME must stay out of the model's reach — as it must for config.toml.
The module needs only the standard library (`codex queue` writes here without a server).
"""

from __future__ import annotations

import json
import logging
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger(__name__)

FILE_NAME = "queue_1.sqlite"
BUSY_TIMEOUT_MS = 5_000

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS queued_items (
    id TEXT PRIMARY KEY NOT NULL,
    thread_id TEXT NOT NULL,
    payload_json TEXT NOT NULL,
    queue_order INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
)""",
    """CREATE UNIQUE INDEX IF NOT EXISTS queued_items_thread_order_idx
    ON queued_items(thread_id, queue_order)""",
    """CREATE TABLE IF NOT EXISTS queued_thread_revisions (
    revision INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL UNIQUE
)""",
    *(
        f"""CREATE TRIGGER IF NOT EXISTS queued_items_revision_after_{op.lower()}
AFTER {op} ON queued_items
BEGIN
    INSERT INTO queued_thread_revisions (thread_id)
    VALUES ({row}.thread_id)
    ON CONFLICT(thread_id) DO UPDATE
    SET revision = (SELECT COALESCE(MAX(revision), 0) + 1 FROM queued_thread_revisions);
END"""
        for op, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD"))
    ),
)

_MIGRATIONS_TABLE = """CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
)"""

MIGRATIONS = (
    (
        1,
        "queued items",
        "CEA113C9A74FE4ED12CF41951B57C66CA375A14A722AC28D41BC06A096ED3E1D"
        "777AC0710C5377E8CD75F645C99CA03C",
    ),
    (
        2,
        "queued thread revisions",
        "983A2B17B454FEB00D7C221D7F556E900E7F9ADE4AEF395E854ED9093FA21237"
        "FD3FD93F99C66758B489C0F376F56570",
    ),
)
"""The migration records 0.169 keeps in the file (version, description, checksum as it
recorded them): with them, 0.169 treats a file this codex created as already migrated."""


class QueueStoreError(RuntimeError):
    """The queue file cannot be used (one line for the user)."""


@dataclass(frozen=True)
class QueuedRow:
    """A waiting message as stored: its id, the client's message id, the input as wire
    `UserInput` objects (checked by the server when it runs them) and optional metadata."""

    id: str
    client_id: str
    content: list[dict[str, Any]]
    metadata: dict[str, str] | None = None


def _payload(row: QueuedRow) -> str:
    body: dict[str, Any] = {"content": row.content, "client_id": row.client_id}
    if row.metadata:  # ours: 0.169's field for it was not observed
        body["responsesapi_client_metadata"] = row.metadata
    return json.dumps({"UserInput": body}, ensure_ascii=False, separators=(",", ":"))


def _parse(row_id: str, payload_json: str) -> QueuedRow | None:
    try:
        body = json.loads(payload_json)["UserInput"]
        content = body["content"]
        metadata = body.get("responsesapi_client_metadata")
        if not isinstance(content, list) or not all(isinstance(e, dict) for e in content):
            raise TypeError("content")
        return QueuedRow(
            row_id,
            str(body.get("client_id") or ""),
            content,
            metadata if isinstance(metadata, dict) else None,
        )
    except (ValueError, KeyError, TypeError):
        log.warning("queued item %s has a payload this codex cannot read; left in place", row_id)
        return None


def _private_file(path: Path) -> None:
    """Create the file 0600 unless it exists; refuse a link or another user's file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            raise QueueStoreError(
                f"{path} is not a regular file owned by this user; remove it"
            ) from None
        return
    os.close(fd)


class QueueStore:
    """The queued messages of every thread, in one sqlite file (or in memory)."""

    def __init__(self, path: Path | None) -> None:
        """Open (creating) the file at `path`; None keeps the queue in memory.

        Raises:
            QueueStoreError: The file is unusable.
        """
        import sqlite3  # on first use: a thread's start only asks whether the file exists

        self.path = path
        try:
            if path is not None:
                _private_file(path)
            db = sqlite3.connect(
                str(path) if path is not None else ":memory:",
                isolation_level=None,
                timeout=BUSY_TIMEOUT_MS / 1000,
            )
            if path is not None:
                db.execute("PRAGMA journal_mode=WAL")
            self._db = db
            self._migrate()
        except (OSError, sqlite3.Error) as err:
            raise QueueStoreError(f"cannot open the queue file {path}: {err}") from None

    def _migrate(self) -> None:
        with self._write():
            for statement in (_MIGRATIONS_TABLE, *_SCHEMA):
                self._db.execute(statement)
            for version, description, checksum in MIGRATIONS:
                self._db.execute(
                    "INSERT OR IGNORE INTO _sqlx_migrations (version, description, success, "
                    "checksum, execution_time) VALUES (?, ?, 1, ?, 0)",
                    (version, description, bytes.fromhex(checksum)),
                )

    def _write(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    # ------------------------------------------------------------------ reading

    def waiting(self, thread_id: str) -> list[QueuedRow]:
        """The thread's messages, oldest (lowest order) first."""
        rows = self._db.execute(
            "SELECT id, payload_json FROM queued_items WHERE thread_id = ? ORDER BY queue_order",
            (thread_id,),
        ).fetchall()
        return [m for m in (_parse(row_id, payload) for row_id, payload in rows) if m]

    # ------------------------------------------------------------------ changes

    def add(self, thread_id: str, message: QueuedRow) -> None:
        """Append a message to the thread's queue."""
        now = int(time.time() * 1000)
        with self._write():
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(queue_order), -1) FROM queued_items WHERE thread_id = ?",
                (thread_id,),
            ).fetchone()
            self._db.execute(
                "INSERT INTO queued_items VALUES (?, ?, ?, ?, ?, ?)",
                (message.id, thread_id, _payload(message), last + 1, now, now),
            )

    def take(self, thread_id: str, message_id: str | None) -> QueuedRow | None:
        """Remove and return a message (the oldest when `message_id` is None)."""
        with self._write():
            for message in self.waiting(thread_id):
                if message_id is not None and message.id != message_id:
                    continue
                deleted = self._db.execute(
                    "DELETE FROM queued_items WHERE id = ? AND thread_id = ?",
                    (message.id, thread_id),
                ).rowcount
                return message if deleted else None
        return None

    def replace(self, thread_id: str, message: QueuedRow) -> bool:
        """Store a message's new input (same id); False when it is no longer queued."""
        with self._write():
            changed = self._db.execute(
                "UPDATE queued_items SET payload_json = ?, updated_at_ms = ? "
                "WHERE id = ? AND thread_id = ?",
                (_payload(message), int(time.time() * 1000), message.id, thread_id),
            ).rowcount
        return bool(changed)

    def reorder(self, thread_id: str, ids: list[str]) -> bool:
        """Put the thread's messages in the order of `ids`, which must name each once."""
        with self._write():
            rows = self._db.execute(
                "SELECT id FROM queued_items WHERE thread_id = ?", (thread_id,)
            ).fetchall()
            if sorted(ids) != sorted(row[0] for row in rows):
                return False
            # Two passes: the (thread, order) index is unique while rows move.
            for index, row_id in enumerate(ids):
                self._db.execute(
                    "UPDATE queued_items SET queue_order = ? WHERE id = ?", (-1 - index, row_id)
                )
            self._db.execute(
                "UPDATE queued_items SET queue_order = -1 - queue_order WHERE thread_id = ?",
                (thread_id,),
            )
        return True


class _Transaction:
    """`BEGIN IMMEDIATE` … `COMMIT` (rolled back on an exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._depth = 0

    def __enter__(self) -> None:
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")
            self._depth = 1

    def __exit__(self, kind: object, *rest: object) -> None:
        if not self._depth:
            return
        self._db.execute("ROLLBACK" if kind is not None else "COMMIT")


def file_of(codex_home: Path) -> Path:
    """The queue file of a CODEX_HOME."""
    return codex_home / FILE_NAME


def open_store(codex_home: Path | None) -> QueueStore:
    """The queue of `codex_home`, or an in-memory one when its file cannot be used."""
    if codex_home is not None:
        try:
            return QueueStore(file_of(codex_home))
        except QueueStoreError as err:
            log.warning("%s; queued messages are kept in memory only", err)
    return QueueStore(None)
