"""Checks that every tool output in a request pairs with exactly one earlier tool call."""

from __future__ import annotations

from typing import Any

CALL_TYPES = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output"})


def _check(pairs: list[tuple[str, str | None, str]]) -> None:
    """`pairs` lists ("call" | "output", call id, where) in request order."""
    open_calls: dict[str, str] = {}
    answered: set[str] = set()
    for kind, call_id, where in pairs:
        if kind == "call":
            if call_id is None:
                raise AssertionError(f"{where} has no call id")
            open_calls[call_id] = where
        elif call_id in answered:
            raise AssertionError(f"{where} answers call id {call_id!r} a second time")
        elif call_id not in open_calls:
            raise AssertionError(f"{where} is an orphan: no earlier call has id {call_id!r}")
        else:
            del open_calls[call_id]
            answered.add(call_id)
    if open_calls:
        call_id, where = next(iter(open_calls.items()))
        raise AssertionError(f"{where} (call id {call_id!r}) has no output in the request")


def assert_call_outputs_paired(body: dict[str, Any]) -> None:
    """Assert a Responses (`input`) or chat (`messages`) body pairs calls and outputs one to one.

    Raises:
        AssertionError: naming the orphan output, duplicated output or unanswered call.
    """
    pairs: list[tuple[str, str | None, str]] = []
    for index, item in enumerate(body.get("input") or []):
        kind = item.get("type") if isinstance(item, dict) else None
        if kind in CALL_TYPES:
            pairs.append(("call", item.get("call_id") or item.get("id"), f"input[{index}] {kind}"))
        elif kind in OUTPUT_TYPES:
            pairs.append(("output", item.get("call_id"), f"input[{index}] {kind}"))
    for index, msg in enumerate(body.get("messages") or []):
        if not isinstance(msg, dict):
            continue
        for call in msg.get("tool_calls") or []:
            pairs.append(("call", call.get("id"), f"messages[{index}] tool call"))
        if msg.get("role") == "tool":
            pairs.append(("output", msg.get("tool_call_id"), f"messages[{index}] tool message"))
    _check(pairs)
