"""`codex queue` without `--remote`: through the local daemon, or into CODEX_HOME's queue file.

A message for a busy thread runs after its turn; one for a thread not loaded waits in
`queue_1.sqlite` — across daemon restarts — and runs, one turn per message, when the thread
is resumed; each queued turn's userMessage item carries the message's clientId (0.169's
shape, tests/fixtures/app_server_daemon_0169.json).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.servers.rpc_client import CODEX, SchemaChecker
from tests.servers.test_app_server_daemon import FIXTURE, daemon, report
from tests.servers.ws_client import WsClient, run_turn, start_thread
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn
from tests.support.steps import slow

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def configure(home: Path, model_server: ModelServer) -> None:
    """The daemon has no `-c`: the scripted provider goes in config.toml (read per thread)."""
    lines = [
        f"{pair.partition('=')[0]} = {pair.partition('=')[2]}"
        for pair in model_server.config_overrides()
    ]
    (home / "config.toml").write_text("\n".join([*lines, 'model = "gpt-5.1-codex"', ""]))


def run_queue(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`codex queue ARGS`."""
    return subprocess.run(
        [str(CODEX), "queue", *args],
        env={**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def queue(home: Path, *args: str) -> str:
    """`codex queue ARGS`; returns the queued message's id."""
    done = run_queue(home, *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    found = re.fullmatch(rf"Queued message ({UUID}) for thread ({UUID})\.\n", done.stdout)
    assert found, done.stdout
    return found.group(1)


def start_daemon(home: Path) -> int:
    started = report(daemon(home, "start", OPENAI_API_KEY="sk-test"))
    assert started["status"] == "started"
    return int(started["pid"])


def connect(home: Path, checker: SchemaChecker) -> WsClient:
    return WsClient("", checker, socket=home / "app-server-control" / "app-server-control.sock")


def user_items(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        m["params"]["item"]
        for m in messages
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "userMessage"
    ]


def test_queue_through_the_daemon_to_a_busy_thread(
    codex_home: Path, workspace: Path, model_server: ModelServer, checker: SchemaChecker
) -> None:
    """The daemon answers: the message runs as the busy thread's next turn, with its clientId."""
    configure(codex_home, model_server)
    model_server.add(
        turn(message("one")),
        slow(turn(message(" ".join(f"w{i}" for i in range(8)))), 0.2),
        turn(message("three")),
    )
    start_daemon(codex_home)
    client = connect(codex_home, checker)
    thread_id = start_thread(client, cwd=str(workspace))
    run_turn(client, thread_id, "first")
    first = len(client.received)
    client.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "slow"}]})
    client.notification("item/agentMessage/delta")
    queue(codex_home, "--thread", thread_id, "--message", "while busy")
    client.notification("turn/completed", timeout=30)
    client.notification("turn/completed", timeout=30)
    items = user_items(client.received[first:])
    assert [i["content"][0]["text"] for i in items] == ["slow", "while busy"]
    assert "clientId" not in items[0]
    assert re.fullmatch(UUID, items[1]["clientId"])
    client.close()
    model_server.assert_script_consumed()


def test_queue_for_a_thread_not_loaded_survives_daemon_restarts(
    codex_home: Path, workspace: Path, model_server: ModelServer, checker: SchemaChecker
) -> None:
    """Queued with no daemon (into the file) and through a daemon that has not loaded the
    thread; both wait across a restart and run in order when the thread is resumed."""
    configure(codex_home, model_server)
    model_server.add(turn(message("one")), turn(message("later")), turn(message("again")))
    start_daemon(codex_home)
    client = connect(codex_home, checker)
    thread_id = start_thread(client, cwd=str(workspace))
    run_turn(client, thread_id, "first")
    client.close()
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"

    # No daemon: 0.169 puts the message straight into the queue file (and starts none).
    first_id = queue(codex_home, "--thread", thread_id, "--message", "queued one")
    assert daemon(codex_home, "version").returncode == 1  # no daemon was started
    with sqlite3.connect(codex_home / "queue_1.sqlite") as db:
        rows = db.execute(
            "SELECT id, thread_id, payload_json, queue_order FROM queued_items"
        ).fetchall()
    assert len(rows) == 1
    client_id = json.loads(rows[0][2])["UserInput"]["client_id"]
    row_0169 = FIXTURE["queued row"]
    assert list(rows[0]) == [
        row_0169[0].format(queued_id=first_id),
        row_0169[1].format(thread_id=thread_id),
        row_0169[2].replace("{client_id}", client_id),
        row_0169[3],
    ]

    # Through a daemon that has not loaded the thread: it waits too.
    start_daemon(codex_home)
    second_id = queue(codex_home, "--thread", thread_id, "--message", "queued two")
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"
    start_daemon(codex_home)
    watcher = connect(codex_home, checker)
    watcher.initialize()
    listed = watcher.call("thread/queue/list", {"threadId": thread_id})["result"]["data"]
    assert [s["id"] for s in listed] == [first_id, second_id]
    assert listed[0]["clientUserMessageId"] == client_id

    first = len(watcher.received)
    watcher.call("thread/resume", {"threadId": thread_id})
    deadline = time.monotonic() + 30
    while sum(m.get("method") == "turn/completed" for m in watcher.received[first:]) < 2:
        assert time.monotonic() < deadline, "the queued turns did not run"
        watcher.next(timeout=30)
    items = user_items(watcher.received[first:])
    assert [i["content"][0]["text"] for i in items] == ["queued one", "queued two"]
    shape = FIXTURE["queued user message item"]
    assert {k: items[0][k] for k in shape if k != "id"} | {"id": shape["id"]} == json.loads(
        json.dumps(shape).replace("{client_id}", client_id)
    )
    assert watcher.call("thread/queue/list", {"threadId": thread_id})["result"]["data"] == []
    watcher.close()
    model_server.assert_script_consumed()


def test_queue_resume_without_and_with_the_daemon(
    codex_home: Path, workspace: Path, model_server: ModelServer, checker: SchemaChecker
) -> None:
    """`--resume` with no daemon: queued in the file, 0.169's warning, exit 0, no daemon
    started; with the daemon running: the thread is resumed there and both messages run."""
    configure(codex_home, model_server)
    model_server.add(turn(message("one")), turn(message("first queued")), turn(message("two")))
    start_daemon(codex_home)
    client = connect(codex_home, checker)
    thread_id = start_thread(client, cwd=str(workspace))
    run_turn(client, thread_id, "first")
    client.close()
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"

    done = run_queue(codex_home, "--thread", thread_id, "--message", "no daemon", "--resume")
    assert done.returncode == 0
    assert done.stderr == FIXTURE["resume without daemon"].format(thread_id=thread_id)
    assert daemon(codex_home, "version").returncode == 1  # none was started

    start_daemon(codex_home)
    queue(codex_home, "--thread", thread_id, "--message", "with daemon", "--resume")
    watcher = connect(codex_home, checker)
    watcher.initialize()
    deadline = time.monotonic() + 30
    while True:
        read = watcher.call("thread/read", {"threadId": thread_id, "includeTurns": True})
        turns = read["result"]["thread"]["turns"]
        if len(turns) == 3 and all(t["status"] == "completed" for t in turns):
            break
        assert time.monotonic() < deadline, turns
        time.sleep(0.2)
    texts = [
        i["content"][0]["text"] for t in turns for i in t["items"] if i["type"] == "userMessage"
    ]
    assert texts == ["first", "no daemon", "with daemon"]
    watcher.close()
    model_server.assert_script_consumed()
