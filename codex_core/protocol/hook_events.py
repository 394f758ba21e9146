"""Events of hook runs: one `hook_started` and one `hook_completed` per hook that runs.

Field names follow the app-server's `HookRunSummary` (0.169), so frontends render them
without translation: `exec` prints `hook: <Event>` and `hook: <Event> Completed|Blocked|
Failed` as 0.169 does; `--json` shows nothing, also as 0.169.
"""

from typing import Literal

from codex_core.lite import Field
from codex_core.policies import empty_list
from codex_core.protocol.common import _Model

HookRunStatus = Literal["running", "completed", "failed", "blocked", "stopped"]


class HookRun(_Model):
    """One run of one hook."""

    id: str
    event_name: str
    """The event as configured (`PreToolUse`)."""
    source_path: str
    source: str = "unknown"
    """Where the hook is configured: `user` (CODEX_HOME), `project` (`.codex/hooks.json`)."""
    scope: Literal["thread", "turn"] = "turn"
    """`thread` for SessionStart and SessionEnd, `turn` for the rest."""
    display_order: int = 0
    status: HookRunStatus = "running"
    status_message: str | None = None
    started_at: int = 0
    """Unix seconds."""
    duration_ms: int | None = None
    entries: list[dict[str, str]] = Field(default_factory=empty_list)
    """`{kind, text}`: `context`, `feedback` (a block reason), `error`, `stop`, `warning`."""


class HookStartedEvent(_Model):
    """A hook started."""

    type: Literal["hook_started"] = "hook_started"
    run: HookRun


class HookCompletedEvent(_Model):
    """A hook ended (completed, blocked, failed or stopped)."""

    type: Literal["hook_completed"] = "hook_completed"
    run: HookRun
