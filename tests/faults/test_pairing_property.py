"""Property: whatever faults a turn meets, no request carries an unpaired call and the turn ends.

Steps are drawn from {text, tool call, bad call, tool crash, interrupt, approval abort, stream
drop}. The high-volume run drives the kernel with fakes; a smaller run drives a real Session
against the scripted model server over HTTP.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codex_core.client import (
    Completed,
    OutputItemDone,
    Prompt,
    ResponseEvent,
    StreamDisconnected,
)
from codex_core.kernel import Kernel, ToolCall
from codex_core.protocol import (
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    FunctionCall,
    InterruptOp,
    Op,
    ResponseItem,
    TaskCompleteEvent,
    TokenUsage,
    TurnAbortedEvent,
    assistant_message,
    user_message,
)
from codex_core.protocol.pairing import pair_tool_calls
from codex_core.tools import plan  # the router's update_plan handler calls it on each call
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel, TurnAbortRequested
from tests.integration.session_harness import Workspace, run_turn, shutdown, start_session
from tests.support.model_server import ModelServer
from tests.support.pairing import assert_call_outputs_paired
from tests.support.sse import function_call, message, shell_call, turn
from tests.support.steps import Step, drop_after

Fault = Literal["text", "call", "bad", "crash", "interrupt", "abort", "drop", "stdin"]
FAULTS: list[Fault] = ["text", "call", "bad", "crash", "interrupt", "abort", "drop", "stdin"]
ENDS_TURN = {"text", "interrupt", "abort", "drop"}

# ------------------------------------------------------------------ kernel with fakes


def paired(prompt: Prompt) -> None:
    assert_call_outputs_paired({"input": [item.to_wire() for item in prompt.input]})


class ScriptedModel:
    """Each request gets the next response: a list of calls, a text answer, or a drop."""

    def __init__(self, responses: list[list[Fault]], ids: itertools.count[int]) -> None:
        self.responses = responses
        self.ids = ids
        self.prompts: list[Prompt] = []

    async def stream(self, prompt: Prompt) -> AsyncIterator[ResponseEvent]:
        self.prompts.append(prompt)
        paired(prompt)
        response = self.responses.pop(0) if self.responses else ["text"]
        for fault in response:
            if fault == "text":
                yield OutputItemDone(assistant_message("done"))
            elif fault == "drop":
                raise StreamDisconnected("dropped")
            else:
                call_id = f"{fault}-{next(self.ids)}"
                yield OutputItemDone(FunctionCall(name="tool", arguments="{}", call_id=call_id))
        yield Completed(response_id="r", token_usage=TokenUsage())


class FaultyTools:
    async def call(self, call: ToolCall) -> str:
        fault = call.call_id.split("-")[0]
        if fault == "bad":
            raise RespondToModel("bad arguments")
        if fault == "crash":
            raise RuntimeError("tool bug")
        if fault == "abort":
            raise TurnAbortRequested()
        if fault == "interrupt":
            current = asyncio.current_task()
            assert current is not None
            current.cancel()
            await asyncio.sleep(0)
        return "ok"


class Host:
    def emit(self, msg: EventMsg) -> None:
        pass

    def record(self, items: list[ResponseItem]) -> None:
        pass

    def on_usage(self, usage: TokenUsage | None) -> None:
        pass

    async def sleep(self, seconds: float) -> None:
        pass


response_strategy = st.one_of(
    st.just(["text"]),
    st.just(["drop"]),
    st.lists(st.sampled_from(FAULTS[1:6]), min_size=1, max_size=3),
)


@settings(max_examples=300, deadline=None)
@given(turns=st.lists(st.lists(response_strategy, min_size=1, max_size=5), min_size=1, max_size=4))
def test_pairing_property_kernel_never_sends_an_unpaired_call(
    turns: list[list[list[Fault]]],
) -> None:
    async def run() -> None:
        history: list[ResponseItem] = []
        ids = itertools.count()  # call ids stay unique across the turns of one conversation
        for responses in turns:
            model = ScriptedModel(list(responses), ids)
            kernel = Kernel(model, FaultyTools(), Host(), "be helpful", [], stream_max_retries=1)
            try:
                await asyncio.wait_for(kernel.run_turn(history, [user_message("go")]), 5)
            except (asyncio.CancelledError, TurnAbortRequested, StreamDisconnected):
                pass
            assert not pair_tool_calls(history)[1], "the turn left the history unpaired"

    asyncio.run(run())


# ------------------------------------------------------------------ real session over HTTP


def server_step(fault: Fault, index: int) -> Step:
    call_id = f"{fault}-{index}"
    match fault:
        case "text":
            return turn(message("done"))
        case "call":
            return turn(shell_call(["echo", "hi"], call_id=call_id))
        case "bad":
            return turn(function_call("shell", "{not json", call_id=call_id))
        case "crash":
            return turn(function_call("update_plan", {"plan": []}, call_id=call_id))
        case "interrupt":
            return turn(shell_call(["bash", "-lc", "sleep 30"], call_id=call_id))
        case "abort":
            return turn(shell_call(["touch", "x"], call_id=call_id))
        case "drop":
            return drop_after(turn(message("partial answer")), 1)
        case "stdin":  # typing into a session that is not there (or has ended)
            return turn(
                function_call("write_stdin", {"session_id": 4242, "chars": "ls\n"}, call_id)
            )


def answer(msg: EventMsg) -> Op | None:
    """Approve everything but `abort-*` calls; interrupt `interrupt-*` commands once running."""
    if isinstance(msg, ExecApprovalRequestEvent):
        if msg.call_id.startswith("abort-"):
            return ExecApprovalOp(id=msg.call_id, decision="abort")
        return ExecApprovalOp(id=msg.call_id, decision="approved")
    if isinstance(msg, ExecCommandBeginEvent) and msg.call_id.startswith("interrupt-"):
        return InterruptOp()
    return None


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(faults=st.lists(st.sampled_from(FAULTS), min_size=1, max_size=6))
def test_pairing_property_real_session_pairs_every_request_and_ends_every_turn(
    faults: list[Fault], tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(ctx: ToolContext, arguments: str) -> str:
        raise RuntimeError("tool bug")

    monkeypatch.setattr(plan, "run_update_plan", crash)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    root = tmp_path_factory.mktemp("property")
    workspace = Workspace(root / "ws", root / "outside")
    workspace.root.mkdir()
    workspace.outside.mkdir()
    home = root / "home"
    home.mkdir()

    async def run(server: ModelServer) -> None:
        session = await start_session(
            server, workspace, home, "untrusted", sandbox_mode="danger-full-access"
        )
        while server.remaining:
            events = await run_turn(session, "go", answer)
            assert isinstance(events[-1], TaskCompleteEvent | TurnAbortedEvent)
            begun = [e.call_id for e in events if e.type == "exec_command_begin"]
            ended = [e.call_id for e in events if e.type == "exec_command_end"]
            assert sorted(begun) == sorted(ended), "a started command never ended"
        await shutdown(session)

    with ModelServer([server_step(f, i) for i, f in enumerate(faults)]) as server:
        asyncio.run(run(server))
        server.check_pairing()
