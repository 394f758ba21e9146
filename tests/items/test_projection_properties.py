"""Properties of the item projection over generated event sequences, faults included.

Sequences are turns of random actions (messages, reasoning, commands, patches, MCP calls,
web searches, approvals, errors) drawn from a small pool of call ids, so ids repeat; any end
may be missing, turns may be interrupted, fail, never end, or reuse a submission id. Whatever
happens, what every frontend renders must hold together:

- every started item completes exactly once, and nothing completes that did not start;
- deltas name open items, and an item's deltas join to the text it completes with;
- every call the model made (begin, approval request or end) pairs with a completed item;
- an ended turn leaves nothing open; an interrupted one fails the tool items it closed;
- an item started by its end (or by the automatic reviewer's refusal) completes at once;
- every approval answer, status line, `write_stdin`, MCP server's question and the shutdown
  is told once, in order;
- a patch whose end came first (a replay) has the changes its end names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core import protocol as ev
from codex_core.items import Projection
from codex_core.items import kinds as k
from codex_core.items import notices as n

CALL_IDS = st.sampled_from(["c1", "c2", "c3"])
TEXT = st.text(alphabet="ab \n", max_size=4)
MAYBE = st.booleans()
DECISIONS: list[ev.ReviewDecision | None] = [None, "approved", "denied", "abort"]


@st.composite
def message(draw: st.DrawFn) -> list[ev.EventMsg]:
    deltas = draw(st.lists(TEXT, max_size=4))
    out: list[ev.EventMsg] = [ev.AgentMessageDeltaEvent(delta=d) for d in deltas]
    if draw(MAYBE):
        out.append(ev.AgentMessageEvent(message="".join(deltas)))
    return out


@st.composite
def reasoning(draw: st.DrawFn) -> list[ev.EventMsg]:
    parts = draw(st.lists(st.lists(TEXT, max_size=3), max_size=3))
    out: list[ev.EventMsg] = []
    for part in parts:
        out.append(ev.AgentReasoningSectionBreakEvent())
        out.extend(ev.AgentReasoningDeltaEvent(delta=d) for d in part)
    if draw(MAYBE):
        out.append(ev.AgentReasoningEvent(text="\n\n".join("".join(p) for p in parts)))
    return out


@st.composite
def command(draw: st.DrawFn) -> list[ev.EventMsg]:
    call = draw(CALL_IDS)
    argv = ["bash", "-lc", "true"]
    out: list[ev.EventMsg] = []
    decision: ev.ReviewDecision | None = draw(st.sampled_from(DECISIONS))
    if decision is not None and draw(MAYBE):
        # `--approve-for-me`: the reviewer answers; nobody is asked through an item.
        out.append(
            ev.ApprovalDecisionEvent(
                call_id=call,
                kind="exec",
                decision=decision,
                command=argv,
                reviewer="auto_review",
                rationale="why",
                cwd="/w",
            )
        )
        if decision != "approved":
            return out
    elif decision is not None:
        out.append(ev.ExecApprovalRequestEvent(call_id=call, command=argv, cwd="/w"))
        out.append(ev.ApprovalDecisionEvent(call_id=call, kind="exec", decision=decision))
        if decision != "approved":
            return out
    if draw(MAYBE):
        out.append(ev.ExecCommandBeginEvent(call_id=call, command=argv, cwd="/w"))
    chunks = draw(st.lists(TEXT, max_size=2))
    out.extend(
        ev.ExecCommandOutputDeltaEvent(call_id=call, stream="stdout", chunk=c) for c in chunks
    )
    if draw(MAYBE):
        code = draw(st.sampled_from([0, 1, 130]))
        out.append(ev.ExecCommandEndEvent(call_id=call, exit_code=code, command=argv))
    return out


@st.composite
def patch(draw: st.DrawFn) -> list[ev.EventMsg]:
    call = draw(CALL_IDS)
    changes: dict[str, ev.FileChange] = {"/w/a.txt": ev.AddChange(content="x\n")}
    out: list[ev.EventMsg] = []
    decision: ev.ReviewDecision | None = draw(st.sampled_from(DECISIONS))
    if decision is not None:
        out.append(ev.ApplyPatchApprovalRequestEvent(call_id=call, changes=changes))
        out.append(ev.ApprovalDecisionEvent(call_id=call, kind="patch", decision=decision))
        if decision != "approved":
            return out
    if draw(MAYBE):
        out.append(ev.PatchApplyBeginEvent(call_id=call, auto_approved=True, changes=changes))
    if draw(MAYBE):
        replayed = changes if draw(MAYBE) else None  # a replayed end says what changed
        out.append(ev.PatchApplyEndEvent(call_id=call, success=draw(MAYBE), changes=replayed))
    return out


@st.composite
def other_tool(draw: st.DrawFn) -> list[ev.EventMsg]:
    call = draw(CALL_IDS)
    out: list[ev.EventMsg] = []
    if draw(MAYBE):
        invocation = ev.McpInvocation(server="s", tool="t", arguments={})
        if draw(MAYBE):
            out.append(ev.McpToolCallBeginEvent(call_id=call, invocation=invocation))
        if draw(MAYBE):
            out.append(ev.McpToolCallEndEvent.ok(call, invocation, 0.1, {"content": []}))
    else:
        if draw(MAYBE):
            out.append(ev.WebSearchBeginEvent(call_id=call))
        if draw(MAYBE):
            out.append(ev.WebSearchEndEvent(call_id=call, query="q"))
    return out


NOTES = st.sampled_from(
    [
        [ev.ErrorEvent(message="boom")],
        [ev.StreamErrorEvent(message="retrying")],
        [ev.WarningEvent(message="careful")],
        [ev.TurnDiffEvent(unified_diff="")],
        [ev.BackgroundEvent(message="starting")],
        [ev.ElicitationRequestEvent(server_name="s", id="e1", message="name?")],
        [
            ev.ElicitationRequestEvent(
                server_name="s",
                id="e2",
                message="sign in",
                mode="url",
                url="https://x.test/login",
                elicitation_id="el-1",
                turn_id="1",
            )
        ],
        [ev.ShutdownCompleteEvent()],
        [ev.TerminalInteractionEvent(call_id="w1", process_id="7", stdin="y\n")],
        [ev.TerminalInteractionEvent(call_id="w2", process_id="7", stdin="", command_call_id="c1")],
    ]
)
ACTION = st.one_of(message(), reasoning(), command(), patch(), other_tool(), NOTES)


@st.composite
def session(draw: st.DrawFn) -> list[ev.Event]:
    events = [ev.Event(id="0", msg=ev.SessionConfiguredEvent(session_id="s", model="m"))]
    for _ in range(draw(st.integers(1, 3))):
        sub = draw(st.sampled_from(["1", "2", "3"]))  # a reused id restarts an open turn
        said = ev.UserMessageEvent(message=draw(TEXT))
        body: list[ev.EventMsg] = [ev.TaskStartedEvent(), said]
        for action in draw(st.lists(ACTION, max_size=6)):
            body.extend(action)
        end = draw(st.sampled_from(["complete", "aborted", "none"]))
        if end == "complete":
            body.append(ev.TaskCompleteEvent())
        elif end == "aborted":
            body.append(ev.TurnAbortedEvent())
        events.extend(ev.Event(id=sub, msg=msg) for msg in whole_messages(body))
    return events


def whole_messages(body: list[ev.EventMsg]) -> list[ev.EventMsg]:
    """`body` with each agent message's text made the join of every delta since the last
    one (as the model streams it: an end names the whole message)."""
    out: list[ev.EventMsg] = []
    streamed: list[str] = []
    for msg in body:
        if isinstance(msg, ev.AgentMessageDeltaEvent):
            streamed.append(msg.delta)
        elif isinstance(msg, ev.AgentMessageEvent):
            msg = ev.AgentMessageEvent(message="".join(streamed))
            streamed.clear()
        out.append(msg)
    return out


@dataclass
class Checker:
    """Replays the notices and fails on the first broken promise."""

    open: dict[str, str] = field(default_factory=dict)
    """Open item id → its turn."""
    text: dict[str, list[str]] = field(default_factory=dict)
    completed: set[str] = field(default_factory=set)

    def see(self, notice: n.Notice) -> None:
        match notice:
            case n.ItemStarted():
                assert notice.item.id not in self.open, f"{notice.item.id} started twice"
                self.open[notice.item.id] = notice.turn
                self.text[notice.item.id] = []
            case n.ItemCompleted():
                assert self.open.pop(notice.item.id, None) is not None, notice
                self.completed.add(notice.item.id)
                self._text_matches(notice.item, "".join(self.text.pop(notice.item.id)))
            case n.AgentMessageDelta() | n.ReasoningDelta():
                assert notice.item_id in self.open, notice
                self.text[notice.item_id].append(notice.delta)
            case n.ReasoningPartAdded() | n.CommandOutputDelta():
                assert notice.item_id in self.open, notice
            case n.CommandApprovalRequested() | n.PatchApprovalRequested():
                assert notice.item_id in self.open, "an approval names its started item"
            case n.TurnEnded():
                left = [item for item, turn in self.open.items() if turn == notice.turn]
                assert not left, f"turn {notice.turn} ended with {left} open"
            case _:
                pass

    @staticmethod
    def _text_matches(item: k.ThreadItem, streamed: str) -> None:
        if isinstance(item, k.AgentMessageItem):
            assert item.text == streamed
        elif isinstance(item, k.ReasoningItem) and streamed:
            assert "".join(item.summary) == streamed


def call_ids(events: list[ev.Event]) -> set[str]:
    """The ids of the calls the events announce (begins, approval requests, ends, refusals;
    typing into a running command is no call of its own, and a call the automatic reviewer
    allowed starts only when it begins)."""
    passing = ev.ExecCommandOutputDeltaEvent | ev.TerminalInteractionEvent
    return {
        msg.call_id
        for e in events
        if not isinstance(msg := e.msg, passing)
        and hasattr(msg, "call_id")
        and not (isinstance(msg, ev.ApprovalDecisionEvent) and msg.decision == "approved")
    }


def told_once(msg: ev.EventMsg, notices: list[n.Notice]) -> None:
    """An approval answer, a status line or a `write_stdin` is told once, as it was."""
    match msg:
        case ev.ApprovalDecisionEvent():
            told = [x for x in notices if isinstance(x, n.ApprovalDecided)]
            assert [(x.item_id, x.decision, x.reviewer, x.rationale) for x in told] == [
                (msg.call_id, msg.decision, msg.reviewer, msg.rationale)
            ]
        case ev.PatchApplyEndEvent(changes=dict() as changes):
            late = [x for x in notices if isinstance(x, n.ItemStarted) and x.by == "end"]
            assert all(getattr(x.item, "changes", None) == changes for x in late)
        case ev.ElicitationRequestEvent():
            turn = notices[0].turn
            asked = n.ElicitationRequested(
                turn,
                msg.server_name,
                msg.id,
                msg.message,
                msg.mode,
                msg.requested_schema,
                msg.url,
                msg.elicitation_id,
                during_turn=msg.turn_id is not None,
            )
            assert notices == [asked]
        case ev.ShutdownCompleteEvent():
            assert notices == [n.SessionEnded(notices[0].turn)]
        case ev.BackgroundEvent():
            assert notices == [n.BackgroundMessage(notices[0].turn, msg.message)]
        case ev.TerminalInteractionEvent():
            assert [x for x in notices if isinstance(x, n.TerminalInteraction)] == [
                n.TerminalInteraction(
                    notices[0].turn, msg.command_call_id or msg.call_id, msg.process_id, msg.stdin
                )
            ]
        case _:
            pass


def completes_at_once(notices: list[n.Notice]) -> None:
    """Items started by their end, or by the reviewer's refusal, complete in the same feed."""
    at_once = {
        x.item.id for x in notices if isinstance(x, n.ItemStarted) and x.by in ("end", "review")
    }
    completed = {x.item.id for x in notices if isinstance(x, n.ItemCompleted)}
    assert at_once <= completed


