"""A scripted stand-in for the core: records ops, emits whatever events a test feeds it
(as the notices of the item projection the TUI takes, as a session's own would be)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from codex_core.items import ClientProjection
from codex_core.items import client as c
from codex_core.protocol import (
    ApprovalDecisionEvent,
    Event,
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    GetHistoryEntryRequestOp,
    GetHistoryEntryResponseEvent,
    Op,
    PatchApprovalOp,
    SessionConfiguredEvent,
    ShutdownCompleteEvent,
    ShutdownOp,
)
from codex_core.protocol.common import WorkspaceWritePolicy
from codex_tui.app.clock import FrozenClock
from codex_tui.app.coalesce import STARTUP_TURN
from codex_tui.app.core import KeyRequest, LaunchOptions, SessionPage, SessionSummary, TrustRequest
from codex_tui.app.event_pump import prepare
from codex_tui.app.wire_items import TURN

FIXED_NOW = datetime(2025, 10, 1, 12, 0, 0, tzinfo=UTC)
SESSION_ID = "0199a0c2-7e3a-7d41-b0a1-5d2f8c9e1f00"
PROJECT = "/home/user/project"

OpT = TypeVar("OpT")


def frozen_clock() -> FrozenClock:
    """The clock every TUI test uses."""
    return FrozenClock(FIXED_NOW)


def configured(**changes: object) -> SessionConfiguredEvent:
    """A typical `session_configured` event (no real paths)."""
    fields: dict[str, object] = {
        "session_id": SESSION_ID,
        "model": "gpt-5-codex",
        "history_log_id": 7,
        "history_entry_count": 0,
        "cwd": PROJECT,
        "approval_policy": "on-request",
        "sandbox_policy": WorkspaceWritePolicy(),
    }
    fields.update(changes)
    return SessionConfiguredEvent.model_validate(fields)


class NoticeFeed:
    """Events → the notices the TUI takes: `ClientProjection` under the screen's turn (the
    start's warnings under `STARTUP_TURN`), each batch prepared as the event pump does."""

    def __init__(self) -> None:
        self.projection = ClientProjection()

    def notices(self, event: Event) -> list[c.ClientNotice]:
        """One event's notices, as they come from the session."""
        turn = STARTUP_TURN if event.id == STARTUP_TURN else TURN
        return self.projection.feed_client(turn, event.msg)

    def project(self, events: list[Event]) -> list[c.ClientNotice]:
        """A batch's notices as the screen gets them (printable, deltas merged)."""
        return prepare([notice for event in events for notice in self.notices(event)])


class FakeCore:
    """Implements `CoreClient`; `emit()` feeds events, `ops` records what the UI submitted."""

    def __init__(self, history: list[str] | None = None) -> None:
        self.ops: list[Op] = []
        self.history = history or []
        self.on_op: Callable[[Op], list[EventMsg]] | None = None
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self.readers_waiting = 0
        """Readers blocked on the empty queue (the UI's pump, once it delivered all)."""
        self._next_id = 0
        self._commands: dict[str, list[str]] = {}
        self._feed = NoticeFeed()

    def emit(self, *msgs: EventMsg, sub_id: str = "1") -> None:
        """Queue events for the UI."""
        for msg in msgs:
            if isinstance(msg, ExecApprovalRequestEvent):
                self._commands[msg.call_id] = msg.command
            self._queue.put_nowait(Event(id=sub_id, msg=msg))

    async def submit(self, op: Op) -> str:
        """Record the op and answer the ones a real core always answers."""
        self._next_id += 1
        self.ops.append(op)
        if isinstance(op, ShutdownOp):
            self.emit(ShutdownCompleteEvent())
        elif isinstance(op, GetHistoryEntryRequestOp):
            entry = self.history[op.offset] if 0 <= op.offset < len(self.history) else None
            self.emit(GetHistoryEntryResponseEvent(offset=op.offset, log_id=op.log_id, entry=entry))
        elif isinstance(op, ExecApprovalOp):
            command = self._commands.get(op.id)
            self.emit(
                ApprovalDecisionEvent(
                    call_id=op.id, kind="exec", decision=op.decision, command=command
                )
            )
        elif isinstance(op, PatchApprovalOp):
            self.emit(ApprovalDecisionEvent(call_id=op.id, kind="patch", decision=op.decision))
        if self.on_op is not None:
            self.emit(*self.on_op(op))
        return str(self._next_id)

    async def next_notices(self) -> list[c.ClientNotice]:
        """The notices of the next queued event."""
        self.readers_waiting += self._queue.empty()
        try:
            event = await self._queue.get()
        finally:
            self.readers_waiting = 0
        return self._feed.notices(event)

    @property
    def drained(self) -> bool:
        """Every event emitted was taken, and handed to the UI: its reader waits for more."""
        return self._queue.empty() and self.readers_waiting > 0

    def ops_of(self, kind: type[OpT]) -> list[OpT]:
        """Submitted ops of one type."""
        return [op for op in self.ops if isinstance(op, kind)]


