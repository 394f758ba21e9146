"""Retry timing: one capped, jittered exponential backoff policy that honours server hints."""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Protocol

BASE_DELAY_S = 0.2
# No single wait is longer: a `retry-after` of a billion seconds (a misconfigured proxy)
# must not freeze a turn. Retrying earlier than asked costs one more
# request; with the default 4 request retries the user sees the error within ~40 s.
MAX_DELAY_S = 10.0
JITTER = 0.1


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _try_again() -> re.Pattern[str]:
    return re.compile(r"try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b", re.IGNORECASE)


class JitterSource(Protocol):
    """Where jitter comes from: `random.Random`, or the `random` module itself."""

    def uniform(self, a: float, b: float) -> float:
        """A number between `a` and `b`."""
        ...


def backoff_delay(
    attempt: int, retry_after: float | None = None, rng: JitterSource = random
) -> float:
    """Seconds to wait before retry `attempt` (1-based); the one policy for every retry.

    The server's hint (`retry-after`, "try again in …") when it gave one, else
    200 ms × 2^(attempt-1) with ±10% jitter; either way at most `MAX_DELAY_S`.

    Args:
        attempt: Which retry this is, counting from 1.
        retry_after: The delay the server asked for, in seconds, if any.
        rng: Source of jitter (tests pass a seeded one).
    """
    if retry_after is not None and not math.isnan(retry_after):
        return min(MAX_DELAY_S, max(0.0, retry_after))
    exponent = max(0, min(attempt - 1, 32))
    jittered = BASE_DELAY_S * 2.0**exponent * rng.uniform(1 - JITTER, 1 + JITTER)
    return min(MAX_DELAY_S, jittered)


def exceeds_cap(retry_after: float | None) -> bool:
    """Whether the server asked for a longer wait than codex is willing to make."""
    return retry_after is not None and not retry_after <= MAX_DELAY_S


def parse_retry_after(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """The delay the server asked for via `retry-after-ms` or `Retry-After` (seconds or date)."""
    lowered = {key.lower(): value.strip() for key, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis:
        seconds = _number(millis)
        if seconds is not None:
            return seconds / 1000.0
    value = lowered.get("retry-after")
    if not value:
        return None
    seconds = _number(value)
    if seconds is not None:
        return seconds
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _number(text: str) -> float | None:
    """A non-negative number of seconds, or None for text that is not one (or NaN)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else max(0.0, value)


def retry_after_from_message(message: str) -> float | None:
    """The delay in a message such as "Please try again in 1.898s" (rate-limit errors)."""
    match = _try_again().search(message)
    if match is None:
        return None
    amount = float(match.group(1))
    return amount / 1000.0 if match.group(2).lower() == "ms" else amount
