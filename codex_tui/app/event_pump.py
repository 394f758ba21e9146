"""The one worker loop that reads core events and hands them to the UI in per-frame batches."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from codex_core.protocol import Event, deltas
from codex_tui.app.core import CoreClient

FRAME_SECONDS = 1 / 25
"""Streamed deltas are delivered at most this often (25 Hz): each delivery re-renders the
growing answer, and between deliveries the loop is free for keystrokes."""
MAX_BATCH_EVENTS = 5000
"""A flood of queued deltas is cut into batches of this size, bounding the work per frame."""


async def pump_events(
    core: CoreClient,
    deliver: Callable[[list[Event]], Awaitable[None]],
    frame_seconds: float = FRAME_SECONDS,
    max_batch: int = MAX_BATCH_EVENTS,
) -> None:
    """Read the core's events until `shutdown_complete`, delivering them to the UI in order,
    a flood of deltas once a frame (`codex_core.protocol.deltas.pump_events`): back-to-back
    renders left keystrokes waiting. `deliver` returns once the UI has applied the batch."""
    await deltas.pump_events(core.next_event, deliver, frame_seconds, max_batch)
