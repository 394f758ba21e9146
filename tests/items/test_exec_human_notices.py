"""exec's human output renders the projection's own notices: status lines, typing into a
running command, the automatic reviewer's answers, calls whose end came without a begin."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from codex_core import protocol as ev
from codex_core.config import Config
from codex_tui.exec.human import HumanProcessor

ARGV = ["bash", "-lc", "rm -rf build"]
CONFIG = SimpleNamespace(
    cwd=Path("/w"),
    model="m",
    model_provider_id="p",
    approval_policy="on-request",
    sandbox_policy=SimpleNamespace(mode="workspace-write"),
    model_reasoning_effort=None,
    model_reasoning_summary=None,
)


def printed(msgs: list[ev.EventMsg]) -> list[str]:
    """What the run prints after its header (no colour)."""
    err = io.StringIO()
    human = HumanProcessor(cast(Config, CONFIG), "go", out=io.StringIO(), err=err, color=False)
    for msg in [ev.TaskStartedEvent(), *msgs]:
        human.handle(ev.Event(id="1", msg=msg))
    return err.getvalue().splitlines()


def test_exec_human_status_lines_typing_and_reviewer_answers() -> None:
    invocation = ev.McpInvocation(server="docs", tool="find", arguments={})
    lines = printed(
        [
            ev.BackgroundEvent(message="mcp: docs ready"),
            ev.TerminalInteractionEvent(call_id="w1", process_id="3", stdin="y\n"),
            ev.TerminalInteractionEvent(call_id="w2", process_id="3", stdin=""),
            ev.ApprovalDecisionEvent(
                call_id="c1", kind="exec", decision="approved", command=ARGV, reviewer="auto_review"
            ),
            ev.ApprovalDecisionEvent(
                call_id="c2",
                kind="exec",
                decision="denied",
                command=ARGV,
                reviewer="auto_review",
                rationale="deletes \x1b]0;files\x07",
                cwd="/w",
            ),
            ev.McpToolCallEndEvent.ok("c3", invocation, 0.1, {"content": []}),
            ev.WebSearchEndEvent(call_id="c4", query="uv lock"),
            ev.ExecCommandEndEvent(call_id="c5", exit_code=2, command=ARGV, duration_ms=1500),
            ev.TaskCompleteEvent(),
        ]
    )
    assert lines == [
        "mcp: docs ready",
        "stdin sent 'y\\n' to session 3",
        "stdin waited for output from session 3",
        "auto-review approved rm -rf build",
        "",
        "auto-review denied rm -rf build",
        "deletes ␛]0;files␇",
        "mcp: docs/find (completed)",
        "web search: uv lock",
        "exited 2 in 1.50s:",
    ]


def test_exec_human_asked_call_shows_once_allowed() -> None:
    """exec never asks; a call that was asked about shows when allowed, not when refused."""
    lines = printed(
        [
            ev.ExecApprovalRequestEvent(call_id="c1", command=ARGV, cwd="/w"),
            ev.ApprovalDecisionEvent(call_id="c1", kind="exec", decision="denied"),
            ev.ExecApprovalRequestEvent(call_id="c2", command=["ls"], cwd="/w"),
            ev.ApprovalDecisionEvent(call_id="c2", kind="exec", decision="approved"),
            ev.ExecCommandBeginEvent(call_id="c2", command=["ls"], cwd="/w"),
            ev.ExecCommandEndEvent(call_id="c2", exit_code=0, command=["ls"], duration_ms=4),
        ]
    )
    assert lines == ["", "exec ls in /w", "succeeded in 4ms:"]
