"""Streamed deltas: which events they are, and runs of them merged into one event each.

Used where a flood of deltas is batched (`pump_events`): the app-server's thread pump, before
it translates them. Which events are deltas and where a session ends is decided here, in the
core, so the pump itself matches on no event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from codex_core.protocol.events import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
    ShutdownCompleteEvent,
)


def is_delta(event: Event) -> bool:
    """Whether the event is a streamed fragment that may be merged with its neighbours."""
    return isinstance(
        event.msg, AgentMessageDeltaEvent | AgentReasoningDeltaEvent | ExecCommandOutputDeltaEvent
    )


def merge_deltas(events: list[Event]) -> list[Event]:
    """Runs of answer deltas, of reasoning deltas, or of one command's output merged into one
    event each (keeping the first one's id), in order."""
    out: list[Event] = []
    for event in events:
        merged = _merged(out[-1].msg, event.msg) if out else None
        if merged is None:
            out.append(event)
        else:
            out[-1] = Event(id=out[-1].id, msg=merged)
    return out


def _merged(last: EventMsg, msg: EventMsg) -> EventMsg | None:
    if isinstance(msg, AgentMessageDeltaEvent) and isinstance(last, AgentMessageDeltaEvent):
        return AgentMessageDeltaEvent(delta=last.delta + msg.delta)
    if isinstance(msg, AgentReasoningDeltaEvent) and isinstance(last, AgentReasoningDeltaEvent):
        return AgentReasoningDeltaEvent(delta=last.delta + msg.delta)
    if (
        isinstance(msg, ExecCommandOutputDeltaEvent)
        and isinstance(last, ExecCommandOutputDeltaEvent)
        and last.call_id == msg.call_id
    ):
        return ExecCommandOutputDeltaEvent(
            call_id=msg.call_id, stream=msg.stream, chunk=last.chunk + msg.chunk
        )
    return None


async def pump_events(
    next_event: Callable[[], Awaitable[Event]],
    deliver: Callable[[list[Event]], Awaitable[None]],
    frame_seconds: float,
    max_batch: int,
) -> None:
    """Read events until `shutdown_complete`, delivering them in order.

    A batch that starts with a delta is held until one frame after the previous delivery
    (collecting what arrives meanwhile, up to `max_batch` events); any other event flushes
    the held deltas and itself at once. So a flood of deltas is delivered once a frame, not
    one by one. `deliver` is awaited, so at most one batch is in flight: when the receiver
    falls behind, events wait in the producer's queue.
    """
    loop = asyncio.get_running_loop()
    last_delivery = -frame_seconds
    while True:
        batch = [await next_event()]
        if is_delta(batch[0]):
            deadline = max(loop.time(), last_delivery + frame_seconds)
            try:
                async with asyncio.timeout_at(deadline):
                    # Queued events do not suspend, so the deadline is also checked by hand.
                    while len(batch) < max_batch and loop.time() < deadline:
                        event = await next_event()
                        batch.append(event)
                        if not is_delta(event):
                            break
            except TimeoutError:
                pass
        last_delivery = loop.time()
        await deliver(batch)
        if isinstance(batch[-1].msg, ShutdownCompleteEvent):
            return
