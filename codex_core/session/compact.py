"""Compaction: replace a long conversation by a summary plus the user's recent messages."""

from __future__ import annotations

from codex_core.client import Completed, OutputItemDone, Prompt, StreamDisconnected
from codex_core.instructions import ENVIRONMENT_CONTEXT_OPEN, USER_INSTRUCTIONS_OPEN
from codex_core.kernel import ModelHost
from codex_core.protocol import Message, ResponseItem, user_message

SUMMARY_REQUEST = (
    "Pause the task. Write a handoff note for another engineer who will continue this work "
    "with no access to the conversation so far: the goal, what has been done (files changed, "
    "commands run and what they showed), decisions and their reasons, what remains, and any "
    "open questions. Be complete but brief; use short bullets."
)
SUMMARY_PREFIX = (
    "The conversation before this point was compacted. Handoff note written at that moment:"
)
RECENT_USER_TEXT_BUDGET = 20_000


def is_injected(item: ResponseItem) -> bool:
    """Whether a user message is context codex injected (instructions, environment)."""
    if not isinstance(item, Message) or item.role != "user":
        return False
    text = item.text().lstrip()
    return text.startswith((USER_INSTRUCTIONS_OPEN, ENVIRONMENT_CONTEXT_OPEN, SUMMARY_PREFIX))


def replacement_history(history: list[ResponseItem], summary: str) -> list[ResponseItem]:
    """Injected context, the newest user messages within a budget, then the summary."""
    injected = [i for i in history if is_injected(i) and not i.text().startswith(SUMMARY_PREFIX)]  # type: ignore[union-attr]
    recent: list[ResponseItem] = []
    budget = RECENT_USER_TEXT_BUDGET
    for item in reversed(history):
        if isinstance(item, Message) and item.role == "user" and not is_injected(item):
            size = len(item.text())
            if size > budget:
                break
            budget -= size
            recent.insert(0, item)
    return [*injected, *recent, user_message(f"{SUMMARY_PREFIX}\n\n{summary.strip()}")]


async def summarize(model: ModelHost, instructions: str, history: list[ResponseItem]) -> str:
    """Ask the model for the handoff note; raises the client's errors."""
    prompt = Prompt(instructions, [*history, user_message(SUMMARY_REQUEST)], [])
    text = ""
    async for event in model.stream(prompt):
        if isinstance(event, OutputItemDone) and isinstance(event.item, Message):
            if event.item.role == "assistant":
                text = event.item.text()
        elif isinstance(event, Completed):
            return text
    raise StreamDisconnected("stream closed before the summary was complete")
