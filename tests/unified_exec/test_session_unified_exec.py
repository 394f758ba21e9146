"""Unified exec in a real Session: escalation approvals and interrupt semantics (as in 0.169)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from codex_core.protocol import (
    ExecApprovalRequestEvent,
    InterruptOp,
    TextInput,
    TurnAbortedEvent,
    UserInputOp,
)
from tests.integration.session_harness import (
    Approver,
    Workspace,
    run_turn,
    run_until,
    shutdown,
    start_session,
    workspace,  # noqa: F401  (fixture)
)
from tests.support.sse import function_call, message, turn
from tests.unified_exec.support import SID, SessionIdServer, tool_outputs


async def test_unified_exec_require_escalated_asks_and_runs_outside_the_sandbox(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    target = workspace.outside / "escalated.txt"
    args = {
        "cmd": f"touch {target}",
        "sandbox_permissions": "require_escalated",
        "justification": "Create a file outside the workspace?",
        "tty": True,
    }
    with SessionIdServer() as server:
        server.add(turn(function_call("exec_command", args, call_id="c1")), turn(message("ok")))
        session = await start_session(server, workspace, codex_home, "on-request")
        approver = Approver(default="approved")
        events = await run_turn(session, "go", approver)
        await shutdown(session)
        outputs = tool_outputs(server.requests[-1].body)
    [asked] = [e for e in events if isinstance(e, ExecApprovalRequestEvent)]
    assert asked.call_id == "c1" and asked.reason == "Create a file outside the workspace?"
    assert "Process exited with code 0" in outputs["c1"] and target.exists()


async def test_unified_exec_sessions_survive_a_turn_interrupt(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    with SessionIdServer() as server:
        server.add(
            turn(function_call("exec_command", {"cmd": "cat", "tty": True, "yield_time_ms": 300},
                               call_id="c1")),
            turn(function_call("write_stdin", {"session_id": SID, "chars": "", "yield_time_ms":
                                               60_000}, call_id="c2")),
            turn(function_call("write_stdin", {"session_id": SID, "chars": "still here\n"},
                               call_id="c3")),
            turn(message("ok")),
        )  # fmt: skip
        session = await start_session(server, workspace, codex_home, "never")
        await session.submit(UserInputOp(items=[TextInput(text="go")]))
        while len(server.requests) < 2:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # c2 is now waiting on its poll
        await session.submit(InterruptOp())
        events = await run_until(session, lambda m: isinstance(m, TurnAbortedEvent))
        assert any(isinstance(e, TurnAbortedEvent) for e in events)
        assert len(session.unified_exec) == 1  # the interrupt kept the command running
        await run_turn(session, "again")
        outputs = tool_outputs(server.requests[-1].body)
        await shutdown(session)
        assert len(session.unified_exec) == 0
    assert "still here" in outputs["c3"] and "Process running" in outputs["c3"]
