"""Turning a user's answer to an approval request into the op the session waits for.

Frontends never build the decision event themselves: the session emits
`approval_decision` once it has the op, and every frontend shows that.
"""

from __future__ import annotations

from codex_core.protocol import (
    ApplyPatchApprovalRequestEvent,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    PatchApprovalOp,
)
from codex_core.protocol.common import ReviewDecision

ApprovalRequest = ExecApprovalRequestEvent | ApplyPatchApprovalRequestEvent


def approval_op(
    request: ApprovalRequest,
    decision: ReviewDecision,
    *,
    remember_prefix: list[str] | None = None,
) -> ExecApprovalOp | PatchApprovalOp:
    """The op answering `request` with `decision`.

    Args:
        request: The `exec_approval_request` or `apply_patch_approval_request` event.
        decision: `approved`, `approved_for_session`, `denied` or `abort`.
        remember_prefix: For a command, an argv prefix to allow from now on (rules).
    """
    if isinstance(request, ExecApprovalRequestEvent):
        return ExecApprovalOp(
            id=request.call_id, decision=decision, remember_prefix=remember_prefix
        )
    return PatchApprovalOp(id=request.call_id, decision=decision)
