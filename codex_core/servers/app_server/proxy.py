"""`codex app-server proxy [--sock PATH]`: stdin/stdout bytes to and from the control socket.

As Codex 0.169's: a plain byte pipe (the client speaks the websocket protocol through it), so
`ssh HOST codex app-server proxy` reaches a server listening on `unix://` over SSH. The socket
defaults to `$CODEX_HOME/app-server-control/app-server-control.sock`. It ends when either side
closes.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

CHUNK = 64 * 1024


async def _copy_out(reader: asyncio.StreamReader) -> None:
    while data := await reader.read(CHUNK):
        view = memoryview(data)
        while view:
            view = view[os.write(1, view) :]


async def _copy_in(writer: asyncio.StreamWriter) -> None:
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader(limit=CHUNK)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    while data := await stdin.read(CHUNK):
        writer.write(data)
        await writer.drain()
    if writer.can_write_eof():
        writer.write_eof()


async def proxy(path: Path) -> int:
    """Copy bytes both ways until one side closes; 1 when the socket cannot be reached."""
    try:
        reader, writer = await asyncio.open_unix_connection(str(path.resolve()))
    except OSError as err:
        print(
            f"Error: failed to connect to socket at {path}: {err.strerror} (os error {err.errno})",
            file=sys.stderr,
        )
        return 1
    outbound = asyncio.get_running_loop().create_task(_copy_in(writer))
    try:
        await _copy_out(reader)
    except OSError:  # stdout closed
        pass
    finally:
        outbound.cancel()
        writer.close()
    return 0
