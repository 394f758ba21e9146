"""A stdio MCP server's stderr, line by line into codex's log (`[mcp <server>] line`)."""

from __future__ import annotations

import logging
import os
import threading
from typing import IO

stderr_log = logging.getLogger("codex_core.mcp.stderr")


def stderr_to_log(server: str) -> IO[str]:
    """A file whose lines end up in the log as `[mcp <server>] line`."""
    read_fd, write_fd = os.pipe()

    def pump() -> None:
        with os.fdopen(read_fd, "r", errors="replace") as lines:
            for line in lines:
                stderr_log.info("[mcp %s] %s", server, line.rstrip("\n"))

    threading.Thread(target=pump, name=f"mcp stderr {server}", daemon=True).start()
    return os.fdopen(write_fd, "w")
