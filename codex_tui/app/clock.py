"""Time for spinners and elapsed counters, replaceable in tests."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Monotonic seconds for durations and the wall clock for "updated" ages."""

    def monotonic(self) -> float:
        """Seconds from an arbitrary origin."""
        ...

    def now(self) -> datetime:
        """The current time, timezone-aware."""
        ...


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        """`time.monotonic()`."""
        return time.monotonic()

    def now(self) -> datetime:
        """The current UTC time."""
        return datetime.now(UTC)


class FrozenClock:
    """A clock that moves only when told to (tests and snapshots)."""

    def __init__(self, start: datetime, monotonic: float = 1000.0) -> None:
        self._now = start
        self._mono = monotonic

    def monotonic(self) -> float:
        """The frozen monotonic time."""
        return self._mono

    def now(self) -> datetime:
        """The frozen wall time."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move both clocks forward."""
        from datetime import timedelta

        self._mono += seconds
        self._now += timedelta(seconds=seconds)
