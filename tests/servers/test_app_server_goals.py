"""`thread/goal/get|set|clear` as codex-rust 0.169 answers them, and through the official SDK.

The answers and notifications 0.169 gave to `goal_sequence.SEQUENCE` are recorded in
`tests/fixtures/goals_0169/`; ours must be the same, schema-checked against the 0.169
bundle. Goals live in `goals_1.sqlite` in 0.169's layout (shared with it: see
`tests/compat/test_goals_0169.py`).
"""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
from pathlib import Path
from types import ModuleType

import pytest

from codex_core.goals import GoalError, GoalStore
from tests.servers.conftest import AppServerFactory
from tests.servers.goal_sequence import play
from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer

RECORDED = Path(__file__).parent.parent / "fixtures" / "goals_0169" / "app_server_goal_answers.json"


def test_app_server_goal_methods_answer_as_0169(
    app_server: AppServerFactory, workspace: Path, model_server: ModelServer
) -> None:
    client = app_server()
    client.initialize()
    assert play(client, str(workspace)) == json.loads(RECORDED.read_text())
    assert not model_server.requests  # a paused goal starts nothing
    assert client.checker is not None and client.checker.checked > 20


def test_app_server_goal_through_the_official_python_sdk(
    sdk: ModuleType, model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    config = sdk.CodexConfig(
        codex_bin=str(CODEX),
        config_overrides=(*model_server.config_overrides(), 'model="gpt-5.1-codex"'),
        cwd=str(workspace),
        env={**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"},
    )
    status = importlib.import_module("openai_codex.generated.v2_all").ThreadGoalStatus
    with sdk.Codex(config) as codex:
        thread = codex.thread_start(cwd=str(workspace))
        client = codex._client  # the SDK's typed client; its goal calls are not on `Codex`
        created = client.thread_goal_set(thread.id, objective="Release 2.0", status=status.paused)
        paused = client.pause_goal(thread.id)
        first = client.thread_goal_clear(thread.id)
        again = client.thread_goal_clear(thread.id)
        with pytest.raises(sdk.InvalidRequestError, match="no goal exists"):
            client.pause_goal(thread.id)
    assert created.goal.objective == "Release 2.0" and created.goal.thread_id == thread.id
    assert paused.goal.status.value == "paused" and paused.goal.tokens_used == 0
    assert (first.cleared, again.cleared) == (True, False)
    db = sqlite3.connect(codex_home / "goals_1.sqlite")
    assert db.execute("SELECT count(*) FROM thread_goals").fetchone() == (0,)
    assert [r[0] for r in db.execute("SELECT version FROM _sqlx_migrations")] == [1, 2]


def test_goal_store_keeps_0169_layout_and_leaves_foreign_files_alone(tmp_path: Path) -> None:
    store = GoalStore(tmp_path)
    store.set("t1", objective="a", status="budgetLimited", token_budget=5)
    row = sqlite3.connect(tmp_path / "goals_1.sqlite").execute(
        "SELECT objective, status, token_budget FROM thread_goals"
    )
    assert row.fetchall() == [("a", "budget_limited", 5)]
    foreign = tmp_path / "newer"
    foreign.mkdir()
    db = sqlite3.connect(foreign / "goals_1.sqlite")
    db.executescript(
        "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT, "
        "installed_on TIMESTAMP, success BOOLEAN, checksum BLOB, execution_time BIGINT);"
        "INSERT INTO _sqlx_migrations VALUES (3, 'later', 0, 1, x'00', 0);"
    )
    db.close()
    with pytest.raises(GoalError, match="another Codex version"):
        GoalStore(foreign).get("t1")
    other = tmp_path / "other"
    other.mkdir()
    sqlite3.connect(other / "goals_1.sqlite").executescript("CREATE TABLE notes (x);")
    with pytest.raises(GoalError, match="not a goals database"):
        GoalStore(other).set("t1", objective="a")
