"""Snapshots of MCP call cells (running, result, error), attached images and a long streamed
answer."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    McpInvocation,
    McpToolCallBeginEvent,
    McpToolCallEndEvent,
    TaskStartedEvent,
    UserMessageEvent,
)
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.exec_cell import ExecCell
from codex_tui.app.widgets.composer import Composer
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 34)
Compare = Callable[..., bool]
CALL = McpInvocation(server="docs", tool="search", arguments={"query": "sandbox policy"})


def run_with(*msgs: Any, then: Callable[[Pilot[Any], CodexApp], Any] | None = None) -> Any:
    async def before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, CodexApp)
        boot = app.boot
        assert isinstance(boot, FakeBoot)
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), *msgs)
        await settle(pilot, boot.core)
        if then is not None:
            await then(pilot, app)
        await settle(pilot, boot.core, rounds=3)

    return before


def app_for(cwd: str = "/home/user/project") -> CodexApp:
    boot = FakeBoot(configured_event=configured(cwd=cwd))
    return CodexApp(boot, options(), clock=frozen_clock())


def test_snapshot_mcp_call_running(snap_compare: Compare) -> None:
    begin = McpToolCallBeginEvent(call_id="m1", invocation=CALL)
    assert snap_compare(app_for(), terminal_size=SIZE, run_before=run_with(begin))


def test_snapshot_mcp_call_result(snap_compare: Compare) -> None:
    result = {
        "content": [{"type": "text", "text": f"match {i}: sandbox_policy.md"} for i in range(9)],
        "isError": False,
    }
    msgs = (
        McpToolCallBeginEvent(call_id="m1", invocation=CALL),
        McpToolCallEndEvent.ok("m1", CALL, 1.25, result),
    )
    assert snap_compare(app_for(), terminal_size=SIZE, run_before=run_with(*msgs))


def test_snapshot_mcp_call_error(snap_compare: Compare) -> None:
    msgs = (
        McpToolCallBeginEvent(call_id="m1", invocation=CALL),
        McpToolCallEndEvent.err("m1", CALL, 60.0, "tool call timed out after 60s"),
    )
    assert snap_compare(app_for(), terminal_size=SIZE, run_before=run_with(*msgs))


def test_snapshot_images_attached(snap_compare: Compare) -> None:
    # A fixed directory: the session header shows it, and tmp_path changes between runs.
    tmp_path = Path(tempfile.gettempdir()) / "codex-tui-snapshot-images"
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "shot.png").write_bytes(b"\x89PNG\r\n\x1a\n")

    async def paste(pilot: Pilot[Any], app: CodexApp) -> None:
        composer = app.screen.query_one(Composer)
        composer.post_message(events.Paste("shot.png"))
        await settle(pilot)
        composer.insert("what is wrong here?")

    sent = UserMessageEvent(message="[Image #2] compare with", images=["data:,a", "data:,b"])
    app = app_for(str(tmp_path))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_with(sent, then=paste))


def test_snapshot_long_streamed_answer_keeps_code_and_table_whole(snap_compare: Compare) -> None:
    """A code block that crosses a segment boundary stays highlighted on both sides, and the
    table after it renders as a table (the answer arrives in 60-character deltas)."""
    code = "".join(f"    total_{i} = measure(samples[{i}])\n" for i in range(80))
    answer = (
        "Here is the whole loop.\n\n"
        + "The measurements come first. " * 100
        + "\n\n```python\ndef run(samples):\n"
        + code
        + "    return total_0\n```\n\n| step | time |\n|---|---|\n| load | 12 ms |\n"
        + "| parse | 30 ms |\n\nThat is all."
    )
    deltas = [AgentMessageDeltaEvent(delta=answer[i : i + 60]) for i in range(0, len(answer), 60)]
    assert snap_compare(app_for(), terminal_size=SIZE, run_before=run_with(*deltas))


def test_snapshot_terminal_controls_in_model_text_and_output_are_not_rendered(
    snap_compare: Compare,
) -> None:
    """Issue 23 item 9: the answer's OSC 52 / title / clear-screen and a command's title
    sequence show as visible marks (␛ ␇ <9b>), never acting; the command's colour codes are
    dropped, a lone CR starts a new line, Unicode stays."""
    answer = (
        "Copied \x1b]52;c;UFdORUQ=\x07for you\x1b]0;TITLE\x07\x1b[2J\x1b[H — 日本語 🎉 bell\x07."
    )
    msgs = (
        ExecCommandBeginEvent(
            call_id="c1", command=["bash", "-lc", "printf '\\033]0;x\\007'"], cwd="/home/user"
        ),
        ExecCommandEndEvent(
            call_id="c1",
            exit_code=0,
            aggregated_output="\x1b[32mgreen\x1b[0m \x1b]2;T\x1b\\done\x9b2J\nprogress 10%\r50%\n",
            duration_ms=12,
        ),
        AgentMessageDeltaEvent(delta=answer),
    )

    async def rendered(pilot: Pilot[Any], app: CodexApp) -> None:
        for _ in range(100):  # under load the cells may lag the drained queue
            cells = list(app.screen.query(ExecCell))
            agents = list(app.screen.query(AgentCell))
            if cells and not cells[0].running and agents and "日本語" in agents[0].text:
                break
            await pilot.pause(0.05)

    assert snap_compare(app_for(), terminal_size=SIZE, run_before=run_with(*msgs, then=rendered))
