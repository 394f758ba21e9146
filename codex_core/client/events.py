"""The events a model stream yields, the same for the Responses and Chat Completions APIs."""

from __future__ import annotations

from dataclasses import dataclass

from codex_core.protocol.common import TokenUsage
from codex_core.protocol.items import ResponseItem


@dataclass(frozen=True)
class Created:
    """The server accepted the request and started the response."""


@dataclass(frozen=True)
class OutputItemAdded:
    """An output item started (its content may still be empty)."""

    item: ResponseItem


@dataclass(frozen=True)
class OutputTextDelta:
    """A piece of the assistant message text."""

    delta: str


@dataclass(frozen=True)
class ReasoningSummaryDelta:
    """A piece of the reasoning summary (or, on chat providers, of the raw reasoning)."""

    delta: str


@dataclass(frozen=True)
class ReasoningSummaryPartAdded:
    """A new reasoning summary section starts."""


@dataclass(frozen=True)
class OutputItemDone:
    """A finished output item; this is the authoritative version that enters the history."""

    item: ResponseItem


@dataclass(frozen=True)
class Completed:
    """The response finished; no more events follow."""

    response_id: str
    token_usage: TokenUsage | None


@dataclass(frozen=True)
class RetryNotice:
    """The request failed with a retryable error; the client waits `delay_s` and tries again."""

    attempt: int
    max_attempts: int
    delay_s: float
    reason: str


ResponseEvent = (
    Created
    | OutputItemAdded
    | OutputTextDelta
    | ReasoningSummaryDelta
    | ReasoningSummaryPartAdded
    | OutputItemDone
    | Completed
    | RetryNotice
)
