"""Issue 23 item 6: an approved patch is written in the sandbox with exactly the approved paths.

A session with the real sandbox on the real kernel and the scripted model server. The
patch touches a file outside the writable roots, which the user approves; while the
approval prompt is open the model (through a command it left running, say) swaps a
directory for a symlink. The write must land where the user approved it or nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from codex_core.protocol import ApplyPatchApprovalRequestEvent, EventMsg, Op, PatchApprovalOp
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,  # noqa: F401  (fixture)
)
from tests.security.test_linux_helpers import linux_sandbox
from tests.support.model_server import ModelServer
from tests.support.sse import apply_patch_call, message, turn

pytestmark = [linux_sandbox]


def approve_after(swap: Callable[[], None]) -> Callable[[EventMsg], Op | None]:
    """Approve every patch, running `swap` first (while the prompt is open)."""

    def answer(msg: EventMsg) -> Op | None:
        if not isinstance(msg, ApplyPatchApprovalRequestEvent):
            return None
        swap()
        return PatchApprovalOp(id=msg.call_id, decision="approved")

    return answer


async def run_patch(
    server: ModelServer, ws: Workspace, home: Path, patch: str, answer: Callable[..., Op | None]
) -> str:
    server.add(turn(apply_patch_call(patch, call_id="p1")), turn(message("done")))
    session = await start_session(server, ws, home, "on-request")
    await run_turn(session, "edit", answer)
    await shutdown(session)
    return tool_outputs(server)["p1"]


async def test_approved_outside_file_is_written_in_the_sandbox(
    model_server: ModelServer,
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    notes = workspace.outside / "notes" / "todo.txt"
    patch = (
        "*** Begin Patch\n*** Add File: inside.txt\n+in\n"
        f"*** Add File: {notes}\n+approved\n*** End Patch"
    )
    output = await run_patch(
        model_server, workspace, codex_home, patch, approve_after(lambda: None)
    )
    assert notes.read_text() == "approved\n", output
    assert (workspace.root / "inside.txt").read_text() == "in\n"


async def test_directory_swapped_for_a_link_during_the_prompt_redirects_nothing(
    model_server: ModelServer,
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    """The inside path's directory becomes a link to an unapproved place."""
    victim = workspace.outside / "victim"
    victim.mkdir()
    (workspace.root / "d").mkdir()
    approved = workspace.outside / "approved.txt"
    approved.write_text("old\n")

    def swap() -> None:
        (workspace.root / "d").rmdir()
        (workspace.root / "d").symlink_to(victim)

    patch = (
        "*** Begin Patch\n*** Add File: d/new.txt\n+planted\n"
        f"*** Update File: {approved}\n@@\n-old\n+new\n*** End Patch"
    )
    output = await run_patch(model_server, workspace, codex_home, patch, approve_after(swap))
    assert not (victim / "new.txt").exists(), "the write followed a link swapped in after approval"
    assert "apply_patch failed" in output or "rejected" in output


async def test_approved_outside_path_swapped_for_a_link_is_refused(
    model_server: ModelServer,
    workspace: Workspace,  # noqa: F811
    codex_home: Path,
) -> None:
    """The approved file's own directory becomes a link: refused, nothing written."""
    victim = workspace.outside / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("old\n")
    sub = workspace.outside / "sub"
    sub.mkdir()
    (sub / "keep.txt").write_text("old\n")

    def swap() -> None:
        (sub / "keep.txt").unlink()
        sub.rmdir()
        sub.symlink_to(victim)

    patch = f"*** Begin Patch\n*** Update File: {sub / 'keep.txt'}\n@@\n-old\n+new\n*** End Patch"
    output = await run_patch(model_server, workspace, codex_home, patch, approve_after(swap))
    assert (victim / "keep.txt").read_text() == "old\n", output
    assert output.startswith("patch rejected:") and "changed since you approved it" in output
