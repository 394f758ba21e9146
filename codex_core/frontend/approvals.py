"""Turning a user's answer to an approval request into the op the session waits for.

Frontends never build the decision themselves: the session tells it once it has the op
(`ApprovalDecided` in the item projection), and every frontend shows that.
"""

from __future__ import annotations

from codex_core.items.notices import CommandApprovalRequested, PatchApprovalRequested
from codex_core.protocol import ExecApprovalOp, PatchApprovalOp
from codex_core.protocol.common import ReviewDecision

ApprovalRequest = CommandApprovalRequested | PatchApprovalRequested


def approval_op(
    request: ApprovalRequest,
    decision: ReviewDecision,
    *,
    remember_prefix: list[str] | None = None,
) -> ExecApprovalOp | PatchApprovalOp:
    """The op answering `request` with `decision`.

    Args:
        request: The projection's `CommandApprovalRequested` or `PatchApprovalRequested`.
        decision: `approved`, `approved_for_session`, `denied` or `abort`.
        remember_prefix: For a command, an argv prefix to allow from now on (rules).
    """
    if isinstance(request, CommandApprovalRequested):
        return ExecApprovalOp(
            id=request.item_id, decision=decision, remember_prefix=remember_prefix
        )
    return PatchApprovalOp(id=request.item_id, decision=decision)
