"""Codex 0.169's own TUI attached to our app-server (`codex-rust --remote ws://…`): its start-up
asks `config/read` and `configRequirements/read` (it exits on an unknown method), then a
prompt is answered with the server's stream."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pexpect
import pyte

from tests.servers.ws_client import ServerProcess
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def test_rust_tui_attaches_to_our_app_server(rust_bin: str, tmp_path: Path) -> None:
    home, tui_home, workspace = (tmp_path / n for n in ("home", "tui_home", "ws"))
    for path in (home, tui_home, workspace):
        path.mkdir()
    with ModelServer() as model_server:
        model_server.add(turn(message("hello from the python server")))
        flags = [
            "--config" if a == "-c" else a
            for a in [*model_server.cli_flags(), "-c", 'model="gpt-5.1-codex"']
        ]
        server = ServerProcess(home, workspace, flags, "ws://127.0.0.1:0", [])
        env = {**os.environ, "CODEX_HOME": str(tui_home), "TERM": "xterm-256color"}
        child = pexpect.spawn(
            rust_bin,
            ["--remote", server.url],
            cwd=str(tmp_path),
            env=env,
            dimensions=(30, 100),
            encoding="utf-8",
        )
        screen = pyte.Screen(100, 30)
        stream = pyte.Stream(screen)

        def wait_for(text: str, timeout: float = 30) -> None:
            deadline = time.monotonic() + timeout
            while not any(text in line for line in screen.display):
                assert time.monotonic() < deadline, "\n".join(screen.display)
                try:
                    stream.feed(child.read_nonblocking(65536, timeout=0.3))
                except pexpect.TIMEOUT:
                    continue

        try:
            wait_for(str(workspace))  # the server's directory in its footer
            child.send("hi")
            time.sleep(0.5)
            child.send("\r")
            wait_for("hello from the python server")
            assert child.isalive()
        finally:
            child.terminate(force=True)
            server.kill()
