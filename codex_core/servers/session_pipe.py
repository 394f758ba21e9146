"""A Session in a process of its own, driven over pipes: ops in, events out.

The TUI runs its session here, not on a thread of its own process: parsing thousands of
streamed deltas a second held the interpreter lock, and every keystroke waited for it
(Python threads share one lock; processes share none). The parent starts this with
`python -I -c` (the working directory is never on `sys.path`), writes one start message
(a length-prefixed pickle: the config, the rollout to resume, the session source and the
log file name), then one JSON line per op. This writes JSON lines:

    {"t": "ready"}                      the session exists
    {"t": "failed", "message": "…"}     it could not be created (the process then exits)
    {"t": "ack", "n": 3, "id": "4"}     op number 3 was queued as submission "4"
    {"t": "events", "events": [...]}    events in order, runs of deltas merged

Deltas are gathered for a few milliseconds before a write, so a flood of them costs the
parent a few dozen lines a second, not thousands. End of input (the parent exited or was
killed) shuts the session down, which ends its commands, then the process exits. Standard
output carries only this protocol; anything printed by accident goes to standard error,
which the parent logs.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import pickle
import struct
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from codex_core.config import Config
from codex_core.protocol import OP, Event, ShutdownOp
from codex_core.protocol.deltas import merge_deltas, pump_events

if TYPE_CHECKING:
    from codex_core.session import Session

HEADER = struct.Struct(">I")
"""The start message's length prefix."""
GATHER_SECONDS = 0.008
"""Deltas are written at most this often (more are gathered meanwhile)."""
MAX_BATCH_EVENTS = 2000
SHUTDOWN_SECONDS = 10.0
"""After end of input, how long the session gets to shut down before the process exits."""


def encode_start(config: Config, resume_path: Path | None, source: str, log_name: str) -> bytes:
    """The start message the parent writes first."""
    body = pickle.dumps(
        {
            "config": config,
            "resume_path": resume_path,
            "source": source,
            "log_name": log_name,
        }
    )
    return HEADER.pack(len(body)) + body


def main() -> None:
    """Entry point in the child process: load the core, then wait for the start message
    (the parent spawns this early, so the loading overlaps its own)."""
    channel = os.dup(1)
    os.dup2(2, 1)  # a stray print must not break the protocol
    # What loads now lives as long as the process: collecting while it loads only walks it
    # again and again; frozen afterwards, later collections leave it alone.
    gc.disable()
    from codex_core.frontend.logfile import log_to_file
    from codex_core.session import Session

    gc.freeze()
    gc.enable()
    start = _read_start(sys.stdin.buffer)
    if start is None:
        return  # the parent left before it needed a session
    config: Config = start["config"]
    log_to_file(config.codex_home, start["log_name"])
    asyncio.run(_serve(Session, start, config, channel))


def _read_start(stdin: BinaryIO) -> dict[str, Any] | None:
    head = stdin.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    body = stdin.read(size)
    if len(body) < size:
        return None
    start: dict[str, Any] = pickle.loads(body)  # written by our own parent, never by a model
    return start


async def _serve(
    session_class: type[Session], start: dict[str, Any], config: Config, channel: int
) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 30)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = _Writer(channel)
    from codex_core.mcp.early import discard_unclaimed, start_early

    # Stdio MCP servers boot on the other core while the session loads the MCP SDK.
    await start_early(config.mcp_servers or {}, os.environ, str(config.cwd))
    try:
        session = await session_class.create(
            config, source=start["source"], resume_path=start["resume_path"]
        )
    except Exception as err:  # reported to the parent, which shows it and exits
        await discard_unclaimed()
        out.write({"t": "failed", "message": str(err) or err.__class__.__name__})
        return
    out.write({"t": "ready"})
    forward = asyncio.create_task(_forward(session.next_event, out.write))
    shutdown_sent = False
    while not forward.done():
        line = await _next_line(reader, forward)
        if line is None:
            break
        request = json.loads(line)
        op = OP.validate_python(request["op"])
        shutdown_sent = shutdown_sent or isinstance(op, ShutdownOp)
        out.write({"t": "ack", "n": request["n"], "id": await session.submit(op)})
    if not forward.done():
        if not shutdown_sent:
            await session.submit(ShutdownOp())
        try:
            await asyncio.wait_for(forward, SHUTDOWN_SECONDS)
        except TimeoutError:
            pass
    await discard_unclaimed()  # none, unless the session stopped before adopting them


async def _next_line(reader: asyncio.StreamReader, forward: asyncio.Task[None]) -> bytes | None:
    """The next op line; None at end of input or once the session has shut down."""
    read = asyncio.ensure_future(reader.readline())
    await asyncio.wait({read, forward}, return_when=asyncio.FIRST_COMPLETED)
    if not read.done():
        read.cancel()
        return None
    line = read.result()
    return line or None


async def _forward(
    next_event: Callable[[], Awaitable[Event]], write: Callable[[dict[str, Any]], None]
) -> None:
    """Write events in batches, runs of deltas merged, until `shutdown_complete`."""

    async def deliver(batch: list[Event]) -> None:
        merged = merge_deltas(batch)
        write({"t": "events", "events": [event.model_dump(mode="json") for event in merged]})

    await pump_events(next_event, deliver, GATHER_SECONDS, MAX_BATCH_EVENTS)


class _Writer:
    """JSON lines to the parent; once the parent is gone, writes are dropped."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.closed = False

    def write(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        data = memoryview(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        try:
            while data:  # blocking: a parent slow to read holds the session back, bounded
                data = data[os.write(self.fd, data) :]
        except OSError:  # the parent exited: the session still shuts down cleanly
            self.closed = True
