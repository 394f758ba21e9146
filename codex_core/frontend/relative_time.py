"""How long ago something happened, in words: `just now`, `2 minutes ago`, `3 days ago`."""

from __future__ import annotations

from datetime import datetime

_UNITS = (("day", 86_400), ("hour", 3_600), ("minute", 60))


def relative_age(then: float | datetime, now: float | datetime) -> str:
    """`then` relative to `now` (both epoch seconds, or both aware datetimes).

    Under ten seconds (or in the future) is `just now`; then seconds, minutes, hours and
    days, each the largest whole unit: `45 seconds ago`, `1 minute ago`, `5 hours ago`.
    """
    if isinstance(then, datetime):
        then = then.timestamp()
    if isinstance(now, datetime):
        now = now.timestamp()
    seconds = max(0, int(now - then))
    for unit, size in _UNITS:
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now" if seconds < 10 else f"{seconds} seconds ago"
