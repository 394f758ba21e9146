"""Session rollouts in the Codex CLI format: recording, reading, resuming, listing."""

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
    list_sessions,
)
from codex_core.rollout.manage import archive_session, find_session_path, fork_rollout
from codex_core.rollout.reader import Rollout, RolloutLine, read_rollout
from codex_core.rollout.reconstruct import Reconstructed, reconstruct
from codex_core.rollout.recorder import RolloutRecorder

__all__ = [
    "ARCHIVED_DIR",
    "SESSIONS_DIR",
    "InvalidCursorError",
    "Reconstructed",
    "Rollout",
    "RolloutLine",
    "RolloutRecorder",
    "SessionPage",
    "SessionSummary",
    "archive_session",
    "find_session_path",
    "fork_rollout",
    "is_persisted_event",
    "is_persisted_item",
    "list_sessions",
    "parse_rollout_name",
    "read_rollout",
    "reconstruct",
]
