"""The resume picker gets the session ready only once its first page is on the screen:
spawning the app-server child earlier would take the CPU the listing and the first paint
need (tests/bench/resume_picker.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from codex_tui.app.codex_app import CodexApp
from codex_tui.app.core import SessionPage
from codex_tui.app.screens.resume_picker import ResumePickerScreen
from tests.tui.fake_core import (
    FakeBoot,
    FakeSessions,
    frozen_clock,
    options,
    sample_sessions,
    settle,
)

SIZE = (110, 36)


class HeldSessions(FakeSessions):
    """A listing whose first page waits until the test releases it."""

    def __init__(self) -> None:
        super().__init__(sample_sessions(30), page_size=10)
        self.release = threading.Event()

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        if not self.release.wait(timeout=10):
            raise TimeoutError("the test never released the listing")
        return super().list_page(cursor, show_all)


def _picker_app(boot: FakeBoot) -> CodexApp:
    """The app as `codex resume` starts it: the picker first."""
    return CodexApp(boot, options(show_picker=True), clock=frozen_clock())


async def _settle_until(pilot: object, done: Callable[[], bool], tries: int = 50) -> None:
    """Let the app run until `done()` (at most `tries` settles; the test's asserts say what
    did not happen)."""
    for _ in range(tries):
        await settle(pilot)
        if done():
            return


async def test_picker_prepares_the_session_once_after_its_first_page() -> None:
    sessions = HeldSessions()
    boot = FakeBoot(sessions=sessions)
    app = _picker_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        assert boot.prepared == 0  # still listing: nothing spawned yet
        sessions.release.set()
        await _settle_until(pilot, lambda: boot.prepared > 0)
        assert app.screen.shown, "the first page is on the screen"
        assert boot.prepared == 1
        for _ in range(3):  # later pages do not ask again
            await pilot.press("pagedown")
            await settle(pilot)
        assert len(sessions.calls) > 1
        assert boot.prepared == 1


async def test_picker_prepares_the_session_when_the_listing_fails() -> None:
    class Unreadable(FakeSessions):
        def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
            raise PermissionError(13, "Permission denied")

    boot = FakeBoot(sessions=Unreadable([]))
    async with _picker_app(boot).run_test(size=SIZE) as pilot:
        await _settle_until(pilot, lambda: boot.prepared > 0, tries=20)
        assert boot.prepared == 1


async def test_keys_pressed_before_the_first_page_apply_once_it_is_here() -> None:
    """`codex resume` shows the first page before Textual runs (picker_frame): a Down and
    an Enter typed on it reach the picker while it is still listing, and count."""
    sessions = HeldSessions()
    boot = FakeBoot(sessions=sessions)
    app = _picker_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert boot.starts == []  # nothing to choose yet
        sessions.release.set()
        await _settle_until(pilot, lambda: bool(boot.starts))
        assert boot.starts == [sessions.items[1].path]
