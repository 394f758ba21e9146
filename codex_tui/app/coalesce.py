"""Merging runs of streamed deltas in a batch of core events, so each frame renders once."""

from __future__ import annotations

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
)


def coalesce(events: list[Event]) -> list[EventMsg]:
    """Merge runs of streamed deltas (answer, reasoning, one command's output) into one event each."""
    out: list[EventMsg] = []
    for event in events:
        msg = event.msg
        last = out[-1] if out else None
        if isinstance(msg, AgentMessageDeltaEvent) and isinstance(last, AgentMessageDeltaEvent):
            out[-1] = AgentMessageDeltaEvent(delta=last.delta + msg.delta)
        elif isinstance(msg, AgentReasoningDeltaEvent) and isinstance(
            last, AgentReasoningDeltaEvent
        ):
            out[-1] = AgentReasoningDeltaEvent(delta=last.delta + msg.delta)
        elif (
            isinstance(msg, ExecCommandOutputDeltaEvent)
            and isinstance(last, ExecCommandOutputDeltaEvent)
            and last.call_id == msg.call_id
        ):
            out[-1] = ExecCommandOutputDeltaEvent(
                call_id=msg.call_id, stream=msg.stream, chunk=last.chunk + msg.chunk
            )
        else:
            out.append(msg)
    return out
