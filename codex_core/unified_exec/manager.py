"""The session's table of live unified exec processes: ids, output buffers, cap, teardown."""

from __future__ import annotations

import asyncio
import codecs
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codex_core.exec.output import CappedText
from codex_core.frontend.commands import display_command
from codex_core.protocol import (
    BackgroundTerminal,
    EventMsg,
    ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent,
)

if TYPE_CHECKING:  # a session creates its manager before any command runs (issue 29)
    from codex_core.exec.pty_process import LiveProcess
    from codex_core.stdin_approval import StartedRights

log = logging.getLogger(__name__)

MAX_PROCESSES = 64
"""Live processes one session keeps; starting one more closes an old one."""
PROTECTED_RECENT = 8
"""The most recently used processes are never closed to make room."""
OUTPUT_BUFFER_CHARS = 1024 * 1024
"""Output buffered between two calls (head and tail kept beyond it)."""
AGGREGATED_CHARS = 1024 * 1024
"""Output kept for the command's end event."""
EXIT_DRAIN_S = 0.1


@dataclass
class UnifiedExecProcess:
    """One live command: its process, who started it, and output the model has not seen."""

    session_id: int
    process: LiveProcess
    call_id: str
    command: list[str]
    emit: Callable[[EventMsg], None]
    rights: StartedRights
    """Where it runs and what its sandbox grants; typing into it is run with these."""
    started: float = field(default_factory=time.monotonic)
    last_used: float = field(default_factory=time.monotonic)
    pending: CappedText = field(default_factory=lambda: CappedText(OUTPUT_BUFFER_CHARS))
    aggregated: CappedText = field(default_factory=lambda: CappedText(AGGREGATED_CHARS))
    stdin_approved: bool = False
    """The user let the model type into it for the rest of the session."""
    exit_code: int | None = None
    """Set once the process has exited and its last output was read."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    watcher: asyncio.Task[None] | None = None
    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")(errors="replace")
    )

    def feed(self, data: bytes, final: bool = False) -> None:
        """Take raw output: buffer it for the model and stream it to frontends."""
        text = self._decoder.decode(data, final=final)
        if not text:
            return
        self.pending.append(text)
        self.aggregated.append(text)
        self.changed.set()
        self.emit(ExecCommandOutputDeltaEvent(call_id=self.call_id, stream="stdout", chunk=text))

    def take_pending(self) -> str:
        """The output not yet returned to the model; the buffer starts over."""
        text = self.pending.text()
        self.pending = CappedText(OUTPUT_BUFFER_CHARS)
        return text

    def describe(self, now: float) -> BackgroundTerminal:
        """This process as `/ps` lists it (`now` is a monotonic time)."""
        lines = [line.strip() for line in self.aggregated.text().splitlines()]
        printed = [line for line in lines if line]
        return BackgroundTerminal(
            process_id=str(self.session_id),
            command=display_command(self.command),
            os_pid=self.process.pid,
            elapsed_ms=max(0, int((now - self.started) * 1000)),
            last_line=printed[-1] if printed else None,
        )

    async def watch(self) -> None:
        """Wait for the exit, then report the command's end (once, whoever is waiting)."""
        code = await self.process.wait(EXIT_DRAIN_S)
        self.feed(b"", final=True)
        self.exit_code = code
        self.changed.set()
        self.emit(
            ExecCommandEndEvent(
                call_id=self.call_id,
                stdout=self.aggregated.text(),
                aggregated_output=self.aggregated.text(),
                exit_code=code,
                duration_ms=int((time.monotonic() - self.started) * 1000),
                formatted_output=self.aggregated.text(),
                command=self.command,
            )
        )


class ProcessManager:
    """Live processes by session id, owned by the Session; kept across turns like Codex 0.169."""

    def __init__(self, max_processes: int = MAX_PROCESSES) -> None:
        """An empty table holding at most `max_processes` processes."""
        self.max_processes = max_processes
        self._processes: dict[int, UnifiedExecProcess] = {}
        self._random = random.Random()

    def __len__(self) -> int:
        return len(self._processes)

    def processes(self) -> list[UnifiedExecProcess]:
        """The live processes, oldest first."""
        return sorted(self._processes.values(), key=lambda p: p.started)

    def reserve_id(self) -> int:
        """A fresh session id (random, as the Codex CLI's, so stale ids rarely collide)."""
        while True:
            candidate = self._random.randrange(1000, 100_000)
            if candidate not in self._processes:
                return candidate

    def add(self, entry: UnifiedExecProcess) -> str | None:
        """Track `entry`; returns a note when an older process was closed to make room."""
        note = None
        if len(self._processes) >= self.max_processes:
            victim = self._victim()
            if victim is not None:
                self.terminate(victim.session_id)
                note = (
                    f"Closed session {victim.session_id} ({' '.join(victim.command)!r}) "
                    f"to stay within {self.max_processes} open sessions."
                )
        self._processes[entry.session_id] = entry
        entry.watcher = asyncio.get_running_loop().create_task(entry.watch())
        return note

    def _victim(self) -> UnifiedExecProcess | None:
        by_use = sorted(self._processes.values(), key=lambda p: p.last_used)
        protected = {p.session_id for p in by_use[-PROTECTED_RECENT:]}
        candidates = [p for p in by_use if p.session_id not in protected]
        exited = [p for p in candidates if p.exit_code is not None]
        pick = exited or candidates
        return pick[0] if pick else None

    def get(self, session_id: int) -> UnifiedExecProcess | None:
        """The live process with this id, if any."""
        return self._processes.get(session_id)

    def forget(self, session_id: int) -> None:
        """Drop an exited process whose end the model has been told about."""
        self._processes.pop(session_id, None)

    def terminate(self, session_id: int) -> bool:
        """Kill one process (and everything it started); False if the id is unknown."""
        entry = self._processes.pop(session_id, None)
        if entry is None:
            return False
        entry.process.kill()
        if entry.watcher is not None:
            entry.watcher.cancel()
        return True

    def stop(self, session_id: int) -> UnifiedExecProcess | None:
        """Kill one process at the user's request; unlike `terminate`, its end is still
        reported (an `exec_command_end` once it has exited). None if the id is unknown."""
        entry = self._processes.pop(session_id, None)
        if entry is not None:
            entry.process.kill()
        return entry

    async def terminate_all(self) -> None:
        """Kill every process: the session is ending and nothing may outlive it."""
        watchers = [e.watcher for e in self._processes.values() if e.watcher is not None]
        for session_id in list(self._processes):
            self.terminate(session_id)
        if watchers:
            await asyncio.gather(*watchers, return_exceptions=True)


async def collect(entry: UnifiedExecProcess, deadline: float) -> str:
    """Output gathered until `deadline` (monotonic), or sooner once the process has exited.

    New output never ends the wait early (a keystroke or a poll waits its whole yield
    time, as in the Codex CLI); only the exit does.
    """
    entry.last_used = time.monotonic()
    while entry.exit_code is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        entry.changed.clear()
        try:
            await asyncio.wait_for(entry.changed.wait(), remaining)
        except TimeoutError:
            break
    entry.last_used = time.monotonic()
    return entry.take_pending()
