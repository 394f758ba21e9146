"""apply_patch through a real Session and the scripted model server: edits, approvals, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import codex_core.tools.patch as patch_tool
from codex_core.protocol import (
    ApplyPatchApprovalRequestEvent,
    EventMsg,
    InterruptOp,
    Op,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    TaskCompleteEvent,
    TurnAbortedEvent,
    TurnDiffEvent,
)
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
from tests.support.sse import (
    FunctionCallOut,
    apply_patch_call,
    function_call,
    message,
    shell_call,
    turn,
    usage,
)

__all__ = ["workspace"]  # the fixture, imported for pytest

UPDATE_GREETING = """*** Begin Patch
*** Update File: greeting.txt
@@
-hello
+hello, world
*** End Patch"""


def heredoc_call(patch: str, call_id: str) -> FunctionCallOut:
    """The shell form models use: `bash -lc "apply_patch <<'EOF' … EOF"`."""
    return shell_call(["bash", "-lc", f"apply_patch <<'EOF'\n{patch}\nEOF\n"], call_id=call_id)


@pytest.mark.parametrize("form", ["function", "shell_heredoc"])
async def test_session_patch_inside_workspace_edits_file_and_reports_diff(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, form: str
) -> None:
    target = workspace.root / "greeting.txt"
    target.write_text("hello\n")
    call = (
        apply_patch_call(UPDATE_GREETING, call_id="p1")
        if form == "function"
        else heredoc_call(UPDATE_GREETING, "p1")
    )
    model_server.add(turn(call), turn(message("Edited."), usage=usage(10, 2)))
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default=None)

    events = await run_turn(session, "edit the greeting", approver)
    await shutdown(session)

    assert target.read_text() == "hello, world\n"
    assert approver.asked == []
    assert event_types(events, "patch_apply_begin", "patch_apply_end", "turn_diff") == [
        "patch_apply_begin",
        "patch_apply_end",
        "turn_diff",
    ]
    begin = next(m for m in events if isinstance(m, PatchApplyBeginEvent))
    assert begin.auto_approved and begin.call_id == "p1"
    assert [Path(p).name for p in begin.changes] == ["greeting.txt"]
    end = next(m for m in events if isinstance(m, PatchApplyEndEvent))
    assert end.success
    diff = next(m for m in events if isinstance(m, TurnDiffEvent)).unified_diff
    assert "-hello\n" in diff and "+hello, world\n" in diff
    assert isinstance(events[-1], TaskCompleteEvent)
    assert events[-1].last_agent_message == "Edited."
    assert "greeting.txt" in tool_outputs(model_server)["p1"]
    model_server.assert_script_consumed()


@pytest.mark.parametrize("form", ["function", "shell_heredoc"])
async def test_session_patch_outside_roots_denied_leaves_file_and_tells_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, form: str
) -> None:
    target = workspace.outside / "notes.txt"
    target.write_text("keep me\n")
    patch = f"""*** Begin Patch
