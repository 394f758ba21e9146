"""The websocket listener's plain-HTTP answers as codex-rust 0.169's (recorded side by side in
tests/fixtures/app_server_http_0169.json): health paths only for GET/HEAD, 405 for other
methods, and any request a browser sends (with an `Origin` header) refused with 403 — also
an upgrade carrying the right token — so no web page can drive the agent on 127.0.0.1."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.servers.conftest import Start

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "app_server_http_0169.json"
TOKEN = "secret-token-123"
UPGRADE = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def _ask(port: int, line: str, token: str | None) -> tuple[int, str]:
    """Send one request (`METHOD PATH [upgrade] [origin]`); its status and body."""
    method, path, *flags = line.split()
    headers = {"Host": f"127.0.0.1:{port}", "Content-Length": "0"}
    if "upgrade" in flags:
        headers.update(UPGRADE)
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
    if "origin" in flags:
        headers["Origin"] = "http://evil.example"
    raw = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall((raw + "\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        status = int(head.split()[1])
        length = next(
            (
                int(h.split(b":")[1])
                for h in head.split(b"\r\n")
                if h.lower().startswith(b"content-length")
            ),
            0,
        )
        if method != "HEAD":
            while len(body) < length:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                body += chunk
    return status, body.decode()


@pytest.mark.parametrize("auth", [False, True])
def test_plain_http_and_browsers_as_0169(start_server: Start, tmp_path: Path, auth: bool) -> None:
    flags: list[str] = []
    token = None
    if auth:
        (tmp_path / "tok").write_text(TOKEN)
        flags = ["--ws-auth", "capability-token", "--ws-token-file", str(tmp_path / "tok")]
        token = TOKEN
    server = start_server("ws://127.0.0.1:0", *flags)
    for line, status, body in json.loads(FIXTURE.read_text())["requests"]:
        assert _ask(server.port, line, token) == (status, body), line
