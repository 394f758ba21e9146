"""`codex app-server --listen ws://… | unix://…` end to end: real subprocesses, real sockets.

What 0.169 prints and answers (banner, health paths, 401 reasons, startup refusals) was
recorded from codex-rust side by side in tests/fixtures/app_server_listen_0169.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.servers.conftest import Start
from tests.servers.rpc_client import CODEX, SchemaChecker
from tests.servers.ws_client import WsClient, run_turn, start_thread
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn, usage
from tests.support.steps import hang

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "app_server_listen_0169.json").read_text()
)
TOKEN = "secret-token-123"
SECRET = "s" * 40


def refusal(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """The HTTP status and body of a refused upgrade."""
    with pytest.raises(InvalidStatus) as caught:
        with connect(url, additional_headers=headers, open_timeout=10):
            pass
    response = caught.value.response
    return response.status_code, bytes(response.body or b"").decode()


def test_ws_capability_token_session(
    start_server: Start,
    model_server: ModelServer,
    workspace: Path,
    tmp_path: Path,
    checker: SchemaChecker,
) -> None:
    """Banner, health paths and 401s as 0.169; with the token: stream, approve, deny,
    interrupt, and resume on a new connection."""
    (tmp_path / "tok").write_text(TOKEN + "\n")
    server = start_server(
        "ws://127.0.0.1:0",
        "--ws-auth",
        "capability-token",
        "--ws-token-file",
        str(tmp_path / "tok"),
    )
    assert server.stderr == FIXTURE["banner_loopback"].format(port=server.port)
    http = f"http://127.0.0.1:{server.port}"
    for request, (status, body) in FIXTURE["http"].items():
        answer = httpx.get(http + request.split()[1], timeout=10)
        assert (answer.status_code, answer.text) == (status, body), request
    url = server.url
    bodies = FIXTURE["capability_token_401"]
    assert refusal(url) == (401, bodies["no header"])
    assert refusal(url, {"Authorization": "Bearer nope"}) == (401, bodies["wrong token"])
    assert refusal(url + f"/?token={TOKEN}") == (401, bodies["token in the query only"])
    assert refusal(url, {"Authorization": f"Basic {TOKEN}"}) == (401, bodies["Basic scheme"])

    model_server.add(
        turn(message("streamed answer"), usage=usage(input=5, output=2)),
        turn(shell_call(["bash", "-lc", "echo yes > approved.txt"], call_id="c1")),
        turn(message("ran it")),
        turn(shell_call(["bash", "-lc", "echo no > denied.txt"], call_id="c2")),
        turn(message("did not run")),
        hang(30),
    )
    client = WsClient(url, checker, token=TOKEN)
    # As 0.169: a text frame that is not a message and any binary frame get no answer.
    client.send_raw("not json")
    client.ws.send(json.dumps({"id": 0, "method": "initialize", "params": {}}).encode())
    assert client.quiet_for(0.5) == []
    thread_id = start_thread(client, cwd=str(workspace), approvalPolicy="untrusted")
    seen = run_turn(client, thread_id, "hello")
    deltas = [m["params"]["delta"] for m in seen if m.get("method") == "item/agentMessage/delta"]
    assert "".join(deltas) == "streamed answer"

    for decision, name in (("accept", "approved.txt"), ("decline", "denied.txt")):
        client.call(
            "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": name}]}
        )
        ask = client.wait_for(lambda m: m.get("method") == "item/commandExecution/requestApproval")
        client.send({"id": ask["id"], "result": {"decision": decision}})
        client.notification("turn/completed")
    assert (workspace / "approved.txt").read_text() == "yes\n"
    assert not (workspace / "denied.txt").exists()

    started = client.call(
        "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "wait"}]}
    )
    turn_id = started["result"]["turn"]["id"]
    client.notification("turn/started")
    client.call("turn/interrupt", {"threadId": thread_id, "turnId": turn_id})
    done = client.notification("turn/completed")
    assert done["params"]["turn"]["status"] == "interrupted"
    client.close()

    again = WsClient(url, checker, token=TOKEN)
    again.initialize()
    resumed = again.call("thread/resume", {"threadId": thread_id})["result"]
    assert resumed["thread"]["id"] == thread_id
    assert len(resumed["thread"]["turns"]) == 4
    again.close()
    server.terminate()
    assert server.wait_exit() == 0


def test_ws_signed_bearer_token(start_server: Start, tmp_path: Path) -> None:
    """HS256 JWTs: exp/nbf with 30 s of skew, iss and aud, reasons as 0.169's."""
    (tmp_path / "jwt.sec").write_text(SECRET + "\n")
    server = start_server(
        "ws://127.0.0.1:0",
        "--ws-auth",
        "signed-bearer-token",
        "--ws-shared-secret-file",
        str(tmp_path / "jwt.sec"),
        "--ws-issuer",
        "iss1",
        "--ws-audience",
        "aud1",
    )
    now = int(time.time())

    def token(key: str = SECRET, algorithm: str = "HS256", **claims: Any) -> dict[str, str]:
        payload = {"iss": "iss1", "aud": "aud1", "exp": now + 60, **claims}
        payload = {k: v for k, v in payload.items() if v is not None}
        return {"Authorization": f"Bearer {jwt.encode(payload, key, algorithm=algorithm)}"}

    bodies = FIXTURE["signed_bearer_401"]
    cases = {
        "wrong key": token(key="t" * 40),
        "no exp": token(exp=None),
        "HS512": token(algorithm="HS512", key=SECRET * 2),
        "expired beyond the 30 s skew": token(exp=now - 120),
        "nbf beyond the 30 s skew": token(nbf=now + 300),
        "wrong iss": token(iss="x"),
        "wrong aud": token(aud="x"),
    }
    for name, headers in cases.items():
        assert refusal(server.url, headers) == (401, bodies[name]), name
    for headers in (token(), token(exp=now - 10), token(aud=["x", "aud1"])):
        with connect(server.url, additional_headers=headers, open_timeout=10):
            pass


