"""Pilot tests for what a daily Codex user trips over (issue 27): resumed sessions, keys,
steering, drafts, backtrack, small terminals, transcript, markdown, retries, wording."""

from __future__ import annotations

from typing import Any

from codex_core.protocol import (
    AgentMessageEvent,
    EventMsg,
    UserMessageEvent,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.widgets.transcript import Transcript
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle


def app_with(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def long_past() -> list[dict[str, Any]]:
    """One question and an answer several screens long (laid out after it mounts)."""
    answer = "\n\n".join(f"Paragraph {i}: " + "words " * 12 for i in range(40))
    past: list[EventMsg] = [
        UserMessageEvent(message="tell me"),
        AgentMessageEvent(message=answer + "\n\nTHE END"),
    ]
    return [m.to_wire() for m in past]


async def test_resumed_session_opens_at_the_bottom_and_pages_with_keys() -> None:
    boot = FakeBoot(configured_event=configured(initial_messages=long_past()))
    app, _ = app_with(boot)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, boot.core if boot.cores else None, rounds=4)
        transcript = app.screen.query_one(Transcript)
        assert isinstance(app.screen, ChatScreen)
        assert transcript.max_scroll_y > 0
        assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("pageup")
        await settle(pilot)
        assert transcript.scroll_y < transcript.max_scroll_y
        await pilot.press("home")  # on an empty composer: the top of the conversation
        await settle(pilot)
        assert transcript.scroll_y == 0
        await pilot.press("pagedown")
        await settle(pilot)
        assert transcript.scroll_y > 0
        await pilot.press("end")
        await settle(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y
