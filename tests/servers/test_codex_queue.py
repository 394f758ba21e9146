"""`codex queue` end to end: the console script against a running `codex app-server` (its
control socket, or `--remote ws://` with a token), and `thread/queue/*` as clients see it.
Outputs are compared with what codex-rust 0.169 printed (tests/fixtures/app_server_listen_0169.json).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

from tests.servers.conftest import Start
from tests.servers.rpc_client import CODEX, SchemaChecker
from tests.servers.ws_client import WsClient, run_turn, start_thread
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn
from tests.support.steps import slow

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "app_server_listen_0169.json").read_text()
)["queue"]
UNKNOWN = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def queue(
    codex_home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `codex queue ARGS`."""
    return subprocess.run(
        [str(CODEX), "queue", *args],
        env={**os.environ, "CODEX_HOME": str(codex_home), **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def _queued(done: subprocess.CompletedProcess[str], thread_id: str) -> str:
    assert done.returncode == 0, done.stderr
    found = re.fullmatch(r"Queued message (\S+) for thread \S+\.\n", done.stdout)
    assert found, done.stdout
    assert done.stdout == FIXTURE["queued"].format(queued_id=found.group(1), thread_id=thread_id)
    return found.group(1)


def _user_texts(client: WsClient, first: int) -> list[str]:
    return [
        m["params"]["item"]["content"][0]["text"]
        for m in client.received[first:]
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "userMessage"
    ]


def test_queue_through_the_control_socket(
    start_server: Start, model_server: ModelServer, codex_home: Path, checker: SchemaChecker
) -> None:
    """Idle thread: the message runs at once; busy thread: after the running turn; by name."""
    model_server.add(
        turn(message("one")),
        turn(message("two")),
        slow(turn(message(" ".join(f"w{i}" for i in range(8)))), 0.2),
        turn(message("four")),
        turn(message("five")),
    )
    server = start_server("unix://", wait=False)
    socket = codex_home / "app-server-control" / "app-server-control.sock"
    deadline = time.monotonic() + 30
    while not socket.is_symlink() and time.monotonic() < deadline:
        time.sleep(0.05)
    client = WsClient("", checker, socket=socket)
    thread_id = start_thread(client)
    run_turn(client, thread_id, "first")

    first = len(client.received)
    _queued(queue(codex_home, "--thread", thread_id, "--message", "queued while idle"), thread_id)
    client.notification("turn/completed")
    assert _user_texts(client, first) == ["queued while idle"]
    assert any(m.get("method") == "thread/queue/changed" for m in client.received[first:])

    first = len(client.received)
    client.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "slow"}]})
    client.notification("item/agentMessage/delta")
    queued_id = _queued(
        queue(codex_home, "--thread", thread_id, "--message", "queued while busy"), thread_id
    )
    listed = client.call("thread/queue/list", {"threadId": thread_id})["result"]
    assert [s["id"] for s in listed["data"]] == [queued_id]
    assert listed["data"][0]["input"][0]["text"] == "queued while busy"
    client.notification("turn/completed", timeout=30)
    client.notification("turn/completed", timeout=30)
    assert _user_texts(client, first) == ["slow", "queued while busy"]

    client.call("thread/name/set", {"threadId": thread_id, "name": "my-task"})
    first = len(client.received)
    _queued(queue(codex_home, "--thread", "my-task", "--message", "by name"), thread_id)
    client.notification("turn/completed")
    assert _user_texts(client, first) == ["by name"]
    client.close()
    server.terminate()
    assert server.wait_exit() == 0


