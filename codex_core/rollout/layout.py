"""How a rollout file is laid out, and encoding lines in that layout.

Two layouts exist, and a file keeps the one it was started in (as Codex 0.169 does when it
appends to an older file):

- **legacy**: no `ordinal`; the conversation is recorded as `user_message`,
  `agent_message`, … events.
- **0.169**: every line carries `ordinal` (0, 1, 2, … with no gap: 0.169 refuses to resume a
  file whose last record has none); `session_meta` says `history_mode: "paginated"`; turns
  are bracketed by `task_started`/`task_complete` events with a `turn_id`, and the visible
  conversation is recorded as `item_completed` events (see `turn_items`).

A file whose records carry ordinals but whose meta is not paginated (0.169 numbering a
legacy conversation) keeps its events and gets ordinals continued.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core.rollout.format import encode_line, is_persisted_event
from codex_core.rollout.turn_items import item_completed

if TYPE_CHECKING:  # the projection loads the protocol models: only once a session records
    from codex_core.items import Event, Projection
    from codex_core.items.notices import Notice, TurnEnded, TurnStarted

PAGINATED = "paginated"
_TAIL_BYTES = 1 << 16


def uuid7(now: float | None = None) -> str:
    """A time-ordered UUID (version 7), the kind 0.169 gives turns and items."""
    millis = int((time.time() if now is None else now) * 1000) & ((1 << 48) - 1)
    rand = int.from_bytes(secrets.token_bytes(10), "big")
    value = (millis << 80) | (0x7 << 76) | ((rand >> 62) & 0xFFF) << 64
    value |= (0b10 << 62) | (rand & ((1 << 62) - 1))
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


@dataclass
class Layout:
    """The writing state of one rollout file: next ordinal and current turn.

    Args:
        next_ordinal: The ordinal of the next line, or None to write none (legacy files).
        items: Record the conversation as `item_completed` events (0.169 layout).
        thread_id: The session id (`item_completed` events name it).
        cwd: The session's working directory (command items carry it).
    """

    next_ordinal: int | None = None
    items: bool = False
    thread_id: str = ""
    cwd: str = ""
    turn_id: str = ""
    turn_open: bool = False
    _projection: Projection | None = field(default=None, repr=False)

    def encode(self, line_type: str, payload: dict[str, Any], now: float | None = None) -> bytes:
        """One line, numbered if this file numbers its lines."""
        ordinal = self.next_ordinal
        if ordinal is not None:
            self.next_ordinal = ordinal + 1
        return encode_line(line_type, payload, now, ordinal=ordinal)

    def lines_for(
        self, line_type: str, payload: dict[str, Any], now: float | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """The (line type, payload) pairs that record one line in this layout."""
        if not self.items:
            return [(line_type, payload)]
        if line_type == "turn_context":
            self._new_turn()
            turn = {"turn_id": self.turn_id, "root_turn_id": self.turn_id}  # no sub-agents
            return [(line_type, {**turn, **payload})]
        return [(line_type, payload)]

    def event_lines(
        self, event: Event, wire: dict[str, Any] | None = None, now: float | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """The lines recording one session event (none for events that are not persisted).

        In the 0.169 layout the event is fed to the item projection: an event that completes
        an item is recorded as that item (`item_completed`), the turn's start and end as
        `task_started`/`task_complete`, other persisted events as they are.

        Args:
            event: The event, with the id of its submission.
            wire: The event's wire form, if the caller has it already.
            now: The clock, for tests.
        """
        persisted = is_persisted_event(event.msg.type)
        if not self.items:
            return [("event_msg", wire or event.msg.to_wire())] if persisted else []
        from codex_core.items import notices as n
        from codex_core.rollout.item_record import rollout_item

        moment = time.time() if now is None else now
        lines: list[tuple[str, dict[str, Any]]] = []
        completed_item = aborted = False
        for notice in self._feed(event):
            if isinstance(notice, n.TurnStarted):
                lines.append(("event_msg", self._turn_started(notice, moment)))
            elif isinstance(notice, n.TurnEnded) and notice.status == "interrupted":
                self.turn_open, aborted = False, True  # recorded as its turn_aborted event
            elif isinstance(notice, n.TurnEnded):
                lines.append(("event_msg", self._turn_completed(notice, moment)))
            elif isinstance(notice, n.ItemCompleted) and notice.cause == "ended":
                completed_item = True  # the item stands for the event
                item = rollout_item(notice.item, cwd=self.cwd)
                if item is None:
                    continue
                if not self.turn_id:
                    self._new_turn()
                payload = item_completed(
                    item, thread_id=self.thread_id, turn_id=self.turn_id, now_ms=int(moment * 1000)
                )
                lines.append(("event_msg", payload))
        if persisted and not completed_item:
            payload = wire or event.msg.to_wire()
            lines.append(
                ("event_msg", {**payload, "turn_id": self.turn_id} if aborted else payload)
            )
        return lines

    def _feed(self, event: Event) -> list[Notice]:
        if self._projection is None:
            from codex_core.items import Projection

            self._projection = Projection(lambda kind, turn: uuid7())
        return self._projection.feed(event)

    def _new_turn(self) -> None:
        self.turn_id = uuid7()
        self.turn_open = True

    def _turn_started(self, started: TurnStarted, moment: float) -> dict[str, Any]:
        if not self.turn_open or not self.turn_id:
            self._new_turn()  # a turn without turn_context (a manual compaction)
        return {
            "type": "task_started",
            "turn_id": self.turn_id,
            "started_at": int(moment),
            "model_context_window": started.model_context_window,
        }

    def _turn_completed(self, ended: TurnEnded, moment: float) -> dict[str, Any]:
        self.turn_open = False
        return {
            "type": "task_complete",
            "turn_id": self.turn_id,
            "last_agent_message": ended.last_agent_message,
            "completed_at": int(moment),
        }


def new_session_layout(thread_id: str, cwd: str) -> Layout:
    """The layout of a new session: 0.169's, numbered from 0 (the session_meta)."""
    return Layout(next_ordinal=0, items=True, thread_id=thread_id, cwd=cwd)