def test_startup_refusals(codex_home: Path, tmp_path: Path) -> None:
    """Bad --listen values and --ws-* flags: 0.169's one-line errors and exit codes."""
    (tmp_path / "tok").write_text(TOKEN)
    (tmp_path / "short.sec").write_text("short")
    env = {**os.environ, "CODEX_HOME": str(codex_home)}
    for args, (code, text) in FIXTURE["startup_errors"].items():
        done = subprocess.run(
            [str(CODEX), "app-server", *args.split()],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert (done.returncode, done.stderr.strip()) == (code, text.format(cwd=tmp_path)), args


def test_non_loopback_with_token_listens(start_server: Start, tmp_path: Path) -> None:
    """With auth, 0.0.0.0 is served, with 0.169's note in the banner."""
    (tmp_path / "tok").write_text(TOKEN)
    digest = hashlib.sha256(TOKEN.encode()).hexdigest()
    server = start_server(
        "ws://0.0.0.0:0", "--ws-auth", "capability-token", "--ws-token-sha256", digest
    )
    assert server.stderr == FIXTURE["banner_any"].format(port=server.port)
    local = f"ws://127.0.0.1:{server.port}"
    assert refusal(local)[0] == 401
    with connect(local, additional_headers={"Authorization": f"Bearer {TOKEN}"}):
        pass


def test_unix_socket(
    start_server: Start, model_server: ModelServer, tmp_path: Path, checker: SchemaChecker
) -> None:
    """`unix://PATH`: a symlink to a private socket in /tmp/codex-daemon-<uid>, the protocol
    over a websocket upgrade, a second server refused, everything removed at SIGTERM."""
    path = tmp_path / "x.sock"
    server = start_server(f"unix://{path}")
    deadline = time.monotonic() + 30
    while not path.is_symlink() and time.monotonic() < deadline:
        time.sleep(0.05)
    real = Path(os.readlink(path))
    assert (
        real
        == Path(f"/tmp/codex-daemon-{os.getuid()}") / hashlib.sha256(str(path).encode()).hexdigest()
    )
    assert stat.S_ISSOCK(real.stat().st_mode) and stat.S_IMODE(real.stat().st_mode) == 0o600
    assert stat.S_IMODE(real.parent.stat().st_mode) == 0o700

    model_server.add(turn(message("over unix")))
    client = WsClient("", checker, socket=path)
    thread_id = start_thread(client)
    seen = run_turn(client, thread_id, "hi")
    assert any(m.get("method") == "item/agentMessage/delta" for m in seen)

    second = start_server(f"unix://{path}", wait=False)
    assert second.wait_exit() == 1
    assert FIXTURE["unix"]["in use"].format(path=path) in second.stderr

    client.close()
    server.terminate()
    assert server.wait_exit() == 0
    assert not path.exists() and not path.is_symlink() and not real.exists()

    path.write_text("not a socket")
    third = start_server(f"unix://{path}", wait=False)
    assert third.wait_exit() == 1
    assert FIXTURE["unix"]["not a socket"].format(path=path) in third.stderr


def test_proxy_pipes_stdio_to_the_unix_socket(
    start_server: Start, codex_home: Path, tmp_path: Path, checker: SchemaChecker
) -> None:
    """`codex app-server proxy --sock PATH` is a byte pipe, as 0.169's (observed: a websocket
    upgrade written to its stdin is answered 101): a websocket client speaks through it."""
    import socket

    from websockets.sync.client import connect as ws_connect

    path = tmp_path / "p.sock"
    start_server(f"unix://{path}", wait=False)
    deadline = time.monotonic() + 30
    while not path.is_symlink() and time.monotonic() < deadline:
        time.sleep(0.05)
    ours, theirs = socket.socketpair()
    proxy = subprocess.Popen(
        [str(CODEX), "app-server", "proxy", "--sock", str(path)],
        stdin=theirs,
        stdout=theirs,
        env={**os.environ, "CODEX_HOME": str(codex_home)},
    )
    theirs.close()
    try:
        with ws_connect("ws://localhost/", sock=ours, open_timeout=30) as ws:
            ws.send(
                json.dumps(
                    {
                        "id": 1,
                        "method": "initialize",
                        "params": {"clientInfo": {"name": "t", "version": "1"}},
                    }
                )
            )
            answer = json.loads(ws.recv(timeout=30))
            assert answer["id"] == 1 and answer["result"]["codexHome"] == str(codex_home)
        assert proxy.wait(20) == 0
    finally:
        if proxy.poll() is None:
            proxy.kill()
            proxy.wait()

    missing = subprocess.run(
        [str(CODEX), "app-server", "proxy", "--sock", str(tmp_path / "none.sock")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "CODEX_HOME": str(codex_home)},
    )
    assert missing.returncode == 1
    assert missing.stderr.startswith(f"Error: failed to connect to socket at {tmp_path}/none.sock")
