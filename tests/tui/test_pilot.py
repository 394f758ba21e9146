"""Pilot tests: drive the app with keys against a scripted core and check the ops it submits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.message import Message

from codex_core.protocol import (
    ABORTED_BY_USER,
    INTERRUPTED_EXIT_CODE,
    AddToHistoryOp,
    AgentMessageEvent,
    ApplyPatchApprovalRequestEvent,
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    GetHistoryEntryRequestOp,
    InterruptOp,
    Op,
    PatchApprovalOp,
    ShutdownOp,
    TaskCompleteEvent,
    TaskStartedEvent,
    TokenCountEvent,
    TurnAbortedEvent,
    UserInputOp,
    UserMessageEvent,
)
from codex_core.protocol.common import (
    LocalImageInput,
    TextInput,
    TokenUsage,
    TokenUsageInfo,
    UpdateChange,
)
from codex_tui.app.codex_app import CodexApp, ExitSummary
from codex_tui.app.core import KeyRequest, TrustRequest
from codex_tui.app.messages import CoreNotices
from codex_tui.app.screens.approval import ApprovalScreen
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.screens.resume_picker import ResumePickerScreen
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.exec_cell import ExecCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.marked_list import MarkedOptionList
from codex_tui.app.widgets.queued_list import QueuedList
from tests.tui.fake_core import (
    PROJECT,
    SESSION_ID,
    FakeBoot,
    configured,
    frozen_clock,
    options,
    settle,
)

SIZE = (100, 34)


def make_app(boot: FakeBoot | None = None, **opts: Any) -> tuple[CodexApp, FakeBoot]:
    boot = boot or FakeBoot()
    return CodexApp(boot, options(**opts), clock=frozen_clock()), boot


def texts(ops: list[Any]) -> list[str]:
    return [item.text for op in ops for item in op.items if isinstance(item, TextInput)]


def exec_request() -> ExecApprovalRequestEvent:
    return ExecApprovalRequestEvent(
        call_id="call-1",
        command=["bash", "-lc", "touch hello.txt"],
        cwd=PROJECT,
        reason="needs write",
    )


async def test_approval_yes_sends_approved() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), exec_request())
        await settle(pilot, boot.core)
        assert isinstance(app.screen, ApprovalScreen)
        await pilot.press("y")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [
            ExecApprovalOp(id="call-1", decision="approved")
        ]
        assert isinstance(app.screen, ChatScreen)
        notices = [cell.message for cell in app.screen.query(NoticeCell)]
        assert "You approved codex to run touch hello.txt" in notices


async def test_approval_n_aborts_the_turn() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), exec_request())
        await settle(pilot, boot.core)
        await pilot.press("n")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [ExecApprovalOp(id="call-1", decision="abort")]


async def test_approval_d_declines_and_the_turn_goes_on() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), exec_request())
        await settle(pilot, boot.core)
        await pilot.press("d")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [ExecApprovalOp(id="call-1", decision="denied")]
        notices = [cell.message for cell in app.screen.query(NoticeCell)]
        assert "You did not approve codex to run touch hello.txt; the turn goes on" in notices


async def test_approval_prompt_names_the_key_for_each_decision() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), exec_request())
        await settle(pilot, boot.core)
        options = app.screen.query_one(MarkedOptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == [
            "› 1. Yes, proceed (y)",
            "  2. Yes, and don't ask again this session (a)",
            "  3. No, continue without running it (d)",
            "  4. No, and tell Codex what to do differently (esc / n)",
        ]


async def test_approval_escape_aborts_and_always_approves_for_session() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        patch = ApplyPatchApprovalRequestEvent(
            call_id="p1", changes={"a.py": UpdateChange(unified_diff="@@ -1 +1 @@\n-a\n+b\n")}
        )
        second = exec_request().model_copy(update={"call_id": "call-2"})
        boot.core.emit(TaskStartedEvent(), patch, second)
        await settle(pilot, boot.core)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ApprovalScreen), "the second request follows the first"
        await pilot.press("a")
        await settle(pilot)
        assert boot.core.ops_of(PatchApprovalOp) == [PatchApprovalOp(id="p1", decision="abort")]
        assert boot.core.ops_of(ExecApprovalOp) == [
            ExecApprovalOp(id="call-2", decision="approved_for_session")
        ]


async def test_approval_prefix_option_remembers_prefix() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        request = exec_request().model_copy(update={"suggested_prefix": ["touch"]})
        boot.core.emit(TaskStartedEvent(), request)
        await settle(pilot, boot.core)
        await pilot.press("p")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [
            ExecApprovalOp(id="call-1", decision="approved", remember_prefix=["touch"])
        ]


async def test_approval_pauses_the_turn_timer() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent())
        await settle(pilot, boot.core)
        app.clock.advance(5)  # type: ignore[attr-defined]
        boot.core.emit(exec_request())
        await settle(pilot, boot.core)
        app.clock.advance(60)  # type: ignore[attr-defined]
        await pilot.press("y")
        await settle(pilot)
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        assert chat.timer.elapsed() == 5


async def test_escape_interrupts_running_turn() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        assert boot.core.ops_of(InterruptOp) == [], "nothing runs yet, so nothing to interrupt"
        boot.core.emit(TaskStartedEvent())
        await settle(pilot, boot.core)
        await pilot.press("escape")
        await settle(pilot)
        assert boot.core.ops_of(InterruptOp) == [InterruptOp()]


async def test_ctrl_c_twice_quits_with_summary() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(
            TokenCountEvent(
                info=TokenUsageInfo(total_token_usage=TokenUsage(input_tokens=10, output_tokens=5))
            )
        )
        await settle(pilot, boot.core)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert app.is_running
        await pilot.press("ctrl+c")
        await settle(pilot)
    assert boot.core.ops_of(ShutdownOp) == [ShutdownOp()]
    assert app.return_value == ExitSummary(
        session_id=SESSION_ID, usage=TokenUsage(input_tokens=10, output_tokens=5)
    )


async def test_ctrl_c_clears_composer_first() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"draft")
        composer = app.screen.query_one(Composer)
        assert composer.text == "draft"
        await pilot.press("ctrl+c")
        assert composer.text == ""
        assert app.is_running
        assert boot.core.ops_of(ShutdownOp) == []


async def test_ctrl_d_on_empty_composer_quits() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+d")
        await settle(pilot)
    assert boot.core.ops_of(ShutdownOp) == [ShutdownOp()]
    assert not app.is_running


async def test_enter_sends_message_and_history() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"fix it", "shift+enter", *"now", "enter")
        await settle(pilot)
        assert texts(boot.core.ops_of(UserInputOp)) == ["fix it\nnow"]
        assert boot.core.ops_of(AddToHistoryOp) == [AddToHistoryOp(text="fix it\nnow")]
        assert app.screen.query_one(Composer).text == ""


async def test_queued_message_sent_after_turn() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), UserMessageEvent(message="first"))
        await settle(pilot, boot.core)
        await pilot.press(*"second", "tab")  # Tab queues (Enter would steer)
        await settle(pilot)
        assert texts(boot.core.ops_of(UserInputOp)) == []
        assert app.screen.query_one(QueuedList).messages == ["second"]
        boot.core.emit(AgentMessageEvent(message="done"), TaskCompleteEvent())
        await settle(pilot, boot.core)
        assert texts(boot.core.ops_of(UserInputOp)) == ["second"]
        assert app.screen.query_one(QueuedList).messages == []


async def test_queued_message_restored_after_interrupt() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent())
        await settle(pilot, boot.core)
        await pilot.press(*"later", "enter")
        boot.core.emit(TurnAbortedEvent())
        await settle(pilot, boot.core)
        assert texts(boot.core.ops_of(UserInputOp)) == []
        assert app.screen.query_one(Composer).text == "later"


async def test_launch_prompt_and_images_sent_once() -> None:
    app, boot = make_app(prompt="explain this", images=[Path("/img/shot.png")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        ops = boot.core.ops_of(UserInputOp)
        assert len(ops) == 1
        assert isinstance(ops[0], UserInputOp)
        assert ops[0].items == [
            TextInput(text="explain this"),
            LocalImageInput(path="/img/shot.png"),
        ]


async def test_history_up_walks_session_then_persistent_entries() -> None:
    boot = FakeBoot(configured_event=configured(history_entry_count=2))
    app, _ = make_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.history = ["oldest entry", "older entry"]
        await pilot.press(*"mine", "enter")
        await settle(pilot)
        composer = app.screen.query_one(Composer)
        await pilot.press("up")
        assert composer.text == "mine"
        await pilot.press("up")
        await settle(pilot, boot.core)
        assert composer.text == "older entry"
        await pilot.press("up")
        await settle(pilot, boot.core)
        assert composer.text == "oldest entry"
        assert boot.core.ops_of(GetHistoryEntryRequestOp) == [
            GetHistoryEntryRequestOp(offset=1, log_id=7),
            GetHistoryEntryRequestOp(offset=0, log_id=7),
        ]
        await pilot.press("down", "down", "down")
        assert composer.text == ""


async def test_large_paste_kept_intact() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        big = "\n".join(f"line {i}" for i in range(400))
        composer = app.screen.query_one(Composer)
        composer.post_message(_paste(big))
        await settle(pilot)
        assert composer.text.startswith("[Pasted text #1:")
        await pilot.press("enter")
        await settle(pilot)
        assert texts(boot.core.ops_of(UserInputOp)) == [big]


def _paste(text: str) -> Message:
    from textual.events import Paste

    return Paste(text)


async def test_trust_screen_records_trust_before_session() -> None:
    boot = FakeBoot(trust=TrustRequest(directory="~/project", is_git_repo=True))
    app, _ = make_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert boot.starts == []
        await pilot.press("1")
        await settle(pilot)
        assert boot.trust_answers == [True]
        assert boot.starts == [None]


@pytest.mark.parametrize("key", ["2", "n", "escape"])
async def test_trust_screen_leaving_records_nothing_and_starts_no_session(key: str) -> None:
    # 0.169 offers trust or leave (back to its agent command center): no "do not trust".
    boot = FakeBoot(trust=TrustRequest(directory="~/project", is_git_repo=True))
    app, _ = make_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert boot.trust_answers == []
        assert boot.starts == []
    assert app.return_code in (0, None)


async def test_api_key_screen_saves_pasted_key() -> None:
    boot = FakeBoot(key=KeyRequest("OpenAI", "OPENAI_API_KEY", "~/.codex/auth.json"))
    app, _ = make_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"sk-test", "enter")
        await settle(pilot)
        assert boot.saved_keys == ["sk-test"]
        assert isinstance(app.screen, ChatScreen)


async def test_api_key_screen_escape_exits_with_hint() -> None:
    boot = FakeBoot(key=KeyRequest("OpenAI", "OPENAI_API_KEY", "~/.codex/auth.json"))
    app, _ = make_app(boot)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert app.return_value is not None
    assert "OPENAI_API_KEY" in (app.return_value.error or "")
    assert boot.starts == []


async def test_picker_enter_resumes_highlighted_session_and_replays() -> None:
    past = [
        {"type": "user_message", "message": "earlier question"},
        {"type": "agent_message", "message": "earlier answer"},
        {"type": "some_future_event", "x": 1},
    ]
    boot = FakeBoot(configured_event=configured(initial_messages=past))
    app, _ = make_app(boot, show_picker=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        await pilot.press("down", "enter")
        await settle(pilot, boot.core if boot.cores else None)
        assert boot.starts == [Path("/sessions/rollout-001.jsonl")]
        users = [cell.message for cell in app.screen.query(UserCell)]
        assert users == ["earlier question"]
        answers = [cell.text for cell in app.screen.query(AgentCell)]
        assert answers == ["earlier answer"]
        shown = [s for cell in app.screen.query(AgentCell) for s in cell.segment_sources]
        assert shown == ["earlier answer"]


async def test_picker_search_filters_and_escape_starts_new() -> None:
    app, boot = make_app(show_picker=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ResumePickerScreen)
        await pilot.press(*"plugin")
        await settle(pilot)
        assert [item.preview for item in picker.shown] == ["Write docs for the plugin API"]
        await pilot.press("escape")
        await settle(pilot)
        assert boot.starts == [None]


async def test_picker_loads_pages_as_you_scroll() -> None:
    from tests.tui.fake_core import FakeSessions, sample_sessions

    sessions = FakeSessions(sample_sessions(60), page_size=10)
    app, _ = make_app(FakeBoot(sessions=sessions), show_picker=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ResumePickerScreen)
        first = len(picker.items)
        assert first < 60
        for _ in range(4):
            await pilot.press("pagedown")
            await settle(pilot)
        assert len(picker.items) > first


async def test_events_arrive_as_batched_messages() -> None:
    from codex_core.protocol import AgentMessageDeltaEvent

    batches: list[int] = []

    def hook(message: Message) -> None:
        if isinstance(message, CoreNotices):
            batches.append(len(message.notices))

    app, boot = make_app()
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent())
        boot.core.emit(*[AgentMessageDeltaEvent(delta="x") for _ in range(500)])
        await settle(pilot, boot.core)
    assert sum(batches) >= 3  # the turn, its answer's start, and its deltas coalesced
    assert len(batches) < 100, "deltas are coalesced into frames, not one message each"


async def test_keystrokes_reach_the_composer_during_50k_deltas() -> None:
    """Functional half of the old latency test; the latency itself is tests/bench/tui_keystrokes.py."""
    import asyncio

    from textual import events

    from codex_core.protocol import AgentMessageDeltaEvent

    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent())
        boot.core.emit(*[AgentMessageDeltaEvent(delta=f"w{i} ") for i in range(50_000)])
        composer = app.screen.query_one(Composer)
        for char in "hello":
            typed = composer.text + char
            app.post_message(events.Key(char, char))
            for _ in range(5000):  # bounded: a starved composer fails instead of hanging
                if composer.text == typed:
                    break
                await asyncio.sleep(0.002)
            assert composer.text == typed
        for _ in range(400):
            if boot.core._queue.empty():
                break
            await pilot.pause(0.05)
        await settle(pilot)
        cell = app.screen.query_one(AgentCell)
        assert cell.text.endswith("w49999 ")


async def test_transcript_drops_oldest_cells_past_limit() -> None:
    from codex_core.protocol import WarningEvent
    from codex_tui.app.widgets.transcript import Transcript

    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transcript = app.screen.query_one(Transcript)
        transcript.max_cells = 5
        boot.core.emit(*[WarningEvent(message=f"warning {i}") for i in range(12)])
        await settle(pilot, boot.core)
        messages = [cell.message for cell in transcript.query(NoticeCell)]
        assert messages[0] == "… 8 earlier cells are not shown"
        assert messages[1:] == [f"warning {i}" for i in range(7, 12)]


async def test_hidden_reasoning_still_names_the_status() -> None:
    from codex_core.protocol import AgentReasoningDeltaEvent
    from codex_tui.app.widgets.cells.reasoning_cell import ReasoningCell

    app, boot = make_app(hide_agent_reasoning=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(), AgentReasoningDeltaEvent(delta="**Scanning tests**\n\nx")
        )
        await settle(pilot, boot.core)
        chat = app.screen
        assert isinstance(chat, ChatScreen)
        assert list(chat.query(ReasoningCell)) == []
        assert chat.header == "Scanning tests"


async def test_worked_for_separator_after_a_turn_that_ran_commands() -> None:
    from codex_core.protocol import ExecCommandBeginEvent, ExecCommandEndEvent
    from codex_tui.app.widgets.cells.separator_cell import SeparatorCell

    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(
            TaskStartedEvent(),
            ExecCommandBeginEvent(call_id="c", command=["ls"], cwd=PROJECT),
            ExecCommandEndEvent(call_id="c", exit_code=0),
        )
        await settle(pilot, boot.core)
        app.clock.advance(65.4)  # type: ignore[attr-defined]
        boot.core.emit(TaskCompleteEvent())
        await settle(pilot, boot.core)
        assert [cell.label for cell in app.screen.query(SeparatorCell)] == ["Worked for 1m 05s"]


async def test_slash_resume_switches_to_the_picked_session() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = boot.core
        await pilot.press(*"/resume", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ResumePickerScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert first.ops_of(ShutdownOp) == [ShutdownOp()]
        assert boot.starts == [None, Path("/sessions/rollout-000.jsonl")]
        assert isinstance(app.screen, ChatScreen) and app.screen.outbox.core is boot.core
        assert app.is_running, "the old session's shutdown does not end the app"


async def test_ctrl_c_in_approval_aborts_the_turn() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), exec_request())
        await settle(pilot, boot.core)
        await pilot.press("ctrl+c")
        await settle(pilot)
        assert boot.core.ops_of(ExecApprovalOp) == [ExecApprovalOp(id="call-1", decision="abort")]
        assert app.is_running


def running_sleep() -> ExecCommandBeginEvent:
    return ExecCommandBeginEvent(call_id="c1", command=["bash", "-lc", "sleep 30"], cwd=PROJECT)


async def test_ctrl_c_on_a_running_command_shows_the_cell_interrupted() -> None:
    app, boot = make_app()

    def on_op(op: Op) -> list[EventMsg]:
        if not isinstance(op, InterruptOp):
            return []
        end = ExecCommandEndEvent(
            call_id="c1",
            exit_code=INTERRUPTED_EXIT_CODE,
            aggregated_output=ABORTED_BY_USER,
            duration_ms=1200,
            interrupted=True,
        )
        return [end, TurnAbortedEvent()]

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.on_op = on_op
        boot.core.emit(TaskStartedEvent(), running_sleep())
        await settle(pilot, boot.core)
        [cell] = app.screen.query(ExecCell)
        assert cell.running
        await pilot.press("ctrl+c")
        await settle(pilot, boot.core)
        assert boot.core.ops_of(InterruptOp) == [InterruptOp()]
        assert not cell.running and cell.interrupted and cell.has_class("-failed")
        assert "✗ interrupted · 1.2s" in str(cell.render())


async def test_turn_aborted_without_command_end_still_stops_the_cell() -> None:
    app, boot = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boot.core.emit(TaskStartedEvent(), running_sleep(), TurnAbortedEvent())
        await settle(pilot, boot.core)
        [cell] = app.screen.query(ExecCell)
        assert not cell.running and cell.interrupted
        assert "Running" not in str(cell.render())