class FakeSessions:
    """A session listing served from memory, in pages."""

    def __init__(self, items: list[SessionSummary], page_size: int = 25) -> None:
        self.items = items
        self.page_size = page_size
        self.calls: list[str | None] = []

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        """One page starting at the integer cursor."""
        self.calls.append(cursor)
        start = int(cursor or 0)
        end = start + self.page_size
        next_cursor = str(end) if end < len(self.items) else None
        return SessionPage(self.items[start:end], next_cursor)


def sample_sessions(count: int = 6) -> list[SessionSummary]:
    """Sessions updated at increasing ages, newest first."""
    previews = [
        "Fix the flaky upload test",
        "Add a --json flag to the export command",
        "Why does the build fail on Python 3.12?",
        "Refactor the config loader into a package",
        "Write docs for the plugin API",
        "Speed up the search index rebuild",
    ]
    return [
        SessionSummary(
            id=f"session-{i:03d}",
            path=Path(f"/sessions/rollout-{i:03d}.jsonl"),
            updated=FIXED_NOW - timedelta(minutes=7 * i * i + 3),
            cwd=PROJECT if i % 3 else "/home/user/other",
            branch=["main", "feature/export", None][i % 3],
            preview=previews[i % len(previews)] + (f" ({i})" if i >= len(previews) else ""),
        )
        for i in range(count)
    ]


class FakeBoot:
    """Implements `Boot` for tests: scripted trust/key answers and a FakeCore per start."""

    def __init__(
        self,
        *,
        trust: TrustRequest | None = None,
        key: KeyRequest | None = None,
        sessions: FakeSessions | None = None,
        configured_event: SessionConfiguredEvent | None = None,
    ) -> None:
        self.trust = trust
        self.key = key
        self.session_source = sessions or FakeSessions(sample_sessions())
        self.configured_event = configured_event or configured()
        self.trust_answers: list[bool] = []
        self.saved_keys: list[str] = []
        self.starts: list[Path | None] = []
        self.prepared = 0
        self.cores: list[FakeCore] = []
        self.forks: list[tuple[Path, int | None]] = []
        self.saved_models: list[tuple[str, str | None]] = []
        self.logouts = 0

    @property
    def core(self) -> FakeCore:
        """The most recently started core."""
        return self.cores[-1]

    def trust_request(self) -> TrustRequest | None:
        """The scripted trust question."""
        return self.trust

    def record_trust(self, trusted: bool) -> None:
        """Remember the answer; the question is not asked again."""
        self.trust_answers.append(trusted)
        self.trust = None

    def key_request(self) -> KeyRequest | None:
        """The scripted key question."""
        return self.key

    def save_key(self, key: str) -> None:
        """Remember the pasted key."""
        self.saved_keys.append(key)
        self.key = None

    def sessions(self) -> FakeSessions:
        """The in-memory listing."""
        return self.session_source

    def fork(self, rollout: Path, nth_user_message: int | None) -> Path:
        """Remember the fork; the new session "resumes" from a made-up path."""
        self.forks.append((rollout, nth_user_message))
        return Path(f"/sessions/fork-{len(self.forks)}.jsonl")

    def save_model(self, model: str, effort: str | None) -> None:
        """Remember the saved default."""
        self.saved_models.append((model, effort))

    def logout(self) -> bool:
        """Remember the logout."""
        self.logouts += 1
        return True

    def prepare_session(self) -> None:
        """Counted: the app asks before a session may start."""
        self.prepared += 1

    async def start(self, resume_path: Path | None) -> FakeCore:
        """A fresh FakeCore that has already emitted `session_configured`."""
        self.starts.append(resume_path)
        core = FakeCore()
        core.emit(self.configured_event, sub_id="0")
        self.cores.append(core)
        return core


def options(**changes: object) -> LaunchOptions:
    """Launch options for tests."""
    opts = LaunchOptions(version="0.1.0")
    for name, value in changes.items():
        setattr(opts, name, value)
    return opts


async def settle(pilot: object, core: FakeCore | None = None, rounds: int = 2) -> None:
    """Wait until the core's queue is drained and the app has processed what it got."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    # Until the pump has handed everything to the screen, on a loaded machine too (one
    # holding streamed deltas for a frame also waits for more: the rounds below cover it).
    for _ in range(200):
        if core is None or core.drained:
            break
        await pilot.pause(0.02)
    for _ in range(rounds):
        await pilot.pause(0.03)
    await pilot.wait_for_scheduled_animations()
