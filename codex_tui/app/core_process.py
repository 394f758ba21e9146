"""The TUI's session in a child process (`codex_core.servers.session_pipe`), as a CoreClient.

Streaming answers are parsed there, on the other CPU, so the UI's interpreter lock is free
for keystrokes. Ops go down as JSON lines and are acknowledged with their submission id;
events come up in batches. If the child dies, waiting calls fail with one sentence and the
app shows it; if this process dies, the child sees end of input and shuts its session down.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import signal
import sys
from collections import deque
from pathlib import Path

from codex_core.config import Config
from codex_core.protocol import Event, Op
from codex_core.servers.session_pipe import encode_start
from codex_tui.app.formatting import shorten_path

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


class ProcessCore:
    """A CoreClient over a `session_pipe` child process."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: str) -> None:
        self.process = process
        self.log_path = log_path
        self._numbers = itertools.count(1)
        self._acks: dict[int, asyncio.Future[str]] = {}
        self._events: deque[Event] = deque()
        self._arrived = asyncio.Event()
        self._failure: str | None = None
        self._reader: asyncio.Task[None] | None = None
        self._stderr = asyncio.ensure_future(self._log_stderr())

    async def start(self) -> None:
        """Wait for the child's first line: the session exists, or why it does not.

        Raises:
            SessionProcessError: The session could not be created.
        """
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        message = json.loads(line) if line.strip() else {}
        if message.get("t") != "ready":
            await self._reap()
            reason = message.get("message") or self._exit_reason()
            raise SessionProcessError(str(reason))
        self._reader = asyncio.ensure_future(self._read())

    async def submit(self, op: Op) -> str:
        """Send an op; returns its submission id once the child queued it, or "" when the
        child is gone or does not answer in time (then `next_event` reports why)."""
        if self._failure is not None:
            log.warning("op %s not sent: %s", op.type, self._failure)
            return ""
        number = next(self._numbers)
        ack: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._acks[number] = ack
        line = json.dumps({"n": number, "op": op.model_dump(mode="json")}) + "\n"
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line.encode())
            await asyncio.wait_for(self.process.stdin.drain(), ACK_SECONDS)
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
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            if message["t"] == "events":
                self._events.extend(Event.model_validate(e) for e in message["events"])
                self._arrived.set()
            elif message["t"] == "ack":
                ack = self._acks.pop(message["n"], None)
                if ack is not None and not ack.done():
                    ack.set_result(message["id"])
        await self._reap()
        self._failure = self._exit_reason()
        for ack in self._acks.values():
            if not ack.done():
                ack.set_exception(SessionProcessError(self._failure))
        self._acks.clear()
        self._arrived.set()

    async def _log_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            log.warning("session process: %s", line.decode(errors="replace").rstrip())

    async def _reap(self) -> None:
        try:
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE_SECONDS)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

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


async def start_in_process(
    config: Config, resume_path: Path | None, *, source: str = "cli", log_name: str
) -> ProcessCore:
    """Start a child process holding a new (or resumed) Session.

    Raises:
        SessionProcessError: The process or the session could not start.
    """
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-I",
            "-c",
            BOOT.format(path=list(sys.path)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # terminal signals reach the UI, which decides
            limit=STREAM_LIMIT,
        )
    except OSError as err:
        raise SessionProcessError(f"could not start the session process: {err}") from None
    core = ProcessCore(process, shorten_path(str(config.codex_home / "log" / log_name)))
    assert process.stdin is not None
    process.stdin.write(encode_start(config, resume_path, source, log_name))
    await core.start()
    return core
