"""Pilot tests for what a daily Codex user trips over (issue 27): resumed sessions, keys,
steering, drafts, backtrack, small terminals, transcript, markdown, retries, wording."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import DataTable

from codex_core.protocol import (
    AgentMessageEvent,
    ErrorEvent,
    EventMsg,
    ExecApprovalRequestEvent,
    SteerInputOp,
    StreamErrorEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    TextInput,
    UserInputOp,
    UserMessageEvent,
)
from codex_core.rollout.reader import read_rollout
from codex_core.rollout.replay import reconstruct
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.approval import ApprovalScreen
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.screens.resume_picker import ResumePickerScreen
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.cells.patch_cell import PatchCell
from codex_tui.app.widgets.cells.separator_cell import SeparatorCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.queued_list import QueuedList
from codex_tui.app.widgets.status_line import StatusLine
from codex_tui.app.widgets.transcript import Transcript
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle


def app_with(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def long_past() -> list[dict[str, Any]]:
    """One question and an answer several screens long (laid out after it mounts)."""
    answer = "\n\n".join(f"Paragraph {i}: " + "words " * 12 for i in range(40))
    past: list[EventMsg] = [
        UserMessageEvent(message="tell me"),
        AgentMessageEvent(message=answer + "\n\nTHE END"),
    ]
    return [m.to_wire() for m in past]


async def test_resumed_session_opens_at_the_bottom_and_pages_with_keys() -> None:
    boot = FakeBoot(configured_event=configured(initial_messages=long_past()))
    app, _ = app_with(boot)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, boot.core if boot.cores else None, rounds=4)
        transcript = app.screen.query_one(Transcript)
        assert isinstance(app.screen, ChatScreen)
        assert transcript.max_scroll_y > 0
        assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("pageup")
        await settle(pilot)
        assert transcript.scroll_y < transcript.max_scroll_y
        await pilot.press("home")  # on an empty composer: the top of the conversation
        await settle(pilot)
        assert transcript.scroll_y == 0
        await pilot.press("pagedown")
        await settle(pilot)
        assert transcript.scroll_y > 0
        await pilot.press("end")
        await settle(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y


FIXTURES_0169 = Path(__file__).resolve().parents[1] / "fixtures" / "rollouts_0169"


async def test_resumed_0169_session_shows_its_file_edits_in_view_and_transcript() -> None:
    """A 0.169 rollout's FileChange item replays as the patch cell the live session showed."""
    [path] = [p for p in FIXTURES_0169.glob("*.jsonl") if "FileChange" in p.read_text()]
    past = reconstruct(read_rollout(path)).events
    boot = FakeBoot(configured_event=configured(initial_messages=past, cwd="/root/rh-proj"))
    app, _ = app_with(boot)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, boot.core if boot.cores else None, rounds=4)
        [patch] = app.screen.query(PatchCell)
        shown = str(patch.render())
        assert "Added added.txt (+1 -0)" in shown and "+new line" in shown
        await pilot.press("ctrl+t")
        await settle(pilot)
        pager = app.screen
        assert isinstance(pager, PagerScreen)
        text = "\n".join(line.plain for line in pager.lines)
        assert "Added /root/rh-proj/added.txt" in text and "+new line" in text


async def test_enter_during_a_turn_steers_and_tab_queues() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        core = boot.core
        core.emit(TaskStartedEvent(), UserMessageEvent(message="first"))
        await settle(pilot, core)
        footer = app.screen.query_one(FooterBar)
        assert ("tab", "queue for after it") in footer.hints()
        await pilot.press(*"use pathlib", "enter")
        await settle(pilot)
        [steer] = core.ops_of(SteerInputOp)
        assert isinstance(steer, SteerInputOp) and steer.items == [TextInput(text="use pathlib")]
        queued = app.screen.query_one(QueuedList)
        assert queued.messages == ["use pathlib"]
        await pilot.press(*"then run the tests", "tab")
        await settle(pilot)
        assert queued.messages == ["use pathlib", "then run the tests"]
        core.emit(UserMessageEvent(message="use pathlib"))  # the steer joined the turn
        await settle(pilot, core)
        assert queued.messages == ["then run the tests"]
        assert core.ops_of(UserInputOp) == []
        core.emit(TaskCompleteEvent())
        await settle(pilot, core)
        [sent] = core.ops_of(UserInputOp)
        assert isinstance(sent, UserInputOp)
        assert sent.items == [TextInput(text="then run the tests")]
        assert queued.messages == []


