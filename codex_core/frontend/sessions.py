"""Which recorded session a frontend means: `--last` (this directory's, or `--all`), an id,
a thread name, or a rollout path. `codex resume`, `codex exec resume` and the servers agree.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from codex_core.rollout import (
    NotASessionError as NotASessionError,
)
from codex_core.rollout import (
    check_session_file,
    find_session_path,
    list_sessions,
)

SESSION_INDEX = "session_index.jsonl"
"""Where the Codex CLI records thread names: one `{"id", "thread_name", …}` object a line."""


class SessionNotFoundError(LookupError):
    """No recorded session matches; the message is one line with what to run instead."""


@dataclass
class SessionLookup:
    """The session found, and the files met on the way that are not sessions."""

    path: Path
    skipped_warnings: list[str] = field(default_factory=list)


def last_session(codex_home: Path, *, cwd: Path | None) -> SessionLookup:
    """The most recently updated session started in `cwd` (any directory when None).

    Raises:
        SessionNotFoundError: Nothing was recorded there.
    """
    page = list_sessions(codex_home, page_size=1, cwd=None if cwd is None else str(cwd))
    warnings = [skipped.warning for skipped in page.skipped]
    if not page.items:
        where = "" if cwd is None else " in this directory (pass --all for every directory)"
        raise SessionNotFoundError(f"no recorded session to resume{where}")
    return SessionLookup(Path(page.items[0].path), warnings)


def find_session(codex_home: Path, wanted: str) -> SessionLookup:
    """A session by rollout path, id (or unambiguous id prefix), or thread name.

    An id wins over a thread name that happens to look like one, as in the Codex CLI.

    Raises:
        SessionNotFoundError: Nothing (or more than one session) matches.
        NotASessionError: The matching file is not a Codex session.
    """
    if wanted.endswith(".jsonl") and os.sep in wanted:
        path = Path(wanted).expanduser()
        if not path.is_file():
            raise SessionNotFoundError(f"no session file at {path}")
        check_session_file(path)
        return SessionLookup(path.resolve())
    found = find_session_path(codex_home, wanted)
    if found is None:
        named = thread_name_index(codex_home).get(wanted.strip())
        found = find_session_path(codex_home, named) if named else None
    if found is None:
        raise SessionNotFoundError(
            f"no recorded session matches {wanted!r}; run `codex resume` to pick one"
        )
    return SessionLookup(Path(found))


def thread_name_index(
    codex_home: Path, *, reader: Callable[[Path], str] | None = None
) -> dict[str, str]:
    """Thread name → session id from CODEX_HOME/session_index.jsonl (the latest line wins).

    Unreadable files and malformed lines are ignored: names are a convenience.
    """
    read = reader or (lambda p: p.read_text(encoding="utf-8", errors="replace"))
    try:
        text = read(Path(codex_home) / SESSION_INDEX)
    except OSError:
        return {}
    names: dict[str, str] = {}
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        name, session_id = record.get("thread_name"), record.get("id")
        if isinstance(name, str) and isinstance(session_id, str) and name.strip():
            names[name.strip()] = session_id
    return names


def thread_names_by_id(codex_home: Path) -> dict[str, str]:
    """Session id → its latest name in CODEX_HOME/session_index.jsonl (unreadable: none)."""
    try:
        text = (Path(codex_home) / SESSION_INDEX).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    names: dict[str, str] = {}
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            name, session_id = record.get("thread_name"), record.get("id")
            if isinstance(name, str) and isinstance(session_id, str) and name.strip():
                names[session_id] = name.strip()
    return names


def set_thread_name(codex_home: Path, session_id: str, name: str) -> None:
    """Record `name` for a thread as Codex 0.169 does: one line appended to
    session_index.jsonl, `{"id", "thread_name", "updated_at"}` (the latest line wins).

    Raises:
        OSError: The index cannot be written.
    """
    from datetime import UTC, datetime

    from codex_core.private_files import private_mkdir

    private_mkdir(Path(codex_home))
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    record = {"id": session_id, "thread_name": name, "updated_at": stamp}
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    fd = os.open(
        Path(codex_home) / SESSION_INDEX,
        os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC,
        0o600,
    )
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(line)


def forget_thread_names(codex_home: Path, session_id: str) -> None:
    """Drop a deleted thread's lines from session_index.jsonl, as Codex 0.169's delete does
    (the other lines are kept byte for byte; the file is replaced in one rename).

    Raises:
        OSError: The index cannot be rewritten.
    """
    path = Path(codex_home) / SESSION_INDEX
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return
    kept: list[bytes] = []
    for line in raw.splitlines(keepends=True):
        try:
            record = json.loads(line)
        except ValueError:
            kept.append(line)
            continue
        if not (isinstance(record, dict) and record.get("id") == session_id):
            kept.append(line)
    if len(kept) == len(raw.splitlines()):
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(b"".join(kept))
    os.replace(tmp, path)
