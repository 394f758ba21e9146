"""The TUI's `/review` and automatic approval review (snapshots stored in `snapshots/`).

`/review` asks what to review (0.169's presets: a base branch, the uncommitted changes, a
commit, custom instructions) and submits the same `review` op as `codex review`;
the reviewer's commands and its rendered findings show as a turn. Decisions the automatic
reviewer took in the user's place (`--approve-for-me`) each get a line saying so.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageEvent,
    ApprovalDecisionEvent,
    BaseBranchTarget,
    CommitTarget,
    CustomTarget,
    EventMsg,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    Op,
    ReviewOp,
    TaskCompleteEvent,
    TaskStartedEvent,
    UncommittedTarget,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.widgets.composer import Composer
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 30)
PROJECT = "/home/dev/project"
Compare = Callable[..., bool]
REVIEW = (
    "The change breaks add.\n\nReview comment:\n\n"
    "- [P1] Subtraction instead of addition — /home/dev/project/m.py:2-2\n"
    "  add() now returns a - b."
)


def reviewer_answers(op: Op) -> list[EventMsg]:
    """What the core sends back for a review: the reviewer's command, then its findings."""
    if not isinstance(op, ReviewOp):
        return []
    return [
        TaskStartedEvent(),
        ExecCommandBeginEvent(call_id="c1", command=["git", "diff"], cwd=PROJECT),
        ExecCommandEndEvent(call_id="c1", exit_code=0, aggregated_output=" m.py | 2 +-\n"),
        AgentMessageEvent(message=REVIEW),
        TaskCompleteEvent(last_agent_message=REVIEW),
    ]


def app_with() -> tuple[CodexApp, FakeBoot]:
    boot = FakeBoot()
    return CodexApp(boot, options(), clock=frozen_clock()), boot


async def slash(pilot: Pilot[Any], boot: FakeBoot, text: str) -> None:
    from codex_tui.app.screens.chat import ChatScreen

    await settle(pilot)
    boot.core.on_op = reviewer_answers
    screen = pilot.app.screen
    assert isinstance(screen, ChatScreen)
    await screen.submit_text(text)
    await settle(pilot, boot.core, rounds=3)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=repo,
        env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository on `feature` with a `main` branch and two commits."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.txt").write_text("a\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "First commit")
    git(root, "checkout", "-q", "-b", "feature")
    (root / "a.txt").write_text("b\n")
    git(root, "commit", "-qam", "Second commit")
    return root


async def pick(pilot: Pilot[Any], boot: FakeBoot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot, boot.core)


async def test_review_presets_submit_the_review_op(repo: Path) -> None:
    boot = FakeBoot(configured_event=configured(cwd=str(repo)))
    app = CodexApp(boot, options(), clock=frozen_clock())
    head = git(repo, "rev-parse", "HEAD")
    async with app.run_test(size=SIZE) as pilot:
        await slash(pilot, boot, "/review look at the error handling")
        await slash(pilot, boot, "/review")
        await pick(pilot, boot, "down", "enter")  # uncommitted changes
        await slash(pilot, boot, "/review")
        await pick(pilot, boot, "enter", "down", "enter")  # base branch: feature, then main
        await slash(pilot, boot, "/review")
        await pick(pilot, boot, "down", "down", "enter", "enter")  # the newest commit
        await slash(pilot, boot, "/review")
        await pick(pilot, boot, "up", "enter")  # custom: typed after /review
        assert app.screen.query_one(Composer).text == "/review "
    assert boot.core.ops_of(ReviewOp) == [
        ReviewOp(target=CustomTarget(instructions="look at the error handling")),
        ReviewOp(target=UncommittedTarget()),
        ReviewOp(target=BaseBranchTarget(branch="main")),
        ReviewOp(target=CommitTarget(sha=head, title="Second commit")),
    ]


def test_snapshot_review_presets(snap_compare: Compare) -> None:
    app, boot = app_with()

    async def before(pilot: Pilot[Any]) -> None:
        await slash(pilot, boot, "/review")

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_review_findings(snap_compare: Compare) -> None:
    app, boot = app_with()

    async def before(pilot: Pilot[Any]) -> None:
        await slash(pilot, boot, "/review")
        await pick(pilot, boot, "down", "enter")

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_auto_review_decisions(snap_compare: Compare) -> None:
    app, boot = app_with()
    decisions: list[EventMsg] = [
        TaskStartedEvent(),
        ApprovalDecisionEvent(
            call_id="c1",
            kind="exec",
            decision="approved",
            command=["bash", "-lc", "npm install"],
            reviewer="auto_review",
            rationale="The user asked to install the dependencies.",
        ),
        ApprovalDecisionEvent(
            call_id="c2",
            kind="exec",
            decision="denied",
            command=["bash", "-lc", "rm -rf ~/.ssh"],
            reviewer="auto_review",
            rationale="Deleting SSH keys was not requested and cannot be undone.",
        ),
        ApprovalDecisionEvent(
            call_id="p1",
            kind="patch",
            decision="denied",
            reviewer="auto_review",
            rationale="the reviewer did not answer within 90 s",
        ),
    ]

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        boot.core.emit(*decisions)
        await settle(pilot, boot.core, rounds=3)

    assert snap_compare(app, terminal_size=SIZE, run_before=before)
