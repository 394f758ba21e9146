"""exec_command denied by the sandbox: re-run outside it, asking at most once (as `shell`).

Under `untrusted` the command was approved before it ran, so the re-run outside the sandbox
asks nothing more; under `on-failure` it ran without asking, so the denial asks once. Under
`on-request` and `never` the denial goes to the model as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.protocol import AskForApproval, ExecCommandBeginEvent
from codex_core.tools.shell import DENIAL_QUESTION
from tests.integration.session_harness import (
    Approver,
    Workspace,
    run_turn,
    shutdown,
    start_session,
    workspace,  # noqa: F401  (fixture)
)
from tests.support.sse import function_call, message, turn
from tests.unified_exec.support import SessionIdServer, tool_outputs


async def write_outside(
    ws: Workspace, codex_home: Path, policy: AskForApproval, approver: Approver
) -> tuple[Path, list[ExecCommandBeginEvent], str]:
    target = ws.outside / "written.txt"
    call = function_call("exec_command", {"cmd": f"echo out > {target}"}, call_id="c1")
    with SessionIdServer() as server:
        server.add(turn(call), turn(message("done")))
        session = await start_session(server, ws, codex_home, policy)
        events = await run_turn(session, "write outside", approver)
        await shutdown(session)
        output = tool_outputs(server.requests[-1].body)["c1"]
    return target, [e for e in events if isinstance(e, ExecCommandBeginEvent)], output


@pytest.mark.parametrize("policy", ["untrusted", "on-failure"])
async def test_unified_exec_sandbox_denial_reruns_outside_asking_once(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
    policy: AskForApproval,
) -> None:
    approver = Approver(default="approved")
    target, begins, output = await write_outside(workspace, codex_home, policy, approver)
    assert [r.call_id for r in approver.requests] == ["c1"]
    reason = approver.requests[0].reason
    assert (reason == DENIAL_QUESTION) == (policy == "on-failure")
    assert len(begins) == 2, "one run in the sandbox, one outside"
    assert target.read_text() == "out\n"
    assert "Process exited with code 0" in output


@pytest.mark.parametrize("policy", ["on-request", "never"])
async def test_unified_exec_sandbox_denial_goes_to_the_model_without_a_rerun(
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
    policy: AskForApproval,
) -> None:
    approver = Approver(default=None)
    target, begins, output = await write_outside(workspace, codex_home, policy, approver)
    assert approver.requests == [] and len(begins) == 1
    assert not target.exists()
    assert "Process exited with code 1" in output
    assert "read-only file system" in output.lower() or "permission denied" in output.lower()
