"""Rebuilding a session from its rollout: model history, latest turn settings, past events.

Compaction rule (the Codex one):
- `compacted` with `replacement_history`: that list replaces every item before it.
- `compacted` without it: the history becomes the latest injected context blocks
  (`<user_instructions>`, `<environment_context>`, …), then the user's own messages so far
  (newest kept first within a ~20k-token budget, earlier summaries excluded), then one user
  message holding the compaction summary (`compacted.message`, which carries its prefix).

Files in the 0.169 layout record the visible conversation as `item_completed` events; they
are replayed as the legacy events they stand for (`turn_items.display_events`). Fields 0.169
keeps on items for itself (`internal_chat_message_metadata_passthrough`) are stripped: the
API rejects them.

Because a crash can cut a turn short, the rebuilt history is repaired so the next request is
valid: a call without an output gets an `aborted` output right after it, and an output
without a call is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codex_core.rollout.format import (
    injected_kind,
    is_persisted_event,
    is_persisted_item,
    message_text,
    parse_rollout_name,
)
from codex_core.rollout.reader import Rollout
from codex_core.rollout.turn_items import ITEM_COMPLETED, display_events

# About 20k tokens at ~4 characters a token, as the Codex CLI keeps after compaction.
COMPACTED_USER_TEXT_BUDGET = 80_000
ABORTED_OUTPUT = "aborted"

_CALLS = {"function_call": "function_call_output", "local_shell_call": "function_call_output"}
_CALLS["custom_tool_call"] = "custom_tool_call_output"
_OUTPUTS = frozenset(_CALLS.values())

# Item fields a rollout may hold that the Responses API does not accept as input.
CLIENT_ONLY_FIELDS = frozenset({"internal_chat_message_metadata_passthrough"})


def api_item(item: dict[str, Any]) -> dict[str, Any]:
    """A history item without the fields only Codex itself uses (the API rejects them)."""
    if CLIENT_ONLY_FIELDS.isdisjoint(item):
        return item
    return {k: v for k, v in item.items() if k not in CLIENT_ONLY_FIELDS}


@dataclass
class Reconstructed:
    """What a resumed session starts from."""

    session_id: str
    history: list[dict[str, Any]] = field(default_factory=list)
    turn_context: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


def _user_message(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _budgeted(texts: list[str], budget: int) -> list[str]:
    """The newest texts that fit `budget` characters; the one that overflows is cut short."""
    kept: list[str] = []
    remaining = budget
    for text in reversed(texts):
        if remaining <= 0:
            break
        if len(text) <= remaining:
            kept.append(text)
            remaining -= len(text)
        else:
            cut = len(text) - remaining
            kept.append(text[:remaining] + f"\n[… {cut} characters truncated]")
            break
    kept.reverse()
    return kept


def compacted_history(
    history: list[dict[str, Any]],
    summary: str,
    earlier_summaries: set[str],
    budget: int = COMPACTED_USER_TEXT_BUDGET,
) -> list[dict[str, Any]]:
    """The history that replaces `history` after a compaction without a replacement list.

    Args:
        history: The items before the `compacted` line.
        summary: The `compacted.message` text.
        earlier_summaries: Summary texts of earlier compactions (not user messages).
        budget: Characters of user messages to keep.
    """
    context: dict[str, dict[str, Any]] = {}
    user_texts: list[str] = []
    for item in history:
        if item.get("type") != "message" or item.get("role") != "user":
            continue
        text = message_text(item)
        kind = injected_kind(text)
        if kind is not None:
            context.pop(kind, None)
            context[kind] = item  # the latest block of each kind, in arrival order
        elif text not in earlier_summaries:
            user_texts.append(text)
    rebuilt = list(context.values())
    rebuilt.extend(_user_message(text) for text in _budgeted(user_texts, budget))
    rebuilt.append(_user_message(summary or "(no summary available)"))
    return rebuilt


def _call_id(item: dict[str, Any]) -> str | None:
    value = item.get("call_id")
    return value if isinstance(value, str) and value else None


def repair_call_pairs(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every tool call exactly one output: add `aborted` outputs, drop orphan outputs."""
    answered = {_call_id(i) for i in history if i.get("type") in _OUTPUTS}
    called = {_call_id(i) for i in history if i.get("type") in _CALLS}
    repaired: list[dict[str, Any]] = []
    for item in history:
        kind, call_id = item.get("type"), _call_id(item)
        if kind in _OUTPUTS and call_id not in called:
            continue
        repaired.append(item)
        if isinstance(kind, str) and kind in _CALLS and call_id and call_id not in answered:
            repaired.append({"type": _CALLS[kind], "call_id": call_id, "output": ABORTED_OUTPUT})
            answered.add(call_id)
    return repaired


def reconstruct(rollout: Rollout) -> Reconstructed:
    """Rebuild model history, the latest turn context and the past events from a rollout.

    Pure: it only looks at the lines already read.
    """
    session_id = ""
    if rollout.meta is not None and isinstance(rollout.meta.get("id"), str):
        session_id = rollout.meta["id"]
    else:
        parsed = parse_rollout_name(rollout.path.name)
        session_id = parsed[1] if parsed else ""
    result = Reconstructed(session_id=session_id)
    history: list[dict[str, Any]] = []
    summaries: set[str] = set()
    for line in rollout.lines:
        payload = line.payload
        if line.type == "response_item":
            history.append(api_item(payload))
        elif line.type == "event_msg":
            kind = payload.get("type")
            if kind == ITEM_COMPLETED:
                result.events.extend(display_events(payload))
            elif isinstance(kind, str) and is_persisted_event(kind):
                result.events.append(payload)
        elif line.type == "turn_context":
            result.turn_context = payload
        elif line.type == "compacted":
            replacement = payload.get("replacement_history")
            message = payload.get("message")
            summary = message if isinstance(message, str) else ""
            if isinstance(replacement, list):
                history = [
                    api_item(item)
                    for item in replacement
                    if isinstance(item, dict) and is_persisted_item(str(item.get("type")))
                ]
            else:
                history = compacted_history(history, summary, summaries)
            summaries.add(summary)
    result.history = repair_call_pairs(history)
    return result