*** Update File: {target}
@@
-keep me
+overwritten
*** End Patch"""
    call = apply_patch_call(patch, "p1") if form == "function" else heredoc_call(patch, "p1")
    model_server.add(turn(call), turn(message("Understood."), usage=usage(10, 2)))
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default="denied")

    events = await run_turn(session, "edit notes", approver)
    rollout = session.rollout_path
    await shutdown(session)

    assert target.read_text() == "keep me\n"
    assert approver.asked == ["p1"]
    request = approver.requests[0]
    assert isinstance(request, ApplyPatchApprovalRequestEvent)
    assert list(request.changes) == [str(target)]
    assert request.reason is not None and "outside the writable roots" in request.reason
    assert "patch_apply_begin" not in event_types(events)
    assert tool_outputs(model_server)["p1"] == "patch rejected by user"
    assert isinstance(events[-1], TaskCompleteEvent)
    decisions = [p for p in rollout_event_payloads(rollout) if p["type"] == "approval_decision"]
    assert decisions == [
        {"type": "approval_decision", "call_id": "p1", "kind": "patch", "decision": "denied"}
    ]


async def test_session_patch_outside_roots_approved_is_applied(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    target = workspace.outside / "added.txt"
    patch = f"*** Begin Patch\n*** Add File: {target}\n+fresh\n*** End Patch"
    model_server.add(turn(apply_patch_call(patch, "p1")), turn(message("ok")))
    session = await start_session(model_server, workspace, codex_home, "on-failure")
    approver = Approver(default="approved")

    events = await run_turn(session, "add a file", approver)
    await shutdown(session)

    assert target.read_text() == "fresh\n"
    assert approver.asked == ["p1"]
    begin = next(m for m in events if isinstance(m, PatchApplyBeginEvent))
    assert not begin.auto_approved
    assert event_types(
        events,
        "apply_patch_approval_request",
        "approval_decision",
        "patch_apply_begin",
        "patch_apply_end",
        "turn_diff",
    ) == [
        "apply_patch_approval_request",
        "approval_decision",
        "patch_apply_begin",
        "patch_apply_end",
        "turn_diff",
    ]


@pytest.mark.parametrize(
    ("patch", "expected"),
    [
        (
            "*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch",
            "apply_patch verification failed",
        ),
        ("this is not a patch", "apply_patch verification failed"),
        (
            "*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch",
            "apply_patch verification failed",
        ),
    ],
    ids=["bad-header", "no-envelope", "missing-file"],
)
async def test_session_patch_error_goes_back_to_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, patch: str, expected: str
) -> None:
    model_server.add(
        turn(apply_patch_call(patch, "bad")),
        turn(message("I will fix the patch."), usage=usage(10, 2)),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")

    events = await run_turn(session, "edit", Approver(default=None))
    await shutdown(session)

    output = tool_outputs(model_server)["bad"]
    assert output.startswith(expected)
    assert "Traceback" not in output
    assert "error" not in event_types(events)
    assert isinstance(events[-1], TaskCompleteEvent)
    assert events[-1].last_agent_message == "I will fix the patch."
    assert sorted(p.name for p in workspace.root.iterdir()) == []


async def test_session_patch_bad_function_arguments_go_back_to_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        turn(function_call("apply_patch", {"patch": "wrong key"}, "bad")),
        turn(message("retrying")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")

    events = await run_turn(session, "edit", Approver(default=None))
    await shutdown(session)

    assert "input" in tool_outputs(model_server)["bad"]
    assert isinstance(events[-1], TaskCompleteEvent)


@pytest.mark.parametrize("escape", ["dotdot", "symlink", "dot_git"])
async def test_session_patch_escaping_roots_asks_even_inside_workspace(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, escape: str
) -> None:
    (workspace.root / "link").symlink_to(workspace.outside, target_is_directory=True)
    (workspace.root / ".git").mkdir()
    (workspace.root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (workspace.root / ".git" / "objects").mkdir()
    relative, lands_at = {
        "dotdot": ("../outside/evil.txt", workspace.outside / "evil.txt"),
        "symlink": ("link/evil.txt", workspace.outside / "evil.txt"),
        "dot_git": (".git/evil.txt", workspace.root / ".git" / "evil.txt"),
    }[escape]
    patch = f"*** Begin Patch\n*** Add File: {relative}\n+evil\n*** End Patch"
    model_server.add(turn(apply_patch_call(patch, "p1")), turn(message("ok")))
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default="denied")

    await run_turn(session, "edit", approver)
    await shutdown(session)

    assert approver.asked == ["p1"]
    assert not lands_at.exists()
    assert tool_outputs(model_server)["p1"] == "patch rejected by user"


@pytest.mark.parametrize("how", ["cd_prefix", "workdir_argument"])
async def test_session_patch_heredoc_resolves_paths_in_its_directory(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, how: str
) -> None:
    (workspace.root / "sub").mkdir()
    patch = "*** Begin Patch\n*** Add File: new.txt\n+x\n*** End Patch"
    heredoc = f"apply_patch <<'EOF'\n{patch}\nEOF"
    call = (
        shell_call(["bash", "-lc", f"cd sub && {heredoc}"], "p1")
        if how == "cd_prefix"
        else shell_call(["bash", "-lc", heredoc], "p1", workdir="sub")
    )
    model_server.add(turn(call), turn(message("ok")))
    session = await start_session(model_server, workspace, codex_home, "on-request")

    await run_turn(session, "add", Approver(default=None))
    await shutdown(session)

    assert (workspace.root / "sub" / "new.txt").read_text() == "x\n"
    assert not (workspace.root / "new.txt").exists()
    assert tool_outputs(model_server)["p1"].startswith("Success.")


async def test_session_patch_approved_for_session_covers_same_files_only(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    first = workspace.outside / "a.txt"
    other = workspace.outside / "b.txt"
    model_server.add(
        turn(apply_patch_call(f"*** Begin Patch\n*** Add File: {first}\n+x\n*** End Patch", "p1")),
        turn(
            apply_patch_call(
                f"*** Begin Patch\n*** Update File: {first}\n@@\n-x\n+y\n*** End Patch", "p2"
            )
        ),
        turn(apply_patch_call(f"*** Begin Patch\n*** Add File: {other}\n+z\n*** End Patch", "p3")),
        turn(message("ok")),
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")
    approver = Approver(default="approved", by_call={"p1": "approved_for_session"})

    await run_turn(session, "edit", approver)
    await shutdown(session)

    assert approver.asked == ["p1", "p3"]
    assert first.read_text() == "y\n" and other.read_text() == "z\n"


async def test_session_patch_interrupted_while_applying_ends_the_patch_as_aborted(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Patches are applied by a sandboxed child; an interrupt still closes the patch cell."""
    monkeypatch.setattr(patch_tool, "isolated_python_argv", lambda target, args: ["sleep", "30"])
    patch = "*** Begin Patch\n*** Add File: slow.txt\n+x\n*** End Patch"
    model_server.add(turn(apply_patch_call(patch, "p1")))
    session = await start_session(
        model_server, workspace, codex_home, "on-request", sandbox_mode="danger-full-access"
    )

    def interrupt(msg: EventMsg) -> Op | None:
        return InterruptOp() if isinstance(msg, PatchApplyBeginEvent) else None

    events = await run_turn(session, "add", interrupt)
    await shutdown(session)

    assert event_types(events, "patch_apply_begin", "patch_apply_end", "turn_aborted") == [
        "patch_apply_begin",
        "patch_apply_end",
        "turn_aborted",
    ]
    end = next(m for m in events if isinstance(m, PatchApplyEndEvent))
    assert not end.success and "aborted" in end.stderr
    assert not (workspace.root / "slow.txt").exists()
    assert isinstance(events[-1], TurnAbortedEvent)
