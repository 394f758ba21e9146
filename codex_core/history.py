"""history.jsonl: every submitted user message across sessions, one JSON object a line.

Lines are `{"session_id": UUID, "ts": UNIX_SECONDS, "text": MESSAGE}`, as in the Codex CLI.
The file is private (mode 0600) and every append holds an exclusive `flock`, so several
codex processes can share it. Entries are addressed by (log id = the file's inode, offset =
the line number), which is what the composer's Up-arrow recall asks for.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import time
from pathlib import Path

from codex_core.private_files import private_mkdir

log = logging.getLogger(__name__)

HISTORY_FILE = "history.jsonl"
PERSIST_NONE = "none"
_LOCK_ATTEMPTS = 50
_LOCK_RETRY_SECONDS = 0.02


def history_path(codex_home: Path) -> Path:
    """Where history.jsonl lives."""
    return Path(codex_home) / HISTORY_FILE


def _lock(fd: int, operation: int) -> None:
    """Take an advisory lock, retrying for about a second before giving up."""
    for _ in range(_LOCK_ATTEMPTS):
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            time.sleep(_LOCK_RETRY_SECONDS)
    raise OSError(errno.EWOULDBLOCK, "history.jsonl is locked by another process")


def _trim(fd: int, max_bytes: int) -> None:
    """Drop the oldest lines until the file fits `max_bytes` (the newest line always stays).

    Rewrites in place under the lock already held, so the inode (log id) and concurrent
    appenders waiting on the same lock stay valid.
    """
    size = os.fstat(fd).st_size
    if size <= max_bytes:
        return
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    lines = b"".join(chunks).splitlines(keepends=True)
    total = sum(len(line) for line in lines)
    first = 0
    while first < len(lines) - 1 and total > max_bytes:
        total -= len(lines[first])
        first += 1
    kept = b"".join(lines[first:])
    os.lseek(fd, 0, os.SEEK_SET)
    os.ftruncate(fd, 0)
    written = 0
    while written < len(kept):
        written += os.write(fd, kept[written:])


def append_history(
    codex_home: Path,
    session_id: str,
    text: str,
    persistence: str = "save-all",
    max_bytes: int | None = None,
    now: float | None = None,
) -> None:
    """Append one submitted message to history.jsonl.

    Args:
        codex_home: The CODEX_HOME directory.
        session_id: The session the message belongs to.
        text: What the user submitted.
        persistence: `save-all` records; `none` records nothing.
        max_bytes: If set, the oldest lines are dropped once the file is larger.
        now: The time to record (seconds since the epoch); defaults to now.

    Raises:
        OSError: If the file cannot be written or stays locked.
    """
    if persistence == PERSIST_NONE:
        return
    path = history_path(codex_home)
    private_mkdir(path.parent)
    entry = {"session_id": session_id, "ts": int(time.time() if now is None else now), "text": text}
    line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)  # an older file may have been created world-readable
        _lock(fd, fcntl.LOCK_EX)
        try:
            written = os.write(fd, line)
            while written < len(line):
                written += os.write(fd, line[written:])
            if max_bytes is not None and max_bytes > 0:
                _trim(fd, max_bytes)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def history_metadata(codex_home: Path) -> tuple[int, int]:
    """(log id, number of entries) of history.jsonl; (0, 0) when there is none yet."""
    path = history_path(codex_home)
    try:
        with open(path, "rb") as handle:
            log_id = os.fstat(handle.fileno()).st_ino
            count = 0
            while chunk := handle.read(1 << 20):
                count += chunk.count(b"\n")
    except FileNotFoundError:
        return 0, 0
    return log_id, count


def lookup_history(codex_home: Path, log_id: int, offset: int) -> str | None:
    """The text of entry `offset` (0-based) if history.jsonl is still the file `log_id` names.

    Returns None when the file was replaced, the entry does not exist or is unreadable.
    """
    if offset < 0:
        return None
    path = history_path(codex_home)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if os.fstat(fd).st_ino != log_id:
            return None
        _lock(fd, fcntl.LOCK_SH)
        try:
            for index, raw in enumerate(handle):
                if index == offset:
                    return _entry_text(raw)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    return None


def _entry_text(raw: bytes) -> str | None:
    try:
        entry = json.loads(raw)
    except ValueError:
        log.debug("history.jsonl: unreadable entry")
        return None
    text = entry.get("text") if isinstance(entry, dict) else None
    return text if isinstance(text, str) else None
