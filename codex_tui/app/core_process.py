"""The TUI's session in a child process (`codex_core.servers.session_pipe`), as a CoreClient.

Streaming answers are parsed there, on the other CPU, so the UI's interpreter lock is free
for keystrokes. The child is spawned as early as the TUI knows it will need one (it loads
the core while Textual loads), and told which session to run when the app asks. Ops go down
as JSON lines and are acknowledged with their submission id; events come up in batches. If
the child dies, waiting calls fail with one sentence and the app shows it; if this process
dies, the child sees end of input and shuts its session down.

Imports only the standard library at first: the TUI calls `spawn_session_process` before
loading anything heavy.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import signal
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codex_core.config import Config
    from codex_core.protocol import Event, Op

log = logging.getLogger(__name__)

BOOT = (
    "import sys; sys.path[:] = {path!r}; from codex_core.servers.session_pipe import main; main()"
)
"""The child's program: this process's module path (`-I` leaves out the working directory
and PYTHON* variables), then the server."""
STREAM_LIMIT = 1 << 30
"""Longest line read from the child (a batch of merged deltas can be large)."""
EXIT_GRACE_SECONDS = 5.0
ACK_SECONDS = 10.0
"""How long an op may wait for the child to queue it (normally well under a millisecond)."""


class SessionProcessError(Exception):
    """The session's process could not start or stopped."""


def spawn_session_process() -> subprocess.Popen[bytes]:
    """Start a child that loads the core and waits to be told which session to run.

    Raises:
        SessionProcessError: The interpreter could not be started.
    """
    try:
        return subprocess.Popen(
            [sys.executable, "-I", "-c", BOOT.format(path=list(sys.path))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # terminal signals reach the UI, which decides
        )
    except OSError as err:
        raise SessionProcessError(f"could not start the session process: {err}") from None


class ProcessCore:
    """A CoreClient over a `session_pipe` child process."""

    def __init__(self, process: subprocess.Popen[bytes], log_path: str) -> None:
        self.process = process
        self.log_path = log_path
        self._numbers = itertools.count(1)
        self._acks: dict[int, asyncio.Future[str]] = {}
        self._events: deque[Event] = deque()
        self._arrived = asyncio.Event()
        self._failure: str | None = None
        self._stdout = asyncio.StreamReader(limit=STREAM_LIMIT)
        self._stderr = asyncio.StreamReader()
        self._stdin: asyncio.StreamWriter | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, message: bytes) -> None:
        """Send the start message; wait for the child's first line: the session exists, or
        why it does not.

        Raises:
            SessionProcessError: The session could not be created.
        """
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
        try:
            self._stdin.write(message)
            await self._stdin.drain()
        except (ConnectionError, OSError):
            pass  # the child is gone; its first line (none) says so
        line = await self._stdout.readline()
        reply = json.loads(line) if line.strip() else {}
        if reply.get("t") != "ready":
            await self._reap()
            raise SessionProcessError(str(reply.get("message") or self._exit_reason()))
        self._tasks.append(asyncio.ensure_future(self._read()))

    async def submit(self, op: Op) -> str:
        """Send an op; returns its submission id once the child queued it, or "" when the
        child is gone or does not answer in time (then `next_event` reports why)."""
        if self._failure is not None or self._stdin is None:
            log.warning("op %s not sent: %s", op.type, self._failure)
            return ""
        number = next(self._numbers)
        ack: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._acks[number] = ack
        line = json.dumps({"n": number, "op": op.model_dump(mode="json")}) + "\n"
        try:
            self._stdin.write(line.encode())
            await asyncio.wait_for(self._stdin.drain(), ACK_SECONDS)
            return await asyncio.wait_for(ack, ACK_SECONDS)
        except (ConnectionError, OSError, TimeoutError, SessionProcessError) as err:
            log.warning("op %s not acknowledged: %s", op.type, err or "timed out")
            return ""
        finally:
            self._acks.pop(number, None)

    async def next_event(self) -> Event:
        """The next event from the child.

        Raises:
            SessionProcessError: The child stopped before shutting its session down.
        """
        while not self._events:
            if self._failure is not None:
                raise SessionProcessError(self._failure)
            self._arrived.clear()
            await self._arrived.wait()
        return self._events.popleft()

    async def _read(self) -> None:
        """Take the child's lines until it ends; then every waiting call learns why."""
        try:
            while line := await self._stdout.readline():
                self._take(line)
        except Exception as err:  # a line cut short or garbled: the child is not trusted on
            log.warning("session process: unreadable output: %s", err)
            self.process.kill()
        if self._stdin is not None:
            self._stdin.close()
        await self._reap()
        self._failure = self._exit_reason()
        for ack in self._acks.values():
            if not ack.done():
                ack.set_exception(SessionProcessError(self._failure))
        self._arrived.set()

    def _take(self, line: bytes) -> None:
        from codex_core.protocol import Event

        message = json.loads(line)
        if message["t"] == "events":
            self._events.extend(Event.model_validate(e) for e in message["events"])
            self._arrived.set()
        elif message["t"] == "ack":
            ack = self._acks.get(message["n"])
            if ack is not None and not ack.done():
                ack.set_result(message["id"])

    async def _log_stderr(self) -> None:
        while line := await self._stderr.readline():
            log.warning("session process: %s", line.decode(errors="replace").rstrip())

    async def _reap(self) -> None:
        try:
            await asyncio.wait_for(asyncio.to_thread(self.process.wait), EXIT_GRACE_SECONDS)
        except TimeoutError:
            self.process.kill()
            await asyncio.to_thread(self.process.wait)

    def _exit_reason(self) -> str:
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
        return f"the session process {ended}; see {self.log_path}"


def _protocol_for(reader: asyncio.StreamReader) -> Callable[[], asyncio.StreamReaderProtocol]:
    return lambda: asyncio.StreamReaderProtocol(reader)


async def start_in_process(
    config: Config,
    resume_path: Path | None,
    *,
    source: str = "cli",
    log_name: str,
    process: subprocess.Popen[bytes] | None = None,
) -> ProcessCore:
    """Run a new (or resumed) Session in `process` (from `spawn_session_process`, and not
    yet used), or in a child started now.

    Raises:
        SessionProcessError: The process or the session could not start.
    """
    from codex_core.servers.session_pipe import encode_start
    from codex_tui.app.formatting import shorten_path

    if process is None or process.poll() is not None:
        process = spawn_session_process()
    core = ProcessCore(process, shorten_path(str(config.codex_home / "log" / log_name)))
    await core.start(encode_start(config, resume_path, source, log_name))
    return core
