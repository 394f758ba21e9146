"""The queue file (`queue_1.sqlite`): 0.169's layout, shared by processes, private."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from codex_core.servers.app_server.queue_store import (
    QueuedRow,
    QueueStore,
    QueueStoreError,
    open_store,
)
from tests.servers.conftest import AppServerFactory
from tests.servers.test_app_server_daemon import FIXTURE
from tests.support.model_server import ModelServer

THREAD = "01a21bc8-f116-77b1-8786-2a51338e9619"


def text(value: str) -> dict[str, object]:
    return {"type": "text", "text": value, "text_elements": []}


def submission(number: int) -> QueuedRow:
    return QueuedRow(f"q{number}", f"c{number}", [text(f"message {number}")])


def texts(store: QueueStore) -> list[object]:
    return [row.content[0]["text"] for row in store.waiting(THREAD)]


def test_queue_store_keeps_order_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "queue_1.sqlite"
    writer = QueueStore(path)
    for number in range(3):
        writer.add(THREAD, submission(number))
    reader = QueueStore(path)  # another process's view of the same file
    assert texts(reader) == ["message 0", "message 1", "message 2"]
    assert reader.reorder(THREAD, ["q2", "q0", "q1"])
    assert not reader.reorder(THREAD, ["q2", "q0"])
    changed = QueuedRow("q0", "c0", [text("edited")])
    assert writer.replace(THREAD, changed)
    assert texts(writer) == ["message 2", "edited", "message 1"]
    taken = writer.take(THREAD, None)
    assert taken == submission(2)
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
    assert read == QueuedRow("r1", "cid-0169", [text("queued one")])
    store.add(THREAD, QueuedRow("r2", read.client_id, read.content))
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


def test_codex_queue_without_a_server_loads_no_pydantic() -> None:
    """The file path of `codex queue` (and the daemon commands) stays light: 0.24 s instead of
    0.9 s on the loaded test machine (codex-rust: 0.24 s)."""
    probe = (
        "import sys\n"
        "from codex_core.servers.app_server import daemon, daemon_pid, queue_cli, queue_store\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'websockets'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() in ("[]", "['pydantic.plugin._loader']"), done.stdout


def test_starting_a_thread_creates_no_queue_file(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path, codex_home: Path
) -> None:
    """Asking for a new thread's waiting messages reads no file into existence (creating it
    costs ~60 ms on a busy disk, on every first thread of a CODEX_HOME)."""
    client = app_server()
    client.initialize()
    client.call("thread/start", {"cwd": str(workspace)})
    client.notification("thread/started")
    assert not (codex_home / "queue_1.sqlite").exists()
    assert client.close() == 0
