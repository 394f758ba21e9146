"""When and how a session compacts: before a turn, between tool calls, or on request.

Measured against the Codex CLI 0.169: the trigger is the last response's `total_tokens`
(after a compaction, an estimate of the new history) reaching
`model_auto_compact_token_limit` (default 90 % of the context window). It is checked
before a turn (before the new user message joins the history, so also the first turn after
a resume) and between a round of tool outputs and the follow-up request — never after a
turn's last response. A failed compaction leaves the history as it was and says so.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from codex_core.client import ContextWindowExceeded, ModelClient, ModelClientError
from codex_core.protocol import BackgroundEvent, EventMsg, TokenUsage
from codex_core.session.compact import (
    USER_MESSAGE_TOKEN_BUDGET,
    approx_tokens,
    drop_oldest,
    estimate_history_tokens,
    replacement_history,
    summarize,
    summary_message_text,
)
from codex_core.session.inputs import initial_context
from codex_core.turn_context import TurnContext

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost

log = logging.getLogger(__name__)

AUTO_COMPACT_FRACTION = 0.9
COMPACTED_NOTICE = "Context compacted: earlier turns were replaced by a summary."
TOO_LONG_TO_COMPACT = (
    "Compaction failed: even with every earlier item dropped, the summary request does not fit "
    "the model's context window. The conversation was left unchanged; start a new session "
    "(/new), or set model_context_window if the configured one is wrong."
)


class CompactionError(Exception):
    """A compaction that failed; the history is unchanged. The text is for the user."""


def auto_compact_limit(configured: int | None, context_window: int | None) -> int | None:
    """The token count that triggers compaction, or None when nothing is known."""
    if configured is not None:
        return configured
    if context_window is None:
        return None
    return int(context_window * AUTO_COMPACT_FRACTION)


def kept_user_tokens(effective_window: int | None) -> int:
    """Budget of earlier user messages kept: the Codex CLI's 20k, less for tiny windows."""
    if effective_window is None:
        return USER_MESSAGE_TOKEN_BUDGET
    return max(0, min(USER_MESSAGE_TOKEN_BUDGET, effective_window // 4))


class Compactor:
    """Compacts one session's history for one turn (or one `compact` op)."""

    def __init__(
        self,
        session: TurnHost,
        sub_id: str,
        emit: Callable[[EventMsg], None],
        client: ModelClient,
        turn: TurnContext,
        instructions: str,
    ) -> None:
        self.session = session
        self.sub_id = sub_id
        self.emit = emit
        self.client = client
        self.turn = turn
        self.instructions = instructions
        self.around: Callable[[str, str], Awaitable[None]] | None = None
        """Runs PreCompact / PostCompact hooks: (event, trigger)."""
        self.trigger = "auto"
        """`auto` inside a turn, `manual` for the `compact` op (`/compact`)."""

    def needed(self) -> bool:
        """Whether the last known usage reached the auto-compaction limit."""
        s = self.session
        limit = auto_compact_limit(s.config.model_auto_compact_token_limit, s.context_window())
        last = s.last_usage
        return limit is not None and last is not None and last.total_tokens >= limit

    async def between_requests(self) -> None:
        """The kernel's mid-turn hook: compact when the tool round pushed usage over."""
        if self.needed():
            await self.run()

    async def run(self) -> None:
        """Summarise and replace the history; raises `CompactionError` leaving it untouched."""
        s = self.session
        if self.around is not None:
            await self.around("PreCompact", self.trigger)
        summary, usage = await self._summarize()
        s.on_usage(self.sub_id, usage)
        text = summary_message_text(summary)
        context = initial_context(self.turn, s.config.project_doc_max_bytes, s.config.codex_home)
        budget = kept_user_tokens(s.effective_context_window())
        s.history[:] = replacement_history(context, s.history, text, budget)
        s.context_turn = self.turn
        s.storage.record_compacted(text, s.history)
        estimate = approx_tokens(self.instructions) + estimate_history_tokens(s.history)
        s.set_last_usage(self.sub_id, TokenUsage(total_tokens=estimate))
        self.emit(BackgroundEvent(message=COMPACTED_NOTICE))
        if self.around is not None:
            await self.around("PostCompact", self.trigger)

    async def _summarize(self) -> tuple[str, TokenUsage | None]:
        """The summary of the history. As Codex 0.169 does, a summary request refused as
        too long is retried without the oldest history item (a call goes with its output),
        one item at a time, until it fits or nothing is left to drop."""
        history = list(self.session.history)
        while True:
            try:
                return await summarize(self.client, self.instructions, history)
            except ContextWindowExceeded:
                if not history:
                    raise CompactionError(TOO_LONG_TO_COMPACT) from None
                log.warning("summary request too long; dropping the oldest history item")
                history = drop_oldest(history)
            except ModelClientError as err:
                raise CompactionError(
                    f"Compaction failed: {err}. The conversation was left unchanged."
                ) from None
