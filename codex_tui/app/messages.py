"""App-level Textual messages that carry a session's notices (its projected events) to the UI."""

from __future__ import annotations

import asyncio

from textual.message import Message

from codex_core.items import client as c
from codex_tui.app.core import CoreClient


class CoreNotices(Message):
    """A batch of a session's notices in arrival order (streamed deltas coalesced per frame)."""

    def __init__(self, notices: list[c.ClientNotice], source: CoreClient) -> None:
        super().__init__()
        self.notices = notices
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
