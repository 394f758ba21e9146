"""The session's process table: at most 64 live processes; room is made by closing an old one.

The 8 most recently used processes are never closed; among the others an exited one goes
first, else the least recently used; the call that made room gets a note naming what closed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

from codex_core.exec.pty_process import LiveProcess
from codex_core.protocol import EventMsg
from codex_core.protocol.common import ReadOnlyPolicy
from codex_core.stdin_approval import StartedRights
from codex_core.unified_exec.manager import (
    MAX_PROCESSES,
    PROTECTED_RECENT,
    ProcessManager,
    UnifiedExecProcess,
)

RIGHTS = StartedRights(unsandboxed=False, policy=ReadOnlyPolicy(), cwd=Path("/"))


class FakeProcess:
    """A process that runs until killed (or told it exited)."""

    def __init__(self) -> None:
        self.killed = False
        self._ended = asyncio.Event()

    def kill(self) -> None:
        self.killed = True
        self._ended.set()

    async def wait(self, drain_s: float) -> int:
        await self._ended.wait()
        return -9 if self.killed else 0


def started(manager: ProcessManager, n: int, events: list[EventMsg]) -> list[UnifiedExecProcess]:
    entries = []
    for i in range(n):
        entry = UnifiedExecProcess(
            session_id=1000 + i,
            process=cast(LiveProcess, FakeProcess()),
            call_id=f"c{i}",
            command=["sleep", str(i)],
            emit=events.append,
            rights=RIGHTS,
            last_used=float(i),  # started in order, each used once
        )
        assert manager.add(entry) is None
        entries.append(entry)
    return entries


def fake(entry: UnifiedExecProcess) -> FakeProcess:
    return cast(FakeProcess, entry.process)


def extra(i: int, events: list[EventMsg]) -> UnifiedExecProcess:
    return UnifiedExecProcess(
        session_id=5000 + i,
        process=cast(LiveProcess, FakeProcess()),
        call_id=f"x{i}",
        command=["cat"],
        emit=events.append,
        rights=RIGHTS,
        last_used=1000.0 + i,
    )


async def test_process_cap_closes_the_least_recently_used_with_a_note() -> None:
    events: list[EventMsg] = []
    manager = ProcessManager()
    entries = started(manager, MAX_PROCESSES, events)
    entries[0].last_used = 500.0  # the oldest was used lately: now among the protected 8
    note = manager.add(extra(0, events))
    assert note == "Closed session 1001 ('sleep 1') to stay within 64 open sessions."
    assert len(manager) == MAX_PROCESSES and manager.get(1001) is None
    assert fake(entries[1]).killed and not fake(entries[0]).killed
    await manager.terminate_all()


async def test_process_cap_closes_an_exited_process_first() -> None:
    events: list[EventMsg] = []
    manager = ProcessManager()
    entries = started(manager, MAX_PROCESSES, events)
    entries[40].exit_code = 0  # exited, not yet reported to the model
    note = manager.add(extra(0, events))
    assert note is not None and note.startswith("Closed session 1040 ('sleep 40')")
    assert manager.get(1040) is None and manager.get(1000) is not None
    await manager.terminate_all()


async def test_process_cap_never_closes_the_most_recently_used() -> None:
    events: list[EventMsg] = []
    manager = ProcessManager(max_processes=PROTECTED_RECENT)
    entries = started(manager, PROTECTED_RECENT, events)
    entries[3].exit_code = 0  # exited, but among the 8 most recently used
    assert manager.add(extra(0, events)) is None
    assert len(manager) == PROTECTED_RECENT + 1
    assert not any(fake(e).killed for e in entries)
    await manager.terminate_all()
    assert len(manager) == 0 and all(fake(e).killed for e in entries)
