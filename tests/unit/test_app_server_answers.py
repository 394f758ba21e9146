"""The TUI's answers to the app-server's approval and elicitation requests, as wire values."""

from __future__ import annotations

from codex_core.protocol import ExecApprovalOp, PatchApprovalOp, ResolveElicitationOp
from codex_tui.app.app_server_ops import approval_decision, elicitation_result


def test_approval_decisions_on_the_wire() -> None:
    assert approval_decision(ExecApprovalOp(id="c", decision="approved")) == "accept"
    assert approval_decision(PatchApprovalOp(id="p", decision="approved_for_session")) == (
        "acceptForSession"
    )
    assert approval_decision(ExecApprovalOp(id="c", decision="denied")) == "decline"
    assert approval_decision(PatchApprovalOp(id="p", decision="abort")) == "cancel"
    remembered = ExecApprovalOp(id="c", decision="approved", remember_prefix=["git", "status"])
    assert approval_decision(remembered) == {
        "acceptWithExecpolicyAmendment": {"execpolicy_amendment": ["git", "status"]}
    }


def test_elicitation_result_carries_content_only_when_accepted() -> None:
    accepted = ResolveElicitationOp(
        server_name="s", request_id="1", decision="accept", content={"name": "x"}
    )
    assert elicitation_result(accepted) == {"action": "accept", "content": {"name": "x"}}
    declined = ResolveElicitationOp(
        server_name="s", request_id="1", decision="decline", content={"name": "x"}
    )
    assert elicitation_result(declined) == {"action": "decline"}
