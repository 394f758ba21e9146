"""`approvals_reviewer = "auto_review"` through a real Session, the real sandbox and the
scripted model server (which plays the agent and the reviewer).

The reviewer only answers what the user would have been asked: a patch outside the
writable roots goes to it instead of an `apply_patch_approval_request`, its denial reaches
the model with the reason, its allow applies the patch, and a reviewer that does not
answer in time denies. Every tool call gets exactly one output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.auto_review import reviewer as reviewer_module
from codex_core.exec.sandbox import linux_sandbox_problem
from codex_core.protocol import ApprovalDecisionEvent
from tests.integration.session_harness import (
    Workspace,
    event_types,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import apply_patch_call, message, turn
from tests.support.steps import hang

__all__ = ["workspace"]  # the fixture, imported for pytest

pytestmark = pytest.mark.skipif(
    linux_sandbox_problem() is not None, reason="needs the Linux sandbox (Landlock and seccomp)"
)

ALLOW = '{"risk_level":"low","user_authorization":"high","outcome":"allow","rationale":"asked"}'
DENY = '{"risk_level":"high","user_authorization":"low","outcome":"deny","rationale":"not asked"}'


def add_file(path: Path, text: str = "hello") -> str:
    return f"*** Begin Patch\n*** Add File: {path}\n+{text}\n*** End Patch\n"


async def test_approvals_reviewer_config_key_answers_patch_approvals(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    (codex_home / "config.toml").write_text('approvals_reviewer = "auto_review"\n')
    denied, allowed = workspace.outside / "denied.txt", workspace.outside / "allowed.txt"
    model_server.add(
        turn(apply_patch_call(add_file(denied), call_id="p1")),
        turn(message(DENY)),
        turn(apply_patch_call(add_file(allowed), call_id="p2")),
        turn(message(ALLOW)),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")
    events = await run_turn(session, "write two notes outside")
    await shutdown(session)
    # nobody was asked: the reviewer decided both, and said so
    assert event_types(events, "apply_patch_approval_request", "exec_approval_request") == []
    decisions = [m for m in events if isinstance(m, ApprovalDecisionEvent)]
    assert [(d.call_id, d.decision, d.reviewer) for d in decisions] == [
        ("p1", "denied", "auto_review"),
        ("p2", "approved", "auto_review"),
    ]
    assert decisions[0].rationale == "not asked"
    assert not denied.exists()
    assert allowed.read_text() == "hello\n"
    outputs = tool_outputs(model_server)
    assert (
        outputs["p1"].startswith("Automatic approval review denied")
        and "not asked" in (outputs["p1"])
    )
    # the reviewer saw the patch: its path and contents, as untrusted context
    review = model_server.requests[1].body
    assert review["tools"] == []
    assert str(denied) in review["input"][-1]["content"][0]["text"]


async def test_reviewer_past_its_deadline_denies(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reviewer_module, "REVIEW_TIMEOUT_S", 1.0)
    (codex_home / "config.toml").write_text('approvals_reviewer = "auto_review"\n')
    target = workspace.outside / "late.txt"
    model_server.add(
        turn(apply_patch_call(add_file(target), call_id="p1")),
        hang(3, before_headers=True),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")
    events = await run_turn(session)
    await shutdown(session)
    assert not target.exists()
    [decision] = [m for m in events if isinstance(m, ApprovalDecisionEvent)]
    assert decision.decision == "denied"
    assert decision.rationale == "the reviewer did not answer within 1 s"
    assert tool_outputs(model_server)["p1"].startswith("Automatic approval review could not")
    assert event_types(events)[-1] == "task_complete"
