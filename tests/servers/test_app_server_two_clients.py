"""Two websocket clients on one thread of one `codex app-server`, clients leaving, the server
killed: real subprocesses, real sockets, the scripted model server."""

from __future__ import annotations

import time
from pathlib import Path

from tests.servers.conftest import Start
from tests.servers.rpc_client import SchemaChecker
from tests.servers.ws_client import WsClient, run_turn, start_thread
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn
from tests.support.steps import slow

APPROVAL = "item/commandExecution/requestApproval"


def _text(client: WsClient, first: int) -> str:
    return "".join(
        m["params"]["delta"]
        for m in client.received[first:]
        if m.get("method") == "item/agentMessage/delta"
    )


def test_two_clients_share_a_thread_first_answer_wins(
    start_server: Start, model_server: ModelServer, workspace: Path, checker: SchemaChecker
) -> None:
    model_server.add(
        turn(message("first")),
        turn(shell_call(["bash", "-lc", "echo run >> runs.txt"], call_id="c1")),
        turn(message("after approval")),
        turn(message("answer to b")),
    )
    server = start_server("ws://127.0.0.1:0")
    a = WsClient(server.url, checker)
    thread_id = start_thread(a, cwd=str(workspace), approvalPolicy="untrusted")
    run_turn(a, thread_id, "one")

    b = WsClient(server.url, checker)
    b.initialize()
    b.call("thread/resume", {"threadId": thread_id})
    a_first, b_first = len(a.received), len(b.received)
    a.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "two"}]})
    ask_a = a.wait_for(lambda m: m.get("method") == APPROVAL)
    ask_b = b.wait_for(lambda m: m.get("method") == APPROVAL)
    assert ask_a["id"] == ask_b["id"] and ask_a["params"] == ask_b["params"]
    b.send({"id": ask_b["id"], "result": {"decision": "accept"}})
    for client in (a, b):
        resolved = client.notification("serverRequest/resolved")
        assert resolved["params"] == {"threadId": thread_id, "requestId": ask_a["id"]}
    a.send({"id": ask_a["id"], "result": {"decision": "decline"}})  # too late: dropped
    for client in (a, b):
        done = client.notification("turn/completed")
        assert done["params"]["turn"]["status"] == "completed"
    assert _text(a, a_first) == _text(b, b_first) == "after approval"
    assert (workspace / "runs.txt").read_text() == "run\n"

    # B's turn reaches A, its user message included.
    a_first = len(a.received)
    run_turn(b, thread_id, "from b")
    a.notification("turn/completed")
    users = [
        m["params"]["item"]
        for m in a.received[a_first:]
        if m.get("method") == "item/completed" and m["params"]["item"]["type"] == "userMessage"
    ]
    assert users and users[0]["content"][0]["text"] == "from b"
    assert _text(a, a_first) == "answer to b"
    a.close()
    b.close()


def test_client_gone_mid_turn_the_turn_runs_on(
    start_server: Start, model_server: ModelServer, checker: SchemaChecker
) -> None:
    """The only client leaves during a turn: the server keeps the thread and finishes the
    turn; a client that resumes it later is sent the rest and sees it complete."""
    words = [f"w{i} " for i in range(16)]
    model_server.add(slow(turn(message("".join(words))), 0.2))
    server = start_server("ws://127.0.0.1:0")
    a = WsClient(server.url, checker)
    thread_id = start_thread(a)
    a.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]})
    a.notification("item/agentMessage/delta")
    a.close()

    c = WsClient(server.url, checker)
    c.initialize()
    c.call("thread/resume", {"threadId": thread_id})
    done = c.notification("turn/completed", timeout=30)
    assert done["params"]["turn"]["status"] == "completed"
    read = c.call("thread/read", {"threadId": thread_id, "includeTurns": True})["result"]
    assert read["thread"]["turns"][-1]["status"] == "completed"
    assert server.proc.poll() is None
    c.close()


def test_server_killed_mid_turn_client_sees_the_end(
    start_server: Start, model_server: ModelServer, checker: SchemaChecker
) -> None:
    model_server.add(slow(turn(message(" ".join(f"w{i}" for i in range(40)))), 0.25))
    server = start_server("ws://127.0.0.1:0")
    client = WsClient(server.url, checker)
    thread_id = start_thread(client)
    client.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]})
    client.notification("item/agentMessage/delta")
    server.kill()
    assert client.wait_closed(timeout=10) < 10


def test_sigterm_lets_the_running_turn_complete(
    start_server: Start, model_server: ModelServer, checker: SchemaChecker
) -> None:
    """As 0.169 (observed): SIGTERM during a turn stops the server once the turn completed;
    its client sees the end; with no turn running a SIGTERM stops it at once."""
    model_server.add(slow(turn(message(" ".join(f"w{i}" for i in range(8)))), 0.2))
    server = start_server("ws://127.0.0.1:0")
    client = WsClient(server.url, checker)
    thread_id = start_thread(client)
    client.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]})
    client.notification("item/agentMessage/delta")
    server.terminate()
    done = client.notification("turn/completed", timeout=30)
    assert done["params"]["turn"]["status"] == "completed"
    assert server.wait_exit(timeout=20) == 0
    assert client.wait_closed(timeout=10) < 10

    idle = start_server("ws://127.0.0.1:0")
    watcher = WsClient(idle.url, checker)
    watcher.initialize()
    idle.terminate()
    assert idle.wait_exit(timeout=10) == 0


def test_approval_waits_for_the_next_client(
    start_server: Start, model_server: ModelServer, workspace: Path, checker: SchemaChecker
) -> None:
    """The only client leaves while an approval is asked: the turn waits; a client that
    resumes the thread is sent the request and its answer goes through. With the last client
    gone, a SIGTERM does not wait for a turn nobody can answer."""
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo one > one.txt"], call_id="c1")),
        turn(message("done")),
        turn(shell_call(["bash", "-lc", "echo two > two.txt"], call_id="c2")),
    )
    server = start_server("ws://127.0.0.1:0")
    a = WsClient(server.url, checker)
    thread_id = start_thread(a, cwd=str(workspace), approvalPolicy="untrusted")
    a.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "one"}]})
    asked = a.wait_for(lambda m: m.get("method") == APPROVAL)
    a.close()

    c = WsClient(server.url, checker)
    c.initialize()
    c.call("thread/resume", {"threadId": thread_id})
    again = next(m for m in c.received if m.get("method") == APPROVAL)
    assert again["id"] == asked["id"] and again["params"] == asked["params"]
    c.send({"id": again["id"], "result": {"decision": "accept"}})
    assert c.notification("turn/completed")["params"]["turn"]["status"] == "completed"
    assert (workspace / "one.txt").read_text() == "one\n"

    c.call("turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "two"}]})
    c.wait_for(lambda m: m.get("method") == APPROVAL)
    c.close()
    time.sleep(0.5)  # the server notices the close
    server.terminate()
    assert server.wait_exit(timeout=20) == 0
    assert not (workspace / "two.txt").exists()
