"""`/hooks` and `/skills` (issue 25): what the user sees, and trusting a hook from the TUI.

Fixed directories under the temp dir: the cells show paths, and snapshots must not change
between runs. Tests of this module on other xdist workers would rebuild the same directory
under each other, so each test holds a lock on it for its whole run.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from codex_core.hooks.sources import load_hooks
from tests.tui.fake_core import FakeBoot, configured
from tests.tui.test_snapshots_commands import SIZE, Compare, app_with, run, submit

BASE = Path(tempfile.gettempdir()) / "codex-tui-snapshot-extensions"


@pytest.fixture(autouse=True)
def _one_test_at_a_time_in_base() -> Iterator[None]:
    with open(f"{BASE}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def home_with_hooks_and_skills(base: Path = BASE) -> tuple[Path, Path]:
    shutil.rmtree(base, ignore_errors=True)
    home, project = base / "home", base / "project"
    project.mkdir(parents=True)
    guard = {"type": "command", "command": "/usr/local/bin/guard --strict", "timeout": 30}
    note = {"type": "command", "command": "notify-send done"}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}], "Stop": [{"hooks": [note]}]}
    home.mkdir()
    (home / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    first = load_hooks(home, {}, None).hooks[0]
    (home / "config.toml").write_text(
        f'[hooks.state."{first.key}"]\ntrusted_hash = "{first.current_hash}"\n'
    )
    skill = home / "skills" / "release-notes"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Draft release notes from the git log\n---\n"
    )
    return home, project


def test_snapshot_hooks_list(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills()

    async def hooks(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/hooks")

    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=hooks))


def test_snapshot_skills_list(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills()

    async def skills(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/skills")

    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=skills))


async def test_hooks_trust_and_disable_from_the_tui_write_the_record(tmp_path: Path) -> None:
    home, project = home_with_hooks_and_skills(tmp_path / "extensions")  # it writes the record
    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    async with app.run_test(size=SIZE) as pilot:
        await run(boot)(pilot)
        await submit(pilot, "/hooks trust 2")
        await submit(pilot, "/hooks disable 1")
        await pilot.pause(0.3)
    state = tomllib.loads((home / "config.toml").read_text())["hooks"]["state"]
    catalog = load_hooks(home, {"state": state}, None)
    assert [catalog.trust(h) for h in catalog.hooks] == ["trusted", "trusted"]
    assert [catalog.enabled(h) for h in catalog.hooks] == [False, True]


async def wait_skills(pilot: Pilot[Any], boot: FakeBoot) -> None:
    from codex_tui.app.screens.chat import ChatScreen

    screen = pilot.app.screen
    assert isinstance(screen, ChatScreen)
    for _ in range(100):  # the skills are read in a worker thread
        index = screen.completion.skills
        if index is not None and index.done.is_set():
            break
        await pilot.pause(0.02)
    await pilot.pause(0.1)
    screen.completion.refresh()
    await pilot.pause(0.1)


def test_snapshot_skill_popup(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills()
    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(
        app, terminal_size=SIZE, run_before=run(boot, keys="use $rel", then=wait_skills)
    )


async def test_skill_popup_tab_inserts_the_mention() -> None:
    from codex_tui.app.widgets.composer import Composer

    home, project = home_with_hooks_and_skills()
    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    async with app.run_test(size=SIZE) as pilot:
        await run(boot, keys="use $rnotes", then=wait_skills)(pilot)
        await pilot.press("tab")
        assert app.screen.query_one(Composer).text == "use $release-notes "


async def wait_review_notice(pilot: Pilot[Any], boot: FakeBoot) -> None:
    from codex_tui.app.widgets.cells.notice_cell import NoticeCell

    for _ in range(100):
        if any("need" in str(cell.render()) for cell in pilot.app.screen.query(NoticeCell)):
            break
        await pilot.pause(0.05)


def test_snapshot_hooks_needing_review_at_start(snap_compare: Compare) -> None:
    home, project = home_with_hooks_and_skills()
    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=wait_review_notice))


def test_snapshot_hooks_and_skills_of_a_plugin(snap_compare: Compare) -> None:
    """An installed plugin's hook (needing review, named by its plugin) and its skill."""
    from codex_core.plugins import config_edit
    from codex_core.plugins.install import install
    from tests.support.plugin_market import make_marketplace

    base = BASE.with_name(BASE.name + "-plugin")
    home, project = home_with_hooks_and_skills(base)
    market = base / "market"
    make_marketplace(market, base)
    config_edit.add_marketplace(home, "localmk", "local", str(market), None)
    install(home, {"localmk": {"source_type": "local", "source": str(market)}}, "demo", "localmk")

    async def both(pilot: Pilot[Any], boot: FakeBoot) -> None:
        await submit(pilot, "/hooks")
        await submit(pilot, "/skills")

    app, boot = app_with(
        FakeBoot(configured_event=configured(cwd=str(project))), codex_home=str(home)
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=run(boot, then=both))
