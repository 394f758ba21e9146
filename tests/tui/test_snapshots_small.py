"""Every dialog and popup at 60×20 (issue 27): usable, the selection marked `›`, descriptions
wrapped under themselves. The 60×20 patch approval, resume picker and transcript are in
`test_snapshots_daily.py`."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from codex_core.protocol import (
    ExecApprovalRequestEvent,
    McpListToolsResponseEvent,
    McpServerStatus,
    TaskStartedEvent,
    WarningEvent,
)
from codex_tui.app.core import KeyRequest, TrustRequest
from tests.tui.fake_core import PROJECT, FakeBoot, configured, settle
from tests.tui.test_pilot_elicitation import elicitation
from tests.tui.test_snapshots import Compare, app_with, feeding, turn_start
from tests.tui.test_snapshots_commands import conversation, run, submit
from tests.tui.test_snapshots_extensions import home_with_hooks_and_skills, wait_skills

SMALL = (60, 20)


def small_base(name: str) -> Path:
    """A fixed directory per test (paths show on screen; tests may run in parallel)."""
    return Path(tempfile.gettempdir()) / f"codex-tui-small-{name}"


def test_snapshot_small_approval_command(snap_compare: Compare) -> None:
    app, boot = app_with()
    request = ExecApprovalRequestEvent(
        call_id="c1",
        command=["bash", "-lc", "pip install -r requirements.txt"],
        cwd=PROJECT,
        reason="Installing packages needs network access, which the sandbox blocks.",
        suggested_prefix=["pip", "install"],
    )
    msgs = [*turn_start("Install the dependencies"), request]
    assert snap_compare(app, terminal_size=SMALL, run_before=feeding(boot, *msgs))


def test_snapshot_small_approval_command_second_choice(snap_compare: Compare) -> None:
    app, boot = app_with()
    request = ExecApprovalRequestEvent(
        call_id="c1", command=["bash", "-lc", "make install"], cwd=PROJECT
    )

    async def down(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await pilot.press("down")

    assert snap_compare(
        app, terminal_size=SMALL, run_before=run(boot, TaskStartedEvent(), request, then=down)
    )


def test_snapshot_small_mcp_approval(snap_compare: Compare) -> None:
    app, boot = app_with()
    request = ExecApprovalRequestEvent(
        call_id="m1", command=["mcp", "docs", "search", '{"query": "rollout format"}'], cwd="/p"
    )
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, TaskStartedEvent(), request))


def test_snapshot_small_elicitation_form(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs = [*turn_start("Sign me up for the newsletter"), elicitation()]
    assert snap_compare(app, terminal_size=SMALL, run_before=feeding(boot, *msgs))


def test_snapshot_small_slash_popup_wraps_under_the_description(snap_compare: Compare) -> None:
    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, keys="/"))


def test_snapshot_small_skill_popup(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills(small_base("skills"))
    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(
        app, terminal_size=SMALL, run_before=run(boot, keys="use $rel", then=wait_skills)
    )


def test_snapshot_small_model_picker(snap_compare: Compare) -> None:
    async def model(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/model")

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=model))


def test_snapshot_small_permissions_picker(snap_compare: Compare) -> None:
    async def permissions(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/permissions")

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=permissions))


def test_snapshot_small_fork_picker(snap_compare: Compare) -> None:
    app, _ = app_with(show_picker=True, show_all=True, fork_picked=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_small_trust_screen(snap_compare: Compare) -> None:
    app, _ = app_with(FakeBoot(trust=TrustRequest(directory="~/project", is_git_repo=True)))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_small_api_key_screen(snap_compare: Compare) -> None:
    boot = FakeBoot(
        key=KeyRequest(
            provider_name="OpenAI", env_var="OPENAI_API_KEY", auth_file="~/.codex/auth.json"
        )
    )
    app, _ = app_with(boot)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)


def test_snapshot_small_backtrack_selection(snap_compare: Compare) -> None:
    async def esc_esc(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await pilot.press("escape", "escape", "escape")

    app, boot = app_with()
    assert snap_compare(
        app, terminal_size=SMALL, run_before=run(boot, *conversation(), then=esc_esc)
    )


def test_snapshot_small_hooks_list(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills(small_base("hooks"))

    async def hooks(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/hooks")

    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=hooks))


def test_snapshot_small_skills_list(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills(small_base("skills-list"))

    async def skills(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/skills")

    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=skills))


def test_snapshot_small_file_popup(snap_compare: Compare) -> None:
    base = small_base("files")
    shutil.rmtree(base, ignore_errors=True)
    for name in ("src/codex/loader.py", "src/codex/config.py", "tests/test_loader.py"):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text("")

    async def wait_files(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        from codex_tui.app.screens.chat import ChatScreen

        screen = pilot.app.screen
        assert isinstance(screen, ChatScreen)
        files = screen.completion.files
        assert files is not None
        files.done.wait(5)
        await pilot.pause(0.1)
        screen.completion.refresh()
        await pilot.pause(0.2)

    app, boot = app_with(FakeBoot(configured_event=configured(cwd=str(base))))
    assert snap_compare(
        app, terminal_size=SMALL, run_before=run(boot, keys="read @load", then=wait_files)
    )


def test_snapshot_small_reasoning_effort_picker(snap_compare: Compare) -> None:
    async def effort(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/model")
        await pilot.press("enter")
        await settle(pilot)

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=effort))


def test_snapshot_small_status(snap_compare: Compare) -> None:
    async def status(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/status")

    app, boot = app_with(codex_home="/home/user/.codex")
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=status))


def test_snapshot_small_warnings_list(snap_compare: Compare) -> None:
    async def warn(pilot: Pilot[Any], boot: FakeBoot) -> None:
        boot.core.emit(
            WarningEvent(message="unknown config key `colour` in config.toml (ignored)"),
            WarningEvent(message="MCP server 'docs' failed to start: exited with status 1"),
            sub_id="0",
        )
        await settle(pilot, boot.core)
        await pilot.press("f2")

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=warn))


def test_snapshot_small_mcp_list(snap_compare: Compare) -> None:
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
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=mcp))


def test_snapshot_small_review_presets(snap_compare: Compare) -> None:
    async def review(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/review")

    app, boot = app_with()
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=review))


def test_snapshot_small_diff_pager(snap_compare: Compare, tmp_path: Path) -> None:
    for args in (["init", "-q"], ["config", "user.email", "u@e"], ["config", "user.name", "u"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    (tmp_path / "app.py").write_text("def main():\n    return 1\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "commit", "-qm", "i"], cwd=tmp_path, check=True)
    (tmp_path / "app.py").write_text("def main():\n    return 2\n")

    async def diff(pilot: Pilot[Any], _boot: FakeBoot) -> None:
        await submit(pilot, "/diff")
        for _ in range(100):  # git runs in a thread: wait for the pager
            if type(pilot.app.screen).__name__ == "PagerScreen":
                break
            await pilot.pause(0.05)
        for _ in range(3):
            await pilot.pause(0.05)

    app, boot = app_with(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    assert snap_compare(app, terminal_size=SMALL, run_before=run(boot, then=diff))
