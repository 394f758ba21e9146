"""The stdio transport: JSON Lines in on stdin, out on stdout; logs go to stderr only."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from codex_core.config.flags import ConfigOverrides
from codex_core.servers.app_server.method_tables import SERVED
from codex_core.servers.app_server.server import AppServer
from codex_core.servers.app_server.warmup import start_warmup

MAX_LINE_BYTES = 64 * 1024 * 1024
"""A line may carry base64 images; longer ones are dropped like non-JSON lines."""


def write_stdout(message: dict[str, Any]) -> None:
    """Write one message as a line on fd 1, all of it (a pipe may take it in pieces)."""
    data = (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    view = memoryview(data)
    while view:
        written = os.write(1, view)
        view = view[written:]


async def serve_stdio(cli_overrides: list[str], flags: ConfigOverrides | None = None) -> int:
    """Serve one client on stdin/stdout until stdin closes (`flags`: the local TUI's)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE_BYTES)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    server = AppServer(cli_overrides, write_stdout, SERVED, flags=flags)
    start_warmup(cli_overrides, flags)
    try:
        while True:
            try:
                line = await reader.readline()
            except ValueError:  # longer than the limit: drop what was read, go on
                continue
            if not line:
                break
            if line.strip():
                await server.handle_line(line)
    finally:
        await server.close()
        await server.hub.close()  # stdio serves one client: its threads end with it
    return 0
