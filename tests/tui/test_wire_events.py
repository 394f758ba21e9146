"""`wire_events`: an app-server thread's wire messages as the events the TUI's cells take."""

from __future__ import annotations

from typing import Any

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    ApprovalDecisionEvent,
    ElicitationRequestEvent,
    EventMsg,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent,
    SessionConfiguredEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    TurnAbortedEvent,
    UserMessageEvent,
)
from codex_tui.app.wire_events import ELICITATION, EXEC_APPROVAL, WireEvents

T = "thread-1"
COMMAND = {
    "id": "c1",
    "type": "commandExecution",
    "command": "/bin/bash -lc 'echo hi'",
    "cwd": "/srv",
    "status": "inProgress",
}


def _wire() -> WireEvents:
    wire = WireEvents()
    event = wire.session_configured(
        {
            "thread": {"id": T, "cwd": "/srv", "path": "/srv/r.jsonl", "turns": []},
            "model": "m",
            "modelProvider": "p",
            "cwd": "/srv",
            "approvalPolicy": "on-request",
            "sandbox": {"type": "readOnly"},
        }
    )
    assert isinstance(event.msg, SessionConfiguredEvent) and event.msg.session_id == T
    return wire


def _feed(wire: WireEvents, method: str, **params: Any) -> list[EventMsg]:
    return [e.msg for e in wire.notification(method, {"threadId": T, **params})]


def _ask(wire: WireEvents) -> list[EventMsg]:
    params = {"threadId": T, "itemId": "c1", "command": COMMAND["command"], "cwd": "/srv"}
    return [e.msg for e in wire.server_request(7, EXEC_APPROVAL, params)]


def test_wire_events_stream_a_turn() -> None:
    wire = _wire()
    assert _feed(wire, "turn/started", turn={"id": "u1"}) == [TaskStartedEvent()]
    user = {"id": "i1", "type": "userMessage", "content": [{"type": "text", "text": "hi"}]}
    assert _feed(wire, "item/started", item=user) == [UserMessageEvent(message="hi")]
    assert _feed(wire, "item/completed", item=user) == []
    delta = _feed(wire, "item/agentMessage/delta", itemId="m", delta="Hel")
    assert delta == [AgentMessageDeltaEvent(delta="Hel")]
    done = _feed(wire, "item/completed", item={"id": "m", "type": "agentMessage", "text": "Hello"})
    assert done == [AgentMessageEvent(message="Hello")]
    assert _feed(wire, "turn/completed", turn={"id": "u1", "status": "completed"}) == [
        TaskCompleteEvent()
    ]
    assert wire.turn_id is None
    assert wire.notification("turn/started", {"threadId": "other", "turn": {"id": "x"}}) == []


def test_wire_events_command_shows_after_its_approval() -> None:
    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    assert _feed(wire, "item/started", item=COMMAND) == []  # held: it may wait for approval
    argv = ["/bin/bash", "-lc", "echo hi"]
    assert _ask(wire) == [ExecApprovalRequestEvent(call_id="c1", command=argv, cwd="/srv")]
    found = wire.answered("c1", "approved")
    assert found is not None and found[0].request_id == 7
    assert found[1].msg == ApprovalDecisionEvent(
        call_id="c1", kind="exec", decision="approved", command=argv
    )
    assert wire.answered("c1", "denied") is None  # one answer only
    assert _feed(wire, "item/commandExecution/outputDelta", itemId="c1", delta="hi\n") == [
        ExecCommandBeginEvent(call_id="c1", command=argv, cwd="/srv"),
        ExecCommandOutputDeltaEvent(call_id="c1", stream="stdout", chunk="hi\n"),
    ]
    finished = {**COMMAND, "status": "completed", "exitCode": 0, "aggregatedOutput": "hi\n"}
    assert _feed(wire, "item/completed", item=finished) == [
        ExecCommandEndEvent(call_id="c1", aggregated_output="hi\n", exit_code=0, command=argv)
    ]


