"""Preparing a batch of core events for the screen: start-up warnings set aside, and runs of
streamed deltas merged so each frame renders once."""

from __future__ import annotations

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
    WarningEvent,
)


def split_startup_warnings(events: list[Event]) -> tuple[list[str], list[Event]]:
    """The start-up warnings (config keys, MCP servers: submission "0") and the other events."""
    warnings: list[str] = []
    rest: list[Event] = []
    for event in events:
        if event.id == "0" and isinstance(event.msg, WarningEvent):
            warnings.append(event.msg.message)
        else:
            rest.append(event)
    return warnings, rest


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
