"""`/ps` and `/stop` in a real Session: list the running `exec_command` processes, kill them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from codex_core.protocol import (
    BackgroundTerminalsStoppedEvent,
    CleanBackgroundTerminalsOp,
    EventMsg,
    ExecCommandEndEvent,
    ListBackgroundTerminalsOp,
    ListBackgroundTerminalsResponseEvent,
    TerminateBackgroundTerminalOp,
)
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    run_until,
    shutdown,
    start_session,
    workspace,  # noqa: F401  (fixture)
)
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn


def processes_with(token: str) -> list[str]:
    """Pids whose command line contains `token` (every live process, by /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and token.encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            continue
    return found


async def gone(token: str, timeout: float = 5.0) -> bool:
    """Whether every process naming `token` exits within `timeout` seconds."""
    for _ in range(int(timeout / 0.05)):
        if not processes_with(token):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_background_terminals_list_then_terminate_one_then_clean_the_rest(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    first, second = (f"{random.randrange(10_000, 99_999)}.{n}" for n in (1, 2))
    started = [
        function_call(
            "exec_command",
            {"cmd": f"echo ready-{n}; sleep {token}", "yield_time_ms": 300},
            call_id=f"c{n}",
        )
        for n, token in ((1, first), (2, second))
    ]
    with ModelServer([turn(*started), turn(message("both running"))]) as server:
        session = await start_session(server, workspace, codex_home, "never")
        await run_turn(session, "start two sleepers")
        assert processes_with(first) and processes_with(second)

        await session.submit(ListBackgroundTerminalsOp())
        listed = (await run_until(session, _is(ListBackgroundTerminalsResponseEvent)))[-1]
        assert isinstance(listed, ListBackgroundTerminalsResponseEvent)
        by_command = {t.command: t for t in listed.terminals}
        assert set(by_command) == {f"echo ready-1; sleep {first}", f"echo ready-2; sleep {second}"}
        one = by_command[f"echo ready-1; sleep {first}"]
        assert one.last_line == "ready-1" and one.elapsed_ms >= 300 and one.os_pid is not None

        await session.submit(TerminateBackgroundTerminalOp(process_id=one.process_id))
        events = await run_until(session, _is(BackgroundTerminalsStoppedEvent))
        assert isinstance(events[-1], BackgroundTerminalsStoppedEvent)
        assert [t.process_id for t in events[-1].stopped] == [one.process_id]
        assert events[-1].unknown_process_id is None
        assert await gone(first) and processes_with(second)
        ended = await run_until(session, _is(ExecCommandEndEvent))
        assert isinstance(ended[-1], ExecCommandEndEvent) and ended[-1].call_id == "c1"

        await session.submit(TerminateBackgroundTerminalOp(process_id=one.process_id))
        events = await run_until(session, _is(BackgroundTerminalsStoppedEvent))
        assert events[-1] == BackgroundTerminalsStoppedEvent(unknown_process_id=one.process_id)

        await session.submit(CleanBackgroundTerminalsOp())
        events = await run_until(session, _is(BackgroundTerminalsStoppedEvent))
        assert isinstance(events[-1], BackgroundTerminalsStoppedEvent)
        assert [t.command for t in events[-1].stopped] == [f"echo ready-2; sleep {second}"]
        assert await gone(second)

        await session.submit(ListBackgroundTerminalsOp())
        events = await run_until(session, _is(ListBackgroundTerminalsResponseEvent))
        assert events[-1] == ListBackgroundTerminalsResponseEvent(terminals=[])
        await shutdown(session)


def _is(kind: type[Any]) -> Callable[[EventMsg], bool]:
    return lambda msg: isinstance(msg, kind)
