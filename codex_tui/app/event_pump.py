"""The one worker loop that reads a session's events, runs them through the item projection,
and hands the notices to the UI in per-frame batches."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from codex_core.items import ClientProjection
from codex_core.items import client as c
from codex_core.protocol import DeltaEvent, Event, deltas
from codex_core.terminal_text import printable_event
from codex_tui.app.coalesce import STARTUP_TURN, coalesce
from codex_tui.app.core import CoreClient

FRAME_SECONDS = 1 / 25
"""Streamed deltas are delivered at most this often (25 Hz): each delivery re-renders the
growing answer, and between deliveries the loop is free for keystrokes."""
MAX_BATCH_EVENTS = 5000
"""A flood of queued deltas is cut into batches of this size, bounding the work per frame."""
TURN = "tui"
"""The turn the session's events are projected under (but the start's, `STARTUP_TURN`): the
screen shows one turn at a time, and a turn's end closes whatever it left open, whichever
submission began it (a steered message, a `--remote` server's own ids)."""


class NoticeFeed:
    """One session's events → the screen's notices (`ClientProjection`), batch by batch."""

    def __init__(self) -> None:
        self.projection = ClientProjection()

    def project(self, events: list[Event]) -> list[c.ClientNotice]:
        """The notices of a batch of events, deltas coalesced. Text is made printable first
        (model text and output never reach the terminal raw); deltas once merged."""
        out: list[c.ClientNotice] = []
        feed = self.projection.feed_client
        for event in events:
            msg = event.msg
            if not isinstance(msg, DeltaEvent):
                msg = printable_event(msg)
            out += feed(STARTUP_TURN if event.id == STARTUP_TURN else TURN, msg)
        return coalesce(out)


async def pump_notices(
    core: CoreClient,
    deliver: Callable[[list[c.ClientNotice]], Awaitable[None]],
    frame_seconds: float = FRAME_SECONDS,
    max_batch: int = MAX_BATCH_EVENTS,
) -> None:
    """Read the core's events until `shutdown_complete`, delivering their notices to the UI
    in order, a flood of deltas once a frame (`codex_core.protocol.deltas.pump_events`):
    back-to-back renders left keystrokes waiting. `deliver` returns once the UI has applied
    the batch; a batch with no notices is not delivered."""
    feed = NoticeFeed()

    async def project(batch: list[Event]) -> None:
        notices = feed.project(batch)
        if notices:
            await deliver(notices)

    await deltas.pump_events(core.next_event, project, frame_seconds, max_batch)
