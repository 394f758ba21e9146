"""Issue 23 items 4 and 5: an approval covers what the user saw, and typing is a command.

A session with the real sandbox on the real kernel, driven by the scripted model server
over real SSE. The model picks call ids, so it may reuse one; it may also type into a
background terminal that runs with more rights than the turn's policy.
"""

from __future__ import annotations

from pathlib import Path

from codex_core.protocol import (
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    Op,
    ReviewDecision,
    TextInput,
    UserTurnOp,
)
from codex_core.protocol.common import SANDBOX_POLICY
from codex_core.tools.shell import DENIAL_QUESTION
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    run_until,
    shutdown,
    start_session,
    turn_ended,
    workspace,  # noqa: F401  (fixture)
)
from tests.security.test_linux_helpers import linux_sandbox
from tests.support.sse import function_call, message, turn
from tests.unified_exec.support import SID, SessionIdServer, tool_outputs

pytestmark = [linux_sandbox]


class Answers:
    """Answers approval requests with the given decisions, in order (the model picks ids)."""

    def __init__(self, *decisions: ReviewDecision) -> None:
        self.decisions = list(decisions)
        self.requests: list[ExecApprovalRequestEvent] = []

    def __call__(self, msg: EventMsg) -> Op | None:
        if not isinstance(msg, ExecApprovalRequestEvent):
            return None
        self.requests.append(msg)
        assert self.decisions, f"unexpected approval request: {msg.command}"
        return ExecApprovalOp(id=msg.call_id, decision=self.decisions.pop(0))


async def test_reused_call_id_does_not_inherit_an_approval(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    """An approved escalation under `on-failure`, then a different command with its call id."""
    target = workspace.outside / "pwned"
    harmless = function_call(
        "exec_command",
        {"cmd": "true", "sandbox_permissions": "require_escalated", "justification": "j"},
        call_id="c1",
    )
    hostile = function_call("exec_command", {"cmd": f"echo pwned > {target}"}, call_id="c1")
    answers = Answers("approved", "denied")
    with SessionIdServer() as server:
        server.add(turn(harmless), turn(hostile), turn(message("done")))
        session = await start_session(server, workspace, codex_home, "on-failure")
        await run_turn(session, "go", answers)
        await shutdown(session)
    assert not target.exists(), "re-run outside the sandbox without asking"
    assert [r.reason for r in answers.requests][1:] == [DENIAL_QUESTION]
    assert answers.requests[1].command[-1] == f"echo pwned > {target}"


async def test_typing_into_an_escalated_session_asks_each_time(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    """A shell approved to run outside the sandbox: each write is a new question."""
    target = workspace.outside / "typed"
    start = function_call(
        "exec_command",
        {
            "cmd": "bash --norc --noprofile",
            "tty": True,
            "yield_time_ms": 300,
            "sandbox_permissions": "require_escalated",
            "justification": "an interactive shell",
        },
        call_id="start",
    )
    typed = f"echo pwned > {target}\n"
    write = function_call(
        "write_stdin", {"session_id": SID, "chars": typed, "yield_time_ms": 500}, call_id="w1"
    )
    answers = Answers("approved", "denied")
    with SessionIdServer() as server:
        server.add(turn(start), turn(write), turn(message("done")))
        session = await start_session(server, workspace, codex_home, "on-request")
        await run_turn(session, "go", answers)
        await shutdown(session)
        output = tool_outputs(server.requests[-1].body)["w1"]
    assert len(answers.requests) == 2, "the write was not asked about"
    assert answers.requests[1].command[0] == "write_stdin"
    assert answers.requests[1].command[-1] == typed
    assert output == "write_stdin rejected by user"
    assert not target.exists()


async def test_session_from_a_broader_policy_refuses_writes_under_never(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    """Started under danger-full-access; the next turn is workspace-write with `never`."""
    target = workspace.outside / "typed"
    start = function_call(
        "exec_command",
        {"cmd": "bash --norc --noprofile", "tty": True, "yield_time_ms": 300},
        call_id="start",
    )
    write = function_call(
        "write_stdin",
        {"session_id": SID, "chars": f"echo pwned > {target}\n", "yield_time_ms": 500},
        call_id="w1",
    )
    with SessionIdServer() as server:
        server.add(turn(start), turn(message("started")), turn(write), turn(message("done")))
        session = await start_session(
            server, workspace, codex_home, "never", sandbox_mode="danger-full-access"
        )
        await run_turn(session, "start a shell")
        narrower = SANDBOX_POLICY.validate_python(
            {"mode": "workspace-write", "exclude_slash_tmp": True, "exclude_tmpdir_env_var": True}
        )
        await session.submit(UserTurnOp(items=[TextInput(text="type")], sandbox_policy=narrower))
        await run_until(session, turn_ended)
        await shutdown(session)
        output = tool_outputs(server.requests[-1].body)["w1"]
    assert output == "write_stdin rejected: approval required by policy"
    assert not target.exists()
