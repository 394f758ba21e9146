"""The stdio transport of an MCP server: its child process, JSON-RPC lines both ways, its end.

The SDK's own transport ends a child by closing its stdin and waiting up to two seconds
before signalling it, and gives no handle on the process. A server busy in a tool call the
user interrupted often needs that long, so Ctrl+C in `codex exec` could not end at once.
This one does the same graceful sequence, except when asked to hurry: then the child's
whole process group is terminated right away (and killed if it lingers), so nothing the
server started is left behind either way.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import IO

import anyio
from anyio.abc import Process
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from anyio.streams.text import TextReceiveStream
from mcp import types
from mcp.client.stdio import StdioServerParameters, get_default_environment
from mcp.shared.message import SessionMessage

from codex_core.mcp.early import claim

EXIT_GRACE_SEC = 2.0
"""How long a server gets to exit on its own once its stdin is closed."""
TERM_GRACE_SEC = 2.0
"""How long it gets after SIGTERM before SIGKILL (a tenth of that when hurried)."""

ReadStream = MemoryObjectReceiveStream[SessionMessage | Exception]
WriteStream = MemoryObjectSendStream[SessionMessage]


@asynccontextmanager
async def stdio_transport(
    params: StdioServerParameters, errlog: IO[str], hurry: Callable[[], bool]
) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """Start the server in its own session; yield the SDK's read and write streams.

    On exit the server's stdin is closed; it gets `EXIT_GRACE_SEC` to end unless `hurry()`
    says the user is waiting, then its process group gets SIGTERM and, later, SIGKILL.
    """
    env = {**get_default_environment(), **(params.env or {})}
    argv = [params.command, *params.args]
    # A server `codex_core.mcp.early` started exactly so is adopted: it has been booting.
    process = claim(argv, env, params.cwd) or await anyio.open_process(
        argv,
        env=env,
        cwd=params.cwd,
        stderr=errlog,
        start_new_session=True,
    )
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    async with anyio.create_task_group() as tg, process:
        tg.start_soon(_read_lines, process, read_writer, params)
        tg.start_soon(_write_lines, process, write_reader, params)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await _end(process, hurry())
                for stream in (read_stream, write_stream, read_writer, write_reader):
                    await stream.aclose()


async def _read_lines(
    process: Process,
    out: MemoryObjectSendStream[SessionMessage | Exception],
    params: StdioServerParameters,
) -> None:
    assert process.stdout is not None
    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
        async with out:
            pending = ""
            chunks = TextReceiveStream(
                process.stdout, encoding=params.encoding, errors=params.encoding_error_handler
            )
            async for chunk in chunks:
                *lines, pending = (pending + chunk).split("\n")
                for line in lines:
                    try:
                        message = types.JSONRPCMessage.model_validate_json(line)
                    except Exception as err:  # noqa: BLE001 (the session reports it)
                        await out.send(err)
                        continue
                    await out.send(SessionMessage(message))


async def _write_lines(
    process: Process,
    messages: MemoryObjectReceiveStream[SessionMessage],
    params: StdioServerParameters,
) -> None:
    assert process.stdin is not None
    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
        async with messages:
            async for item in messages:
                line = item.message.model_dump_json(by_alias=True, exclude_none=True) + "\n"
                await process.stdin.send(
                    line.encode(params.encoding, errors=params.encoding_error_handler)
                )


async def _end(process: Process, hurry: bool) -> None:
    """Close stdin, let the server exit (briefly), then signal its whole process group."""
    if process.stdin is not None:
        with suppress(Exception):
            await process.stdin.aclose()
    if not hurry:
        with anyio.move_on_after(EXIT_GRACE_SEC):
            await process.wait()
        if process.returncode is not None:
            return
    _signal_group(process.pid, signal.SIGTERM)
    with anyio.move_on_after(TERM_GRACE_SEC / 10 if hurry else TERM_GRACE_SEC):
        await process.wait()
    _signal_group(process.pid, signal.SIGKILL)
    await process.wait()


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    # The child leads its own session, so its pid names the group of everything it started.
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