@settings(max_examples=300, deadline=None)
@given(session())
def test_projection_items_start_once_complete_once_and_pair_with_calls(
    events: list[ev.Event],
) -> None:
    projection = Projection()
    checker = Checker()
    ended_by_interrupt: list[n.ItemCompleted] = []
    pending: list[n.ItemCompleted] = []
    for event in events:
        notices = projection.feed(event)
        told_once(event.msg, notices)
        completes_at_once(notices)
        for notice in notices:
            checker.see(notice)
            if isinstance(notice, n.ItemCompleted) and notice.cause == "turn_ended":
                pending.append(notice)
            if isinstance(notice, n.TurnEnded):
                if notice.status == "interrupted":
                    ended_by_interrupt.extend(pending)
                pending.clear()
    assert sorted(checker.open) == sorted(projection.open_items())
    assert call_ids(events) <= checker.completed | set(checker.open)
    for done in ended_by_interrupt:
        if isinstance(done.item, k.CommandExecutionItem | k.FileChangeItem | k.McpToolCallItem):
            assert done.item.status == "failed"


@settings(max_examples=200, deadline=None)
@given(session())
def test_projection_ended_session_leaves_nothing_open(events: list[ev.Event]) -> None:
    projection = Projection()
    for event in events:
        projection.feed(event)
    for sub in {e.id for e in events if e.id != "0"}:
        projection.feed(ev.Event(id=sub, msg=ev.TurnAbortedEvent()))
    assert projection.open_items() == []


@settings(max_examples=100, deadline=None)
@given(session())
def test_projection_preview_is_the_first_user_message_with_text(events: list[ev.Event]) -> None:
    """What thread lists show: set by the first user message that has text, then kept."""
    projection = Projection()
    said: list[str] = []
    for event in events:
        projection.feed(event)
        if isinstance(event.msg, ev.UserMessageEvent) and event.msg.message:
            said.append(event.msg.message)
        assert projection.preview == (said[0] if said else "")
