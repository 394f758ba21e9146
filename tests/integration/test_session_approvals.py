"""Approval policies through a real Session, the real sandbox and the scripted model server.

Each case scripts model calls, answers approval requests through ops, and checks what a user
would notice: which commands really ran (files created or not), which requests were raised,
what the model was told, and the decisions recorded in the rollout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from codex_core.exec.sandbox import linux_sandbox_problem
from codex_core.protocol import (
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    InterruptOp,
    Op,
    PatchApplyBeginEvent,
    ReviewDecision,
    TaskCompleteEvent,
    TurnAbortedEvent,
)
from codex_core.protocol.common import AskForApproval
from codex_core.tools.shell import DENIAL_QUESTION
from tests.integration.session_harness import (
    Approver,
    Workspace,
    event_types,
    rollout_event_payloads,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import FunctionCallOut, Wire, apply_patch_call, message, shell_call, turn

__all__ = ["workspace"]  # the fixture, imported for pytest

pytestmark = pytest.mark.skipif(
    linux_sandbox_problem() is not None, reason="needs the Linux sandbox (Landlock and seccomp)"
)

Kind = Literal["safe", "unsafe", "escalated", "patch"]
JUSTIFICATION = "the build output lives outside the workspace"


@dataclass(frozen=True)
class Call:
    """One scripted model call and the file it would create."""

    call_id: str
    kind: Kind
    item: FunctionCallOut
    creates: Path | None


def sandbox_refused(text: str) -> bool:
    """Whether `text` holds the error of a write the sandbox refused (Landlock or a bind)."""
    lowered = text.lower()
    return "permission denied" in lowered or "read-only file system" in lowered


def matrix_calls(ws: Workspace) -> list[Call]:
    """Two safe commands, an unsafe one, an escalated one and a patch outside the roots."""
    escalated = ws.outside / "escalated.txt"
    patched = ws.outside / "patched.txt"
    return [
        Call("safe_argv", "safe", shell_call(["ls"], "safe_argv"), None),
        Call("safe_bash", "safe", shell_call(["bash", "-lc", "ls"], "safe_bash"), None),
        Call(
            "unsafe",
            "unsafe",
            shell_call(["bash", "-lc", "echo x > created_unsafe.txt"], "unsafe"),
            ws.root / "created_unsafe.txt",
        ),
        Call(
            "escalated",
            "escalated",
            shell_call(
                ["bash", "-lc", f"echo y > {escalated}"],
                "escalated",
                with_escalated_permissions=True,
                justification=JUSTIFICATION,
            ),
            escalated,
        ),
        Call(
            "patch",
            "patch",
            apply_patch_call(
                f"*** Begin Patch\n*** Add File: {patched}\n+z\n*** End Patch", "patch"
            ),
            patched,
        ),
    ]


# What each policy asks about, and what it refuses without asking (workspace-write).
ASKS: dict[AskForApproval, set[Kind]] = {
    "untrusted": {"unsafe", "escalated", "patch"},
    "on-failure": {"escalated", "patch"},
    "on-request": {"escalated", "patch"},
    "never": set(),
}
REFUSES: dict[AskForApproval, set[Kind]] = {
    "untrusted": set(),
    "on-failure": set(),
    "on-request": set(),
    "never": {"escalated", "patch"},
}


def exec_exit_code(output: str) -> int:
    """The exit code in a shell tool output."""
    return int(json.loads(output)["metadata"]["exit_code"])


@pytest.mark.parametrize("decision", ["approved", "denied"])
@pytest.mark.parametrize("policy", ["untrusted", "on-failure", "on-request", "never"])
async def test_session_approvals_policy_matrix(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    policy: AskForApproval,
    decision: ReviewDecision,
) -> None:
    (workspace.root / "README.md").write_text("read me\n")
    calls = matrix_calls(workspace)
    model_server.add(turn(*(c.item for c in calls)), turn(message("All done.")))
    session = await start_session(model_server, workspace, codex_home, policy)
    approver = Approver(default=decision)

    events = await run_turn(session, "do the four things", approver)
    rollout = session.rollout_path
    await shutdown(session)

    asked = [c for c in calls if c.kind in ASKS[policy]]
    assert approver.asked == [c.call_id for c in asked]
    outputs = tool_outputs(model_server)
    ran = {m.call_id for m in events if isinstance(m, ExecCommandBeginEvent)}
    ran |= {m.call_id for m in events if isinstance(m, PatchApplyBeginEvent)}
    for call in calls:
        expect_run = call.kind not in REFUSES[policy] and (
            call.kind not in ASKS[policy] or decision == "approved"
        )
        assert (call.call_id in ran) == expect_run, call.call_id
        if call.creates is not None:
            assert call.creates.exists() == expect_run, call.call_id
        output = outputs[call.call_id]
        if expect_run and call.kind == "patch":
            assert output.startswith("Success. Updated the following files:"), output
        elif expect_run:
            assert exec_exit_code(output) == 0, output
        elif call.kind in REFUSES[policy]:
            prefix = "patch rejected: " if call.kind == "patch" else "exec command rejected: "
            assert output.startswith(prefix) and "`never`" in output, output
        else:
            expected = (
                "patch rejected by user"
                if call.kind == "patch"
                else "exec command rejected by user"
            )
            assert output == expected
    assert "README.md" in json.loads(outputs["safe_argv"])["output"]
    assert "README.md" in json.loads(outputs["safe_bash"])["output"]
    for call in asked:  # request, then the recorded decision, then (if approved) the run
        own = [m.type for m in events if getattr(m, "call_id", None) == call.call_id]
        started = "patch_apply_begin" if call.kind == "patch" else "exec_command_begin"
        request = (
            "apply_patch_approval_request" if call.kind == "patch" else "exec_approval_request"
        )
        ran_part = [started] if decision == "approved" else []
        assert [t for t in own if t in (request, "approval_decision", started)] == [
            request,
            "approval_decision",
            *ran_part,
        ]
    escalation = [r for r in approver.requests if r.call_id == "escalated"]
    if escalation:
        assert isinstance(escalation[0], ExecApprovalRequestEvent)
        assert escalation[0].reason == JUSTIFICATION
    assert isinstance(events[-1], TaskCompleteEvent)
    assert events[-1].last_agent_message == "All done."
    recorded = [p for p in rollout_event_payloads(rollout) if p["type"] == "approval_decision"]
    assert [(p["call_id"], p["kind"], p["decision"]) for p in recorded] == [
        (c.call_id, "patch" if c.kind == "patch" else "exec", decision) for c in asked
    ]


async def test_session_approvals_approved_for_session_remembers_exact_argv(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    append_one = ["bash", "-lc", "echo 1 >> counter.txt"]
    append_two = ["bash", "-lc", "echo 2 >> counter.txt"]
    model_server.add(
        turn(shell_call(append_one, "first")),
        turn(shell_call(append_one, "same_again")),
        turn(shell_call(append_two, "different")),
        turn(message("Counted.")),
    )
    session = await start_session(model_server, workspace, codex_home, "untrusted")
    approver = Approver(
        default=None, by_call={"first": "approved_for_session", "different": "approved"}
    )

    events = await run_turn(session, "count", approver)
    model_server.add(turn(shell_call(append_one, "next_turn")), turn(message("Again.")))
    events += await run_turn(session, "count again", approver)
    await shutdown(session)

    assert approver.asked == ["first", "different"]
    assert (workspace.root / "counter.txt").read_text() == "1\n1\n2\n1\n"
    assert event_types(events, "task_complete") == ["task_complete", "task_complete"]


@pytest.mark.parametrize("wire_api", ["responses", "chat"])
async def test_session_approvals_denied_tells_model_and_turn_continues(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, wire_api: Wire
) -> None:
    target = workspace.outside / "denied.txt"
    model_server.add(
        turn(
            shell_call(
                ["bash", "-lc", f"echo no > {target}"],
                "escalated",
                with_escalated_permissions=True,
                justification=JUSTIFICATION,
            )
        ),
        turn(shell_call(["bash", "-lc", "echo fallback > fallback.txt"], "fallback")),
        turn(message("Wrote a fallback instead.")),
    )
    session = await start_session(
        model_server, workspace, codex_home, "on-request", wire_api=wire_api
    )
    approver = Approver(default="denied")

    events = await run_turn(session, "write it", approver)
    await shutdown(session)

    assert approver.asked == ["escalated"]
    assert not target.exists()
    assert (workspace.root / "fallback.txt").read_text() == "fallback\n"
    assert tool_outputs(model_server)["escalated"] == "exec command rejected by user"
    assert len(model_server.requests) == 3
    assert isinstance(events[-1], TaskCompleteEvent)
    assert events[-1].last_agent_message == "Wrote a fallback instead."


@pytest.mark.parametrize("asking_call", ["escalated", "patch"])
async def test_session_approvals_abort_interrupts_turn_and_keeps_calls_paired(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, asking_call: str
) -> None:
    outside = workspace.outside / "aborted.txt"
    first = (
        shell_call(
            ["bash", "-lc", f"echo no > {outside}"],
            "escalated",
            with_escalated_permissions=True,
            justification=JUSTIFICATION,
        )
        if asking_call == "escalated"
        else apply_patch_call(
            f"*** Begin Patch\n*** Add File: {outside}\n+no\n*** End Patch", "patch"
        )
    )
    later = shell_call(["bash", "-lc", "echo later > later.txt"], "later")
    model_server.add(turn(first, later))
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default="abort")

    aborted = await run_turn(session, "try it", approver)
    model_server.add(turn(message("Stopped as asked.")))
    resumed = await run_turn(session, "never mind", Approver(default=None))
    rollout = session.rollout_path
    await shutdown(session)

    assert approver.asked == [asking_call]
    assert isinstance(aborted[-1], TurnAbortedEvent) and aborted[-1].reason == "interrupted"
    assert "task_complete" not in event_types(aborted)
    assert "exec_command_begin" not in event_types(aborted)
    assert not outside.exists() and not (workspace.root / "later.txt").exists()
    second_request = model_server.bodies[1]["input"]
    outputs = {
        i["call_id"]: i["output"] for i in second_request if i["type"] == "function_call_output"
    }
    assert outputs == {asking_call: "aborted", "later": "aborted"}
    assert isinstance(resumed[-1], TaskCompleteEvent)
    recorded = [
        p
        for p in rollout_event_payloads(rollout)
        if p["type"] in ("approval_decision", "turn_aborted")
    ]
    assert [p["type"] for p in recorded] == ["approval_decision", "turn_aborted"]
    assert recorded[0]["decision"] == "abort"


async def test_session_approvals_interrupt_while_waiting_aborts_turn(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "echo x > waited.txt"], "waiting")),
    )
    session = await start_session(model_server, workspace, codex_home, "untrusted")
    requests: list[EventMsg] = []

    def interrupt(msg: EventMsg) -> Op | None:
        if isinstance(msg, ExecApprovalRequestEvent):
            requests.append(msg)
            return InterruptOp()
        return None

    aborted = await run_turn(session, "go", interrupt)
    model_server.add(turn(message("Okay.")))
    resumed = await run_turn(session, "stop", Approver(default=None))
    await shutdown(session)

    assert len(requests) == 1
    assert isinstance(aborted[-1], TurnAbortedEvent)
    assert not (workspace.root / "waited.txt").exists()
    assert tool_outputs(model_server) == {"waiting": "aborted"}
    assert isinstance(resumed[-1], TaskCompleteEvent)


@pytest.mark.parametrize("decision", ["approved", "denied"])
async def test_session_approvals_on_failure_offers_unsandboxed_rerun_after_denial(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, decision: ReviewDecision
) -> None:
    target = workspace.outside / "sandboxed.txt"
    model_server.add(
        turn(shell_call(["bash", "-lc", f"echo out > {target}"], "write_out")),
        turn(message("Finished.")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-failure")
    approver = Approver(default=decision)

    events = await run_turn(session, "write outside", approver)
    rollout = session.rollout_path
    await shutdown(session)

    assert approver.asked == ["write_out"]
    request = approver.requests[0]
    assert isinstance(request, ExecApprovalRequestEvent) and request.reason == DENIAL_QUESTION
    ends = [m for m in events if isinstance(m, ExecCommandEndEvent)]
    output = tool_outputs(model_server)["write_out"]
    assert ends[0].exit_code != 0 and sandbox_refused(ends[0].aggregated_output)
    if decision == "approved":
        assert event_types(
            events, "exec_command_begin", "exec_command_end", "exec_approval_request"
        ) == [
            "exec_command_begin",
            "exec_command_end",
            "exec_approval_request",
            "exec_command_begin",
            "exec_command_end",
        ]
        assert target.read_text() == "out\n"
        assert exec_exit_code(output) == 0
    else:
        assert len(ends) == 1
        assert not target.exists()
        assert exec_exit_code(output) != 0 and sandbox_refused(output)
    decisions = [
        p["decision"] for p in rollout_event_payloads(rollout) if p["type"] == "approval_decision"
    ]
    assert decisions == [decision]


@pytest.mark.parametrize("policy", ["on-request", "never"])
async def test_session_approvals_sandbox_denial_goes_to_model_without_asking(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, policy: AskForApproval
) -> None:
    target = workspace.outside / "sandboxed.txt"
    model_server.add(
        turn(shell_call(["bash", "-lc", f"echo out > {target}"], "write_out")),
        turn(message("It was blocked.")),
    )
    session = await start_session(model_server, workspace, codex_home, policy)
    approver = Approver(default=None)

    events = await run_turn(session, "write outside", approver)
    await shutdown(session)

    assert approver.asked == []
    assert not target.exists()
    assert event_types(events, "exec_command_begin", "exec_command_end") == [
        "exec_command_begin",
        "exec_command_end",
    ]
    output = tool_outputs(model_server)["write_out"]
    assert exec_exit_code(output) != 0
    assert sandbox_refused(json.loads(output)["output"])
    assert isinstance(events[-1], TaskCompleteEvent)


async def test_session_approvals_remembered_prefix_applies_in_the_same_turn(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "touch one.txt"], "first")),
        turn(shell_call(["bash", "-lc", "touch two.txt"], "same_prefix")),
        turn(message("Touched.")),
    )
    session = await start_session(model_server, workspace, codex_home, "untrusted")
    asked: list[ExecApprovalRequestEvent] = []

    def remember(msg: EventMsg) -> Op | None:
        if not isinstance(msg, ExecApprovalRequestEvent):
            return None
        asked.append(msg)
        return ExecApprovalOp(
            id=msg.call_id, decision="approved", remember_prefix=msg.suggested_prefix
        )

    await run_turn(session, "touch files", remember)
    await shutdown(session)

    assert [(r.call_id, r.suggested_prefix) for r in asked] == [("first", ["touch"])]
    assert (workspace.root / "two.txt").exists()


async def test_session_approvals_approval_keeps_the_sandbox_and_covers_the_retry(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    # As in the Codex CLI: approving an (unescalated) command skips the prompt, not the
    # sandbox. It runs sandboxed first; the approval then covers one re-run outside after
    # the sandbox refuses, without a second question. A command approved for the session
    # likewise runs sandboxed first the next time, and is not asked about again.
    inside = workspace.root / "inside.txt"
    target = workspace.outside / "approved.txt"
    model_server.add(
        turn(shell_call(["bash", "-lc", f"echo in > {inside}"], "write_in")),
        turn(shell_call(["bash", "-lc", f"echo out >> {target}"], "write_out")),
        turn(shell_call(["bash", "-lc", f"echo out >> {target}"], "write_out_again")),
        turn(message("Finished.")),
    )
    session = await start_session(model_server, workspace, codex_home, "untrusted")
    approver = Approver(default="approved", by_call={"write_out": "approved_for_session"})

    events = await run_turn(session, "write both", approver)
    await shutdown(session)

    assert approver.asked == ["write_in", "write_out"]
    ends = [m for m in events if isinstance(m, ExecCommandEndEvent)]
    assert [e.call_id for e in ends] == [
        "write_in",
        "write_out",
        "write_out",
        "write_out_again",
        "write_out_again",
    ]
    assert ends[0].exit_code == 0 and inside.read_text() == "in\n"  # ran inside the sandbox
    for first_try in (ends[1], ends[3]):  # outside the roots: the sandbox refused first
        assert first_try.exit_code != 0 and sandbox_refused(first_try.aggregated_output)
    assert target.read_text() == "out\nout\n"
