"""Compaction: replace a long conversation by fresh context, the user's messages and a summary.

The shapes follow the Codex CLI 0.169 (the wording is this project's own):

- the summary request is an ordinary model request with no tools, the whole history and
  one final user message asking for a handoff summary;
- the history that replaces the conversation is the fresh initial context (AGENTS.md,
  environment), the earlier user messages (text only, newest kept first within a token
  budget, earlier summaries left out), then one user message holding a fixed prefix, a
  newline and the summary;
- the rollout gets a `compacted` line whose `message` is that summary message's text and
  whose `replacement_history` is the new history, so either tool resumes it.
"""

from __future__ import annotations

import json

from codex_core.client import Completed, OutputItemDone, Prompt, StreamDisconnected
from codex_core.instructions import ENVIRONMENT_CONTEXT_OPEN, USER_INSTRUCTIONS_OPEN
from codex_core.kernel import ModelHost
from codex_core.protocol import Message, ResponseItem, TokenUsage, user_message

SUMMARY_REQUEST = (
    "Pause the task. Write a handoff note for another engineer who will continue this work "
    "with no access to the conversation so far: the goal, what has been done (files changed, "
    "commands run and what they showed), decisions and their reasons, what remains, and any "
    "open questions. Be complete but brief; use short bullets."
)
SUMMARY_PREFIX = (
    "The conversation before this point was compacted. Handoff note written at that moment:"
)
NO_SUMMARY = "(the model returned no summary)"
USER_MESSAGE_TOKEN_BUDGET = 20_000
"""Tokens of earlier user messages kept after a compaction (as the Codex CLI keeps)."""
AGENTS_MD_OPEN = "# AGENTS.md instructions for "
"""How the Codex CLI 0.169 opens its AGENTS.md message (recognised in resumed sessions)."""
TRUNCATED_MARK = "\n…[earlier part of this message removed by compaction]"


def approx_tokens(text: str) -> int:
    """A byte-based token estimate (4 bytes a token), the heuristic the Codex CLI uses."""
    return (len(text.encode("utf-8")) + 3) // 4


def estimate_history_tokens(items: list[ResponseItem]) -> int:
    """Approximate tokens of a history as sent (its JSON form)."""
    return sum(approx_tokens(json.dumps(i.to_wire(), ensure_ascii=False)) for i in items)


def is_summary(item: ResponseItem) -> bool:
    """Whether an item is a compaction summary message written by this project."""
    return (
        isinstance(item, Message)
        and item.role == "user"
        and item.text().startswith(f"{SUMMARY_PREFIX}\n")
    )


def is_injected(item: ResponseItem) -> bool:
    """Whether a user message is context codex injected (instructions, environment, summary)."""
    if not isinstance(item, Message) or item.role != "user":
        return False
    text = item.text().lstrip()
    return text.startswith(
        (
            USER_INSTRUCTIONS_OPEN,
            ENVIRONMENT_CONTEXT_OPEN,
            AGENTS_MD_OPEN,
            SUMMARY_PREFIX,
            "<skill>",
        )
    )


def user_messages(history: list[ResponseItem]) -> list[str]:
    """The text of every real user message, oldest first (images and context left out)."""
    return [
        item.text()
        for item in history
        if isinstance(item, Message) and item.role == "user" and not is_injected(item)
    ]


def summary_message_text(summary: str) -> str:
    """The text of the summary message (and of the `compacted` line's `message`)."""
    return f"{SUMMARY_PREFIX}\n{summary.strip() or NO_SUMMARY}"


def replacement_history(
    context: list[ResponseItem],
    history: list[ResponseItem],
    summary_text: str,
    budget_tokens: int = USER_MESSAGE_TOKEN_BUDGET,
) -> list[ResponseItem]:
    """Fresh context, the newest user messages within `budget_tokens`, then the summary."""
    kept: list[str] = []
    remaining = budget_tokens
    for text in reversed(user_messages(history)):
        if remaining <= 0:
            break
        tokens = approx_tokens(text)
        if tokens <= remaining:
            kept.append(text)
            remaining -= tokens
        else:  # keep the end of the message, where the latest request usually is
            kept.append(_tail(text, remaining * 4) + TRUNCATED_MARK)
            break
    kept.reverse()
    return [*context, *(user_message(t) for t in kept), user_message(summary_text)]


def _tail(text: str, max_bytes: int) -> str:
    return text.encode("utf-8")[-max_bytes:].decode("utf-8", errors="ignore")


def drop_oldest(history: list[ResponseItem]) -> list[ResponseItem]:
    """`history` without its oldest item — and, when that item is a tool call, without the
    call's output too, so the shorter prompt still pairs every output with its call."""
    if not history:
        return []
    oldest, rest = history[0], history[1:]
    call_id = getattr(oldest, "call_id", None)
    if oldest.type in ("function_call", "custom_tool_call", "local_shell_call") and call_id:
        rest = [i for i in rest if getattr(i, "call_id", None) != call_id]
    return rest


async def summarize(
    model: ModelHost, instructions: str, history: list[ResponseItem]
) -> tuple[str, TokenUsage | None]:
    """Ask the model for the handoff note; returns it with the request's usage.

    Raises the client's errors (the caller leaves the history untouched then).
    """
    prompt = Prompt(instructions, [*history, user_message(SUMMARY_REQUEST)], [])
    text = ""
    async for event in model.stream(prompt):
        if isinstance(event, OutputItemDone) and isinstance(event.item, Message):
            if event.item.role == "assistant":
                text = event.item.text()
        elif isinstance(event, Completed):
            return text, event.token_usage
    raise StreamDisconnected("stream closed before the summary was complete")
