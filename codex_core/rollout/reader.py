"""Reading rollout files tolerantly: torn, unparseable and unknown lines are skipped."""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from codex_core.rollout.format import LINE_TYPES, is_persisted_item, is_readable_event

log = logging.getLogger(__name__)


class RolloutLine(NamedTuple):
    """One known rollout line."""

    timestamp: str
    type: str
    payload: dict[str, Any]
    ordinal: int | None = None
    """The line's number in 0.169-layout files; None in older ones."""


@dataclass
class Rollout:
    """A parsed rollout file: its first `session_meta` payload and its known lines in order."""

    path: Path
    meta: dict[str, Any] | None
    lines: list[RolloutLine] = field(default_factory=list)
    skipped: int = 0


def parse_line(raw: bytes | str) -> RolloutLine | None:
    """A known rollout line, or None for blank, torn, unparseable or unknown lines.

    Unknown line types, Responses items and events (newer Codex versions add some) are
    treated like unparseable lines: skipped, never fatal.
    """
    raw = raw.strip()
    if not raw:
        return None
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(record, dict):
        return None
    line_type, payload = record.get("type"), record.get("payload")
    if not isinstance(line_type, str) or line_type not in LINE_TYPES:
        return None
    if not isinstance(payload, dict):
        return None
    kind = payload.get("type")
    if line_type == "response_item" and not (isinstance(kind, str) and is_persisted_item(kind)):
        return None
    if line_type == "event_msg" and not (isinstance(kind, str) and is_readable_event(kind)):
        return None
    timestamp = record.get("timestamp")
    ordinal = record.get("ordinal")
    return RolloutLine(
        timestamp if isinstance(timestamp, str) else "",
        line_type,
        payload,
        ordinal if isinstance(ordinal, int) and not isinstance(ordinal, bool) else None,
    )


def iter_raw_lines(path: Path) -> Iterator[tuple[bytes, RolloutLine | None]]:
    """Every non-blank line of `path` as (raw bytes without newline, parsed line or None)."""
    with open(path, "rb") as handle:
        for raw in handle:
            stripped = raw.rstrip(b"\r\n")
            if stripped.strip():
                yield stripped, parse_line(stripped)


def last_turn_context(path: Path) -> dict[str, Any] | None:
    """The payload of the file's last readable `turn_context` line (its turn's settings),
    or None; only lines that name the type are parsed."""
    found: dict[str, Any] | None = None
    with open(path, "rb") as handle:
        for raw in handle:
            if b'"turn_context"' in raw:
                line = parse_line(raw)
                if line is not None and line.type == "turn_context":
                    found = line.payload
    return found


def read_rollout(path: Path, *, _depth: int = 0) -> Rollout:
    """Read a whole rollout file.

    A Codex 0.169 fork keeps its history in the original: its `session_meta` names a
    `history_base` (`thread_id`, `end_ordinal_exclusive`), whose lines before that ordinal
    come first here, as 0.169 reads it (each base may itself be a fork).

    Args:
        path: The rollout `.jsonl` file.

    Raises:
        OSError: If the file cannot be opened or read.
    """
    rollout = Rollout(path=Path(path), meta=None)
    for _raw, line in iter_raw_lines(path):
        if line is None:
            rollout.skipped += 1
            continue
        if line.type == "session_meta" and rollout.meta is None:
            rollout.meta = line.payload
        rollout.lines.append(line)
    if rollout.skipped:
        log.info("rollout %s: skipped %d unreadable or unknown lines", path, rollout.skipped)
    if rollout.meta is not None and "history_base" in rollout.meta:
        rollout.lines[:0] = _history_base_lines(rollout.path, rollout.meta, _depth)
    return rollout


_MAX_FORK_DEPTH = 16


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _thread_id() -> re.Pattern[str]:
    return re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def _history_base_lines(path: Path, meta: dict[str, Any], depth: int) -> list[RolloutLine]:
    """The lines of a 0.169 fork's `history_base` (none if it cannot be found or read)."""
    base = meta.get("history_base")
    if not isinstance(base, dict) or depth >= _MAX_FORK_DEPTH:
        return []
    thread_id, end = base.get("thread_id"), base.get("end_ordinal_exclusive")
    if not isinstance(thread_id, str) or not _thread_id().fullmatch(thread_id):
        return []
    source = _find_in_home(path, thread_id.lower())
    if source is None:
        log.warning("rollout %s: its history base %s is not found", path, thread_id)
        return []
    try:
        parent = read_rollout(source, _depth=depth + 1)
    except OSError as err:
        log.warning("rollout %s: its history base cannot be read (%s)", path, err)
        return []
    limit = end if isinstance(end, int) and not isinstance(end, bool) else None
    return [
        line
        for line in parent.lines
        if line.type != "session_meta"
        and (limit is None or (line.ordinal is not None and line.ordinal < limit))
    ]


def _find_in_home(path: Path, thread_id: str) -> Path | None:
    """The rollout of `thread_id` in the CODEX_HOME that holds `path` (active or archived)."""
    home = next((p.parent for p in path.parents if p.name in _FOLDERS), None)
    if home is None:
        return None
    for folder in _FOLDERS:
        for found in sorted((home / folder).rglob(f"rollout-*-{thread_id}.jsonl")):
            if found != path:
                return found
    return None


_FOLDERS = ("sessions", "archived_sessions")
