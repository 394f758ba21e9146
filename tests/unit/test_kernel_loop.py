"""The turn loop against fake model, tool and host: pairing, retries, interrupts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from codex_core.client import (
    Completed,
    OutputItemDone,
    OutputTextDelta,
    Prompt,
    ResponseEvent,
    StreamDisconnected,
)
from codex_core.kernel import (
    ABORTED_OUTPUT,
    FatalToolError,
    Kernel,
    RespondToModel,
    ToolCall,
    ToolHost,
    TurnAbortRequested,
)
from codex_core.protocol import (
    EventMsg,
    FunctionCall,
    FunctionCallOutput,
    ResponseItem,
    TokenUsage,
    assistant_message,
    user_message,
)
from codex_core.protocol.pairing import pair_tool_calls

Script = list[ResponseEvent | Exception]


class FakeModel:
    def __init__(self, scripts: list[Script]) -> None:
        self.scripts = scripts
        self.prompts: list[Prompt] = []

    async def stream(self, prompt: Prompt) -> AsyncIterator[ResponseEvent]:
        self.prompts.append(prompt)
        for event in self.scripts.pop(0):
            if isinstance(event, Exception):
                raise event
            yield event


@dataclass
class FakeTools:
    outputs: dict[str, str] = field(default_factory=dict)
    block: asyncio.Event | None = None
    abort_on: str | None = None
    seen: list[str] = field(default_factory=list)

    async def call(self, call: ToolCall) -> str:
        self.seen.append(call.call_id)
        if call.call_id == self.abort_on:
            raise TurnAbortRequested()
        if self.block is not None:
            await self.block.wait()
        return self.outputs.get(call.call_id, "ok")


@dataclass
class FakeHost:
    events: list[EventMsg] = field(default_factory=list)
    recorded: list[ResponseItem] = field(default_factory=list)
    sleeps: list[float] = field(default_factory=list)

    def emit(self, msg: EventMsg) -> None:
        self.events.append(msg)

    def record(self, items: list[ResponseItem]) -> None:
        self.recorded.extend(items)

    def on_usage(self, usage: TokenUsage | None) -> None:
        pass

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


def call(call_id: str) -> OutputItemDone:
    return OutputItemDone(FunctionCall(name="shell", arguments="{}", call_id=call_id))


def done(usage: int = 5) -> Completed:
    return Completed(
        response_id="r", token_usage=TokenUsage(input_tokens=usage, total_tokens=usage)
    )


def kernel(model: FakeModel, tools: ToolHost, host: FakeHost, retries: int = 5) -> Kernel:
    return Kernel(model, tools, host, "be helpful", [], stream_max_retries=retries)


def assert_paired(history: list[ResponseItem]) -> None:
    calls = [i.call_id for i in history if isinstance(i, FunctionCall)]
    outputs = [i.call_id for i in history if isinstance(i, FunctionCallOutput)]
    assert sorted(calls) == sorted(outputs)


async def test_kernel_loop_runs_tools_until_plain_answer() -> None:
    model = FakeModel(
        [
            [call("c1"), call("c2"), done()],
            [
                OutputTextDelta("Do"),
                OutputTextDelta("ne"),
                OutputItemDone(assistant_message("Done")),
                done(),
            ],
        ]
    )
    tools, host = FakeTools({"c1": "one", "c2": "two"}), FakeHost()
    history: list[ResponseItem] = []
    result = await kernel(model, tools, host).run_turn(history, [user_message("hi")])
    assert result.last_agent_message == "Done"
    assert result.requests == 2
    assert tools.seen == ["c1", "c2"]
    second = model.prompts[1].input
    assert [i.output for i in second if isinstance(i, FunctionCallOutput)] == ["one", "two"]
    assert_paired(history)
    assert host.recorded == history
    assert [e.type for e in host.events] == [
        "agent_message_delta",
        "agent_message_delta",
        "agent_message",
    ]


async def test_kernel_loop_retries_dropped_streams_with_notices() -> None:
    dropped: Script = [OutputTextDelta("par"), StreamDisconnected("connection closed")]
    model = FakeModel([dropped, dropped, [OutputItemDone(assistant_message("ok")), done()]])
    host = FakeHost()
    result = await kernel(model, FakeTools(), host).run_turn([], [user_message("hi")])
    assert result.last_agent_message == "ok"
    notices = [e.message for e in host.events if e.type == "stream_error"]
    assert notices == ["Reconnecting… 1/5", "Reconnecting… 2/5"]
    assert len(host.sleeps) == 2


async def test_kernel_loop_gives_up_after_max_stream_retries() -> None:
    model = FakeModel([[StreamDisconnected("gone")] for _ in range(3)])
    with pytest.raises(StreamDisconnected):
        await kernel(model, FakeTools(), FakeHost(), retries=2).run_turn([], [user_message("hi")])


async def test_kernel_loop_stream_without_completed_counts_as_dropped() -> None:
    model = FakeModel(
        [
            [OutputItemDone(assistant_message("half"))],
            [OutputItemDone(assistant_message("ok")), done()],
        ]
    )
    history: list[ResponseItem] = []
    result = await kernel(model, FakeTools(), FakeHost()).run_turn(history, [user_message("hi")])
    assert result.last_agent_message == "ok"
    assert [i.text() for i in history[1:]] == ["ok"]  # type: ignore[union-attr]


async def test_kernel_loop_interrupt_records_aborted_outputs_for_pending_calls() -> None:
    model = FakeModel([[call("c1"), call("c2"), done()]])
    tools = FakeTools(block=asyncio.Event())
    history: list[ResponseItem] = []
    task = asyncio.create_task(
        kernel(model, tools, FakeHost()).run_turn(history, [user_message("hi")])
    )
    while not tools.seen:
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert_paired(history)
    assert [i.output for i in history if isinstance(i, FunctionCallOutput)] == [ABORTED_OUTPUT] * 2


async def test_kernel_loop_abort_decision_ends_turn_with_every_call_answered() -> None:
    model = FakeModel([[call("c1"), call("c2"), done()]])
    history: list[ResponseItem] = []
    with pytest.raises(TurnAbortRequested):
        await kernel(model, FakeTools(abort_on="c1"), FakeHost()).run_turn(
            history, [user_message("x")]
        )
    assert_paired(history)


@dataclass
class RaisingTools:
    errors: dict[str, Exception]

    async def call(self, call: ToolCall) -> str:
        error = self.errors.get(call.call_id)
        if error is not None:
            raise error
        return "ok"


async def test_kernel_loop_respond_to_model_and_crashes_become_outputs() -> None:
    model = FakeModel(
        [[call("c1"), call("c2"), done()], [OutputItemDone(assistant_message("fine")), done()]]
    )
    tools = RaisingTools({"c1": RespondToModel("bad arguments"), "c2": KeyError("boom")})
    history: list[ResponseItem] = []
    result = await kernel(model, tools, FakeHost()).run_turn(history, [user_message("hi")])
    assert result.last_agent_message == "fine"
    outputs = [i.output for i in history if isinstance(i, FunctionCallOutput)]
    assert outputs == ["bad arguments", "tool shell failed: KeyError: 'boom'"]


async def test_kernel_loop_fatal_tool_error_answers_every_call_then_ends() -> None:
    model = FakeModel([[call("c1"), call("c2"), done()]])
    tools = RaisingTools({"c1": FatalToolError("disk gone")})
    history: list[ResponseItem] = []
    with pytest.raises(FatalToolError):
        await kernel(model, tools, FakeHost()).run_turn(history, [user_message("hi")])
    outputs = [i.output for i in history if isinstance(i, FunctionCallOutput)]
    assert outputs == ["fatal error: disk gone", ABORTED_OUTPUT]
    assert len(model.prompts) == 1


async def test_kernel_loop_repairs_an_unpaired_history_before_sending() -> None:
    orphan = FunctionCallOutput(call_id="ghost", output="?")
    open_call = FunctionCall(name="shell", arguments="{}", call_id="killed")
    history: list[ResponseItem] = [user_message("before"), orphan, open_call]
    model = FakeModel([[OutputItemDone(assistant_message("ok")), done()]])
    await kernel(model, FakeTools(), FakeHost()).run_turn(history, [user_message("resume")])
    sent = model.prompts[0].input
    assert sent == [
        user_message("before"),
        open_call,
        FunctionCallOutput(call_id="killed", output=ABORTED_OUTPUT),
        user_message("resume"),
    ]
    assert history[: len(sent)] == sent


def test_pair_tool_calls_leaves_a_paired_history_alone() -> None:
    items: list[ResponseItem] = [
        FunctionCall(name="shell", arguments="{}", call_id="a"),
        FunctionCallOutput(call_id="a", output="x"),
    ]
    repaired, repair = pair_tool_calls(items)
    assert repaired is items and not repair


def test_pair_tool_calls_drops_outputs_before_their_call_and_duplicates() -> None:
    items: list[ResponseItem] = [
        FunctionCallOutput(call_id="a", output="early"),
        FunctionCall(name="shell", arguments="{}", call_id="a"),
        FunctionCallOutput(call_id="a", output="x"),
        FunctionCallOutput(call_id="a", output="again"),
    ]
    repaired, repair = pair_tool_calls(items)
    assert repaired == [items[1], items[2]]
    assert repair.dropped_outputs == ["a", "a"] and repair.added_outputs == []
