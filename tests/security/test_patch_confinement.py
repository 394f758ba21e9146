"""Issue 11 item 2: patches are written inside the sandbox, so the kernel decides.

The attack: a process left running in the workspace flips `link` between a directory
inside the workspace and one outside while patches writing `link/...` arrive. The path
check sees the inside target and auto-approves; by the time the file is written the link
points outside. Only confinement of the writer itself (not a path check) closes it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codex_core.apply_patch import TurnDiffTracker
from codex_core.protocol import PatchApplyBeginEvent, PatchApplyEndEvent, TaskCompleteEvent
from codex_core.protocol.common import AskForApproval
from tests.integration.session_harness import (
    Approver,
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,
)
from tests.security.test_escalation import make_sandbox_unavailable, needs_sandbox
from tests.support.model_server import ModelServer
from tests.support.sse import apply_patch_call, message, turn

__all__ = ["workspace"]  # the fixture, imported for pytest

RACE_PATCHES = 30

# Flips `link` between two directories as fast as it can, for at most a minute.
FLIPPER = """
import os, sys, time
link, first, second = sys.argv[1:4]
tmp = link + ".flip"
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    for target in (first, second):
        try:
            os.remove(tmp)
        except FileNotFoundError:
            pass
        os.symlink(target, tmp)
        os.replace(tmp, link)
"""


def add_file(path: str, text: str) -> str:
    """A patch adding `path` with one line."""
    return f"*** Begin Patch\n*** Add File: {path}\n+{text}\n*** End Patch"


@pytest.fixture
def flipper(tmp_path: Path) -> Iterator[Any]:
    """Start a link flipper (`flipper(link, inside, outside)`); killed at teardown."""
    started: list[subprocess.Popen[bytes]] = []

    def start(link: Path, inside: Path, outside: Path) -> None:
        started.append(
            subprocess.Popen(
                [sys.executable, "-c", FLIPPER, str(link), str(inside), str(outside)],
                stdin=subprocess.DEVNULL,
            )
        )

    yield start
    for process in started:
        process.kill()
        process.wait()


@needs_sandbox
async def test_patch_confinement_link_flipped_after_the_check_writes_nothing_outside(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race, made deterministic: the link flips right after the approval decision.

    The patch was checked (and pinned) while `link` led inside, so it is written there,
    through no link: what the link points at by the time of the write does not matter.
    """
    inside = workspace.root / "inside"
    inside.mkdir()
    link = workspace.root / "link"
    link.symlink_to(inside, target_is_directory=True)
    original = TurnDiffTracker.on_patch_begin

    def flip_then_begin(self: TurnDiffTracker, paths: Any) -> None:
        original(self, paths)
        link.unlink()
        link.symlink_to(workspace.outside, target_is_directory=True)

    monkeypatch.setattr(TurnDiffTracker, "on_patch_begin", flip_then_begin)
    model_server.add(
        turn(apply_patch_call(add_file("link/x.txt", "pwned"), "p1")), turn(message("ok"))
    )
    session = await start_session(model_server, workspace, codex_home, "on-request")

    events = await run_turn(session, "add a file", Approver(default=None))
    await shutdown(session)

    assert list(workspace.outside.iterdir()) == []
    begin = next(m for m in events if isinstance(m, PatchApplyBeginEvent))
    assert begin.auto_approved
    end = next(m for m in events if isinstance(m, PatchApplyEndEvent))
    assert end.success, end.stderr
    assert (inside / "x.txt").read_text() == "pwned\n"
    assert tool_outputs(model_server)["p1"].startswith("Success.")
    assert isinstance(events[-1], TaskCompleteEvent)


@needs_sandbox
@pytest.mark.e2e
def test_patch_confinement_racing_link_flipper_never_writes_outside(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, flipper: Any
) -> None:
    root, outside = tmp_path / "ws", tmp_path / "outside"
    inside = root / "inside"
    inside.mkdir(parents=True)
    outside.mkdir()
    link = root / "link"
    link.symlink_to(inside, target_is_directory=True)
    model_server.add(
        *(
            turn(apply_patch_call(add_file(f"link/x{i}.txt", f"patch {i}"), f"p{i}"))
            for i in range(RACE_PATCHES)
        ),
        turn(message("done")),
    )
    flipper(link, inside, outside)

    done = subprocess.run(
        [
            str(codex_bin),
            "exec",
            "--skip-git-repo-check",
            "--json",
            "-s",
            "workspace-write",
            "-c",
            "sandbox_workspace_write.exclude_slash_tmp=true",
            "-c",
            "sandbox_workspace_write.exclude_tmpdir_env_var=true",
            *model_server.cli_flags(),
            "write the files",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        stdin=subprocess.DEVNULL,
    )

    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in outside.iterdir()) == []
    outputs = tool_outputs(model_server)
    assert len(outputs) == RACE_PATCHES
    applied = [o for o in outputs.values() if o.startswith("Success.")]
    attempted = applied + [o for o in outputs.values() if o.startswith("apply_patch failed")]
    assert attempted, f"no patch reached the writer: {sorted(set(outputs.values()))}"
    assert len(applied) == len(list(inside.iterdir()))
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert lines[-1]["type"] == "turn.completed"


@pytest.mark.parametrize(("policy", "asked"), [("on-request", True), ("never", False)])
async def test_patch_confinement_no_sandbox_available_patch_is_not_written_silently(
    model_server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    policy: AskForApproval,
    asked: bool,
) -> None:
    make_sandbox_unavailable(monkeypatch)
    model_server.add(turn(apply_patch_call(add_file("a.txt", "x"), "p1")), turn(message("ok")))
    session = await start_session(model_server, workspace, codex_home, policy)
    approver = Approver(default=None, by_call={"p1": "denied"})

    events = await run_turn(session, "add a file", approver)
    await shutdown(session)

    assert not (workspace.root / "a.txt").exists()
    assert approver.asked == (["p1"] if asked else [])
    assert not any(isinstance(m, PatchApplyBeginEvent) for m in events)
    output = tool_outputs(model_server)["p1"]
    if asked:
        assert output == "patch rejected by user"
        reason = approver.requests[0].reason
        assert reason is not None and "no sandbox" in reason
    else:
        assert output.startswith("patch rejected:") and "no sandbox" in output
