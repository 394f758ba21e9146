"""The queue file (`queue_1.sqlite`): 0.169's layout, shared by processes, private."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server.queue_store import (
    QueuedSubmission,
    QueueStore,
    QueueStoreError,
    open_store,
)
from tests.servers.test_app_server_daemon import FIXTURE

THREAD = "01a21bc8-f116-77b1-8786-2a51338e9619"


def submission(number: int) -> QueuedSubmission:
    return QueuedSubmission(
        id=f"q{number}",
        clientUserMessageId=f"c{number}",
        input=[w.TextUserInput(text=f"message {number}")],
    )


def texts(store: QueueStore) -> list[str]:
    out = []
    for s in store.waiting(THREAD):
        assert isinstance(s.input[0], w.TextUserInput)
        out.append(s.input[0].text)
    return out


def test_queue_store_keeps_order_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "queue_1.sqlite"
    writer = QueueStore(path)
    for number in range(3):
        writer.add(THREAD, submission(number))
    reader = QueueStore(path)  # another process's view of the same file
    assert texts(reader) == ["message 0", "message 1", "message 2"]
    assert reader.reorder(THREAD, ["q2", "q0", "q1"])
    assert not reader.reorder(THREAD, ["q2", "q0"])
    changed = submission(0).model_copy(update={"input": [w.TextUserInput(text="edited")]})
    assert writer.replace(THREAD, changed)
    assert texts(writer) == ["message 2", "edited", "message 1"]
    taken = writer.take(THREAD, None)
    assert taken is not None and taken.id == "q2" and taken.clientUserMessageId == "c2"
    assert reader.take(THREAD, "q2") is None  # one taker wins
    assert [s.id for s in reader.waiting(THREAD)] == ["q0", "q1"]
    assert reader.waiting("another-thread") == []
    writer.close()
    reader.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_queue_store_reads_a_row_0169_wrote(tmp_path: Path) -> None:
    """The payload as 0.169 stores it, and our rows in the same form."""
    path = tmp_path / "queue_1.sqlite"
    store = QueueStore(path)
    payload = FIXTURE["queued row"][2].replace("{client_id}", "cid-0169")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO queued_items VALUES (?, ?, ?, ?, 0, 0)", ("r1", THREAD, payload, 0))
    (read,) = store.waiting(THREAD)
    assert read.clientUserMessageId == "cid-0169"
    assert read.input == [w.TextUserInput(text="queued one")]
    store.add(THREAD, read.model_copy(update={"id": "r2"}))
    with sqlite3.connect(path) as db:
        ours = db.execute("SELECT payload_json FROM queued_items WHERE id = 'r2'").fetchone()[0]
    assert ours == payload
    migrations = sqlite3.connect(path).execute(
        "SELECT version, description, success FROM _sqlx_migrations ORDER BY version"
    )
    assert migrations.fetchall() == [(1, "queued items", 1), (2, "queued thread revisions", 1)]
    # A payload this codex cannot read is left alone, not dropped.
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO queued_items VALUES ('r3', ?, ?, 5, 0, 0)",
            (THREAD, json.dumps({"Other": {}})),
        )
    assert [s.id for s in store.waiting(THREAD)] == ["r1", "r2"]
    store.close()


def test_queue_store_refuses_a_planted_link(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    target = tmp_path / "elsewhere.sqlite"
    target.write_bytes(b"")
    home = tmp_path / "planted"
    home.mkdir()
    os.symlink(target, home / "queue_1.sqlite")
    with pytest.raises(QueueStoreError, match="not a regular file owned by this user"):
        QueueStore(home / "queue_1.sqlite")
    store = open_store(home)  # the server goes on with a queue in memory
    store.add(THREAD, submission(1))
    assert [s.id for s in store.waiting(THREAD)] == ["q1"]
    assert target.read_bytes() == b""
    assert "kept in memory only" in caplog.text
