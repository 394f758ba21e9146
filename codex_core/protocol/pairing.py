"""The pairing invariant: every tool call in a prompt is followed by exactly one output.

`pair_tool_calls` repairs a history that breaks it (a session killed mid-call, a rollout
written by a crashing build, a bug): a call without an output gets a synthetic "aborted"
output right after it, and an output without an earlier call, or a second output for the
same call, is dropped. Pure; the kernel applies it to every prompt it builds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codex_core.protocol.items import (
    CustomToolCall,
    CustomToolCallOutput,
    FunctionCall,
    FunctionCallOutput,
    LocalShellCall,
    ResponseItem,
)

ABORTED_OUTPUT = "aborted"
"""The output a call gets when it never ran to completion (interrupt, abort, lost session)."""


@dataclass
class PairingRepair:
    """What `pair_tool_calls` changed, by call id."""

    added_outputs: list[str] = field(default_factory=list)
    dropped_outputs: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added_outputs or self.dropped_outputs)


def call_id_of(item: ResponseItem) -> str | None:
    """The call id of a tool call item, None for anything else."""
    if isinstance(item, FunctionCall | CustomToolCall):
        return item.call_id
    if isinstance(item, LocalShellCall):
        return item.call_id or item.id or ""
    return None


def output_call_id(item: ResponseItem) -> str | None:
    """The call id a tool output answers, None for anything else."""
    if isinstance(item, FunctionCallOutput | CustomToolCallOutput):
        return item.call_id
    return None


def aborted_output_for(call: ResponseItem, text: str = ABORTED_OUTPUT) -> ResponseItem:
    """The output item answering `call` with `text` (custom calls get a custom output)."""
    call_id = call_id_of(call) or ""
    if isinstance(call, CustomToolCall):
        return CustomToolCallOutput(call_id=call_id, output=text)
    return FunctionCallOutput(call_id=call_id, output=text)


def pair_tool_calls(items: list[ResponseItem]) -> tuple[list[ResponseItem], PairingRepair]:
    """`items` with every call answered exactly once, and what had to change."""
    seen_calls: set[str] = set()
    answered: set[str] = set()
    dropped: set[int] = set()
    for index, item in enumerate(items):
        call_id = call_id_of(item)
        if call_id is not None:
            seen_calls.add(call_id)
            continue
        out_id = output_call_id(item)
        if out_id is None:
            continue
        if out_id in seen_calls and out_id not in answered:
            answered.add(out_id)
        else:
            dropped.add(index)
    repair = PairingRepair()
    result: list[ResponseItem] = []
    for index, item in enumerate(items):
        if index in dropped:
            repair.dropped_outputs.append(output_call_id(item) or "")
            continue
        result.append(item)
        call_id = call_id_of(item)
        if call_id is not None and call_id not in answered:
            answered.add(call_id)
            result.append(aborted_output_for(item))
            repair.added_outputs.append(call_id)
    return (result if repair else items), repair
