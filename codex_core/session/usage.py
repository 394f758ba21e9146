"""A session's token accounting: running totals, what the context holds, `token_count` events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codex_core.protocol import EventMsg, TokenCountEvent, TokenUsage, TokenUsageInfo

if TYPE_CHECKING:
    from codex_core.config import Config
    from codex_core.turn_context import TurnContext

EFFECTIVE_WINDOW_PERCENT = 95


class TokenAccounting:
    """The usage half of `Session` (and of `TurnHost`): totals, context window, reports.

    A mixin rather than a member so that the turn runner and the compactor keep calling
    `session.on_usage(…)` and reading `session.last_usage` as the `TurnHost` protocol says.
    """

    config: Config
    turn: TurnContext
    _total_usage: TokenUsage
    last_usage: TokenUsage | None

    def _init_usage(self) -> None:
        self._total_usage = TokenUsage()
        self.last_usage = None

    def emit(self, sub_id: str, msg: EventMsg) -> None:
        """Queue an event for the frontend and record it (the session defines it)."""
        raise NotImplementedError

    def context_window(self) -> int | None:
        """The model's context window, if known."""
        from codex_core.model_family import context_window_for

        return self.config.model_context_window or context_window_for(self.turn.model)

    def effective_context_window(self) -> int | None:
        """The part of the window the conversation may fill (95 %, as the Codex CLI reports)."""
        window = self.context_window()
        return None if window is None else window * EFFECTIVE_WINDOW_PERCENT // 100

    def on_usage(self, sub_id: str, usage: TokenUsage | None) -> None:
        """Fold one response's usage into the totals and report it."""
        if usage is None:
            return
        self._total_usage = self._total_usage + usage
        self.set_last_usage(sub_id, usage)

    def set_last_usage(self, sub_id: str, usage: TokenUsage) -> None:
        """Set what the context holds now (after a compaction: an estimate) and report it."""
        self.last_usage = usage
        info = TokenUsageInfo(
            total_token_usage=self._total_usage,
            last_token_usage=usage,
            model_context_window=self.effective_context_window(),
        )
        self.emit(sub_id, TokenCountEvent(info=info))

    def restore_usage(self, past_events: list[dict[str, Any]]) -> None:
        """Running totals and context usage from the rollout's last `token_count` event."""
        for event in reversed(past_events):
            info = event.get("info") if event.get("type") == "token_count" else None
            if isinstance(info, dict):
                try:
                    restored = TokenUsageInfo.model_validate(info)
                except ValueError:
                    continue
                self._total_usage = restored.total_token_usage
                self.last_usage = restored.last_token_usage
                return
