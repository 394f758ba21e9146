"""Issue 23 item 9, the screen's other ways in: text that reaches the terminal without being
a session event (start-up warnings, file names in the `@` popup, OSC 9 notifications) shows
its control characters as marks and never writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.protocol import WarningEvent
from codex_tui.app import notifications
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.widgets.completion_popup import CompletionPopup
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 34)


def make_app(boot: FakeBoot | None = None) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(), clock=frozen_clock()), boot


def written(app: CodexApp) -> str:
    """What a full repaint of the current screen writes to the terminal."""
    return app.screen._compositor.render_full_update().render_segments(app.console)


async def test_startup_warning_from_a_server_shows_its_escapes_in_the_f2_list() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        message = "MCP server `x` failed: \x1b]52;c;V0FSTg==\x07\x1b[2J boom"
        boot.core.emit(WarningEvent(message=message), sub_id="0")
        await settle(pilot, boot.core)
        await pilot.press("f2")
        assert isinstance(app.screen, PagerScreen)
        assert [line.plain for line in app.screen.lines] == [
            "⚠ MCP server `x` failed: ␛]52;c;V0FSTg==␇␛[2J boom"
        ]
        await settle(pilot)
        out = written(app)
        assert "␛]52;c;V0FSTg==" in out
        assert "\x1b]52;" not in out and "\x1b[2J" not in out


async def test_a_file_name_with_escapes_shows_them_in_the_at_popup(tmp_path: Path) -> None:
    name = "evil\x1b]52;c;RklMRQ==\x07.txt"  # anyone who can write the workspace names files
    (tmp_path / name).write_text("")
    app, boot = make_app(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for ch in "@evil":
            await pilot.press(ch)
        popup = app.screen.query_one(CompletionPopup)
        for _ in range(50):
            if popup.values:
                break
            await pilot.pause(0.02)
        assert popup.values == [name]  # the path itself is what Tab inserts
        shown: Any = popup.get_option_at_index(0).prompt
        assert shown.plain.strip() == "› evil␛]52;c;RklMRQ==␇.txt"
        await settle(pilot)
        out = written(app)
        assert "evil␛]52;c;RklMRQ==␇.txt" in out and "\x1b]52;" not in out


def test_a_notification_cannot_end_its_own_sequence() -> None:
    """Only the notification's own ESC ] 9 ; … BEL: an 8-bit ST (\\x9c) in the text would
    end it early and what follows (8-bit OSC 52 here) would act."""
    sequence = notifications.osc9("done\x9c\x9d52;c;Tk9USUZZ\x9c \x1b]0;T\x07 \x1b\\")
    body = sequence.removeprefix("\x1b]9;").removesuffix("\x07")
    assert sequence == f"\x1b]9;{body}\x07"
    assert not [c for c in body if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F], body
    assert "Tk9USUZZ" in body
