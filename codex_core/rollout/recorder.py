"""RolloutRecorder: a session's rollout lines, encoded in the file's layout and queued for the
writer thread (`writer.RolloutWriter`), so the session's event loop never waits for the disk.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core.private_files import private_mkdir
from codex_core.rollout.format import (
    is_persisted_event,
    rollout_path,
    utc_timestamp,
)
from codex_core.rollout.layout import (
    PAGINATED,
    Layout,
    detect_layout,
    new_session_layout,
)
from codex_core.rollout.state_db import facts_from_meta
from codex_core.rollout.writer import RolloutWriter, WarningCallback

if TYPE_CHECKING:
    from codex_core.items import Event

log = logging.getLogger(__name__)


class RolloutRecorder(RolloutWriter):
    """Writes one rollout file. Create with `create()` (new session) or `resume()` (append).

    `on_warning` may be called from the writer thread; it must be thread-safe (e.g.
    `list.append` or `loop.call_soon_threadsafe`). Warnings are also kept in `.warnings`.
    Flushing, shutting down and the writer thread are `RolloutWriter`'s.
    """

    def __init__(
        self,
        path: Path,
        fd: int | None,
        *,
        meta: dict[str, Any] | None = None,
        git_cwd: Path | None = None,
        on_warning: WarningCallback | None = None,
        layout: Layout | None = None,
    ) -> None:
        """Use `create()` or `resume()`; this wires an already-open descriptor to a writer."""
        self.layout = layout if layout is not None else Layout()
        self.facts = facts_from_meta(path, meta)
        # The session_meta is written by the writer thread (after git facts) but numbered first.
        meta_ordinal = self.layout.next_ordinal if meta is not None else None
        if meta_ordinal is not None:
            self.layout.next_ordinal = meta_ordinal + 1
        super().__init__(
            path,
            fd,
            meta=meta,
            meta_ordinal=meta_ordinal,
            git_cwd=git_cwd,
            on_warning=on_warning,
        )

    # ----------------------------------------------------------------- construction

    @classmethod
    def create(
        cls,
        codex_home: Path,
        session_id: str,
        cwd: Path,
        *,
        originator: str,
        cli_version: str,
        source: str,
        model_provider: str,
        thread_source: str = "user",
        instructions: str | None = None,
        on_warning: WarningCallback | None = None,
        now: float | None = None,
        layout: str = "0.169",
    ) -> RolloutRecorder:
        """Start `sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl` for a new session.

        The first line is `session_meta`; git facts for `cwd` are gathered on the writer
        thread. If the file cannot be created, the recorder is returned disabled with one
        warning instead of raising. New files use Codex 0.169's layout (numbered lines,
        `item_completed` events) unless `layout="legacy"`.

        Args:
            codex_home: The CODEX_HOME directory.
            session_id: The session's UUID.
            cwd: The session's working directory.
            originator: Which program wrote the rollout.
            cli_version: That program's version.
            source: `cli`, `exec`, `vscode` or `mcp`.
            thread_source: Who started the thread (`user`, or what `--thread-source` says);
                Codex 0.169's layout records it after `source`.
            model_provider: The model provider id.
            instructions: Base instructions, if the session overrides them.
            on_warning: Called once with a sentence if writing fails.
            now: Creation time (seconds since the epoch); defaults to the current time.
            layout: `"0.169"` (the default) or `"legacy"` (no ordinals, legacy events).
        """
        moment = time.time() if now is None else now
        path = rollout_path(codex_home, session_id, moment)
        current = layout != "legacy"
        lines = new_session_layout(session_id, str(cwd)) if current else Layout()
        meta: dict[str, Any] = {
            **({"session_id": session_id} if current else {}),
            "id": session_id,
            "timestamp": utc_timestamp(moment),
            "cwd": str(cwd),
            "originator": originator,
            "cli_version": cli_version,
            "instructions": instructions,
            "source": source,
            **({"thread_source": thread_source} if current else {}),
            "model_provider": model_provider,
            **({"history_mode": PAGINATED} if current else {}),
        }
        try:
            private_mkdir(path.parent)
            fd: int | None = os.open(
                path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600
            )
        except OSError as err:
            fd = None
            failure: OSError | None = err
        else:
            failure = None
        recorder = cls(path, fd, meta=meta, git_cwd=Path(cwd), on_warning=on_warning, layout=lines)
        if failure is not None:
            recorder._warn(failure)
        return recorder

    @classmethod
    def resume(cls, path: Path, on_warning: WarningCallback | None = None) -> RolloutRecorder:
        """Reopen an existing rollout and append to it.

        New lines follow the file's own layout (`layout.detect_layout`): numbered after its
        last ordinal and recorded as `item_completed` events in 0.169 files, unnumbered legacy
        events in older ones. A torn last line left by a crash is terminated first so new
        lines stay readable. If the file cannot be opened for appending, the recorder is
        returned disabled with one warning.
        """
        try:
            layout = detect_layout(Path(path))
            fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        except OSError as err:
            recorder = cls(Path(path), None, on_warning=on_warning)
            recorder._warn(err)
            return recorder
        return cls(Path(path), fd, on_warning=on_warning, layout=layout)

    # ----------------------------------------------------------------- recording

    def record_items(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Queue rollout lines given as (line type, payload); never waits for the disk."""
        if self._closed or self._failed:
            return
        for given_type, given in items:
            if self.facts is not None:
                self.facts.observe(given_type, given)
            for line_type, payload in self.layout.lines_for(given_type, given):
                self._put(line_type, payload)

    def _put(self, line_type: str, payload: dict[str, Any]) -> None:
        # Encode now (numbered in call order): the caller may mutate its dicts afterwards.
        try:
            line = self.layout.encode(line_type, payload)
        except (TypeError, ValueError) as err:  # a bug upstream must not end the session
            log.error("rollout %s: dropped a %s line: %s", self.path, line_type, err)
            return
        self._queue.put(line)

    def record_response_items(self, items: list[dict[str, Any]]) -> None:
        """Queue Responses API items (wire dicts) as `response_item` lines."""
        self.record_items([("response_item", item) for item in items])

    def record_event(self, event: Event | dict[str, Any]) -> None:
        """Queue a session event in the file's layout (see `Layout.event_lines`).

        Args:
            event: The event with its submission id, or an EventMsg's wire dict (its turn
                then has no id).
        """
        if self._closed or self._failed:
            return
        if isinstance(event, dict):
            from codex_core.items import Event
            from codex_core.protocol import parse_event_msg

            msg = parse_event_msg(event)
            if msg is None:
                return
            event = Event(id="", msg=msg)
        wire = event.msg.to_wire() if is_persisted_event(event.msg.type) else None
        if self.facts is not None and wire is not None:
            self.facts.observe("event_msg", wire)
        for line_type, payload in self.layout.event_lines(event, wire):
            self._put(line_type, payload)
