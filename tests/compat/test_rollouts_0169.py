"""Sessions both ways with the Codex CLI 0.169, on rollouts it really wrote (tests/fixtures)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from codex_core.rollout import read_rollout, reconstruct
from codex_core.rollout.state_db import SchemaUnknownError, ThreadFacts, register_thread
from tests.compat.conftest import (
    Cli,
    install_fixture,
    install_state_db,
    rollout_of,
    rollout_records,
    thread_id,
    user_texts,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

HELLO = "01a20d29-8c84-71a3-ab5e-739e215cebaa"  # say hello, reasoning, then a resumed turn
COMMAND = "01a20d29-8e26-74c2-83b1-d27a83fa9602"  # exec_command `echo hi`
PATCH = "01a20d29-9285-7690-b6f5-81b2c77445b5"  # apply_patch adds added.txt
SEARCH = "01a20d29-9488-7da1-968a-3fe3cbdfeb35"  # a web_search_call item


def test_rollout_0169_files_replay_their_conversation(tmp_path: Path) -> None:
    hello = reconstruct(read_rollout(install_fixture(tmp_path, HELLO)))
    assert [
        (e["type"], e.get("message") or e.get("text"))
        for e in hello.events
        if e["type"] in ("user_message", "agent_message", "agent_reasoning")
    ] == [
        ("user_message", "say hello"),
        ("agent_reasoning", "Thinking about greeting"),
        ("agent_message", "Hello there."),
        ("user_message", "again please"),
        ("agent_message", "Hello again."),
    ]
    command = reconstruct(read_rollout(install_fixture(tmp_path, COMMAND)))
    [ran] = [e for e in command.events if e["type"] == "exec_command_end"]
    assert (ran["call_id"], ran["command"], ran["exit_code"]) == (
        "call_cmd1",
        ["/bin/bash", "-lc", "echo hi"],
        0,
    )
    assert ran["aggregated_output"].endswith("hi\n")
    patch = reconstruct(read_rollout(install_fixture(tmp_path, PATCH)))
    [patched] = [e for e in patch.events if e["type"] == "patch_apply_end"]
    assert (patched["call_id"], patched["success"]) == ("call_patch1", True)


def test_rollout_0169_history_keeps_every_item_and_strips_passthrough(tmp_path: Path) -> None:
    search = reconstruct(read_rollout(install_fixture(tmp_path, SEARCH)))
    kinds = [item["type"] for item in search.history]
    assert "web_search_call" in kinds
    assert not any("internal_chat_message_metadata_passthrough" in i for i in search.history)
    raw = rollout_records(install_fixture(tmp_path, SEARCH))
    assert any(
        "internal_chat_message_metadata_passthrough" in r["payload"]
        for r in raw
        if r["type"] == "response_item"
    ), "the fixture itself carries the field"


def test_rollout_0169_session_resumed_by_ours_appends_in_its_format(
    ours: Cli, model_server: ModelServer, project: Path
) -> None:
    path = install_fixture(ours.home, SEARCH)
    last_before = rollout_records(path)[-1]["ordinal"]
    model_server.add(turn(message("resumed by python")))
    done = ours.exec(
        model_server, "--skip-git-repo-check", "--json", "resume", SEARCH, "next?", cwd=project
    )
    assert done.returncode == 0, done.stderr
    body = model_server.bodies[-1]
    sent = json.dumps(body)
    assert "internal_chat_message_metadata_passthrough" not in sent
    assert any(i.get("type") == "web_search_call" for i in body["input"])
    assert user_texts(body)[-1] == "next?" and "search the web" in user_texts(body)
    records = rollout_records(path)
    new = [r for r in records if r["ordinal"] > last_before]
    assert [r["ordinal"] for r in records] == list(range(len(records))), "no gap, no missing one"
    items = [r["payload"]["item"] for r in new if r["payload"].get("type") == "item_completed"]
    assert [(i["type"], i["content"][0]["text"]) for i in items] == [
        ("UserMessage", "next?"),
        ("AgentMessage", "resumed by python"),
    ]
    turns = {r["payload"]["turn_id"] for r in new if r["payload"].get("type") == "item_completed"}
    starts = [r["payload"] for r in new if r["payload"].get("type") == "task_started"]
    assert len(turns) == 1 and [s["turn_id"] for s in starts] == list(turns)


def test_rollout_0169_session_ours_appended_to_resumes_in_codex_0169(
    ours: Cli, rust: Cli, model_server: ModelServer, project: Path
) -> None:
    install_fixture(ours.home, HELLO)
    model_server.add(turn(message("from python")), turn(message("from rust")))
    done = ours.exec(
        model_server, "--skip-git-repo-check", "resume", HELLO, "python turn", cwd=project
    )
    assert done.returncode == 0, done.stderr
    again = rust.exec(
        model_server, "--skip-git-repo-check", "--json", "resume", HELLO, "rust turn", cwd=project
    )
    assert again.returncode == 0, again.stderr
    assert thread_id(again.stdout) == HELLO
    texts = user_texts(model_server.bodies[-1])
    assert texts.index("say hello") < texts.index("python turn") < texts.index("rust turn")
    outputs = json.dumps(model_server.bodies[-1]["input"])
    assert "from python" in outputs


def test_rollout_ours_new_session_is_listed_and_resumed_by_codex_0169(
    ours: Cli, rust: Cli, model_server: ModelServer, project: Path
) -> None:
    install_state_db(ours.home)
    model_server.add(turn(message("python answer")), turn(message("rust answer")))
    done = ours.exec(model_server, "--json", "python question", cwd=project)
    assert done.returncode == 0, done.stderr
    ours_id = thread_id(done.stdout)
    db = sqlite3.connect(ours.home / "state_5.sqlite")
    row = db.execute(
        "SELECT rollout_path, cwd, preview, source, history_mode FROM threads WHERE id = ?",
        (ours_id,),
    ).fetchone()
    db.close()
    assert row == (
        str(rollout_of(ours.home, ours_id)),
        str(project),
        "python question",
        "exec",
        "paginated",
    )
    # `resume --last` picks from 0.169's index: ours is the newest session of this directory.
    again = rust.exec(model_server, "--json", "resume", "--last", "rust question", cwd=project)
    assert again.returncode == 0, again.stderr
    assert thread_id(again.stdout) == ours_id
    texts = user_texts(model_server.bodies[-1])
    assert texts.index("python question") < texts.index("rust question")
    assert "python answer" in json.dumps(model_server.bodies[-1]["input"])


def test_rollout_codex_0169_session_resumed_by_ours(
    ours: Cli, rust: Cli, model_server: ModelServer, project: Path
) -> None:
    model_server.add(turn(message("rust answer")), turn(message("python answer")))
    first = rust.exec(model_server, "--json", "rust question", cwd=project)
    assert first.returncode == 0, first.stderr
    rust_id = thread_id(first.stdout)
    done = ours.exec(model_server, "--json", "resume", rust_id, "python question", cwd=project)
    assert done.returncode == 0, done.stderr
    assert thread_id(done.stdout) == rust_id
    body = model_server.bodies[-1]
    assert "internal_chat_message_metadata_passthrough" not in json.dumps(body)
    assert user_texts(body)[-2:] == ["rust question", "python question"] or (
        user_texts(body).index("rust question") < user_texts(body).index("python question")
    )


def test_rollout_state_db_unknown_schema_is_left_alone(tmp_path: Path) -> None:
    path = install_state_db(tmp_path)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO _sqlx_migrations VALUES (63, 'from the future', '2027-01-01', 1, x'00', 1)"
    )
    db.commit()
    db.close()
    before = path.read_bytes()
    facts = ThreadFacts(id="x", rollout_path="/r.jsonl", created_at_ms=1, first_user_message="m")
    with pytest.raises(SchemaUnknownError):
        register_thread(tmp_path, facts)
    assert path.read_bytes() == before
    assert register_thread(tmp_path / "nowhere", facts) is False  # no database: nothing made
    assert not (tmp_path / "nowhere" / "state_5.sqlite").exists()


def test_rollout_state_db_problem_is_one_warning(
    ours: Cli, model_server: ModelServer, project: Path
) -> None:
    path = install_state_db(ours.home)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO _sqlx_migrations VALUES (99, 'future', '2027-01-01', 1, x'00', 1)")
    db.commit()
    db.close()
    model_server.add(turn(message("one")), turn(message("two")))
    done = ours.exec(model_server, "--json", "first", cwd=project)
    assert done.returncode == 0, done.stderr
    again = ours.exec(model_server, "--json", "resume", "--last", "second", cwd=project)
    assert again.returncode == 0, again.stderr
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM threads").fetchone() == (0,)
    assert thread_id(again.stdout) == thread_id(done.stdout)
