"""Pilot tests for slash commands, @ files, the transcript overlay, backtrack and the footer."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from codex_core.protocol import (
    AgentMessageEvent,
    BackgroundTerminal,
    BackgroundTerminalsStoppedEvent,
    CleanBackgroundTerminalsOp,
    CompactOp,
    EventMsg,
    InterruptOp,
    ListBackgroundTerminalsOp,
    ListBackgroundTerminalsResponseEvent,
    ListMcpToolsOp,
    McpListToolsResponseEvent,
    McpServerStatus,
    Op,
    OverrideTurnContextOp,
    TaskCompleteEvent,
    TaskStartedEvent,
    TerminateBackgroundTerminalOp,
    UndoOp,
    UserInputOp,
    UserMessageEvent,
    WarningEvent,
)
from codex_core.protocol.common import ReadOnlyPolicy, TextInput
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.screens.choice import ChoiceScreen
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.widgets.cells.info_cell import InfoCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.completion_popup import CompletionPopup
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.transcript import Transcript
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

SIZE = (100, 34)


def make_app(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def sent_texts(boot: FakeBoot, core: int = -1) -> list[str]:
    ops = [op for op in boot.cores[core].ops if isinstance(op, UserInputOp)]
    return [i.text for op in ops for i in op.items if isinstance(i, TextInput)]


def notices(app: CodexApp) -> list[str]:
    return [cell.message for cell in app.screen.query(NoticeCell)]


async def type_text(pilot: Any, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch != " " else "space")


async def test_slash_popup_opens_filters_and_tab_completes() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        popup = app.screen.query_one(CompletionPopup)
        assert popup.is_open and popup.values[0] == "model" and len(popup.values) >= 15
        await type_text(pilot, "sta")
        assert popup.values[0] == "status"
        await pilot.press("tab")
        assert app.screen.query_one(Composer).text == "/status "
        assert not popup.is_open


async def test_slash_enter_runs_the_highlighted_command_without_sending() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_text(pilot, "/stat")
        await pilot.press("enter")
        await settle(pilot, boot.core)
        cells = list(app.screen.query(InfoCell))
        assert [c.title_text for c in cells] == ["Status"]
        rows = dict(cells[0].rows)
        assert rows["Model"] == "gpt-5-codex"
        assert rows["Session"] == "0199a0c2-7e3a-7d41-b0a1-5d2f8c9e1f00"
        assert sent_texts(boot) == []


@pytest.mark.parametrize("text", ["/statsu", "/definitely-not"])
async def test_unknown_slash_word_never_reaches_the_model(text: str) -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        composer = app.screen.query_one(Composer)
        composer.load_text(text)
        app.screen.query_one(CompletionPopup).hide()
        composer.capture_keys = False
        await pilot.press("enter")
        await settle(pilot, boot.core)
        assert sent_texts(boot) == []
        assert any("is not a command" in n for n in notices(app))
        assert composer.text == text


async def test_a_path_is_not_a_command() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one(Composer).load_text("/usr/bin is slow")
        await pilot.press("enter")
        await settle(pilot, boot.core)
        assert sent_texts(boot) == ["/usr/bin is slow"]


async def test_idle_only_commands_say_so_while_a_turn_runs() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), UserMessageEvent(message="work"))
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/compact")
        await app.screen.submit_text("/mcp")
        await settle(pilot, boot.core)
        assert "/compact is unavailable while a turn runs" in notices(app)
        assert boot.core.ops_of(CompactOp) == []
        assert len(boot.core.ops_of(ListMcpToolsOp)) == 1


async def test_compact_undo_mcp_submit_their_ops_and_mcp_lists_servers() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        for command in ("/compact", "/undo", "/mcp"):
            await screen.submit_text(command)
        boot.core.emit(
            McpListToolsResponseEvent(
                servers=[McpServerStatus(name="docs", status="ready", tools=["search"])]
            )
        )
        await settle(pilot, boot.core)
        assert [type(op) for op in boot.core.ops[-3:]] == [CompactOp, UndoOp, ListMcpToolsOp]
        cell = app.screen.query_one(InfoCell)
        assert cell.title_text == "MCP servers"
        assert cell.rows == [("docs", "ready"), ("", "tools: search")]


async def test_slash_new_starts_a_new_session_and_quit_leaves() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/new")
        await settle(pilot, boot.core)
        assert boot.starts == [None, None]
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/exit")
        await settle(pilot, boot.core)
    assert app.return_value is not None


async def test_slash_model_picks_model_and_effort_and_saves_them() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/model")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("home", "enter")  # the first model
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("end", "enter")  # the last effort: high
        await settle(pilot, boot.core)
        assert boot.core.ops_of(OverrideTurnContextOp) == [
            OverrideTurnContextOp(model="gpt-5.1-codex-max", effort="high")
        ]
        assert boot.saved_models == [("gpt-5.1-codex-max", "high")]
        footer = app.screen.query_one(FooterBar)
        assert (footer.model, footer.effort) == ("gpt-5.1-codex-max", "high")


async def test_slash_approvals_alias_picks_a_preset() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/approvals")
        await settle(pilot)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("home", "enter")
        await settle(pilot, boot.core)
        assert boot.core.ops_of(OverrideTurnContextOp) == [
            OverrideTurnContextOp(approval_policy="on-request", sandbox_policy=ReadOnlyPolicy())
        ]


async def test_init_sends_the_agents_prompt(tmp_path: Path) -> None:
    app, boot = make_app(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/init")
        await settle(pilot, boot.core)
        assert len(sent_texts(boot)) == 1 and "AGENTS.md" in sent_texts(boot)[0]


def git_repo(root: Path) -> Path:
    for args in (["init", "-q"], ["config", "user.email", "u@e"], ["config", "user.name", "u"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    (root / "kept.py").write_text("one\n")
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", "i"], cwd=root, check=True)
    return root


async def test_slash_diff_opens_the_pager_with_untracked_files(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    (repo / "kept.py").write_text("two\n")
    (repo / "brand_new.txt").write_text("hello\n")
    app, boot = make_app(FakeBoot(configured_event=configured(cwd=str(repo))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/diff")
        for _ in range(100):  # git runs in a thread: wait for the pager, not a fixed time
            if isinstance(app.screen, PagerScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, PagerScreen)
        plain = [line.plain for line in app.screen.lines]
        assert "+two" in plain and "-one" in plain and "+hello" in plain
        assert any("brand_new.txt" in line for line in plain)
        await pilot.press("q")
        assert isinstance(app.screen, ChatScreen)


async def test_at_popup_lists_files_and_tab_inserts_the_path(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main_module.py").write_text("")
    (tmp_path / "README.md").write_text("")
    app, boot = make_app(FakeBoot(configured_event=configured(cwd=str(tmp_path))))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_text(pilot, "look at @mainmod")
        popup = app.screen.query_one(CompletionPopup)
        for _ in range(50):
            if popup.values:
                break
            await pilot.pause(0.02)
        assert popup.values == ["src/main_module.py"]
        await pilot.press("tab")
        assert app.screen.query_one(Composer).text == "look at src/main_module.py "
        assert not popup.is_open


async def test_ctrl_t_opens_the_whole_transcript_and_searches() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(),
            UserMessageEvent(message="first question"),
            AgentMessageEvent(message="an answer\nwith two lines"),
            TaskCompleteEvent(),
        )
        await settle(pilot, boot.core)
        await pilot.press("ctrl+t")
        assert isinstance(app.screen, PagerScreen)
        pager = app.screen
        assert [line.plain for line in pager.lines][:4] == [
            "› first question",
            "",
            "• an answer",
            "  with two lines",
        ]
        await pilot.press("slash")
        await type_text(pilot, "two")
        await pilot.press("enter")
        assert pager.matches == [3]
        await pilot.press("escape")
        assert isinstance(app.screen, ChatScreen)


async def two_turns(pilot: Any, boot: FakeBoot) -> None:
    for n, (question, answer) in enumerate([("first", "one"), ("second", "two")]):
        boot.core.emit(
            TaskStartedEvent(),
            UserMessageEvent(message=question),
            AgentMessageEvent(message=answer),
            TaskCompleteEvent(),
            sub_id=str(n + 1),
        )
    await settle(pilot, boot.core)


async def test_backtrack_esc_esc_selects_and_enter_reverts_to_edit_the_message() -> None:
    app, boot = make_app(FakeBoot(configured_event=configured(rollout_path="/s/r.jsonl")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await two_turns(pilot, boot)
        await pilot.press("escape")
        assert app.screen.query_one(FooterBar).mode == "esc-armed"
        await pilot.press("escape")
        cells = list(app.screen.query(UserCell))
        assert [c.has_class("-selected") for c in cells] == [False, True]
        await pilot.press("escape")
        assert [c.has_class("-selected") for c in cells] == [True, False]
        boot.configured_event = configured(rollout_path="/s/fork.jsonl")  # nothing before #0
        await pilot.press("enter")  # reverts at once, as 0.169: a fork before "first"
        await settle(pilot, boot.core)
        await settle(pilot, boot.core)
        assert boot.forks == [(Path("/s/r.jsonl"), 0)]
        assert boot.starts == [None, Path("/sessions/fork-1.jsonl")]
        assert list(app.screen.query(UserCell)) == []  # the reverted messages are gone
        notices = [str(n.render()) for n in app.screen.query(NoticeCell)]
        assert any("rolled back" in n for n in notices)
        composer = app.screen.query_one(Composer)
        assert composer.text == "first"
        composer.load_text("first, but differently")
        await pilot.press("enter")
        await settle(pilot, boot.core)
        assert sent_texts(boot) == ["first, but differently"]


async def test_ctrl_c_after_an_interrupt_does_not_arm_quit() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), UserMessageEvent(message="go"))
        await settle(pilot, boot.core)
        await pilot.press("ctrl+c")
        await settle(pilot, boot.core)
        assert len(boot.core.ops_of(InterruptOp)) == 1
        footer = app.screen.query_one(FooterBar)
        assert not footer.quit_armed
        assert app.return_value is None


async def test_startup_warnings_wait_behind_the_badge_and_f2_lists_them() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(WarningEvent(message="unknown config key `x`"), sub_id="0")
        boot.core.emit(WarningEvent(message="a warning during a turn"), sub_id="3")
        await settle(pilot, boot.core)
        assert notices(app) == ["a warning during a turn"]
        assert app.screen.query_one(FooterBar).warnings == 1
        await pilot.press("f2")
        assert isinstance(app.screen, PagerScreen)
        assert [line.plain for line in app.screen.lines] == ["⚠ unknown config key `x`"]


async def test_notification_is_sent_when_unfocused_and_enabled() -> None:
    app, boot = make_app(notifications=["agent-turn-complete"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        written: list[str] = []
        assert app._driver is not None
        app._driver.write = written.append  # type: ignore[method-assign,assignment]
        app.app_focus = False
        boot.core.emit(TaskStartedEvent(), UserMessageEvent(message="go"), TaskCompleteEvent())
        await settle(pilot, boot.core)
        assert "\x1b]9;Codex finished the turn\x07" in written
        written.clear()
        app.app_focus = True
        boot.core.emit(TaskStartedEvent(), TaskCompleteEvent())
        await settle(pilot, boot.core)
        assert written == []


async def test_view_sticks_to_the_bottom_for_a_long_answer_and_a_resume() -> None:
    text = "\n\n".join(f"line {i}" for i in range(140))
    past: list[dict[str, Any]] = []
    for n in range(4):
        past += [
            {"type": "user_message", "message": f"q{n}"},
            {"type": "agent_message", "message": text},
        ]
    for boot in (FakeBoot(), FakeBoot(configured_event=configured(initial_messages=past))):
        app, _ = make_app(boot)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, boot.core, rounds=4)
            boot.core.emit(TaskStartedEvent(), AgentMessageEvent(message=text), TaskCompleteEvent())
            await settle(pilot, boot.core, rounds=4)
            transcript = app.screen.query_one(Transcript)
            assert transcript.max_scroll_y > 0
            assert transcript.scroll_y == transcript.max_scroll_y


async def test_mcp_approval_names_server_and_tool_enter_allows_esc_cancels() -> None:
    from codex_core.protocol import ExecApprovalOp, ExecApprovalRequestEvent
    from codex_tui.app.screens.approval import ApprovalScreen

    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for call_id, key in (("m1", "enter"), ("m2", "escape")):
            boot.core.emit(
                ExecApprovalRequestEvent(
                    call_id=call_id, command=["mcp", "docs", "search", '{"q": "x"}'], cwd="/p"
                )
            )
            await settle(pilot, boot.core)
            assert isinstance(app.screen, ApprovalScreen)
            assert app.screen.mcp_call == ("docs", "search", '{"q": "x"}')
            await pilot.press(key)
            await settle(pilot, boot.core)
        assert boot.core.ops_of(ExecApprovalOp) == [
            ExecApprovalOp(id="m1", decision="approved"),
            ExecApprovalOp(id="m2", decision="abort"),
        ]


def background_core(boot: FakeBoot) -> None:
    """A core with two background terminals that answers /ps and /stop as the real one."""
    running = {
        "1234": BackgroundTerminal(
            process_id="1234", command="npm run dev", elapsed_ms=65_000, last_line="ready"
        ),
        "5678": BackgroundTerminal(process_id="5678", command="sleep 300", elapsed_ms=2_000),
    }

    def answer(op: Op) -> list[EventMsg]:
        match op:
            case ListBackgroundTerminalsOp():
                return [ListBackgroundTerminalsResponseEvent(terminals=list(running.values()))]
            case TerminateBackgroundTerminalOp() if op.process_id in running:
                return [BackgroundTerminalsStoppedEvent(stopped=[running.pop(op.process_id)])]
            case TerminateBackgroundTerminalOp():
                return [BackgroundTerminalsStoppedEvent(unknown_process_id=op.process_id)]
            case CleanBackgroundTerminalsOp():
                stopped = list(running.values())
                running.clear()
                return [BackgroundTerminalsStoppedEvent(stopped=stopped)]
        return []

    boot.core.on_op = answer


async def test_ps_lists_background_terminals_and_stop_id_kills_one_then_stop_kills_all() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        background_core(boot)
        screen = app.screen
        assert isinstance(screen, ChatScreen)
        await screen.submit_text("/ps")
        await settle(pilot, boot.core)
        cell = app.screen.query(InfoCell).last()
        assert cell.title_text == "Background terminals"
        assert cell.rows == [
            ("1234", "npm run dev"),
            ("", "running 1m 05s · ready"),
            ("5678", "sleep 300"),
            ("", "running 2s"),
        ]
        await screen.submit_text("/stop 1234")
        await screen.submit_text("/stop 999")
        await settle(pilot, boot.core)
        assert boot.core.ops_of(TerminateBackgroundTerminalOp) == [
            TerminateBackgroundTerminalOp(process_id="1234"),
            TerminateBackgroundTerminalOp(process_id="999"),
        ]
        assert notices(app)[-2:] == [
            "Stopped background terminal 1234 (npm run dev).",
            "No background terminal 999 is running; /ps lists the ones that are.",
        ]
        await screen.submit_text("/stop")
        await screen.submit_text("/ps")
        await settle(pilot, boot.core)
        assert boot.core.ops_of(CleanBackgroundTerminalsOp) == [CleanBackgroundTerminalsOp()]
        assert notices(app)[-1] == "Stopped background terminal 5678 (sleep 300)."
        last = app.screen.query(InfoCell).last()
        assert last.rows == [] and sent_texts(boot) == []


async def test_ps_and_stop_work_while_a_turn_runs() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), UserMessageEvent(message="work"))
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ChatScreen)
        await app.screen.submit_text("/ps")
        await app.screen.submit_text("/stop")
        await settle(pilot, boot.core)
        assert [type(op) for op in boot.core.ops[-2:]] == [
            ListBackgroundTerminalsOp,
            CleanBackgroundTerminalsOp,
        ]
        assert not [n for n in notices(app) if "unavailable" in n]


async def test_a_slash_or_esc_on_an_empty_composer_prepares_the_next_session() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, boot.core)
        await pilot.press("h", "i")
        assert boot.prepared == 0  # ordinary typing does not
        await pilot.press("ctrl+u", "slash")
        await settle(pilot, boot.core)
        assert boot.prepared >= 1
        await pilot.press("backspace")
        before = boot.prepared
        await pilot.press("escape")
        await settle(pilot, boot.core)
        assert boot.prepared > before
