"""Retry timing: exponential backoff with full jitter, and the server's Retry-After hints."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

BASE_DELAY_S = 0.2
MAX_DELAY_S = 60.0

_TRY_AGAIN = re.compile(r"try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b", re.IGNORECASE)


def backoff_delay(attempt: int, rng: random.Random | None = None) -> float:
    """Seconds to wait before retry `attempt` (1-based): uniform in [0, 200 ms × 2^(attempt-1)]."""
    ceiling = min(MAX_DELAY_S, BASE_DELAY_S * 2 ** max(0, min(attempt - 1, 32)))
    return (rng or random).uniform(0.0, ceiling)


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """The delay the server asked for via `retry-after-ms` or `Retry-After` (seconds or date)."""
    lowered = {key.lower(): value.strip() for key, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def retry_after_from_message(message: str) -> float | None:
    """The delay in a message such as "Please try again in 1.898s" (rate-limit errors)."""
    match = _TRY_AGAIN.search(message)
    if match is None:
        return None
    amount = float(match.group(1))
    return amount / 1000.0 if match.group(2).lower() == "ms" else amount
