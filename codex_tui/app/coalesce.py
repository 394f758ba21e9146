"""Preparing a batch of core events for the screen: start-up warnings set aside, and runs of
streamed deltas merged so each frame renders once."""

from __future__ import annotations

from codex_core.protocol import Event, EventMsg, WarningEvent
from codex_core.protocol.deltas import merge_deltas
from codex_core.terminal_text import printable


def split_startup_warnings(events: list[Event]) -> tuple[list[str], list[Event]]:
    """The start-up warnings (config keys, MCP servers: submission "0"), made `printable`
    (an MCP server's error is its own text), and the other events."""
    warnings: list[str] = []
    rest: list[Event] = []
    for event in events:
        if event.id == "0" and isinstance(event.msg, WarningEvent):
            warnings.append(printable(event.msg.message))
        else:
            rest.append(event)
    return warnings, rest


def coalesce(events: list[Event]) -> list[EventMsg]:
    """Merge runs of streamed deltas (answer, reasoning, one command's output) into one event each."""
    return [event.msg for event in merge_deltas(events)]
