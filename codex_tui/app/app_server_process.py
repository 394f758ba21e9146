"""The local TUI's app-server: a `codex app-server` child on stdio, as a `Connection`.

The TUI is an app-server client like any IDE; locally its server is a child process, so
parsing a streamed answer runs on the other CPU and the UI's interpreter lock stays free for
keystrokes. The child is spawned as early as the TUI knows it needs one (it loads the core
while Textual loads) and is told what to run by the requests that follow. Messages are JSON
lines. If the child dies, the connection ends with one sentence naming its exit; if this
process dies, the child sees end of input, shuts its threads down and exits.

Imports only the standard library, and asyncio and logging only when the connection is
used: the TUI calls `spawn_app_server` first thing, before anything heavy loads (asyncio
and logging: ~30 ms the child would start later).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import asyncio
    from collections.abc import AsyncIterator

BOOT = (
    "import sys; sys.path[:] = {path!r}; sys.modules.setdefault('httpx._main', None); "
    "from codex_core.module_bundle import install; install(); "
    "from codex_core.compile_cache import install; install(kind='app-server'); "
    "from codex_core.servers.app_server.local import main; sys.exit(main(sys.argv[1]))"
)
"""The child's program: this process's module path (`-I` leaves out the working directory
and PYTHON* variables), then the server on stdio."""
STREAM_LIMIT = 1 << 30
"""Longest line read from the child (a command's whole output can be large)."""
READ_CHUNK = 1 << 18
"""Most bytes taken from the child's output at once (every complete line in them is handled
as one batch)."""
SEND_SECONDS = 30.0
"""How long a message may wait for the child to take it (it reads its input at once)."""
EXIT_GRACE_SECONDS = 12.0
"""How long a child told to end (end of input) gets to shut its threads down before it is
killed (it gives each session 10 s)."""


class AppServerProcessError(Exception):
    """The app-server process could not be started."""


def spawn_app_server(setup: dict[str, Any]) -> subprocess.Popen[bytes]:
    """Start a `codex app-server` on stdio with the TUI's flags (`setup`: the `-c`
    overrides and the dedicated flags, see `codex_core.servers.app_server.local`).

    Raises:
        AppServerProcessError: The interpreter could not be started.
    """
    try:
        return subprocess.Popen(
            [
                sys.executable,
                "-I",  # (which ignores PYTHONDONTWRITEBYTECODE: -B carries it over)
                # No `site`: the path is this process's, set by BOOT, so the .pth files and
                # site-packages scan `site` would do (~11M instructions) are not needed.
                "-S",
                *(["-B"] if sys.dont_write_bytecode else []),
                "-c",
                BOOT.format(path=list(sys.path)),
                json.dumps(setup),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # terminal signals reach the UI, which decides
        )
    except OSError as err:
        raise AppServerProcessError(f"could not start the app-server process: {err}") from None


class StdioConnection:
    """A `Connection` over a child app-server's stdin and stdout."""

    def __init__(
        self, process: subprocess.Popen[bytes], log_path: str, already: bytes = b""
    ) -> None:
        """`already`: what was read from the child's stdout before (`early_turn`), read
        first."""
        import asyncio

        self.process = process
        self.log_path = log_path
        self._stdout = asyncio.StreamReader(limit=STREAM_LIMIT)
        if already:
            self._stdout.feed_data(already)
        self._stderr = asyncio.StreamReader()
        self._stdin: asyncio.StreamWriter | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        """Connect the pipes to this event loop."""
        import asyncio

        loop = asyncio.get_running_loop()
        process = self.process
        assert process.stdin and process.stdout and process.stderr
        for reader, pipe in ((self._stdout, process.stdout), (self._stderr, process.stderr)):
            await loop.connect_read_pipe(_protocol_for(reader), pipe)
        transport, flow = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, process.stdin
        )
        self._stdin = asyncio.StreamWriter(transport, flow, None, loop)
        self._tasks.append(asyncio.ensure_future(self._log_stderr()))

    async def send(self, text: str) -> None:
        import asyncio

        from codex_tui.app.app_server_connection import ConnectionGone

        if self._stdin is None or self._stdin.is_closing():
            raise ConnectionGone(self.gone())
        try:
            self._stdin.write(text.encode() + b"\n")
            await asyncio.wait_for(self._stdin.drain(), SEND_SECONDS)
        except (ConnectionError, OSError, TimeoutError):
            raise ConnectionGone(self.gone()) from None

    async def recv(self) -> str:
        from codex_tui.app.app_server_connection import ConnectionGone

        line = await self._stdout.readline()
        if not line:
            await self._reap()
            raise ConnectionGone(self.gone())
        return line.decode()

    async def batches(self) -> AsyncIterator[list[str]]:
        pending: list[bytes] = []
        while chunk := await self._stdout.read(READ_CHUNK):  # what is there, at least a byte
            *lines, rest = chunk.split(b"\n")
            if lines:
                lines[0] = b"".join([*pending, lines[0]])
                pending = []
                yield [line.decode() for line in lines if line.strip()]
            if rest:
                pending.append(rest)
        await self._reap()

    async def close(self) -> None:
        """End of input: the server shuts its threads down and exits (killed if it does not
        within the grace period)."""
        if self._stdin is not None and not self._stdin.is_closing():
            self._stdin.close()
        await self._reap()

    async def abort(self) -> None:
        """Kill the child (it sent garbage: it is not trusted on)."""
        if self.process.poll() is None:
            self.process.kill()
        await self._reap()

    def gone(self) -> str:
        code = self.process.returncode
        if code is None:
            ended = "stopped answering"
        elif code < 0:
            try:
                ended = f"was killed ({signal.Signals(-code).name})"
            except ValueError:
                ended = f"was killed (signal {-code})"
        else:
            ended = f"exited with code {code}"
        return f"the app-server process {ended}; see {self.log_path}"

    async def _log_stderr(self) -> None:
        import logging

        log = logging.getLogger(__name__)
        while line := await self._stderr.readline():
            log.warning("app-server: %s", line.decode(errors="replace").rstrip())

    async def _reap(self) -> None:
        import asyncio

        try:
            await asyncio.wait_for(asyncio.to_thread(self.process.wait), EXIT_GRACE_SECONDS)
        except TimeoutError:
            self.process.kill()
            await asyncio.to_thread(self.process.wait)


def _protocol_for(reader: asyncio.StreamReader) -> Any:
    import asyncio

    return lambda: asyncio.StreamReaderProtocol(reader)
