"""The kernel's host for one turn: events, history persistence, usage and the clock."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from codex_core.protocol import EventMsg, ResponseItem, TokenUsage

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost


class SessionKernelHost:
    """Connects the kernel to the session for one turn."""

    def __init__(self, session: TurnHost, sub_id: str) -> None:
        self.session = session
        self.sub_id = sub_id

    def emit(self, msg: EventMsg) -> None:
        self.session.emit(self.sub_id, msg)

    def record(self, items: list[ResponseItem]) -> None:
        self.session.storage.record_items(items)

    def on_usage(self, usage: TokenUsage | None) -> None:
        self.session.on_usage(self.sub_id, usage)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