def test_queue_over_ws_for_a_thread_not_loaded(
    start_server: Start, model_server: ModelServer, codex_home: Path, checker: SchemaChecker
) -> None:
    """A recorded thread the server has not loaded: the message waits (listed) until the
    thread is resumed (here by `codex queue --resume`), then each message runs as a turn;
    `--remote ws://` sends the token from the environment."""
    model_server.add(turn(message("one")), turn(message("later")), turn(message("again")))
    first_server = start_server("ws://127.0.0.1:0")
    client = WsClient(first_server.url, checker)
    thread_id = start_thread(client)
    run_turn(client, thread_id, "first")
    client.close()
    first_server.terminate()
    assert first_server.wait_exit() == 0

    token_file = codex_home.parent / "tok"
    token_file.write_text("tok-123")
    server = start_server(
        "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-file", str(token_file)
    )
    remote = ["--remote", server.url, "--remote-auth-token-env", "QUEUE_TOKEN"]
    env = {"QUEUE_TOKEN": "tok-123"}
    queued_id = _queued(
        queue(codex_home, "--thread", thread_id, "--message", "waits", *remote, env=env),
        thread_id,
    )
    watcher = WsClient(server.url, checker, token="tok-123")
    watcher.initialize()
    listed = watcher.call("thread/queue/list", {"threadId": thread_id})["result"]
    assert [s["id"] for s in listed["data"]] == [queued_id]
    # --resume loads the thread on the server: both messages run, one turn each, in order.
    resumed = queue(
        codex_home, "--thread", thread_id, "--message", "also", "--resume", *remote, env=env
    )
    _queued(resumed, thread_id)
    assert resumed.stderr == ""
    deadline = time.monotonic() + 30
    while True:
        read = watcher.call("thread/read", {"threadId": thread_id, "includeTurns": True})
        turns = read["result"]["thread"]["turns"]
        if len(turns) == 3 and all(t["status"] == "completed" for t in turns):
            break
        assert time.monotonic() < deadline, turns
        time.sleep(0.2)
    texts = [
        item["content"][0]["text"]
        for t in turns
        for item in t["items"]
        if item["type"] == "userMessage"
    ]
    assert texts == ["first", "waits", "also"]
    assert watcher.call("thread/queue/list", {"threadId": thread_id})["result"]["data"] == []

    unknown = queue(codex_home, "--thread", UNKNOWN, "--message", "x", *remote, env=env)
    assert (unknown.returncode, unknown.stderr.strip()) == (
        1,
        FIXTURE["unknown thread"].format(thread_id=UNKNOWN),
    )
    refused = queue(codex_home, "--thread", UNKNOWN, "--message", "x", "--remote", server.url)
    assert refused.returncode == 1 and "HTTP error: 401 Unauthorized" in refused.stderr
    watcher.close()

    plain = WsClient(server.url, checker, token="tok-123")
    plain.initialize(experimental=False)
    answer = plain.call("thread/queue/list", {"threadId": thread_id})
    assert answer["error"] == {
        "code": -32600,
        "message": "thread/queue/list requires experimentalApi capability",
    }
    plain.close()


def test_queue_refusals(codex_home: Path) -> None:
    """Bad arguments and no server: 0.169's one-line errors, exit 1, no traceback."""
    cases = [
        (["--thread", "nosuch", "--message", "x"], FIXTURE["unknown name"].format(name="nosuch")),
        (
            ["--thread", UNKNOWN, "--message", "x", "--remote-auth-token-env", "V"],
            FIXTURE["token env without remote"],
        ),
        (
            [
                "--thread",
                UNKNOWN,
                "--message",
                "x",
                "--remote",
                "ws://127.0.0.1:1",
                "--remote-auth-token-env",
                "UNSET_QUEUE_VAR",
            ],
            FIXTURE["token env unset"].format(var="UNSET_QUEUE_VAR"),
        ),
        (
            ["--thread", UNKNOWN, "--message", "x", "--remote", "http://x"],
            FIXTURE["bad remote"].format(addr="http://x"),
        ),
        (
            ["--thread", UNKNOWN, "--message", "x", "--remote", "ws://127.0.0.1:1"],
            FIXTURE["refused"].format(port=1),
        ),
    ]
    for args, expected in cases:
        done = queue(codex_home, *args)
        assert (done.returncode, done.stderr.strip()) == (1, expected), args
    # No server running: 0.169 answers an unknown thread as its server would.
    no_server = queue(codex_home, "--thread", UNKNOWN, "--message", "x")
    assert (no_server.returncode, no_server.stderr.strip()) == (
        1,
        FIXTURE["unknown thread"].format(thread_id=UNKNOWN),
    )
