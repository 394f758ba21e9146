"""Registering sessions in Codex 0.169's `$CODEX_HOME/state_5.sqlite`, so its picker lists ours.

Codex 0.169 lists sessions from the `threads` table of that database rather than by scanning
`sessions/`. Where the database exists, each of our sessions is upserted there the way 0.169
records its own (one row per thread, keyed by id) — only when the migration ledger says the
schema is one we know, in one transaction, never creating the database or touching any other
table. Anything unexpected (unknown schema, locked or corrupt file) skips the registration
with one warning; the rollout file stays the source of truth.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codex_core.rollout.layout import read_meta

log = logging.getLogger(__name__)

STATE_DB_NAME = "state_5.sqlite"
KNOWN_SCHEMA_VERSIONS = frozenset({62})
"""Latest `_sqlx_migrations.version` of the `state_5` schemas whose `threads` table we know."""
_BUSY_TIMEOUT_SECONDS = 2.0


def recorded_permission_profile(payload: dict[str, Any], cwd: str) -> dict[str, Any] | None:
    """The permission profile a `turn_context` payload records (0.169's, and ours since we
    write it), else the one of its `sandbox_policy` (0.169's `type` form or our older
    `mode` form); None when it says neither."""
    profile = payload.get("permission_profile")
    if isinstance(profile, dict):
        return profile
    from codex_core.policies import sandbox_policy_from_wire
    from codex_core.rollout.permissions import permission_profile

    policy = sandbox_policy_from_wire(payload.get("sandbox_policy"))
    if policy is None:
        return None
    context_cwd = payload.get("cwd")
    return permission_profile(policy, context_cwd if isinstance(context_cwd, str) else cwd)


_READ_ONLY_PROFILE: dict[str, Any] = {
    "type": "managed",
    "file_system": {
        "type": "restricted",
        "entries": [{"path": {"type": "special", "value": {"kind": "root"}}, "access": "read"}],
    },
    "network": "restricted",
}


def codex_home_of(rollout: Path) -> Path | None:
    """The CODEX_HOME a rollout under `sessions/` or `archived_sessions/` belongs to."""
    for parent in rollout.parents:
        if parent.name in ("sessions", "archived_sessions"):
            return parent.parent
    return None


@dataclass
class ThreadFacts:
    """What a `threads` row says about one session, gathered from its rollout lines."""

    id: str
    rollout_path: str
    created_at_ms: int
    cwd: str = ""
    source: str = "cli"
    thread_source: str = "user"
    model_provider: str = ""
    cli_version: str = ""
    originator: str = ""
    history_mode: str = "legacy"
    first_user_message: str = ""
    model: str | None = None
    reasoning_effort: str | None = None
    approval_mode: str = "on-request"
    permission_profile: dict[str, Any] | None = None
    """The `sandbox_policy` column (None: read-only, 0.169's default)."""
    tokens_used: int = 0
    git: dict[str, Any] = field(default_factory=dict)

    def observe(self, line_type: str, payload: dict[str, Any]) -> None:
        """Take what a rollout line says (turn settings, first message, token usage)."""
        if line_type == "turn_context":
            self.model = _str(payload.get("model")) or self.model
            self.reasoning_effort = _str(payload.get("effort")) or self.reasoning_effort
            policy = payload.get("approval_policy")
            if isinstance(policy, dict) and "granular" in policy:  # 0.169 keeps the object
                policy = json.dumps(policy, separators=(",", ":"))
            self.approval_mode = _str(policy) or self.approval_mode
            self.permission_profile = recorded_permission_profile(payload, self.cwd)
        elif line_type == "event_msg" and payload.get("type") == "user_message":
            if not self.first_user_message:
                self.first_user_message = _str(payload.get("message")) or ""
        elif line_type == "event_msg" and payload.get("type") == "token_count":
            info = payload.get("info")
            total = info.get("total_token_usage") if isinstance(info, dict) else None
            if isinstance(total, dict) and isinstance(total.get("total_tokens"), int):
                self.tokens_used = total["total_tokens"]


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _row(facts: ThreadFacts, now_ms: int) -> dict[str, Any]:
    preview = facts.first_user_message.strip()[:1000]
    git = facts.git
    return {
        "id": facts.id,
        "rollout_path": facts.rollout_path,
        "created_at": facts.created_at_ms // 1000,
        "created_at_ms": facts.created_at_ms,
        "updated_at": now_ms // 1000,
        "updated_at_ms": now_ms,
        "recency_at": now_ms // 1000,
        "recency_at_ms": now_ms,
        "source": facts.source,
        "thread_source": facts.thread_source,
        "model_provider": facts.model_provider,
        "cwd": facts.cwd,
        "title": preview,
        "first_user_message": preview,
        "preview": preview,
        "sandbox_policy": json.dumps(
            facts.permission_profile or _READ_ONLY_PROFILE, separators=(",", ":")
        ),
        "approval_mode": facts.approval_mode,
        "tokens_used": facts.tokens_used,
        "cli_version": facts.cli_version,
        "model": facts.model,
        "reasoning_effort": facts.reasoning_effort,
        "history_mode": facts.history_mode,
        "originator": facts.originator,
        "git_sha": _str(git.get("commit_hash")),
        "git_branch": _str(git.get("branch")),
        "git_origin_url": _str(git.get("repository_url")),
    }


# Columns refreshed when the thread is already registered (created_* and title stay).
_UPDATED = (
    "updated_at",
    "updated_at_ms",
    "recency_at",
    "recency_at_ms",
    "tokens_used",
    "model",
    "reasoning_effort",
    "approval_mode",
    "sandbox_policy",
)


# Columns filled in when still empty (a session registered before its first message).
_FILLED = ("title", "first_user_message", "preview")


class SchemaUnknownError(Exception):
    """The database's migration ledger names a schema this version does not know."""


def register_thread(codex_home: Path, facts: ThreadFacts, now_ms: int | None = None) -> bool:
    """Upsert one session into `state_5.sqlite`; False when there is no such database.

    Raises:
        SchemaUnknownError: If the schema version is not one we know (nothing is written).
        sqlite3.Error: If the database is locked, corrupt or read-only (nothing is written).
    """
    path = Path(codex_home) / STATE_DB_NAME
    if not path.is_file():
        return False
    row = _row(facts, int(time.time() * 1000) if now_ms is None else now_ms)
    # mode=rw: never create the database; isolation_level=None: explicit transaction below.
    import sqlite3  # here: the row is written after the first request, in the recorder's thread

    db = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=rw",
        uri=True,
        timeout=_BUSY_TIMEOUT_SECONDS,
        isolation_level=None,
    )
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            (version,) = db.execute("SELECT MAX(version) FROM _sqlx_migrations").fetchone()
            if version not in KNOWN_SCHEMA_VERSIONS:
                raise SchemaUnknownError(f"state_5.sqlite has schema version {version}")
            names = ", ".join(row)
            marks = ", ".join(f":{name}" for name in row)
            updates = ", ".join(
                [f"{name} = excluded.{name}" for name in _UPDATED]
                + [f"{name} = COALESCE(NULLIF({name}, ''), excluded.{name})" for name in _FILLED]
            )
            db.execute(
                f"INSERT INTO threads ({names}) VALUES ({marks}) "
                f"ON CONFLICT(id) DO UPDATE SET {updates}",
                row,
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    finally:
        db.close()
    return True


def facts_from_meta(path: Path, meta: dict[str, Any] | None) -> ThreadFacts | None:
    """The index row of a session, from the meta it is created with or its file's first line."""
    if meta is None:
        try:
            meta = read_meta(path)
        except OSError:
            return None
    session_id = meta.get("session_id") or meta.get("id")
    if not isinstance(session_id, str) or not session_id:
        return None
    stamp = meta.get("timestamp")
    created_ms = int(time.time() * 1000)
    if isinstance(stamp, str):
        from datetime import datetime

        try:
            created_ms = int(
                datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000
            )
        except ValueError:
            pass
    return ThreadFacts(
        id=session_id,
        rollout_path=str(Path(path).resolve()),
        created_at_ms=created_ms,
        cwd=str(meta.get("cwd") or ""),
        source=str(meta.get("source") or "cli"),
        thread_source=str(meta.get("thread_source") or "user"),
        model_provider=str(meta.get("model_provider") or ""),
        cli_version=str(meta.get("cli_version") or ""),
        originator=str(meta.get("originator") or ""),
        history_mode=str(meta.get("history_mode") or "legacy"),
    )