def test_wire_events_another_client_declines() -> None:
    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    _feed(wire, "item/started", item=COMMAND)
    _ask(wire)
    assert _feed(wire, "serverRequest/resolved", requestId=7) == []
    assert _feed(wire, "thread/status/changed", status={"type": "active"}) == []
    declined = _feed(wire, "item/completed", item={**COMMAND, "status": "declined"})
    argv = ["/bin/bash", "-lc", "echo hi"]
    assert declined == [
        ApprovalDecisionEvent(
            call_id="c1", kind="exec", decision="denied", command=argv, reviewer="another_client"
        )
    ]
    assert wire.answered("c1", "approved") is None  # too late here


def test_wire_events_another_client_approves_and_interrupted_turn() -> None:
    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    _feed(wire, "item/started", item=COMMAND)
    _ask(wire)
    _feed(wire, "serverRequest/resolved", requestId=7)
    out = _feed(wire, "item/commandExecution/outputDelta", itemId="c1", delta="x")
    assert isinstance(out[0], ApprovalDecisionEvent) and out[0].decision == "approved"
    assert isinstance(out[1], ExecCommandBeginEvent)
    ended = _feed(wire, "turn/completed", turn={"id": "u1", "status": "interrupted"})
    assert ended == [TurnAbortedEvent()]


def test_wire_events_resumed_thread_past() -> None:
    wire = WireEvents()
    turn = {
        "id": "u1",
        "status": "completed",
        "items": [
            {"id": "i1", "type": "userMessage", "content": [{"type": "text", "text": "hi"}]},
            {**COMMAND, "status": "completed", "exitCode": 0, "aggregatedOutput": "hi\n"},
            {"id": "m", "type": "agentMessage", "text": "Hello"},
        ],
    }
    event = wire.session_configured({"thread": {"id": T, "cwd": "/srv", "turns": [turn]}})
    assert isinstance(event.msg, SessionConfiguredEvent)
    kinds = [m["type"] for m in event.msg.initial_messages or []]
    assert kinds == [
        "task_started",
        "user_message",
        "exec_command_begin",
        "exec_command_end",
        "agent_message",
        "task_complete",
    ]


def test_wire_events_mcp_elicitation_becomes_the_form_request() -> None:
    wire = _wire()
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    params: dict[str, Any] = {
        "threadId": T,
        "turnId": "u1",
        "serverName": "files",
        "mode": "form",
        "message": "Which file?",
        "requestedSchema": schema,
    }
    [event] = wire.server_request(3, ELICITATION, params)
    assert event.msg == ElicitationRequestEvent(
        server_name="files",
        id="3",
        message="Which file?",
        requested_schema=schema,
        turn_id="u1",
    )
    assert wire.elicitations == {"3": 3}


def test_wire_events_command_without_approval_shows_at_the_next_message() -> None:
    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    assert _feed(wire, "item/started", item=COMMAND) == []
    # no question followed: it runs (a silent command must not stay hidden until it ends)
    shown = _feed(wire, "thread/tokenUsage/updated", tokenUsage={"total": {}, "last": {}})
    assert isinstance(shown[0], ExecCommandBeginEvent)


def test_wire_events_own_answers_show_or_never_show_the_command() -> None:
    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    _feed(wire, "item/started", item=COMMAND)
    _ask(wire)
    wire.answered("c1", "approved")
    shown = _feed(wire, "serverRequest/resolved", requestId=7)
    assert [type(m) for m in shown] == [ExecCommandBeginEvent]

    wire = _wire()
    _feed(wire, "turn/started", turn={"id": "u1"})
    _feed(wire, "item/started", item=COMMAND)
    _ask(wire)
    wire.answered("c1", "denied")
    assert _feed(wire, "serverRequest/resolved", requestId=7) == []
    assert _feed(wire, "item/completed", item={**COMMAND, "status": "declined"}) == []
