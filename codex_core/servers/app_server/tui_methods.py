"""What the TUI asks beyond turns: 0.169's `review/start` and `mcpServerStatus/list`, and the
codex extensions for what 0.169's schema has no method for (`/undo`, `/ps` and `/stop`; the
message history's ↑ recall is `history_methods`'). Every client may call them (DESIGN.md,
"codex extensions")."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from codex_core.lite import Model as BaseModel
from codex_core.protocol import BackgroundTerminal as CoreTerminal
from codex_core.protocol import (
    CleanBackgroundTerminalsOp,
    ListBackgroundTerminalsOp,
    ReviewOp,
    TerminateBackgroundTerminalOp,
)
from codex_core.servers.app_server import model_tui as t
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.mcp_status import mcp_server_status_list
from codex_core.servers.app_server.model_methods import ThreadIdParams
from codex_core.servers.app_server.threads import LoadedThread
from codex_core.servers.app_server.wire import ParamsModel, RpcError, invalid_request

EPILOGUE_WAIT_STEPS = 250
"""How long (× 20 ms) `thread/undo` waits for a turn that completed on the wire to finish
its epilogue (flushing the rollout) before it answers that a turn runs."""


# ------------------------------------------------------------------ 0.169's methods


async def review_start(server: ServerContext, params: t.ReviewStartParams) -> t.ReviewStartResponse:
    """Review the target as a turn of the thread (its items arrive as any turn's)."""
    from codex_core.lite import TypeAdapter
    from codex_core.protocol.review import ReviewTarget

    loaded = server.thread(params.threadId)
    if params.delivery == "detached":
        raise invalid_request("detached reviews are not supported; use `inline`")
    try:
        target: Any = TypeAdapter(ReviewTarget).validate_python(
            params.target.model_dump(exclude_none=True)
        )
    except ValueError as err:
        raise invalid_request(f"invalid review target: {err}") from None
    from codex_core.review import review_hint, review_prompt

    prompt = review_prompt(target, loaded.session.turn.cwd)
    sub_id = await loaded.session.submit(ReviewOp(target=target))
    review = (review_hint(target), prompt)
    turn = loaded.translator.begin_turn(sub_id, [], compact=False, review=review)
    for message in loaded.translator.review_entered(sub_id):
        server.after_response(message)
    return t.ReviewStartResponse(turn=turn, reviewThreadId=loaded.id)


# ------------------------------------------------------------------ codex extensions


async def thread_undo(server: ServerContext, params: ThreadIdParams) -> t.ThreadUndoResponse:
    """Restore the work tree of before the thread's last turn (never during a turn)."""
    from codex_core.git_snapshot import SnapshotError

    loaded = server.thread(params.threadId)
    session = loaded.session
    if not loaded.translator.turns:  # completed on the wire: its epilogue may still run
        for _ in range(EPILOGUE_WAIT_STEPS):
            if not session.turn_running():
                break
            await asyncio.sleep(0.02)
    if session.turn_running():
        raise RpcError("/undo is unavailable while a turn runs")
    try:
        return t.ThreadUndoResponse(message=await session.undo.undo())
    except SnapshotError as err:
        raise RpcError(f"undo failed: {err}") from None


def _terminal_op(loaded: LoadedThread, op: Any) -> Any:
    """The session's answer to a background-terminal op (its list or what it stopped)."""
    from codex_core.session.background_terminals import handle_background_terminal_op

    answers: list[Any] = []
    handle_background_terminal_op(loaded.session.unified_exec, op, answers.append)
    return answers[0]


def _terminal(entry: CoreTerminal) -> t.BackgroundTerminal:
    return t.BackgroundTerminal(
        processId=entry.process_id,
        command=entry.command,
        osPid=entry.os_pid,
        elapsedMs=entry.elapsed_ms,
        lastLine=entry.last_line,
    )


def _stopped(answer: Any) -> t.BackgroundTerminalsStoppedResponse:
    return t.BackgroundTerminalsStoppedResponse(
        stopped=[_terminal(e) for e in answer.stopped], unknownProcessId=answer.unknown_process_id
    )


async def terminals_list(
    server: ServerContext, params: ThreadIdParams
) -> t.BackgroundTerminalListResponse:
    """The thread's running `exec_command` processes (`/ps`)."""
    answer = _terminal_op(server.thread(params.threadId), ListBackgroundTerminalsOp())
    return t.BackgroundTerminalListResponse(data=[_terminal(e) for e in answer.terminals])


async def terminals_terminate(
    server: ServerContext, params: t.BackgroundTerminalTerminateParams
) -> t.BackgroundTerminalsStoppedResponse:
    """Kill one of them (`/stop ID`); it still reports its end as its item."""
    op = TerminateBackgroundTerminalOp(process_id=params.processId)
    return _stopped(_terminal_op(server.thread(params.threadId), op))


async def terminals_clean(
    server: ServerContext, params: ThreadIdParams
) -> t.BackgroundTerminalsStoppedResponse:
    """Kill all of them (`/stop`)."""
    return _stopped(_terminal_op(server.thread(params.threadId), CleanBackgroundTerminalsOp()))


Handler = Callable[[ServerContext, Any], Awaitable[BaseModel]]
TUI_METHODS: dict[str, tuple[type[ParamsModel], Handler]] = {
    "review/start": (t.ReviewStartParams, review_start),
    "mcpServerStatus/list": (t.ListMcpServerStatusParams, mcp_server_status_list),
    "thread/undo": (ThreadIdParams, thread_undo),
    "thread/backgroundTerminals/list": (ThreadIdParams, terminals_list),
    "thread/backgroundTerminals/terminate": (
        t.BackgroundTerminalTerminateParams,
        terminals_terminate,
    ),
    "thread/backgroundTerminals/clean": (ThreadIdParams, terminals_clean),
}
"""Served to every client; `review/start` and `mcpServerStatus/list` are 0.169's, the rest
are codex extensions (left out of the generated schema, as the queue methods are)."""
