"""Fixtures for MCP tests: real SDK servers, config.toml entries, `codex exec` runs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.support.http_process import serve_until_closed
from tests.support.model_server import ModelServer
from tests.support.sse import Event, completed, created, output_item_done

SERVER = Path(__file__).with_name("server.py")


def stdio_entry(
    name: str,
    *extra: str,
    mode: str = "stdio",
    server_args: Sequence[str] = (),
    required: bool = True,
) -> str:
    """A `[mcp_servers.<name>]` table launching the test server over stdio.

    `extra` are more lines of the table; `server_args` follow the mode in `args`.
    `required` (the default) makes the first request wait for the server however long
    it takes to start on a loaded machine, instead of the ~1 s an optional server gets;
    tests of slow, failing or late servers pass `required=False`.
    """
    args = json.dumps([str(SERVER), mode, *server_args])
    lines = [f"[mcp_servers.{name}]", f"command = {json.dumps(sys.executable)}", f"args = {args}"]
    if required:
        lines.append("required = true")
    return "\n".join([*lines, *extra]) + "\n"


def write_config(home: Path, text: str) -> None:
    (home / "config.toml").write_text(text)


def namespace_call(
    namespace: str, name: str, arguments: dict[str, Any], call_id: str
) -> list[Event]:
    """One scripted response calling a namespaced (MCP) function."""
    item = {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "status": "completed",
        "name": name,
        "namespace": namespace,
        "arguments": json.dumps(arguments),
        "call_id": call_id,
    }
    return [created(), output_item_done(item), completed()]


def run_exec(
    codex_bin: Path, server: ModelServer, cwd: Path, *extra: str, wire: str = "responses"
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """`codex exec --json` against the scripted server; returns the process and its JSONL."""
    argv = [
        str(codex_bin),
        "exec",
        "--skip-git-repo-check",
        "--json",
        *server.cli_flags(wire),  # type: ignore[arg-type]
        *extra,
        "use the tools",
    ]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=90, stdin=subprocess.DEVNULL
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done, lines


def outputs_by_call(server: ModelServer) -> dict[str, Any]:
    """call_id → output of every function_call_output in the last request."""
    body = server.requests[-1].body
    return {
        i["call_id"]: i["output"]
        for i in body.get("input", [])
        if i.get("type") == "function_call_output"
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def http_server(mcp_http_server: str) -> str:
    """The test server over streamable HTTP on 127.0.0.1 (shared: `mcp_http_server`); its URL."""
    return mcp_http_server


def serve_http(*server_args: str) -> Iterator[str]:
    port = free_port()
    argv = [sys.executable, str(SERVER), "http", str(port), *server_args]
    yield from serve_until_closed(argv, f"http://127.0.0.1:{port}/mcp", wait_s=20)
