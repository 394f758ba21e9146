"""Pilot tests for attached images, MCP call cells, /logout and /status details."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from textual import events

from codex_core.protocol import UserInputOp, UserMessageEvent
from codex_core.protocol.common import LocalImageInput, TextInput
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.pasted_image import image_path
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.composer import Composer
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 34)
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def make_app(cwd: Path, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = FakeBoot(configured_event=configured(cwd=str(cwd)))
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def user_inputs(boot: FakeBoot) -> list[list[object]]:
    return [list(op.items) for op in boot.core.ops if isinstance(op, UserInputOp)]


async def type_text(pilot: Any, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch != " " else "space")


async def paste(pilot: Any, app: CodexApp, text: str) -> None:
    app.screen.query_one(Composer).post_message(events.Paste(text))
    await settle(pilot)


def test_image_path_recognises_what_terminals_paste(tmp_path: Path) -> None:
    (tmp_path / "pic.png").write_bytes(PNG)
    (tmp_path / "my shot.JPG").write_bytes(PNG)
    (tmp_path / "notes.txt").write_text("x")
    assert image_path("pic.png", tmp_path) == "pic.png"
    assert image_path(f"  {tmp_path}/pic.png\n", tmp_path) == f"{tmp_path}/pic.png"
    assert image_path(f"'{tmp_path}/my shot.JPG'", tmp_path) == f"{tmp_path}/my shot.JPG"
    assert image_path(f"{tmp_path}/my\\ shot.JPG", tmp_path) == f"{tmp_path}/my shot.JPG"
    assert image_path(f"file://{tmp_path}/my%20shot.JPG", tmp_path) == f"{tmp_path}/my shot.JPG"
    assert image_path("missing.png", tmp_path) is None
    assert image_path("notes.txt", tmp_path) is None
    assert image_path("pic.png\npic.png", tmp_path) is None


async def test_pasted_image_path_attaches_it_as_a_placeholder(tmp_path: Path) -> None:
    (tmp_path / "pic.png").write_bytes(PNG)
    app, boot = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_text(pilot, "see ")
        await paste(pilot, app, "pic.png")
        await type_text(pilot, "please")
        composer = app.screen.query_one(Composer)
        assert composer.text == "see [Image #1] please"
        await pilot.press("enter")
        await settle(pilot, boot.core)
        assert user_inputs(boot) == [
            [TextInput(text="see [Image #1] please"), LocalImageInput(path="pic.png")]
        ]
        assert composer.images == {}


async def test_deleting_the_placeholder_drops_the_image(tmp_path: Path) -> None:
    (tmp_path / "pic.png").write_bytes(PNG)
    app, boot = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, app, str(tmp_path / "pic.png"))
        composer = app.screen.query_one(Composer)
        assert composer.text == "[Image #1] "
        composer.load_text("just text")
        await pilot.press("enter")
        await settle(pilot, boot.core)
        assert user_inputs(boot) == [[TextInput(text="just text")]]


async def test_pasted_text_that_is_no_image_stays_text(tmp_path: Path) -> None:
    app, _boot = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, app, "missing.png")
        composer = app.screen.query_one(Composer)
        assert composer.text == "missing.png" and composer.images == {}


async def test_launch_images_are_sent_first_and_named_in_the_transcript(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(PNG)
    app, boot = make_app(tmp_path, images=[Path("a.png")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, boot.core)
        assert user_inputs(boot) == [[LocalImageInput(path="a.png")]]
        boot.core.emit(UserMessageEvent(message="", images=["data:image/png;base64,AA"]))
        boot.core.emit(
            UserMessageEvent(message="and [Image #1] here", images=["data:,a", "data:,b"])
        )
        await settle(pilot, boot.core)
        cells = [str(cell.render()) for cell in app.screen.query(UserCell)]
        assert cells == ["› [Image #1]", "› [Image #2]\nand [Image #1] here"]


async def test_logout_says_what_it_did_on_exit(tmp_path: Path) -> None:
    app, boot = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(Composer).load_text("/logout")
        await pilot.press("enter")
        await settle(pilot, boot.core)
    assert boot.logouts == 1
    assert app.exit_message == "Successfully logged out"
    assert [str(r) for r in app._exit_renderables] in ([], ["Successfully logged out"])


async def test_status_shows_the_context_window_before_any_usage(tmp_path: Path) -> None:
    from codex_tui.app.widgets.cells.info_cell import InfoCell

    app, boot = make_app(tmp_path, model_context_window=272_000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(Composer).load_text("/status")
        await pilot.press("enter")
        await settle(pilot, boot.core)
        rows = dict(app.screen.query(InfoCell).last().rows)
        assert rows["Context window"] == "100% left of 272K"


def test_file_walk_outside_git_honours_gitignore_files(tmp_path: Path) -> None:
    from codex_tui.app.file_search import FileIndex

    for path in ("a.py", "build/out.o", "src/m.py", "src/gen/x.py", "src/keep.log", "n.log"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x")
    (tmp_path / ".gitignore").write_text("# built\n/build/\n*.log\n")
    (tmp_path / "src" / ".gitignore").write_text("gen/\n!keep.log\n")
    index = FileIndex(tmp_path)
    index._walk_dirs()
    assert sorted(index.paths) == [
        ".gitignore",
        "a.py",
        "src/.gitignore",
        "src/keep.log",
        "src/m.py",
    ]


async def test_a_long_streamed_table_stays_in_one_segment(tmp_path: Path) -> None:
    from codex_core.protocol import AgentMessageDeltaEvent, AgentMessageEvent, TaskStartedEvent
    from codex_tui.app.widgets.cells.agent_cell import AgentCell

    # ~7,700 chars, nearly twice a segment's 4,000: a hundred wide rows, as long as three
    # hundred narrow ones, and a third as many to render each frame
    words = "told in a good many more words than before"
    rows = "".join(f"| row {i} | the value of row {i}, {words} |\n" for i in range(100))
    answer = "Intro.\n\n| name | value |\n|---|---|\n" + rows + "\nAfter the table.\n"
    app, boot = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent())
        for i in range(0, len(answer), 97):
            boot.core.emit(AgentMessageDeltaEvent(delta=answer[i : i + 97]))
            if i % 970 == 0:
                await settle(pilot, boot.core)
        boot.core.emit(AgentMessageEvent(message=answer))
        await settle(pilot, boot.core)
        sources = app.screen.query_one(AgentCell).segment_sources
        holding = [s for s in sources if "| row 0 |" in s or "| row 99 |" in s]
        assert len(holding) == 1 and "|---|---|" in holding[0] and "| row 99 |" in holding[0]
        assert "After the table." in sources[-1]
