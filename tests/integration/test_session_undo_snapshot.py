"""The /undo snapshot runs beside the turn's first request, and tools wait for it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from codex_core import git_snapshot
from codex_core.protocol import EventMsg, ExecCommandBeginEvent, Op, TaskCompleteEvent
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    shutdown,
    start_session,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn

__all__ = ["workspace"]  # the fixture, imported for pytest

SLOW_SNAPSHOT_S = 0.6


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


async def test_session_undo_snapshot_is_off_the_request_path_but_before_tools(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = workspace.root
    _git(root, "init", "-q")
    (root / "notes.txt").write_text("before\n")
    _git(root, "add", "notes.txt")
    _git(root, "commit", "-qm", "start")
    taken: list[float] = []
    real = git_snapshot.take_snapshot

    def slow_snapshot(*args: Any) -> Any:
        time.sleep(SLOW_SNAPSHOT_S)
        snapshot = real(*args)
        taken.append(time.monotonic())
        return snapshot

    # The undo stack loads git_snapshot in its worker thread, at the snapshot.
    monkeypatch.setattr(git_snapshot, "take_snapshot", slow_snapshot)
    model_server.add(
        turn(shell_call(["bash", "-c", "echo after > notes.txt"], "w")), turn(message("done"))
    )
    session = await start_session(model_server, workspace, codex_home, "never")
    started = time.monotonic()
    began: list[float] = []

    def on_event(msg: EventMsg) -> Op | None:
        if isinstance(msg, ExecCommandBeginEvent):
            began.append(time.monotonic())
        return None

    events = await run_turn(session, "edit", on_event)
    await shutdown(session)

    assert isinstance(events[-1], TaskCompleteEvent)
    first_request = model_server.requests[0].received_at
    assert first_request - started < SLOW_SNAPSHOT_S  # the request did not wait for it
    assert taken and began and taken[0] <= began[0]  # the command waited for it
    assert (root / "notes.txt").read_text() == "after\n"
