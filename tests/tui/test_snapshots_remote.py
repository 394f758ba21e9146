"""The TUI attached to an app-server (`codex --remote`): when another client of the thread
answers an approval first, the prompt on screen closes and a line says who decided
(snapshots stored in `snapshots/`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    ApprovalDecisionEvent,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    StreamErrorEvent,
    TaskStartedEvent,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.approval import ApprovalScreen
from codex_tui.app.screens.chat import ChatScreen
from tests.tui.fake_core import FakeBoot, frozen_clock, options, settle

SIZE = (100, 30)
Compare = Callable[..., bool]


def test_snapshot_remote_another_client_decided(snap_compare: Compare) -> None:
    boot = FakeBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())
    command = ["bash", "-lc", "echo both > both.txt"]

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(),
            ExecApprovalRequestEvent(call_id="b1", command=command, cwd="/srv/work", reason="r"),
        )
        await settle(pilot, boot.core, rounds=3)
        assert isinstance(pilot.app.screen, ApprovalScreen)
        boot.core.emit(
            ApprovalDecisionEvent(
                call_id="b1",
                kind="exec",
                decision="approved",
                command=command,
                reviewer="another_client",
            ),
            ApprovalDecisionEvent(
                call_id="b2",
                kind="patch",
                decision="denied",
                reviewer="another_client",
            ),
        )
        await settle(pilot, boot.core, rounds=3)
        assert isinstance(pilot.app.screen, ChatScreen)  # the prompt closed
        assert not boot.core.ops_of(ExecApprovalOp)  # and this TUI answered nothing

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_remote_reconnecting(snap_compare: Compare) -> None:
    """The server went away mid-turn: the status line counts the seconds of reconnecting."""
    boot = FakeBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(),
            AgentMessageDeltaEvent(delta="Half an answer"),
            StreamErrorEvent(message="Reconnecting to server… (3s)"),
        )
        await settle(pilot, boot.core, rounds=3)

    assert snap_compare(app, terminal_size=SIZE, run_before=before)
