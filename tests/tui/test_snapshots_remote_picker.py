"""The resume picker when the remote app-server (`codex --remote`) cannot be reached: at
start-up the app ends with the server's one line (exit 1, as codex-rust 0.169: see
tests/compat/test_remote_errors_0169.py); inside a session `/resume` keeps the session and
says so on the picker's status line (snapshot in `snapshots/`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from codex_core.servers.app_server.remote import RemoteError
from codex_tui.app.codex_app import CodexApp, ExitSummary
from codex_tui.app.core import SessionPage
from codex_tui.app.screens.resume_picker import ResumePickerScreen
from tests.tui.fake_core import FakeBoot, FakeSessions, frozen_clock, options, settle

SIZE = (100, 30)
Compare = Callable[..., bool]
GONE = "failed to connect to remote app server at `ws://127.0.0.1:9/`: IO error: Connection refused (os error 111)"


class _Unreachable(FakeSessions):
    def __init__(self) -> None:
        super().__init__([])

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        raise RemoteError(GONE)


def _boot() -> FakeBoot:
    boot = FakeBoot()
    boot.session_source = _Unreachable()
    return boot


async def test_start_up_picker_ends_the_app_with_the_line() -> None:
    app = CodexApp(_boot(), options(show_picker=True), clock=frozen_clock())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert app.return_value == ExitSummary(error=GONE)


def test_snapshot_slash_resume_with_the_server_unreachable(snap_compare: Compare) -> None:
    app = CodexApp(_boot(), options(), clock=frozen_clock())

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press(*"/resume", "enter")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ResumePickerScreen)

    assert snap_compare(app, terminal_size=SIZE, run_before=before)
