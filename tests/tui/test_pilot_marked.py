"""The `›` marker on the highlighted row and hanging indents (issue 27): the selection reads
without colour, as in 0.169's lists."""

from __future__ import annotations

from textual.content import Content
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from codex_core.protocol import ExecApprovalRequestEvent, TaskStartedEvent
from codex_tui.app.screens.resume_picker import ResumePickerScreen, hint_lines
from codex_tui.app.widgets.completion_popup import CompletionPopup
from codex_tui.app.widgets.marked_list import MarkedOptionList, MarkedRow, row_prompt
from tests.tui.fake_core import settle
from tests.tui.test_pilot import make_app


def test_row_prompt_wraps_the_body_under_itself() -> None:
    row = MarkedRow(Content("/fork  "), Content("continue this conversation as a new session"))
    assert row_prompt(row, 9, 40, True).plain.split("\n") == [
        "› /fork    continue this conversation as",
        "           a new session",
    ]
    assert row_prompt(row, 9, 40, False).plain.startswith("  /fork    continue")


def test_hint_lines_break_between_hints_only() -> None:
    hints = [("enter", "resume"), ("esc", "new session"), ("ctrl+c", "quit")]
    assert hint_lines(hints, 30).plain.split("\n") == [
        "enter resume · esc new session",
        "ctrl+c quit",
    ]
    assert hint_lines(hints, 0).plain == "enter resume · esc new session · ctrl+c quit"


def marked(options: MarkedOptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt)[:2] for i in range(options.option_count)]


async def test_the_marker_follows_the_highlight_in_the_slash_popup() -> None:
    app, _boot = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        popup = app.screen.query_one(CompletionPopup)
        assert marked(popup)[:3] == ["› ", "  ", "  "]
        await pilot.press("down")
        await settle(pilot)
        assert marked(popup)[:3] == ["  ", "› ", "  "]


async def test_the_marker_follows_the_highlight_in_an_approval() -> None:
    app, boot = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        request = ExecApprovalRequestEvent(call_id="c1", command=["make"], cwd="/p")
        boot.core.emit(TaskStartedEvent(), request)
        await settle(pilot, boot.core)
        options = app.screen.query_one(MarkedOptionList)
        await pilot.press("down", "down")
        await settle(pilot)
        assert marked(options) == ["  ", "  ", "› ", "  "]


async def test_the_marker_follows_the_cursor_in_the_resume_picker() -> None:
    app, _boot = make_app(show_picker=True, show_all=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        table = app.screen.query_one(DataTable)

        def markers() -> list[str]:
            return [str(table.get_cell_at(Coordinate(row, 0))) for row in range(3)]

        assert markers() == ["›", "", ""]
        await pilot.press("down", "down")
        await settle(pilot)
        assert markers() == ["", "", "›"]
