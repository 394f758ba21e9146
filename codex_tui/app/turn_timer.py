"""Elapsed time of the running turn, paused while an approval waits."""

from __future__ import annotations

from codex_tui.app.clock import Clock


class TurnTimer:
    """A stopwatch over an injectable clock."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._started: float | None = None
        self._paused_at: float | None = None
        self._paused_total = 0.0

    @property
    def running(self) -> bool:
        """Whether a turn is being timed."""
        return self._started is not None

    def start(self) -> None:
        """Start timing a new turn."""
        self._started = self._clock.monotonic()
        self._paused_at = None
        self._paused_total = 0.0

    def pause(self) -> None:
        """Stop the clock (an approval is waiting)."""
        if self._started is not None and self._paused_at is None:
            self._paused_at = self._clock.monotonic()

    def resume(self) -> None:
        """Start the clock again."""
        if self._paused_at is not None:
            self._paused_total += self._clock.monotonic() - self._paused_at
            self._paused_at = None

    def elapsed(self) -> float:
        """Seconds the turn has been working, pauses excluded."""
        if self._started is None:
            return 0.0
        end = self._paused_at if self._paused_at is not None else self._clock.monotonic()
        return max(0.0, end - self._started - self._paused_total)

    @property
    def waited(self) -> float:
        """Seconds spent paused (waiting for approvals) in the turn timed last."""
        return self._paused_total

    def stop(self) -> float:
        """Stop timing; returns the elapsed seconds."""
        self.resume()
        elapsed = self.elapsed()
        self._started = None
        self._paused_at = None
        return elapsed
