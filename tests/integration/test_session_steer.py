"""Steering (`steer_input`): input sent while a turn runs joins that turn at its next request."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    EventMsg,
    ExecCommandBeginEvent,
    Op,
    SteerInputOp,
    TaskCompleteEvent,
    TaskStartedEvent,
    TextInput,
    UserMessageEvent,
)
from tests.integration.session_harness import (
    Workspace,
    run_until,
    shutdown,
    start_session,
    turn_ended,
    workspace,
)
from tests.support.model_server import ModelServer, slow
from tests.support.sse import message, shell_call, turn

__all__ = ["workspace"]  # the fixture, imported for pytest


def steer(text: str) -> SteerInputOp:
    return SteerInputOp(items=[TextInput(text=text)])


def conversation(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, text) of the request's user messages and tool outputs, injected context left out."""
    shown: list[tuple[str, str]] = []
    for item in body["input"]:
        if item["type"] == "function_call_output":
            shown.append(("output", item["call_id"]))
        elif item["type"] == "message" and item["role"] in ("user", "assistant"):
            text = "".join(part.get("text", "") for part in item["content"])
            if not text.startswith("<"):
                shown.append((item["role"], text))
    return shown


def user_texts(events: list[EventMsg]) -> list[str]:
    return [m.message for m in events if isinstance(m, UserMessageEvent)]


async def test_session_steer_joins_after_the_pending_tool_output(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-lc", "sleep 0.5"], "call-1")),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, "never")

    def answer(msg: EventMsg) -> Op | None:
        if isinstance(msg, ExecCommandBeginEvent):  # the command runs: its output is pending
            return steer("use the other file")
        return None

    await session.submit(SteerInputOp(items=[TextInput(text="go")]))  # idle: starts a turn
    events = await run_until(session, turn_ended, answer)
    await shutdown(session)

    assert isinstance(events[-1], TaskCompleteEvent)
    assert sum(isinstance(m, TaskStartedEvent) for m in events) == 1
    assert user_texts(events) == ["go", "use the other file"]
    assert conversation(model_server.bodies[1]) == [
        ("user", "go"),
        ("output", "call-1"),
        ("user", "use the other file"),
    ]


async def test_session_steer_after_a_plain_answer_is_one_more_request_of_the_turn(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        slow(turn(message("one two three four five six")), 0.1),
        turn(message("steered answer")),
    )
    session = await start_session(model_server, workspace, codex_home, "never")
    sent: list[bool] = []

    def steer_once(msg: EventMsg) -> Op | None:
        if isinstance(msg, AgentMessageDeltaEvent) and not sent:
            sent.append(True)
            return steer("and add tests")
        return None

    await session.submit(SteerInputOp(items=[TextInput(text="write it")]))
    events = await run_until(session, turn_ended, steer_once)
    await shutdown(session)

    assert sum(isinstance(m, TaskStartedEvent) for m in events) == 1
    assert user_texts(events) == ["write it", "and add tests"]
    assert isinstance(events[-1], TaskCompleteEvent)
    assert events[-1].last_agent_message == "steered answer"
    assert conversation(model_server.bodies[1]) == [
        ("user", "write it"),
        ("assistant", "one two three four five six"),
        ("user", "and add tests"),
    ]
