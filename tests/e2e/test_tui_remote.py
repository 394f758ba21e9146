"""`codex --remote`: the real TUI in a pseudo-terminal attached to a real `codex app-server`
listening on a websocket (with a token) or a unix socket; the session, its commands and
rollout are the server's."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from codex_core.servers.app_server.remote import RemoteClient, parse_remote
from tests.e2e.test_tui_session import Terminal, spawn
from tests.servers.ws_client import ServerProcess, WsClient
from tests.support.model_server import ModelServer
from tests.support.sse import FunctionCallOut, function_call, message, turn
from tests.support.steps import slow

pytestmark = [pytest.mark.e2e]

RECORDED = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "remote_tui_0169.json").read_text()
)
"""What codex-rust 0.169's TUI printed with `--remote` for a wrong token and for nothing
listening (tests/fixtures/remote_tui_0169.json)."""
TOKEN = "remote-tui-token-42"
TOKEN_ENV = "CODEX_TEST_REMOTE_TOKEN"


def _escalated(cmd: str, call_id: str) -> FunctionCallOut:
    args = {"cmd": cmd, "sandbox_permissions": "require_escalated", "justification": "needed"}
    return function_call("exec_command", args, call_id)


@pytest.fixture
def server_home(tmp_path: Path) -> Path:
    path = tmp_path / "server_home"
    path.mkdir()
    return path


@pytest.fixture
def server_cwd(tmp_path: Path) -> Path:
    path = tmp_path / "server_ws"
    path.mkdir()
    return path


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.kill()


def _start(
    servers: list[ServerProcess],
    model_server: ModelServer,
    home: Path,
    cwd: Path,
    listen: str,
    *extra: str,
) -> ServerProcess:
    flags = [
        "--config" if arg == "-c" else arg
        for arg in [
            *model_server.cli_flags(),
            "-c",
            'model="gpt-5.1-codex"',
            "-c",
            'approval_policy="on-request"',
            "-c",
            'sandbox_mode="read-only"',
        ]
    ]
    server = ServerProcess(home, cwd, flags, listen, list(extra))
    servers.append(server)
    return server


def _start_with_token(
    servers: list[ServerProcess],
    model_server: ModelServer,
    home: Path,
    cwd: Path,
    tmp_path: Path,
) -> ServerProcess:
    """A server on a websocket of 127.0.0.1 that wants `TOKEN` (capability-token auth)."""
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    return _start(
        servers,
        model_server,
        home,
        cwd,
        "ws://127.0.0.1:0",
        "--ws-auth",
        "capability-token",
        "--ws-token-file",
        str(token_file),
    )


def _quit(term: Terminal) -> str:
    """Ctrl+C twice, as a user leaves; the rest of the TUI's output."""
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    return term.rest()


def _tui(codex_bin: Path, args: list[str], cwd: Path) -> Terminal:
    os.environ[TOKEN_ENV] = TOKEN
    return spawn(codex_bin, args, cwd)


