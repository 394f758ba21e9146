"""Thread goals: one objective per thread, stored where the Codex CLI 0.169 keeps them.

0.169 keeps goals in `CODEX_HOME/goals_1.sqlite` (table `thread_goals`, statuses in
snake_case, times in milliseconds) and migrates that file with sqlx, whose ledger records
each migration's checksum. A file 0.169 made is used as it is; a missing one is created
with the same tables and ledger, so either tool reads and changes the other's goals. A file
with another ledger (a newer Codex) is left alone: goals are then unavailable, with an error
that says why. The rules for changing a goal are the ones 0.169 answers `thread/goal/set`
with (observed side by side).
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

GOALS_DB = "goals_1.sqlite"
MAX_OBJECTIVE_CHARS = 4000

GoalStatus = Literal["active", "paused", "blocked", "usageLimited", "budgetLimited", "complete"]
_DB_STATUS: dict[str, str] = {
    "active": "active",
    "paused": "paused",
    "blocked": "blocked",
    "usageLimited": "usage_limited",
    "budgetLimited": "budget_limited",
    "complete": "complete",
}
_WIRE_STATUS = {db: wire for wire, db in _DB_STATUS.items()}

# The sqlx ledger 0.169 writes: (version, description, SHA-384 of its migration script).
_LEDGER = (
    (
        1,
        "thread goals",
        "8ce6280244a0b4b39c7c37c7f67aff1670ec963d2401cdf2abcfea9904102db6"
        "cd99b7bedf366267791a45eb12f17713",
    ),
    (
        2,
        "thread goal continuation deferrals",
        "f3ff7de2fd89914820bef371081e885fd17df18a6fbdc432399a83255a8a01aa"
        "32fb7eea5e4de21a17bda3da16c49584",
    ),
)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS thread_goals (
    thread_id TEXT PRIMARY KEY NOT NULL,
    goal_id TEXT NOT NULL,
    objective TEXT NOT NULL,
    status TEXT NOT NULL CHECK(status IN (
        'active', 'paused', 'blocked', 'usage_limited', 'budget_limited', 'complete'
    )),
    token_budget INTEGER,
    tokens_used INTEGER NOT NULL DEFAULT 0,
    time_used_seconds INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS thread_goal_continuation_deferrals (
    thread_id TEXT PRIMARY KEY NOT NULL REFERENCES thread_goals(thread_id) ON DELETE CASCADE
);
"""
_COLUMNS = (
    "thread_id, goal_id, objective, status, token_budget, tokens_used, time_used_seconds, "
    "created_at_ms, updated_at_ms"
)


class GoalError(Exception):
    """A request the goal rules refuse, or a goals file this codex cannot use (one line)."""


@dataclass(frozen=True)
class ThreadGoal:
    """A thread's goal; statuses use the app-server's camelCase names."""

    thread_id: str
    goal_id: str
    objective: str
    status: GoalStatus
    token_budget: int | None
    tokens_used: int
    time_used_seconds: int
    created_at_ms: int
    updated_at_ms: int


class Unset:
    """Marks a field the request did not carry (`tokenBudget: null` clears the budget)."""


UNSET = Unset()


