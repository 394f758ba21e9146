"""Session rollouts in the Codex CLI format: recording, reading, resuming, listing.

Names are imported on first use, so `codex sessions list` loads neither the recorder
(threads, asyncio) nor anything it does not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.rollout.format import (
        ARCHIVED_DIR,
        SESSIONS_DIR,
        is_persisted_event,
        is_persisted_item,
        parse_rollout_name,
    )
    from codex_core.rollout.listing import (
        InvalidCursorError,
        SessionPage,
        SessionSummary,
        SkippedFile,
        list_sessions,
    )
    from codex_core.rollout.manage import (
        NotASessionError,
        archive_session,
        check_session_file,
        find_session_path,
        fork_rollout,
        unarchive_session,
    )
    from codex_core.rollout.reader import Rollout, RolloutLine, read_rollout
    from codex_core.rollout.recorder import RolloutRecorder
    from codex_core.rollout.replay import Reconstructed, reconstruct

_HOMES = {
    "format": ("ARCHIVED_DIR", "SESSIONS_DIR", "is_persisted_event", "is_persisted_item"),
    "listing": (
        "InvalidCursorError",
        "SessionPage",
        "SessionSummary",
        "SkippedFile",
        "list_sessions",
    ),
    "manage": (
        "NotASessionError",
        "archive_session",
        "check_session_file",
        "find_session_path",
        "fork_rollout",
        "unarchive_session",
    ),
    "reader": ("Rollout", "RolloutLine", "read_rollout"),
    "replay": ("Reconstructed", "reconstruct"),
    "recorder": ("RolloutRecorder",),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}
_MODULE_OF["parse_rollout_name"] = "format"

__all__ = [
    "ARCHIVED_DIR",
    "SESSIONS_DIR",
    "InvalidCursorError",
    "NotASessionError",
    "Reconstructed",
    "Rollout",
    "RolloutLine",
    "RolloutRecorder",
    "SessionPage",
    "SessionSummary",
    "SkippedFile",
    "archive_session",
    "check_session_file",
    "find_session_path",
    "fork_rollout",
    "is_persisted_event",
    "is_persisted_item",
    "list_sessions",
    "parse_rollout_name",
    "read_rollout",
    "reconstruct",
    "unarchive_session",
]


__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