def test_tui_remote_ws_token_stream_approve_deny_interrupt_resume(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    codex_home: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    model_server.add(
        turn(message("Hello from the server side.")),
        turn(_escalated("echo yes > approved.txt", "c1")),
        turn(message("It ran.")),
        turn(_escalated("echo no > denied.txt", "c2")),
        turn(message("Understood, not running it.")),
        slow(turn(message(" ".join(f"word{i}" for i in range(200)))), 0.05),
        turn(message("Back again.")),
    )
    server = _start_with_token(servers, model_server, server_home, server_cwd, tmp_path)
    local = tmp_path / "local"
    local.mkdir()
    remote = ["--remote", server.url, "--remote-auth-token-env", TOKEN_ENV]

    term = _tui(codex_bin, remote, local)
    term.wait_for("Ask Codex to do anything")
    term.wait_for(str(server_cwd.name))  # the header shows the server's directory
    term.child.send("say hello\r")
    term.wait_for("Hello from the server side.")

    term.child.send("make the file\r")
    term.wait_for("Allow Codex to run this command?")
    term.wait_for("echo yes > approved.txt")
    term.forget()
    term.child.send("y")
    term.wait_for("It ran.")
    assert (server_cwd / "approved.txt").read_text() == "yes\n"
    assert not (local / "approved.txt").exists()

    term.child.send("another file\r")
    term.wait_for("Allow Codex to run this command?")
    term.wait_for("echo no > denied.txt")
    term.forget()
    term.child.send("d")  # decline; the turn goes on
    term.wait_for("Understood, not running it.")
    assert not (server_cwd / "denied.txt").exists()

    term.child.send("count words\r")
    term.wait_for("word3")
    term.child.send("\x1b")  # interrupt
    term.wait_for("Interrupted")
    tail = _quit(term)
    found = re.search(r"run codex --remote ws://\S+ resume ([0-9a-f-]{36})", tail)
    assert found, tail[-1500:]
    thread_id = found.group(1)
    assert not list(codex_home.rglob("rollout-*.jsonl")), "the TUI's CODEX_HOME got a rollout"
    assert list((server_home / "sessions").rglob("*.jsonl"))

    term = _tui(codex_bin, [*remote, "resume", thread_id], local)
    term.wait_for("Hello from the server side.")  # the thread's past
    term.child.send("once more\r")
    term.wait_for("Back again.")
    _quit(term)


def _wait_path(path: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def test_tui_remote_unix_socket_stream_and_approve(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    model_server.add(
        turn(_escalated("echo unix > unix.txt", "u1")),
        turn(message("Done over the unix socket.")),
    )
    sock = tmp_path / "s.sock"
    _start(servers, model_server, server_home, server_cwd, f"unix://{sock}")
    _wait_path(sock)
    term = _tui(codex_bin, ["--remote", f"unix://{sock}", "-m", "gpt-remote-pick"], tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.wait_for("gpt-remote-pick")  # -m goes to thread/start: the server's thread uses it
    term.child.send("go\r")
    term.wait_for("Allow Codex to run this command?")
    term.wait_for("echo unix > unix.txt")
    term.forget()
    term.child.send("y")
    term.wait_for("Done over the unix socket.")
    assert (server_cwd / "unix.txt").read_text() == "unix\n"
    _quit(term)
    term.child.close()
    assert term.child.exitstatus == 0


def test_tui_remote_bad_token_is_refused_in_one_line(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    server = _start_with_token(servers, model_server, server_home, server_cwd, tmp_path)
    os.environ["CODEX_TEST_WRONG_TOKEN"] = "not-the-token"
    term = spawn(
        codex_bin,
        ["--remote", server.url, "--remote-auth-token-env", "CODEX_TEST_WRONG_TOKEN"],
        tmp_path,
    )
    tail = term.rest()
    term.child.close()
    assert term.child.exitstatus == 1
    recorded = RECORDED["wrong token"]
    assert recorded["line"].format(port=server.port) in tail  # 0.169's line, recorded
    assert term.child.exitstatus == recorded["exit"]
    assert "Traceback" not in tail

    term = spawn(codex_bin, ["--remote", "ws://127.0.0.1:1"], tmp_path)
    tail = term.rest()
    term.child.close()
    assert RECORDED["nothing listening"]["line"] in tail
    assert term.child.exitstatus == RECORDED["nothing listening"]["exit"]


def test_tui_remote_bad_address_and_unset_token_variable(codex_bin: Path, tmp_path: Path) -> None:
    term = spawn(codex_bin, ["--remote", "ws://127.0.0.1:"], tmp_path)
    tail = term.rest()
    term.child.close()
    assert term.child.exitstatus == 1
    assert "Error: invalid remote address `ws://127.0.0.1:`; expected" in tail
    os.environ.pop("CODEX_TEST_UNSET_TOKEN", None)
    term = spawn(
        codex_bin,
        ["--remote", "ws://127.0.0.1:9", "--remote-auth-token-env", "CODEX_TEST_UNSET_TOKEN"],
        tmp_path,
    )
    tail = term.rest()
    term.child.close()
    assert term.child.exitstatus == 1
    assert "Error: environment variable `CODEX_TEST_UNSET_TOKEN` is not set" in tail


def test_tui_remote_server_killed_mid_turn_reconnects(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    """As 0.169: the TUI says it is reconnecting and tries again; a server that comes up at
    the same address with the same CODEX_HOME resumes the thread, the cut turn shows as
    interrupted and the next prompt is answered. Ctrl+C while reconnecting leaves (exit 0)."""
    model_server.add(
        slow(turn(message(" ".join(f"tick{i}" for i in range(300)))), 0.05),
        turn(message("Answered by the new server.")),
    )
    server = _start(servers, model_server, server_home, server_cwd, "ws://127.0.0.1:0")
    term = _tui(codex_bin, ["--remote", server.url], tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.child.send("stream\r")
    term.wait_for("tick3")
    server.kill()
    term.wait_for("Reconnecting to server…")
    again = _start(servers, model_server, server_home, server_cwd, server.url)
    assert again.url == server.url
    term.wait_for("Interrupted", timeout=30)
    term.child.send("next\r")
    term.wait_for("Answered by the new server.")

    again.kill()
    term.wait_for("Reconnecting to server…")
    tail = _quit(term)
    term.child.close()
    assert term.child.exitstatus == 0, tail[-1500:]
    assert "Traceback" not in tail


def test_tui_remote_two_clients_sdk_answers_and_the_prompt_closes(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    """One TUI and one SDK client on one thread: the SDK client approves first; the TUI's
    prompt closes and says who answered; both see the turn end."""
    model_server.add(
        turn(message("First turn.")),
        turn(_escalated("echo both > both.txt", "b1")),
        turn(message("Ran it for the other client.")),
    )
    server = _start(servers, model_server, server_home, server_cwd, "ws://127.0.0.1:0")
    term = _tui(codex_bin, ["--remote", server.url], tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.child.send("first\r")
    term.wait_for("First turn.")
    listed = RemoteClient(parse_remote(server.url, None), None)
    listed.initialize("test")
    thread_id = listed.call("thread/list", {})["data"][0]["id"]
    listed.close()

    sdk = WsClient(server.url, None)
    sdk.initialize()
    sdk.call("thread/resume", {"threadId": thread_id})
    term.child.send("run it\r")
    term.wait_for("Allow Codex to run this command?")
    ask = sdk.wait_for(lambda m: m.get("method") == "item/commandExecution/requestApproval")
    sdk.send({"id": ask["id"], "result": {"decision": "accept"}})
    term.wait_for("Another client approved codex to run echo both > both.txt")
    term.wait_for("Ran it for the other client.")
    assert "Allow Codex to run this command?" not in "\n".join(term.display.display)
    assert (server_cwd / "both.txt").read_text() == "both\n"
    sdk.notification("turn/completed")
    sdk.close()
    _quit(term)


def test_tui_remote_resume_picker_lists_the_servers_threads(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    model_server.add(turn(message("Stored on the server.")), turn(message("Picked and resumed.")))
    server = _start(servers, model_server, server_home, server_cwd, "ws://127.0.0.1:0")
    term = _tui(codex_bin, ["--remote", server.url], tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.child.send("a thread on the server\r")
    term.wait_for("Stored on the server.")
    _quit(term)

    term = _tui(codex_bin, ["--remote", server.url, "resume"], tmp_path)
    term.wait_for("Resume a previous session")
    term.wait_for("a thread on the server")
    term.child.send("\r")
    term.wait_for("Stored on the server.")
    term.child.send("and again\r")
    term.wait_for("Picked and resumed.")
    _quit(term)


def test_tui_remote_fork_copies_the_thread_on_the_server(
    codex_bin: Path,
    model_server: ModelServer,
    tmp_path: Path,
    server_home: Path,
    server_cwd: Path,
    servers: list[ServerProcess],
) -> None:
    model_server.add(turn(message("Before the fork.")), turn(message("In the fork.")))
    server = _start(servers, model_server, server_home, server_cwd, "ws://127.0.0.1:0")
    term = _tui(codex_bin, ["--remote", server.url], tmp_path)
    term.wait_for("Ask Codex to do anything")
    term.child.send("the original\r")
    term.wait_for("Before the fork.")
    term.child.send("/fork")
    time.sleep(0.3)
    term.child.send("\r")
    time.sleep(1.0)
    term.forget()
    term.child.send("in the copy\r")
    term.wait_for("In the fork.")
    tail = _quit(term)
    found = re.search(r"resume ([0-9a-f-]{36})", tail)
    assert found, tail[-1500:]
    client = RemoteClient(parse_remote(server.url, None), None)
    client.initialize("test")
    threads = client.call("thread/list", {})["data"]
    assert len(threads) == 2  # the original and its copy, both on the server

    def prompts(thread_id: str) -> list[str]:
        read = client.call("thread/read", {"threadId": thread_id, "includeTurns": True})
        return [
            part["text"]
            for turn_ in read["thread"]["turns"]
            for item in turn_["items"]
            if item["type"] == "userMessage"
            for part in item["content"]
        ]

    copy = found.group(1)  # the TUI left from the copy
    original = next(t["id"] for t in threads if t["id"] != copy)
    assert prompts(copy) == ["the original", "in the copy"]
    assert prompts(original) == ["the original"]
    client.close()
