"""Reading rollout files tolerantly: torn, unparseable and unknown lines are skipped."""

from __future__ import annotations

import json
import logging
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


def read_rollout(path: Path) -> Rollout:
    """Read a whole rollout file.

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
    return rollout