class GoalStore:
    """The goals of every thread in one CODEX_HOME."""

    def __init__(self, codex_home: Path) -> None:
        self.path = codex_home / GOALS_DB

    def get(self, thread_id: str) -> ThreadGoal | None:
        """The thread's goal, if it has one."""
        with self._db() as db:
            return _read(db, thread_id)

    def set(
        self,
        thread_id: str,
        *,
        objective: str | None = None,
        status: GoalStatus | None = None,
        token_budget: int | None | Unset = UNSET,
    ) -> ThreadGoal:
        """Create the thread's goal (an objective is needed) or change the one it has.

        Raises:
            GoalError: An empty or too long objective, a budget that is not positive, no
                goal to change, or an unusable goals file.
        """
        if objective is not None:
            objective = objective.strip()
            if not objective:
                raise GoalError("goal objective must not be empty")
            if len(objective) > MAX_OBJECTIVE_CHARS:
                raise GoalError(f"goal objective must be at most {MAX_OBJECTIVE_CHARS} characters")
        if isinstance(token_budget, int) and token_budget <= 0:
            raise GoalError("goal budgets must be positive when provided")
        now = int(time.time() * 1000)
        with self._db() as db:
            current = _read(db, thread_id)
            if current is None:
                if objective is None:
                    raise GoalError(f"cannot update goal for thread {thread_id}: no goal exists")
                goal = ThreadGoal(
                    thread_id=thread_id,
                    goal_id=str(uuid.uuid4()),
                    objective=objective,
                    status=status or "active",
                    token_budget=None if isinstance(token_budget, Unset) else token_budget,
                    tokens_used=0,
                    time_used_seconds=0,
                    created_at_ms=now,
                    updated_at_ms=now,
                )
            else:
                goal = ThreadGoal(
                    thread_id=thread_id,
                    goal_id=current.goal_id,
                    objective=objective if objective is not None else current.objective,
                    status=status or current.status,
                    token_budget=(
                        current.token_budget if isinstance(token_budget, Unset) else token_budget
                    ),
                    tokens_used=current.tokens_used,
                    time_used_seconds=current.time_used_seconds,
                    created_at_ms=current.created_at_ms,
                    updated_at_ms=now,
                )
            db.execute(
                f"INSERT OR REPLACE INTO thread_goals ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    goal.thread_id,
                    goal.goal_id,
                    goal.objective,
                    _DB_STATUS[goal.status],
                    goal.token_budget,
                    goal.tokens_used,
                    goal.time_used_seconds,
                    goal.created_at_ms,
                    goal.updated_at_ms,
                ),
            )
            return goal

    def clear(self, thread_id: str) -> bool:
        """Remove the thread's goal; False when it had none."""
        with self._db() as db:
            return (
                db.execute("DELETE FROM thread_goals WHERE thread_id = ?", (thread_id,)).rowcount
                > 0
            )

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        try:
            db = sqlite3.connect(self.path, timeout=5)
        except sqlite3.Error as err:
            raise GoalError(f"cannot open {self.path}: {err}") from None
        try:
            db.execute("PRAGMA foreign_keys = ON")
            _prepare(db, self.path)
            with db:  # one transaction: committed on success, rolled back on error
                yield db
        except sqlite3.Error as err:
            raise GoalError(f"cannot use {self.path}: {err}") from None
        finally:
            db.close()


def _prepare(db: sqlite3.Connection, path: Path) -> None:
    """Create the tables and ledger in a new file; refuse a ledger 0.169 did not write."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "_sqlx_migrations" not in tables:
        if tables:
            raise GoalError(f"{path} is not a goals database; move it away to use goals")
        db.execute("PRAGMA journal_mode = WAL")  # as 0.169 opens it
        with db:
            db.executescript(_SCHEMA)
            db.executemany(
                "INSERT INTO _sqlx_migrations (version, description, success, checksum, "
                "execution_time) VALUES (?, ?, 1, ?, 0)",
                [(v, d, bytes.fromhex(c)) for v, d, c in _LEDGER],
            )
        return
    ledger = {
        (v, c.hex())
        for v, c in db.execute("SELECT version, checksum FROM _sqlx_migrations WHERE success")
    }
    if ledger != {(v, c) for v, _d, c in _LEDGER}:
        raise GoalError(f"{path} was written by another Codex version; goals are unavailable here")


def _read(db: sqlite3.Connection, thread_id: str) -> ThreadGoal | None:
    row = db.execute(
        f"SELECT {_COLUMNS} FROM thread_goals WHERE thread_id = ?", (thread_id,)
    ).fetchone()
    if row is None:
        return None
    status = _WIRE_STATUS.get(row[3], "paused")
    return ThreadGoal(row[0], row[1], row[2], status, *row[4:])  # type: ignore[arg-type]
