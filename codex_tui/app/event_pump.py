"""The one worker loop that reads core events and hands them to the UI in per-frame batches."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    ExecCommandOutputDeltaEvent,
    ShutdownCompleteEvent,
)
from codex_tui.app.core import CoreClient

FRAME_SECONDS = 1 / 40
"""Streamed deltas are delivered at most this often (40 Hz), so input never starves."""
FLOOD_PAUSE_SECONDS = 0.002
"""While deltas pour in, the loop sleeps this long after each frame to let keystrokes through."""


def is_delta(event: Event) -> bool:
    """Whether the event is a streamed fragment that may be coalesced."""
    return isinstance(
        event.msg, AgentMessageDeltaEvent | AgentReasoningDeltaEvent | ExecCommandOutputDeltaEvent
    )


async def pump_events(
    core: CoreClient,
    deliver: Callable[[list[Event]], None],
    frame_seconds: float = FRAME_SECONDS,
) -> None:
    """Read events until `shutdown_complete`, delivering them in order.

    Deltas are held for up to one frame and delivered together; any other event flushes
    the held deltas and itself at once.
    """
    loop = asyncio.get_running_loop()
    batch: list[Event] = []
    deadline = 0.0
    while True:
        if batch:
            try:
                async with asyncio.timeout_at(deadline):
                    event = await core.next_event()
            except TimeoutError:
                deliver(batch)
                batch = []
                await asyncio.sleep(0)
                continue
        else:
            event = await core.next_event()
            deadline = loop.time() + frame_seconds
        batch.append(event)
        if not is_delta(event):
            deliver(batch)
            batch = []
            if isinstance(event.msg, ShutdownCompleteEvent):
                return
            await asyncio.sleep(0)
        elif loop.time() >= deadline:
            deliver(batch)
            batch = []
            await asyncio.sleep(FLOOD_PAUSE_SECONDS)
