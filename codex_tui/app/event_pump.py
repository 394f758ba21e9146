"""The one worker loop that reads a session's notices and hands them to the UI in per-frame
batches (text made printable, runs of deltas merged)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_tui.app.coalesce import coalesce, printable_notice
from codex_tui.app.core import CoreClient

FRAME_SECONDS = 1 / 25
"""Streamed deltas are delivered at most this often (25 Hz): each delivery re-renders the
growing answer, and between deliveries the loop is free for keystrokes."""
MAX_BATCH_NOTICES = 5000
"""A flood of queued deltas is cut into batches of about this size, bounding the work per
frame."""
_DELTAS = (n.AgentMessageDelta, n.ReasoningDelta, n.CommandOutputDelta)


def prepare(notices: list[c.ClientNotice]) -> list[c.ClientNotice]:
    """A batch as the screen takes it: every notice but a delta made printable, then runs
    of deltas merged (and made printable once merged: an escape sequence split across
    deltas is seen whole)."""
    return coalesce([x if isinstance(x, _DELTAS) else printable_notice(x) for x in notices])


def _streaming(notices: list[c.ClientNotice]) -> bool:
    """Whether a message's notices end in a streamed delta (worth waiting a frame for more)."""
    return bool(notices) and isinstance(notices[-1], _DELTAS)


async def pump_notices(
    core: CoreClient,
    deliver: Callable[[list[c.ClientNotice]], Awaitable[None]],
    frame_seconds: float = FRAME_SECONDS,
    max_batch: int = MAX_BATCH_NOTICES,
) -> None:
    """Read the core's notices until the session ends (`SessionEnded`), delivering them in
    order, a flood of deltas once a frame: back-to-back renders left keystrokes waiting.

    A batch that ends in a delta is held until one frame after the previous delivery
    (collecting what arrives meanwhile, up to `max_batch` notices); anything else flushes
    the held deltas and itself at once. `deliver` is awaited, so at most one batch is in
    flight (when the UI falls behind, notices wait in the core's queue); a batch with no
    notices is not delivered."""
    loop = asyncio.get_running_loop()
    last_delivery = -frame_seconds
    while True:
        batch = list(await core.next_notices())
        if _streaming(batch):
            deadline = max(loop.time(), last_delivery + frame_seconds)
            try:
                async with asyncio.timeout_at(deadline):
                    # Queued notices do not suspend, so the deadline is also checked by hand.
                    while len(batch) < max_batch and loop.time() < deadline:
                        more = await core.next_notices()
                        batch += more
                        if not _streaming(more):
                            break
            except TimeoutError:
                pass
        last_delivery = loop.time()
        notices = prepare(batch)
        if notices:
            await deliver(notices)
        if batch and isinstance(batch[-1], n.SessionEnded):
            return
