"""App-level Textual messages that carry core events to the UI."""

from __future__ import annotations

import asyncio

from textual.message import Message

from codex_core.protocol import Event
from codex_tui.app.core import CoreClient


class CoreEvents(Message):
    """A batch of core events in arrival order (streamed deltas arrive coalesced per frame)."""

    def __init__(self, events: list[Event], source: CoreClient) -> None:
        super().__init__()
        self.events = events
        self.source = source
        self.applied: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def done(self) -> None:
        """Tell the event pump the batch is on screen, so it may send the next one."""
        if not self.applied.done():
            self.applied.set_result(None)


class CoreFailed(Message):
    """The core's event stream broke; the message says why in one sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason
