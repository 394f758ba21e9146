"""The launch's first frame (issue 29): the chat screen opens without Textual parsing the
app's CSS again (its rules load with the app's; a screen with a CSS file new to the app has
every rule parsed again and every widget restyled as it is pushed)."""

from __future__ import annotations

import pytest
from textual.css.stylesheet import Stylesheet

from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.chat import ChatScreen
from tests.tui.fake_core import FakeBoot, frozen_clock, options, settle


async def test_the_chat_screen_opens_without_parsing_the_css_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reparsed: list[str] = []
    reparse = Stylesheet.reparse

    def counted(self: Stylesheet) -> None:
        reparsed.append(type(app.screen).__name__)
        reparse(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = CodexApp(FakeBoot(), options(), clock=frozen_clock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
    assert reparsed == []
