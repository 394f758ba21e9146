"""The session's persistence: rollout file, history.jsonl and turn notifications.

Every failure here (full disk, read-only CODEX_HOME) becomes a warning; a session never dies
because it cannot write its record.
"""

from __future__ import annotations

import json
import logging
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core import __version__
from codex_core.config import Config
from codex_core.history import append_history, history_metadata, lookup_history
from codex_core.protocol import Event, ResponseItem, parse_response_item
from codex_core.rollout import RolloutRecorder, read_rollout, reconstruct
from codex_core.turn_context import TurnContext

log = logging.getLogger(__name__)
ORIGINATOR = "codex_cli_py"


@dataclass
class Restored:
    """What a resumed session starts from."""

    session_id: str
    history: list[ResponseItem]
    events: list[dict[str, Any]]
    turn_context: dict[str, Any] | None


class SessionStorage:
    """Rollout recorder plus history file access for one session."""

    def __init__(
        self, config: Config, recorder: RolloutRecorder | None, warnings: list[str]
    ) -> None:
        self.config = config
        self.recorder = recorder
        self._warnings = warnings
        self.session_id = ""
        self.client = ORIGINATOR
        """The `client` of notify payloads (`codex_exec` for exec sessions, as in 0.169)."""

    @property
    def path(self) -> Path | None:
        """The rollout file, if recording works."""
        return self.recorder.path if self.recorder is not None else None

    @classmethod
    def create(cls, config: Config, session_id: str, source: str) -> SessionStorage:
        """Start a new rollout file for a new session (none when `config.ephemeral`)."""
        warnings: list[str] = []
        if config.ephemeral:
            return cls(config, None, warnings)._named(session_id, source)
        try:
            recorder = RolloutRecorder.create(
                config.codex_home,
                session_id,
                config.cwd,
                originator=ORIGINATOR,
                cli_version=__version__,
                source=source,
                model_provider=config.model_provider_id,
                thread_source=config.thread_source,
                on_warning=warnings.append,
            )
        except OSError as err:
            warnings.append(f"this session will not be saved: {err}")
            recorder = None
        return cls(config, recorder, warnings)._named(session_id, source)

    def _named(self, session_id: str, source: str | None) -> SessionStorage:
        self.session_id = session_id
        if source == "exec":
            self.client = "codex_exec"
        return self

    @classmethod
    def resume(cls, config: Config, path: Path) -> tuple[SessionStorage, Restored]:
        """Reopen a rollout for appending and rebuild the conversation from it."""
        rollout = read_rollout(path)
        rebuilt = reconstruct(rollout)
        history = [i for i in (parse_response_item(d) for d in rebuilt.history) if i is not None]
        warnings: list[str] = []
        try:
            recorder: RolloutRecorder | None = RolloutRecorder.resume(
                path, on_warning=warnings.append
            )
        except OSError as err:
            warnings.append(f"new messages in this session will not be saved: {err}")
            recorder = None
        restored = Restored(rebuilt.session_id, history, rebuilt.events, rebuilt.turn_context)
        source = rollout.meta.get("source") if rollout.meta else None
        storage = cls(config, recorder, warnings)._named(rebuilt.session_id, str(source))
        return storage, restored

    def drain_warnings(self) -> list[str]:
        """Warnings gathered since the last call."""
        out, self._warnings[:] = list(self._warnings), []
        return out

    def record_items(self, items: list[ResponseItem]) -> None:
        """Persist history items."""
        if self.recorder is not None:
            self.recorder.record_response_items([i.to_wire() for i in items])

    def record_event(self, event: Event) -> None:
        """Persist an event in the rollout's layout (the recorder filters)."""
        if self.recorder is not None:
            self.recorder.record_event(event)

    def record_turn_context(self, turn: TurnContext) -> None:
        """Persist the settings of the turn about to run."""
        if self.recorder is not None:
            payload = turn.rollout_payload(
                approvals_reviewer=self.config.approvals_reviewer,
                default_profile=not self.config.sandbox_mode_explicit
                and turn.sandbox_policy == self.config.sandbox_policy,
            )
            self.recorder.record_items([("turn_context", payload)])

    def record_compacted(self, summary: str, replacement: list[ResponseItem]) -> None:
        """Persist a compaction with the history that replaces everything before it."""
        if self.recorder is not None:
            payload = {
                "message": summary,
                "replacement_history": [i.to_wire() for i in replacement],
            }
            self.recorder.record_items([("compacted", payload)])

    async def flush(self) -> None:
        """Make everything written so far durable (end of turn)."""
        if self.recorder is not None:
            await self.recorder.flush(fsync=True)

    async def close(self) -> None:
        """Flush and stop the writer."""
        if self.recorder is not None:
            await self.recorder.shutdown()

    def history_metadata(self) -> tuple[int, int]:
        """(log id, entry count) of history.jsonl."""
        try:
            return history_metadata(self.config.codex_home)
        except OSError:
            return 0, 0

    def append_history(self, session_id: str, text: str) -> None:
        """Add a submitted message to history.jsonl, honouring `history.persistence`."""
        history = self.config.history
        try:
            append_history(
                self.config.codex_home,
                session_id,
                text,
                persistence=history.persistence,
                max_bytes=history.max_bytes,
            )
        except OSError as err:
            self._warnings.append(f"could not write history.jsonl: {err.strerror or err}")

    def lookup_history(self, log_id: int, offset: int) -> str | None:
        """One history.jsonl entry."""
        try:
            return lookup_history(self.config.codex_home, log_id, offset)
        except OSError:
            return None

    def notify(
        self, argv: list[str] | None, turn_id: str, user_text: str, last: str | None
    ) -> None:
        """Run the configured `notify` program with a JSON description of the finished turn."""
        if not argv:
            return
        payload = {  # the keys and order of Codex 0.169's payload
            "type": "agent-turn-complete",
            "thread-id": self.session_id,
            "turn-id": turn_id,
            "cwd": str(self.config.cwd),
            "client": self.client,
            "input-messages": [user_text],
            "last-assistant-message": last,
        }
        try:
            subprocess.Popen(
                [*argv, json.dumps(payload)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as err:
            log.warning("notify program failed: %s", err)
