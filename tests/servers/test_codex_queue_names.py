"""`codex queue --thread NAME --remote …` looks the name up on the server it talks to, as
codex-rust 0.169 does (seen with a logging server: `thread/list` pages after the handshake;
a name only the client's CODEX_HOME knows is not found there), and an unreachable server
is reported before any name is looked up."""

from __future__ import annotations

import json
from pathlib import Path

from tests.servers.conftest import Start
from tests.servers.rpc_client import SchemaChecker
from tests.servers.test_codex_queue import FIXTURE, _queued, queue
from tests.servers.ws_client import WsClient, run_turn, start_thread
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def test_queue_by_name_asks_the_server(
    start_server: Start,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    checker: SchemaChecker,
) -> None:
    model_server.add(turn(message("one")), turn(message("queued")))
    server = start_server("ws://127.0.0.1:0")
    client = WsClient(server.url, checker)
    thread_id = start_thread(client)
    run_turn(client, thread_id, "first")
    client.call("thread/name/set", {"threadId": thread_id, "name": "on-the-server"})

    elsewhere = tmp_path / "client_home"  # the client's own CODEX_HOME: no such thread
    elsewhere.mkdir()
    (elsewhere / "session_index.jsonl").write_text(
        json.dumps({"id": thread_id, "thread_name": "only-here", "updated_at": "2026"}) + "\n"
    )
    remote = ["--remote", server.url]
    _queued(queue(elsewhere, "--thread", "on-the-server", "--message", "m", *remote), thread_id)
    missing = queue(elsewhere, "--thread", "only-here", "--message", "m", *remote)
    assert (missing.returncode, missing.stderr.strip()) == (
        1,
        FIXTURE["unknown name"].format(name="only-here"),
    )
    gone = queue(
        elsewhere, "--thread", "only-here", "--message", "m", "--remote", "ws://127.0.0.1:1"
    )
    assert gone.returncode == 1
    assert gone.stderr.startswith("Error: failed to connect to remote app server: ")
    client.close()
