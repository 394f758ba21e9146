"""The thread queue is shared with codex-rust 0.169: a message one tool's `codex queue` put in
`queue_1.sqlite` (no server running) is delivered by the other tool when it resumes the
thread, as the thread's next turn, its userMessage item carrying the message's clientId."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.compat.conftest import MODEL, Cli, user_texts
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def _client(cli: Cli, server: ModelServer, cwd: Path) -> AppServerClient:
    flags = [*server.cli_flags(), "-c", MODEL]
    argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
    client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
    client.initialize()
    return client


@pytest.mark.parametrize("writer", ["ours", "rust"])
def test_a_message_one_tool_queued_is_delivered_by_the_other(
    writer: str, ours: Cli, rust: Cli, project: Path
) -> None:
    first, second = (ours, rust) if writer == "ours" else (rust, ours)
    with ModelServer([turn(message("first answer")), turn(message("queued answer"))]) as server:
        client = _client(first, server, project)
        started = client.call("thread/start", {"cwd": str(project)})
        thread_id = started["result"]["thread"]["id"]
        client.call(
            "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}]}
        )
        client.notification("turn/completed", timeout=60)
        assert client.close() == 0

        queued = first.run(
            "queue", "--thread", thread_id, "--message", f"queued by {writer}", cwd=project
        )
        assert queued.returncode == 0, queued.stderr
        assert re.fullmatch(rf"Queued message \S+ for thread {thread_id}\.\n", queued.stdout)
        with sqlite3.connect(first.home / "queue_1.sqlite") as db:
            (payload,) = db.execute("SELECT payload_json FROM queued_items").fetchone()
        client_id = json.loads(payload)["UserInput"]["client_id"]

        client = _client(second, server, project)
        assert "result" in client.call("thread/resume", {"threadId": thread_id}, timeout=60)
        client.notification("turn/completed", timeout=60)
        items = [
            m["params"]["item"]
            for m in client.received
            if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "userMessage"
        ]
        client.close()
        with sqlite3.connect(first.home / "queue_1.sqlite") as db:
            left = db.execute("SELECT id FROM queued_items").fetchall()
    assert [i["content"][0]["text"] for i in items] == [f"queued by {writer}"]
    assert items[0]["clientId"] == client_id
    assert user_texts(server.bodies[-1])[-1] == f"queued by {writer}"
    assert left == []
