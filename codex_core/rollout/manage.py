"""Finding, forking and archiving recorded sessions."""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import Any

from codex_core.private_files import private_mkdir
from codex_core.rollout.format import (
    ARCHIVED_DIR,
    SESSIONS_DIR,
    encode_line,
    injected_kind,
    message_text,
    parse_rollout_name,
    rollout_path,
    utc_timestamp,
)
from codex_core.rollout.head import read_head
from codex_core.rollout.reader import RolloutLine, iter_raw_lines
from codex_core.rollout.scan import rollout_entries, session_id_of
from codex_core.rollout.turn_items import ITEM_COMPLETED


class NotASessionError(LookupError):
    """A rollout file was found by id but holds no Codex session (corrupt, empty, binary…)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: this file is not a Codex session ({reason})")
        self.path = path
        self.reason = reason


def check_session_file(path: Path) -> None:
    """Make sure `path` starts like a Codex session before anything resumes or forks it.

    Raises:
        NotASessionError: If it does not (the message is one line naming the file).
    """
    problem = read_head(os.fspath(path)).problem
    if problem is not None:
        raise NotASessionError(Path(path), problem)


def find_session_path(codex_home: Path, id_or_prefix: str, *, check: bool = True) -> Path | None:
    """The rollout file of a session, by its id or an unambiguous id prefix.

    Active sessions are preferred over archived ones with the same id.

    Args:
        codex_home: The CODEX_HOME directory.
        id_or_prefix: A session id or the start of one.
        check: Refuse a file that is not a Codex session (False to archive such a file).

    Returns:
        The path, or None when nothing (or more than one session) matches.

    Raises:
        NotASessionError: If `check` and the matching file is not a Codex session.
    """
    wanted = id_or_prefix.strip().lower()
    if not wanted:
        return None
    exact: list[Path] = []
    prefixed: dict[str, Path] = {}
    for entry in rollout_entries(codex_home, include_archived=True):
        session_id = session_id_of(entry.name)
        if session_id is None or not session_id.startswith(wanted):
            continue
        if session_id == wanted:
            exact.append(Path(entry.path))
        prefixed.setdefault(session_id, Path(entry.path))
    found = exact[0] if exact else None
    if found is None and len(prefixed) == 1:
        found = next(iter(prefixed.values()))
    if found is not None and check:
        check_session_file(found)
    return found


def _is_user_turn(line: RolloutLine) -> bool:
    """Whether a line starts a user turn: a typed user message (item or event)."""
    if line.type == "event_msg":
        kind = line.payload.get("type")
        if kind == ITEM_COMPLETED:  # the 0.169 layout records the message as an item
            item = line.payload.get("item")
            return isinstance(item, dict) and item.get("type") == "UserMessage"
        return kind == "user_message"
    if line.type == "response_item":
        item = line.payload
        if item.get("type") == "message" and item.get("role") == "user":
            return injected_kind(message_text(item)) is None
    return False


def _cut_index(lines: list[tuple[bytes, RolloutLine | None]], nth: int) -> int:
    """Index of the first line of the `nth` (0-based) user turn, or len(lines) if none.

    Items and events are counted separately (a turn writes one of each), and the earlier of
    the two `nth` positions is the cut, so neither half of that turn survives.
    """
    seen = {"response_item": 0, "event_msg": 0}
    for index, (_raw, line) in enumerate(lines):
        if line is not None and _is_user_turn(line):
            if seen[line.type] == nth:
                return index
            seen[line.type] += 1
    return len(lines)


def fork_rollout(codex_home: Path, path: Path, nth_user_message: int | None) -> Path:
    """Copy a session into a new one, keeping lines before its `nth_user_message` (0-based).

    The new file gets a new id and a `session_meta` with `forked_from` set to the original
    id. `None` keeps the whole conversation. Torn lines are left out; lines of unknown types
    are copied as they are.

    Returns:
        The new rollout path.

    Raises:
        OSError: If the source cannot be read or the copy cannot be written.
    """
    lines = list(iter_raw_lines(path))
    cut = len(lines) if nth_user_message is None else _cut_index(lines, nth_user_message)
    meta: dict[str, Any] = {}
    for _raw, line in lines:
        if line is not None and line.type == "session_meta":
            meta = dict(line.payload)
            break
    parsed = parse_rollout_name(Path(path).name)
    original_id = meta.get("id") or (parsed[1] if parsed else None)
    now = time.time()
    new_id = str(uuid.uuid4())
    meta.update(id=new_id, timestamp=utc_timestamp(now), forked_from=original_id)
    if "session_id" in meta:
        meta["session_id"] = new_id
    meta["forked_from_id"] = original_id  # 0.169's key; `forked_from` is kept for older readers
    meta.setdefault("cwd", os.getcwd())
    target = rollout_path(codex_home, new_id, now)
    private_mkdir(target.parent)
    chunks = [encode_line("session_meta", meta, now)]
    for raw, line in lines[:cut]:
        if line is not None and line.type == "session_meta":
            continue
        if line is None and not _is_json_object(raw):
            continue  # torn or garbage line
        chunks.append(raw + b"\n")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(b"".join(chunks))
            out.flush()
            os.fsync(out.fileno())
    except OSError:
        target.unlink(missing_ok=True)
        raise
    return target


def _is_json_object(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False


def archive_session(codex_home: Path, path: Path) -> Path:
    """Move a rollout file into `archived_sessions/` and return its new path.

    Raises:
        ValueError: If `path` is not a rollout file.
        FileExistsError: If an archived file of that name already exists.
        OSError: If the move fails.
    """
    source = Path(path)
    if parse_rollout_name(source.name) is None:
        raise ValueError(f"{source} is not a rollout file (rollout-<time>-<id>.jsonl)")
    target_dir = Path(codex_home) / ARCHIVED_DIR
    private_mkdir(target_dir)
    target = target_dir / source.name
    if target.exists():
        raise FileExistsError(f"{target} already exists")
    shutil.move(os.fspath(source), os.fspath(target))
    return target


def unarchive_session(codex_home: Path, session_id: str) -> Path:
    """Move an archived rollout back under `sessions/YYYY/MM/DD/` (the day its name gives).

    Raises:
        FileNotFoundError: No archived rollout has that session id.
        FileExistsError: A rollout of that name is already in `sessions/`.
        OSError: If the move fails.
    """
    wanted = session_id.strip().lower()
    archived = Path(codex_home) / ARCHIVED_DIR
    try:
        names = sorted(os.listdir(archived))
    except FileNotFoundError:
        names = []
    for name in names:
        parsed = parse_rollout_name(name)
        if parsed is None or parsed[1] != wanted:
            continue
        stamp = parsed[0]
        day_dir = Path(codex_home) / SESSIONS_DIR / stamp[:4] / stamp[5:7] / stamp[8:10]
        target = day_dir / name
        if target.exists():
            raise FileExistsError(f"{target} already exists")
        private_mkdir(day_dir)
        shutil.move(os.fspath(archived / name), os.fspath(target))
        return target
    raise FileNotFoundError(f"no archived rollout found for thread id {session_id}")
