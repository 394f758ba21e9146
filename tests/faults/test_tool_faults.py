"""Tool faults against a real Session and the scripted model server: the turn always goes on
(or ends with a clear error), and every call gets exactly one output."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.protocol import ErrorEvent, TaskCompleteEvent
from codex_core.session import Session
from codex_core.tools import plan  # the router's update_plan handler calls it on each call
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import FatalToolError
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import (
    apply_patch_call,
    custom_tool_call,
    function_call,
    message,
    shell_call,
    turn,
)

__all__ = ["workspace"]  # the fixture, imported for pytest

NUL_PATCH = "*** Begin Patch\n*** Add File: bad\0name.txt\n+hello\n*** End Patch\n"


async def session_for(server: ModelServer, ws: Workspace, home: Path) -> Session:
    return await start_session(server, ws, home, "never", sandbox_mode="danger-full-access")


async def one_call_then_answer(
    server: ModelServer, ws: Workspace, home: Path, call: object
) -> tuple[str, list[str]]:
    """Serve `call` (id c1) then a plain answer; the c1 output and the turn's event types."""
    server.add(turn(call), turn(message("done")))  # type: ignore[arg-type]
    session = await session_for(server, ws, home)
    events = await run_turn(session)
    await shutdown(session)
    assert isinstance(events[-1], TaskCompleteEvent), [e.type for e in events]
    assert events[-1].last_agent_message == "done"
    server.assert_script_consumed()
    server.check_pairing()
    return tool_outputs(server)["c1"], [e.type for e in events]


@pytest.mark.parametrize(
    "call",
    [apply_patch_call(NUL_PATCH, call_id="c1"), custom_tool_call("apply_patch", NUL_PATCH, "c1")],
    ids=["function", "freeform"],
)
async def test_faults_nul_in_patch_path_goes_back_to_the_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, call: object
) -> None:
    output, _ = await one_call_then_answer(model_server, workspace, codex_home, call)
    assert "NUL" in output
    assert list(workspace.root.iterdir()) == []


@pytest.mark.parametrize(
    "name",
    ["x" * 5000 + ".txt", "/".join(["d" * 250] * 20) + "/f.txt"],
    ids=["long-name", "long-path"],
)
async def test_faults_overlong_patch_path_goes_back_to_the_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, name: str
) -> None:
    patch = f"*** Begin Patch\n*** Add File: {name}\n+hello\n*** End Patch\n"
    output, _ = await one_call_then_answer(
        model_server, workspace, codex_home, apply_patch_call(patch, call_id="c1")
    )
    assert output.startswith(("apply_patch", "patch")), output[:300]
    assert "too long" in output.lower(), output[:300]
    assert list(workspace.root.iterdir()) == []


async def test_faults_nul_in_shell_argv_goes_back_to_the_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    call = shell_call(["echo", "a\0b"], call_id="c1")
    output, types = await one_call_then_answer(model_server, workspace, codex_home, call)
    assert "NUL" in output
    assert "exec_command_begin" not in types


@pytest.mark.parametrize(
    "timeout",
    ["NaN", "Infinity", "-Infinity", "-5", "0", "1e400", "1e30", '"soon"', "[1]", "true"],
)
async def test_faults_bad_timeout_never_hangs_the_turn(
    model_server: ModelServer, workspace: Workspace, codex_home: Path, timeout: str
) -> None:
    arguments = f'{{"command": ["echo", "hi"], "timeout_ms": {timeout}}}'
    call = function_call("shell", arguments, call_id="c1")
    output, types = await one_call_then_answer(model_server, workspace, codex_home, call)
    assert output
    assert types.count("exec_command_begin") == types.count("exec_command_end")


async def test_faults_unknown_tool_goes_back_to_the_model(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    call = function_call("no_such_tool", {"x": 1}, call_id="c1")
    output, _ = await one_call_then_answer(model_server, workspace, codex_home, call)
    assert output == "unsupported call: no_such_tool"


async def test_faults_tool_crash_is_answered_to_the_model(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def crash(ctx: ToolContext, arguments: str) -> str:
        raise RuntimeError("plan store exploded")

    monkeypatch.setattr(plan, "run_update_plan", crash)
    call = function_call("update_plan", {"plan": []}, call_id="c1")
    output, _ = await one_call_then_answer(model_server, workspace, codex_home, call)
    assert output == "tool update_plan failed: RuntimeError: plan store exploded"
    assert "Traceback" in caplog.text and "plan store exploded" in caplog.text


async def test_faults_fatal_tool_error_ends_the_turn_with_an_error(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fatal(ctx: ToolContext, arguments: str) -> str:
        raise FatalToolError("the workspace disappeared")

    monkeypatch.setattr(plan, "run_update_plan", fatal)
    model_server.add(
        turn(function_call("update_plan", {"plan": []}, call_id="c1"), shell_call(["true"], "c2")),
        turn(message("second turn")),
    )
    session = await session_for(model_server, workspace, codex_home)
    events = await run_turn(session)
    errors = [e.message for e in events if isinstance(e, ErrorEvent)]
    assert errors == ["the workspace disappeared"]
    assert isinstance(events[-1], TaskCompleteEvent)
    assert "exec_command_begin" not in [e.type for e in events], "c2 never runs"
    assert len(model_server.requests) == 1
    second = await run_turn(session, "again")
    await shutdown(session)
    assert isinstance(second[-1], TaskCompleteEvent)
    model_server.check_pairing()
    assert tool_outputs(model_server) == {
        "c1": "fatal error: the workspace disappeared",
        "c2": "aborted",
    }
