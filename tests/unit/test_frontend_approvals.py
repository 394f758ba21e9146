"""Approval answers become ops; frontends never build the decision event."""

from __future__ import annotations

from codex_core.frontend import approval_op
from codex_core.protocol import (
    ApplyPatchApprovalRequestEvent,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    PatchApprovalOp,
)


def test_frontend_approvals_exec_request_becomes_exec_op() -> None:
    request = ExecApprovalRequestEvent(call_id="c1", command=["ls"], cwd="/w")
    assert approval_op(request, "approved_for_session", remember_prefix=["ls"]) == ExecApprovalOp(
        id="c1", decision="approved_for_session", remember_prefix=["ls"]
    )


def test_frontend_approvals_patch_request_becomes_patch_op() -> None:
    request = ApplyPatchApprovalRequestEvent(call_id="p1", changes={})
    assert approval_op(request, "denied") == PatchApprovalOp(id="p1", decision="denied")
