"""Issue 23 item 6: a patch is written where its paths led when the user was asked, or nowhere.

A real session on the real kernel against the scripted model server; the patch is applied
by the real `apply_patch` command. While the approval prompt is open the model (through a
command it left running, say) swaps a workspace file or directory for a symbolic link to a
place outside. The write must not follow that link, whether the patch runs in the
platform sandbox (with an approved outside file added) or, where there is no sandbox to
run in, outside it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from codex_core.protocol import ApplyPatchApprovalRequestEvent, EventMsg, Op, PatchApprovalOp
from codex_core.protocol.common import AskForApproval
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.security.test_escalation import make_sandbox_unavailable
from tests.security.test_linux_helpers import linux_sandbox
from tests.support.model_server import ModelServer
from tests.support.sse import apply_patch_call, message, turn

__all__ = ["workspace"]  # the fixture, imported for pytest

REFUSED = "became a symbolic link after the patch was checked"


def approve_after(swap: Callable[[], None], asked: list[str]) -> Callable[[EventMsg], Op | None]:
    """Approve every patch, running `swap` first (while the prompt is open)."""

    def answer(msg: EventMsg) -> Op | None:
        if not isinstance(msg, ApplyPatchApprovalRequestEvent):
            return None
        asked.append(msg.reason or "")
        swap()
        return PatchApprovalOp(id=msg.call_id, decision="approved")

    return answer


async def run_patch(
    server: ModelServer,
    ws: Workspace,
    home: Path,
    patch: str,
    swap: Callable[[], None],
    *,
    approval: AskForApproval = "on-request",
    sandbox_mode: str = "workspace-write",
) -> tuple[str, list[str]]:
    """Run one turn applying `patch`; returns the model's tool output and the prompts."""
    server.add(turn(apply_patch_call(patch, call_id="p1")), turn(message("done")))
    session = await start_session(server, ws, home, approval, sandbox_mode=sandbox_mode)
    asked: list[str] = []
    await run_turn(session, "edit", approve_after(swap, asked))
    await shutdown(session)
    return tool_outputs(server)["p1"], asked


@linux_sandbox
async def test_patch_pinned_file_swapped_for_a_link_beside_an_approved_outside_file(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    """Approving one outside file approves that file, not a link planted in the workspace."""
    approved = workspace.outside / "approved.txt"
    secret = workspace.outside / "secret.txt"
    secret.write_text("keep\n")
    notes = workspace.root / "notes.txt"
    notes.write_text("old\n")

    def swap() -> None:
        notes.unlink()
        notes.symlink_to(secret)

    patch = (
        f"*** Begin Patch\n*** Add File: {approved}\n+approved\n"
        "*** Add File: notes.txt\n+planted\n*** End Patch"
    )
    output, asked = await run_patch(model_server, workspace, codex_home, patch, swap)

    assert len(asked) == 1 and str(approved) in asked[0]
    assert secret.read_text() == "keep\n", output
    assert approved.read_text() == "approved\n", output
    assert output.startswith("apply_patch failed: ") and "notes.txt" in output


@pytest.mark.parametrize(
    ("sandbox_mode", "approval"),
    [("workspace-write", "on-request"), ("danger-full-access", "untrusted")],
    ids=["no-sandbox-on-this-platform", "danger-full-access"],
)
async def test_patch_pinned_directory_swapped_during_the_prompt_without_a_sandbox(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    sandbox_mode: str,
    approval: AskForApproval,
) -> None:
    """Without a sandbox the writer itself refuses to follow the swapped-in link."""
    make_sandbox_unavailable(monkeypatch)
    (workspace.root / "d").mkdir()

    def swap() -> None:
        (workspace.root / "d").rmdir()
        (workspace.root / "d").symlink_to(workspace.outside, target_is_directory=True)

    patch = "*** Begin Patch\n*** Add File: d/x.txt\n+planted\n*** End Patch"
    output, asked = await run_patch(
        model_server,
        workspace,
        codex_home,
        patch,
        swap,
        approval=approval,
        sandbox_mode=sandbox_mode,
    )

    assert len(asked) == 1
    assert list(workspace.outside.iterdir()) == [], output
    assert output == (
        f"apply_patch failed: Failed to write d/x.txt: {workspace.root / 'd'} {REFUSED}; "
        "apply_patch does not follow it, so nothing was written there"
    )
