"""A folder recorded untrusted: on every launch the TUI first offers to open it restricted or to
quit (codex-rust 0.169's "Open restricted" screen, tests/fixtures/tui_policies_0169.json);
opening records nothing and starts the session, quitting starts none."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from codex_tui.app.core import TrustRequest
from tests.tui.fake_core import FakeBoot, settle
from tests.tui.test_snapshots import SIZE, Compare, app_with

RESTRICTED = TrustRequest(directory="~/project", is_git_repo=False, restricted=True)


def test_snapshot_open_restricted_screen(snap_compare: Compare) -> None:
    app, _ = app_with(FakeBoot(trust=RESTRICTED))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def test_open_restricted_records_nothing_and_starts_the_session() -> None:
    boot = FakeBoot(trust=RESTRICTED)
    app, _ = app_with(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert boot.starts == []
        await pilot.press("enter")
        await settle(pilot)
        assert boot.trust_answers == []
        assert boot.starts == [None]


async def test_quit_on_the_restricted_screen_starts_no_session() -> None:
    boot = FakeBoot(trust=RESTRICTED)
    app, _ = app_with(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert boot.trust_answers == []
        assert boot.starts == []
    assert app.return_code in (0, None)