def _records_from_tail(path: Path) -> list[dict[str, Any]]:
    """The complete JSON records in the last 64 KiB of a file, oldest first."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        start = max(0, size - _TAIL_BYTES)
        handle.seek(start)
        chunk = handle.read()
    lines = chunk.split(b"\n")
    if start > 0:
        lines = lines[1:]  # the first piece is probably a line cut in half
    records = []
    for raw in lines:
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


def _first_record(path: Path) -> dict[str, Any]:
    with open(path, "rb") as handle:
        raw = handle.readline(1 << 24)
    try:
        record = json.loads(raw)
    except ValueError:
        return {}
    return record if isinstance(record, dict) else {}


def read_meta(path: Path) -> dict[str, Any]:
    """The session_meta payload on a rollout's first line ({} when there is none).

    Raises:
        OSError: If the file cannot be read.
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        return {}
    first = _first_record(path)
    meta = first.get("payload") if first.get("type") == "session_meta" else None
    return meta if isinstance(meta, dict) else {}


def detect_layout(path: Path) -> Layout:
    """The layout an existing rollout uses, positioned to append after its last line.

    Raises:
        OSError: If the file cannot be read.
    """
    if not stat.S_ISREG(os.stat(path).st_mode):
        return Layout()  # a device or pipe (tests, /dev/null) has no layout to follow
    first = _first_record(path)
    meta = first.get("payload") if first.get("type") == "session_meta" else None
    meta = meta if isinstance(meta, dict) else {}
    ordinals = [r["ordinal"] for r in _records_from_tail(path) if isinstance(r.get("ordinal"), int)]
    if not ordinals and isinstance(first.get("ordinal"), int):
        ordinals = [first["ordinal"]]
    layout = Layout(
        next_ordinal=max(ordinals) + 1 if ordinals else None,
        items=meta.get("history_mode") == PAGINATED,
        thread_id=str(meta.get("session_id") or meta.get("id") or ""),
        cwd=str(meta.get("cwd") or ""),
    )
    if layout.items and layout.next_ordinal is None:
        layout.next_ordinal = 0
    return layout
