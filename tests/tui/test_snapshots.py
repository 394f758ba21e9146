"""SVG snapshots of every TUI state a user sees (stored in the top-level `snapshots/`)."""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    ABORTED_BY_USER,
    INTERRUPTED_EXIT_CODE,
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    AgentReasoningDeltaEvent,
    ApplyPatchApprovalRequestEvent,
    ApprovalDecisionEvent,
    BackgroundEvent,
    ErrorEvent,
    EventMsg,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    PlanUpdateEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    TokenCountEvent,
    TurnAbortedEvent,
    TurnDiffEvent,
    UserMessageEvent,
    WarningEvent,
    WebSearchBeginEvent,
    WebSearchEndEvent,
)
from codex_core.protocol.common import (
    AddChange,
    FileChange,
    PlanItem,
    TokenUsage,
    TokenUsageInfo,
    UpdateChange,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.core import KeyRequest, TrustRequest
from codex_tui.app.real_boot import RolloutSessions
from tests.tui.fake_core import (
    FIXED_NOW,
    PROJECT,
    FakeBoot,
    configured,
    frozen_clock,
    options,
    settle,
)

SIZE = (100, 34)
Compare = Callable[..., bool]

DIFF = """@@ -10,4 +10,5 @@ def load(path):
     with open(path) as fh:
-        data = fh.read()
+        data = fh.read().strip()
+        log.debug("read %d bytes", len(data))
     return parse(data)
@@ -40,2 +41,2 @@
-VERSION = "1.0"
+VERSION = "1.1"
"""


def app_with(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    """A CodexApp over a fake boot with the frozen clock."""
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def feeding(
    boot: FakeBoot, *msgs: EventMsg, advance: float = 0.0
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """A run_before that feeds events to the session and waits for them to render."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        boot.core.emit(*msgs)
        await settle(pilot, boot.core)
        if advance:
            assert isinstance(pilot.app, CodexApp)
            clock = pilot.app.clock
            clock.advance(advance)  # type: ignore[attr-defined]
            await pilot.pause(0.15)

    return run_before


def turn_start(message: str) -> list[EventMsg]:
    return [TaskStartedEvent(model_context_window=200_000), UserMessageEvent(message=message)]


def test_snapshot_empty_session(snap_compare: Compare) -> None:
    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot))


def test_snapshot_streaming_answer(snap_compare: Compare) -> None:
    app, boot = app_with()
    answer = (
        "I found the problem. The loader reads the file but never strips the trailing newline, so"
    )
    msgs: list[EventMsg] = [
        *turn_start("Why does the config loader fail on Windows?"),
        AgentReasoningDeltaEvent(delta="**Reading the loader**\n\nChecking how paths are split."),
        *[AgentMessageDeltaEvent(delta=word + " ") for word in answer.split(" ")],
        AgentMessageDeltaEvent(delta="\n\n- `load()` keeps `\\r\\n`\n- the par"),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs, advance=12))


def test_snapshot_exec_running(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Run the tests"),
        ExecCommandBeginEvent(
            call_id="c1", command=["bash", "-lc", "pytest -q tests/unit"], cwd=PROJECT
        ),
        ExecCommandOutputDeltaEvent(
            call_id="c1", stream="stdout", chunk="collected 48 items\n\ntests/unit/test_a.py "
        ),
        ExecCommandOutputDeltaEvent(call_id="c1", stream="stdout", chunk="....\ntests/unit/"),
        ExecCommandOutputDeltaEvent(call_id="c1", stream="stdout", chunk="test_b.py ..F"),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs, advance=3))


def test_snapshot_exec_done_ok(snap_compare: Compare) -> None:
    app, boot = app_with()
    output = "\n".join(
        f"-rw-r--r-- 1 user user {100 + i:>5} Oct  1 12:00 file_{i}.py" for i in range(14)
    )
    msgs: list[EventMsg] = [
        *turn_start("What is in this folder?"),
        ExecCommandBeginEvent(call_id="c1", command=["bash", "-lc", "ls -la"], cwd=PROJECT),
        ExecCommandEndEvent(call_id="c1", exit_code=0, aggregated_output=output, duration_ms=42),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_exec_done_failed(snap_compare: Compare) -> None:
    app, boot = app_with()
    output = "F.\n=== FAILURES ===\ntest_upload.py:12: AssertionError\n1 failed, 1 passed in 0.31s"
    msgs: list[EventMsg] = [
        *turn_start("Run the upload tests"),
        ExecCommandBeginEvent(
            call_id="c1", command=["pytest", "-q", "test_upload.py"], cwd=PROJECT
        ),
        ExecCommandEndEvent(
            call_id="c1", exit_code=1, aggregated_output=output, duration_ms=65_400
        ),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_exec_interrupted(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Wait for the build"),
        ExecCommandBeginEvent(call_id="c1", command=["bash", "-lc", "sleep 30"], cwd=PROJECT),
        ExecCommandOutputDeltaEvent(call_id="c1", stream="stdout", chunk="waiting\n"),
        ExecCommandEndEvent(
            call_id="c1",
            exit_code=INTERRUPTED_EXIT_CODE,
            aggregated_output=f"waiting\n{ABORTED_BY_USER}\n",
            duration_ms=5_200,
            interrupted=True,
        ),
        TurnAbortedEvent(),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_patch_cell(snap_compare: Compare) -> None:
    app, boot = app_with()
    changes: dict[str, FileChange] = {
        # The core sends absolute paths; the cell shows them relative to the session's cwd.
        f"{PROJECT}/src/loader.py": UpdateChange(unified_diff=DIFF),
        f"{PROJECT}/docs/CHANGES.md": AddChange(content="# Changes\n\n- strip file contents\n"),
    }
    diff = (
        "diff --git a/src/loader.py b/src/loader.py\n+a\n+b\n-c\n"
        + "diff --git a/docs/CHANGES.md b/docs/CHANGES.md\n+x\n+y\n+z\n"
    )
    msgs: list[EventMsg] = [
        *turn_start("Strip the file contents and note it in the changelog"),
        PatchApplyBeginEvent(call_id="p1", auto_approved=True, changes=changes),
        PatchApplyEndEvent(call_id="p1", success=True),
        TurnDiffEvent(unified_diff=diff),
        TaskCompleteEvent(),
    ]
    assert snap_compare(app, terminal_size=(100, 40), run_before=feeding(boot, *msgs))


def test_snapshot_approval_command(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Install the dependencies"),
        ExecApprovalRequestEvent(
            call_id="c1",
            command=["bash", "-lc", "pip install -r requirements.txt"],
            cwd=PROJECT,
            reason="Installing packages needs network access, which the sandbox blocks.",
        ),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_approval_patch(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Strip the file contents"),
        ApplyPatchApprovalRequestEvent(
            call_id="p1",
            changes={"src/loader.py": UpdateChange(unified_diff=DIFF)},
            reason="This file is outside the writable roots.",
        ),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_resume_picker(snap_compare: Compare) -> None:
    app, _ = app_with(show_picker=True, show_all=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


class RolloutBoot(FakeBoot):
    """A FakeBoot whose picker lists a real CODEX_HOME."""

    def __init__(self, source: RolloutSessions) -> None:
        super().__init__()
        self.real_source = source

    def sessions(self) -> RolloutSessions:  # type: ignore[override]
        return self.real_source


def test_snapshot_resume_picker_skips_corrupt_rollouts(
    snap_compare: Compare, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    day = home / "sessions" / "2025" / "10" / "01"
    day.mkdir(parents=True)
    good = {
        "0199a0c2-0000-7000-8000-000000000001": "Fix the flaky upload test",
        "0199a0c2-0000-7000-8000-000000000002": "Explain the retry policy",
    }
    stamp = FIXED_NOW.timestamp()
    for age, (session_id, text) in enumerate(good.items(), start=1):
        meta = {"id": session_id, "timestamp": "2025-10-01T10:00:00Z", "cwd": PROJECT}
        lines = [
            {"timestamp": "2025-10-01T10:00:00.000Z", "type": "session_meta", "payload": meta},
            {
                "timestamp": "2025-10-01T10:00:01.000Z",
                "type": "event_msg",
                "payload": {"type": "user_message", "message": text},
            },
        ]
        path = day / f"rollout-2025-10-01T10-00-0{age}-{session_id}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        os.utime(path, (stamp - 600 * age, stamp - 600 * age))
    corrupt = {
        "rollout-2025-10-01T11-00-00-0199a0c2-0000-7000-8000-0000000000b1.jsonl": b"<html>",
        "rollout-2025-10-01T11-00-01-0199a0c2-0000-7000-8000-0000000000b2.jsonl": b"\0" * 64,
    }
    for name, body in corrupt.items():
        (day / name).write_bytes(body)
        os.utime(day / name, (stamp - 60, stamp - 60))
    boot = RolloutBoot(RolloutSessions(home, Path(PROJECT)))
    app, _ = app_with(boot, show_picker=True, show_all=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_trust_screen(snap_compare: Compare) -> None:
    boot = FakeBoot(trust=TrustRequest(directory="~/project", is_git_repo=True))
    app, _ = app_with(boot)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_api_key_screen(snap_compare: Compare) -> None:
    boot = FakeBoot(
        key=KeyRequest(
            provider_name="OpenAI", env_var="OPENAI_API_KEY", auth_file="~/.codex/auth.json"
        )
    )
    app, _ = app_with(boot)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_error_cell(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs: list[EventMsg] = [
        *turn_start("Summarise the repository"),
        WarningEvent(message="Reconnecting… 1/5: the stream was cut"),
        ErrorEvent(message="The model provider rejected the API key: check OPENAI_API_KEY."),
        TaskCompleteEvent(),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_plan_and_interrupt(snap_compare: Compare) -> None:
    app, boot = app_with()
    plan = [
        PlanItem(step="Read the loader", status="completed"),
        PlanItem(step="Fix newline handling", status="in_progress"),
        PlanItem(step="Add a regression test", status="pending"),
    ]
    msgs: list[EventMsg] = [
        *turn_start("Fix the loader"),
        PlanUpdateEvent(explanation="Small fix, then a test.", plan=plan),
        TokenCountEvent(
            info=TokenUsageInfo(
                last_token_usage=TokenUsage(total_tokens=58_000), model_context_window=200_000
            )
        ),
        TurnAbortedEvent(reason="interrupted"),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_context_compacted(snap_compare: Compare) -> None:
    """Footer after an automatic compaction: context left back up, the notice in the log."""
    app, boot = app_with()
    window = 258_400  # what the core reports: 95 % of a 272k window

    def count(used: int) -> TokenCountEvent:
        last = TokenUsage(total_tokens=used)
        return TokenCountEvent(
            info=TokenUsageInfo(last_token_usage=last, model_context_window=window)
        )

    msgs: list[EventMsg] = [
        *turn_start("Keep going with the refactor"),
        count(250_000),
        BackgroundEvent(message="Context compacted: earlier turns were replaced by a summary."),
        count(21_000),
        TaskCompleteEvent(),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_resumed_transcript(snap_compare: Compare) -> None:
    past = [
        UserMessageEvent(message="Run the tests and fix what fails").to_wire(),
        ApprovalDecisionEvent(
            call_id="c1", kind="exec", decision="approved", command=["bash", "-lc", "pytest -q"]
        ).to_wire(),
        ExecCommandEndEvent(
            call_id="c1",
            exit_code=1,
            aggregated_output="F.\n1 failed, 1 passed in 0.04s\n",
            duration_ms=1200,
            command=["bash", "-lc", "pytest -q"],
        ).to_wire(),
        AgentMessageEvent(message="One test fails on empty input; I fixed `tokenize()`.").to_wire(),
    ]
    boot = FakeBoot(configured_event=configured(initial_messages=past))
    app, _ = app_with(boot)
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot))


def test_snapshot_web_search(snap_compare: Compare) -> None:
    """A finished hosted web search, then one still running."""
    app, boot = app_with()
    action = {"type": "search", "query": "textual snapshot testing"}
    msgs: list[EventMsg] = [
        *turn_start("How do I snapshot-test a Textual app?"),
        WebSearchBeginEvent(call_id="ws_1"),
        WebSearchEndEvent(call_id="ws_1", query="textual snapshot testing", action=action),
        AgentMessageEvent(message="pytest-textual-snapshot compares SVG screenshots."),
        WebSearchBeginEvent(call_id="ws_2"),
    ]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))


def test_snapshot_wire_startup_warnings_behind_the_badge(snap_compare: Compare) -> None:
    """Over the wire (the TUI is an app-server client), the server's warnings before the
    first turn and its configuration warnings wait behind the footer's badge, as 0.169's
    TUI shows them, instead of joining the transcript."""
    from tests.tui.wire_script import THREAD, WireBoot

    boot = WireBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        boot.connection.push(
            {
                "method": "warning",
                "params": {"threadId": THREAD, "message": "bubblewrap is missing"},
            },
            {
                "method": "configWarning",
                "params": {"threadId": THREAD, "summary": "unknown key `x`"},
            },
        )
        for _ in range(200):
            if boot.connection.idle():
                break
            await pilot.pause(0.02)
        await settle(pilot, rounds=5)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
