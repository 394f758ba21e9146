"""Snapshots for issue 27: small terminals (60×20), wrapped transcript, Markdown, retries."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageEvent,
    ApplyPatchApprovalRequestEvent,
    EventMsg,
    StreamErrorEvent,
    UserMessageEvent,
)
from codex_core.protocol.common import AddChange, UpdateChange
from tests.tui.fake_core import settle
from tests.tui.test_snapshots import DIFF, Compare, app_with, feeding, turn_start

SMALL = (60, 20)


def test_snapshot_small_approval_patch_shows_every_choice(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Strip the file contents"),
        ApplyPatchApprovalRequestEvent(
            call_id="p1",
            changes={
                "src/loader.py": UpdateChange(unified_diff=DIFF),
                "src/new.py": AddChange(content="x = 1\n"),
            },
            reason="This file is outside the writable roots.",
        ),
    ]
    assert snap_compare(app, terminal_size=SMALL, run_before=feeding(boot, *msgs))


def test_snapshot_small_resume_picker_keeps_the_conversation(snap_compare: Compare) -> None:
    app, _ = app_with(show_picker=True, show_all=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_small_transcript_overlay_wraps(snap_compare: Compare) -> None:
    app, boot = app_with()
    long = "Please rename every helper in the loader module " * 3 + "END-OF-LINE"
    msgs: list[EventMsg] = [UserMessageEvent(message=long), AgentMessageEvent(message="Done.")]

    async def run_before(pilot: Pilot[Any]) -> None:
        await feeding(boot, *msgs)(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_markdown_links_and_ordered_lists(snap_compare: Compare) -> None:
    app, boot = app_with()
    answer = (
        "See the [contributing guide](https://example.com/contributing) first.\n\n"
        "1. Fork the repository\n2. Create a branch\n3. Open a pull request\n"
    )
    msgs = [*turn_start("How do I contribute?"), AgentMessageEvent(message=answer)]
    assert snap_compare(app, terminal_size=(80, 20), run_before=feeding(boot, *msgs))


def test_snapshot_retrying_shows_one_status_line(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Summarise the changes"),
        StreamErrorEvent(message="Reconnecting… 1/5"),
        StreamErrorEvent(message="Reconnecting… 2/5"),
        StreamErrorEvent(message="Reconnecting… 3/5"),
    ]
    assert snap_compare(app, terminal_size=(80, 20), run_before=feeding(boot, *msgs))
