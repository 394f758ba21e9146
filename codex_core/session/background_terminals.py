"""The `/ps` and `/stop` ops: list the session's running `exec_command` processes, kill them."""

from __future__ import annotations

import time
from collections.abc import Callable

from codex_core.protocol import (
    BackgroundTerminalsStoppedEvent,
    CleanBackgroundTerminalsOp,
    EventMsg,
    ListBackgroundTerminalsOp,
    ListBackgroundTerminalsResponseEvent,
    TerminateBackgroundTerminalOp,
)
from codex_core.unified_exec.manager import ProcessManager, UnifiedExecProcess

BackgroundTerminalOp = (
    ListBackgroundTerminalsOp | TerminateBackgroundTerminalOp | CleanBackgroundTerminalsOp
)


def handle_background_terminal_op(
    processes: ProcessManager, op: BackgroundTerminalOp, emit: Callable[[EventMsg], None]
) -> None:
    """Answer a list/terminate/clean op; killed processes still report their end as usual.

    Runs between turns or during one alike: a turn waiting on a killed process sees it exit.
    """
    now = time.monotonic()
    match op:
        case ListBackgroundTerminalsOp():
            listed = [entry.describe(now) for entry in _running(processes)]
            emit(ListBackgroundTerminalsResponseEvent(terminals=listed))
        case TerminateBackgroundTerminalOp():
            entry = _stop_one(processes, op.process_id)
            if entry is None:
                emit(BackgroundTerminalsStoppedEvent(unknown_process_id=op.process_id))
            else:
                emit(BackgroundTerminalsStoppedEvent(stopped=[entry.describe(now)]))
        case CleanBackgroundTerminalsOp():
            running = _running(processes)
            stopped = [entry.describe(now) for entry in running]
            for entry in running:
                processes.stop(entry.session_id)
            emit(BackgroundTerminalsStoppedEvent(stopped=stopped))


def _running(processes: ProcessManager) -> list[UnifiedExecProcess]:
    # An exited process stays in the table until the model is told; it is not running.
    return [entry for entry in processes.processes() if entry.exit_code is None]


def _stop_one(processes: ProcessManager, process_id: str) -> UnifiedExecProcess | None:
    if not process_id.strip().isdigit():
        return None
    entry = processes.get(int(process_id))
    if entry is None or entry.exit_code is not None:
        return None
    return processes.stop(entry.session_id)
