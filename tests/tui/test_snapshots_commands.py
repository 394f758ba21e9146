"""Snapshots of the states added with the everyday commands (stored in `snapshots/`)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    AgentMessageEvent,
    BackgroundTerminal,
    BackgroundTerminalsStoppedEvent,
    EventMsg,
    ExecApprovalRequestEvent,
    ListBackgroundTerminalsResponseEvent,
    McpListToolsResponseEvent,
    McpServerStatus,
    TaskCompleteEvent,
    TaskStartedEvent,
    TokenCountEvent,
    UserMessageEvent,
    WarningEvent,
)
from codex_core.protocol.common import TokenUsage, TokenUsageInfo
from codex_tui.app.codex_app import CodexApp
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 34)
Compare = Callable[..., bool]
Step = Callable[[Pilot[Any], FakeBoot], Awaitable[None]]


def app_with(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def run(boot: FakeBoot, *msgs: EventMsg, keys: str = "", then: Step | None = None) -> Any:
    """Feed events, type `keys` (one char each), then run `then`."""

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if msgs:
            boot.core.emit(*msgs)
            await settle(pilot, boot.core)
        for ch in keys:
            await pilot.press({" ": "space", "/": "slash"}.get(ch, ch))
        if then is not None:
            await then(pilot, boot)
        await settle(pilot, boot.core, rounds=3)

    return before


def conversation() -> list[EventMsg]:
    out: list[EventMsg] = []
    for question, answer in (
        ("Where is the config loaded?", "In `config/loader.py`."),
        ("Add a test for it", "Added `tests/test_loader.py`."),
    ):
        out += [
            TaskStartedEvent(),
            UserMessageEvent(message=question),
            AgentMessageEvent(message=answer),
            TaskCompleteEvent(),
        ]
    return out


def usage(total: int) -> TokenCountEvent:
    last = TokenUsage(input_tokens=total - 500, output_tokens=500, total_tokens=total)
    return TokenCountEvent(
        info=TokenUsageInfo(
            total_token_usage=last, last_token_usage=last, model_context_window=258_400
        )
    )


async def submit(pilot: Pilot[Any], text: str) -> None:
    from codex_tui.app.screens.chat import ChatScreen

    screen = pilot.app.screen
    assert isinstance(screen, ChatScreen)
    await screen.submit_text(text)
    await pilot.pause(0.2)


def test_snapshot_slash_popup_open(snap_compare: Compare) -> None:
    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, keys="/"))


def test_snapshot_slash_popup_filtered(snap_compare: Compare) -> None:
    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, keys="/st"))


def test_snapshot_file_popup(snap_compare: Compare) -> None:
    # A fixed directory: the session header shows it, and tmp_path changes between runs.
    tmp_path = Path(tempfile.gettempdir()) / "codex-tui-snapshot-files"
    shutil.rmtree(tmp_path, ignore_errors=True)
    for name in ("src/codex/loader.py", "src/codex/config.py", "tests/test_loader.py", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")

    async def wait_files(pilot: Pilot[Any], boot: FakeBoot) -> None:
        from codex_tui.app.screens.chat import ChatScreen

        screen = pilot.app.screen
        assert isinstance(screen, ChatScreen)
        files = screen.completion.files
        assert files is not None
        files.done.wait(5)
        await pilot.pause(0.1)
        screen.completion.refresh()  # the final rows, whatever the poll timer saw
        await pilot.pause(0.2)

    app, boot = app_with(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    assert snap_compare(
        app, terminal_size=SIZE, run_before=run(boot, keys="read @load", then=wait_files)
    )


def test_snapshot_transcript_overlay(snap_compare: Compare) -> None:
    async def open_overlay(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await pilot.press("ctrl+t")

    app, boot = app_with()
    assert snap_compare(
        app, terminal_size=SIZE, run_before=run(boot, *conversation(), then=open_overlay)
    )


def test_snapshot_backtrack_selection(snap_compare: Compare) -> None:
    async def esc_esc(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await pilot.press("escape", "escape", "escape")

    app, boot = app_with()
    assert snap_compare(
        app, terminal_size=SIZE, run_before=run(boot, *conversation(), then=esc_esc)
    )


def test_snapshot_status(snap_compare: Compare) -> None:
    async def status(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/status")

    app, boot = app_with(codex_home="/home/user/.codex", notifications=["agent-turn-complete"])
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, usage(42_000), then=status))


def test_snapshot_diff_pager(snap_compare: Compare, tmp_path: Path) -> None:
    for args in (["init", "-q"], ["config", "user.email", "u@e"], ["config", "user.name", "u"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    (tmp_path / "app.py").write_text("def main():\n    return 1\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "commit", "-qm", "i"], cwd=tmp_path, check=True)
    (tmp_path / "app.py").write_text("def main():\n    return 2\n")
    (tmp_path / "notes.txt").write_text("a new file\n")

    async def diff(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/diff")
        for _ in range(100):  # git runs in a thread: wait for the pager, not a fixed time
            if type(pilot.app.screen).__name__ == "PagerScreen":
                break
            await pilot.pause(0.05)
        for _ in range(3):  # then let it lay out and paint, however busy the machine is
            await pilot.pause(0.05)
        await pilot.wait_for_scheduled_animations()

    app, boot = app_with(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=diff))


def test_snapshot_context_left_footer(snap_compare: Compare) -> None:
    app, boot = app_with()
    assert snap_compare(
        app, terminal_size=SIZE, run_before=run(boot, *conversation(), usage(131_000))
    )


def test_snapshot_warnings_badge(snap_compare: Compare) -> None:
    async def warn(pilot: Pilot[Any], boot: FakeBoot) -> None:
        boot.core.emit(
            WarningEvent(message="unknown config key `colour` in config.toml (ignored)"),
            WarningEvent(message="MCP server 'docs' failed to start: exited with status 1"),
            sub_id="0",
        )
        await settle(pilot, boot.core)

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=warn))


def test_snapshot_warnings_list(snap_compare: Compare) -> None:
    async def warn(pilot: Pilot[Any], boot: FakeBoot) -> None:
        boot.core.emit(
            WarningEvent(message="unknown config key `colour` in config.toml (ignored)"),
            sub_id="0",
        )
        await settle(pilot, boot.core)
        await pilot.press("f2")

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=warn))


def test_snapshot_mcp_list(snap_compare: Compare) -> None:
    async def mcp(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/mcp")
        boot.core.emit(
            McpListToolsResponseEvent(
                servers=[
                    McpServerStatus(name="docs", status="ready", tools=["fetch", "search"]),
                    McpServerStatus(name="jira", status="failed", error="timed out starting up"),
                ]
            )
        )
        await settle(pilot, boot.core)

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=mcp))


def test_snapshot_ps_list(snap_compare: Compare) -> None:
    async def ps(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/ps")
        boot.core.emit(
            ListBackgroundTerminalsResponseEvent(
                terminals=[
                    BackgroundTerminal(
                        process_id="41207",
                        command="npm run dev",
                        elapsed_ms=125_000,
                        last_line="Local: http://localhost:5173/",
                    ),
                    BackgroundTerminal(process_id="8315", command="sleep 300", elapsed_ms=4_000),
                ]
            )
        )
        await settle(pilot, boot.core)

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=ps))


def test_snapshot_ps_empty_after_stop(snap_compare: Compare) -> None:
    async def stop(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/stop")
        stopped = BackgroundTerminal(process_id="8315", command="sleep 300", elapsed_ms=4_000)
        boot.core.emit(BackgroundTerminalsStoppedEvent(stopped=[stopped]))
        await submit(pilot, "/ps")
        boot.core.emit(ListBackgroundTerminalsResponseEvent(terminals=[]))
        await settle(pilot, boot.core)

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=stop))


def test_snapshot_mcp_approval(snap_compare: Compare) -> None:
    app, boot = app_with()
    request = ExecApprovalRequestEvent(
        call_id="m1", command=["mcp", "docs", "search", '{"query": "rollout format"}'], cwd="/p"
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, TaskStartedEvent(), request))
