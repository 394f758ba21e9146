"""The TUI's `/review` and automatic approval review (snapshots stored in `snapshots/`).

`/review` submits the same `review` op as `codex review` (one implementation in the core);
the reviewer's commands and its rendered findings show as a turn. Decisions the automatic
reviewer took in the user's place (`--approve-for-me`) each get a line saying so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageEvent,
    ApprovalDecisionEvent,
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
from tests.tui.fake_core import FakeBoot, frozen_clock, options, settle

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


async def test_review_command_submits_the_review_op() -> None:
    app, boot = app_with()
    async with app.run_test(size=SIZE) as pilot:
        await slash(pilot, boot, "/review")
        await slash(pilot, boot, "/review look at the error handling")
    assert boot.core.ops_of(ReviewOp) == [
        ReviewOp(target=UncommittedTarget()),
        ReviewOp(target=CustomTarget(instructions="look at the error handling")),
    ]


def test_snapshot_review_findings(snap_compare: Compare) -> None:
    app, boot = app_with()

    async def before(pilot: Pilot[Any]) -> None:
        await slash(pilot, boot, "/review")

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
