"""The one worker loop that reads core events and hands them to the UI in per-frame batches."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    ExecCommandOutputDeltaEvent,
    ShutdownCompleteEvent,
)
from codex_tui.app.core import CoreClient

FRAME_SECONDS = 1 / 25
"""Streamed deltas are delivered at most this often (25 Hz): each delivery re-renders the
growing answer, and between deliveries the loop is free for keystrokes."""
MAX_BATCH_EVENTS = 5000
"""A flood of queued deltas is cut into batches of this size, bounding the work per frame."""


def is_delta(event: Event) -> bool:
    """Whether the event is a streamed fragment that may be coalesced."""
    return isinstance(
        event.msg, AgentMessageDeltaEvent | AgentReasoningDeltaEvent | ExecCommandOutputDeltaEvent
    )


async def pump_events(
    core: CoreClient,
    deliver: Callable[[list[Event]], Awaitable[None]],
    frame_seconds: float = FRAME_SECONDS,
    max_batch: int = MAX_BATCH_EVENTS,
) -> None:
    """Read events until `shutdown_complete`, delivering them in order.

    A batch that starts with a delta is held until one frame after the previous delivery
    (collecting what arrives meanwhile, up to `max_batch` events); any other event flushes
    the held deltas and itself at once. So a flood of deltas is drawn once a frame, not as
    fast as the UI can apply batches, which left keystrokes waiting behind back-to-back
    renders. `deliver` returns once the UI has applied the batch, so at most one batch is
    in flight: when rendering falls behind, events wait in the core's queue.
    """
    loop = asyncio.get_running_loop()
    last_delivery = -frame_seconds
    while True:
        batch = [await core.next_event()]
        if is_delta(batch[0]):
            deadline = max(loop.time(), last_delivery + frame_seconds)
            try:
                async with asyncio.timeout_at(deadline):
                    # Queued events do not suspend, so the deadline is also checked by hand.
                    while len(batch) < max_batch and loop.time() < deadline:
                        event = await core.next_event()
                        batch.append(event)
                        if not is_delta(event):
                            break
            except TimeoutError:
                pass
        last_delivery = loop.time()
        await deliver(batch)
        if isinstance(batch[-1].msg, ShutdownCompleteEvent):
            return