async def test_ctrl_c_clears_a_draft_that_up_brings_back() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        composer = app.screen.query_one(Composer)
        await pilot.press(*"a long draft", "ctrl+c")
        await settle(pilot)
        assert composer.text == ""
        await pilot.press("up")
        await settle(pilot)
        assert composer.text == "a long draft"
        assert boot.core.ops_of(UserInputOp) == []


def cell_text(cell: AgentCell) -> str:
    return "\n".join(cell.render_line(y).text.rstrip() for y in range(cell.size.height))


async def test_markdown_links_show_their_url_and_ordered_lists_keep_their_dots() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        answer = "Read the [docs](https://example.com/docs).\n\n1. first\n2. second\n"
        boot.core.emit(AgentMessageEvent(message=answer))
        await settle(pilot, boot.core)
        shown = cell_text(app.screen.query_one(AgentCell))
        assert "Read the docs (https://example.com/docs)." in shown
        assert "1. first" in shown and "2. second" in shown


async def test_ctrl_t_transcript_wraps_long_lines() -> None:
    app, boot = app_with()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        long = "start " + "middle " * 20 + "THE-TAIL"
        boot.core.emit(UserMessageEvent(message=long))
        await settle(pilot, boot.core)
        await pilot.press("ctrl+t")
        await settle(pilot)
        text = app.screen.query_one("#pager-text")
        assert text.size.width <= 60
        rows = [text.render_line(y).text for y in range(text.size.height)]
        assert any("THE-TAIL" in row for row in rows)


def notice_texts(app: CodexApp) -> list[str]:
    return [str(n.render()) for n in app.screen.query(NoticeCell)]


async def test_connection_retries_update_one_status_line_and_giving_up_is_one_line() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        core = boot.core
        core.emit(TaskStartedEvent(), UserMessageEvent(message="go"))
        core.emit(*[StreamErrorEvent(message=f"Reconnecting… {n}/4") for n in (1, 2, 3, 4)])
        await settle(pilot, core)
        assert notice_texts(app) == []
        assert app.screen.query_one(StatusLine).header == "Reconnecting… 4/4"
        core.emit(ErrorEvent(message="stream disconnected before completion"))
        core.emit(TaskCompleteEvent())
        await settle(pilot, core)
        [line] = notice_texts(app)
        assert "stream disconnected before completion" in line


async def test_cancelled_command_wording_and_worked_for_leaves_out_approval_wait() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        core = boot.core
        core.emit(TaskStartedEvent(), UserMessageEvent(message="go"))
        core.emit(ExecApprovalRequestEvent(call_id="c1", command=["pytest", "-q"], cwd="/p"))
        await settle(pilot, core)
        assert isinstance(app.screen, ApprovalScreen)
        app.clock.advance(30)  # type: ignore[attr-defined]
        await pilot.press("y")
        await settle(pilot, core)
        core.emit(TaskCompleteEvent())
        await settle(pilot, core)
        [separator] = app.screen.query(SeparatorCell)
        assert "plus 30s waiting for your approval" in str(separator.render())
        applier = app.screen.applier  # type: ignore[attr-defined]
        await applier.add_decision("c2", "exec", "abort", ["pytest", "-q"])
        await settle(pilot)
        assert any("You cancelled running pytest -q and stopped" in n for n in notice_texts(app))


async def test_in_app_resume_picker_footer_says_esc_goes_back() -> None:
    app, boot = app_with()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*"/resume", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        hint = str(app.screen.query_one("#picker-hint").render())
        assert "esc back" in hint and "new session" not in hint
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen) and len(boot.starts) == 1


async def test_resume_picker_at_60_columns_keeps_the_conversation_column() -> None:
    app, _ = app_with(show_picker=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        widths = {str(key.value): column.width for key, column in table.columns.items()}
        assert widths["conversation"] >= 24
        padding = 2 * table.cell_padding * len(widths)
        assert sum(widths.values()) + padding <= 60 - 2


async def test_status_line_stands_still_while_an_approval_waits() -> None:
    """The spinner stops under an approval dialog: the line (and the dialog over it) is not
    repainted ten times a second while the user reads."""
    app, boot = app_with()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(), ExecApprovalRequestEvent(call_id="c1", command=["make"], cwd="/p")
        )
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ApprovalScreen)
        assert app.chat is not None
        status = app.chat.query_one(StatusLine)
        shown = [(status.frame, status.waiting)]
        for _ in range(3):
            app.clock.advance(0.35)  # type: ignore[attr-defined]
            await pilot.pause(0.15)
            shown.append((status.frame, status.waiting))
        assert shown == [(0, True)] * 4
