"""Approval answers become ops; frontends never build the decision themselves."""

from __future__ import annotations

from codex_core.frontend import approval_op
from codex_core.items import notices as n
from codex_core.protocol import ExecApprovalOp, PatchApprovalOp


def test_frontend_approvals_exec_request_becomes_exec_op() -> None:
    request = n.CommandApprovalRequested("1", "c1", ("ls",), "/w")
    assert approval_op(request, "approved_for_session", remember_prefix=["ls"]) == ExecApprovalOp(
        id="c1", decision="approved_for_session", remember_prefix=["ls"]
    )


def test_frontend_approvals_patch_request_becomes_patch_op() -> None:
    request = n.PatchApprovalRequested("1", "p1", {})
    assert approval_op(request, "denied") == PatchApprovalOp(id="p1", decision="denied")
