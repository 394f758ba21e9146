"""The turn loop: model request → tool calls → outputs → next request, with no IO of its own.

The kernel talks to the model, the tools and the clock through the small host protocols below,
so it is unit-tested with fakes; `codex_core.session` wires the real ones. Invariants it keeps:

- every tool call the model made gets exactly one output in the history, even when a tool
  fails, the user aborts, or the turn is interrupted (synthetic "aborted" outputs; the call
  that was cut off in 0.169's words, `interrupted_output`); every prompt is checked again
  as it is built and repaired (logged) if it still breaks the rule, e.g. after resuming a
  session that was killed mid-call;
- tool failures split as in `codex_core.tools.errors`: `RespondToModel` becomes the output,
  `FatalToolError` ends the turn, and any other exception is logged with its traceback and
  answered to the model — it never escapes the turn;
- a stream that breaks before `response.completed` is retried from scratch up to
  `stream_max_retries` times, each retry announced with a `stream_error` event;
- items of a response enter the history only once the response completed;
- `between_requests` runs only between a round of tool outputs and its follow-up request,
  never after the turn's last response (where the session hooks mid-turn compaction).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, assert_never

from codex_core.client import (
    Completed,
    Created,
    OutputItemAdded,
    OutputItemDone,
    OutputTextDelta,
    Prompt,
    ReasoningSummaryDelta,
    ReasoningSummaryPartAdded,
    ResponseEvent,
    ResponseFailed,
    RetryNotice,
    StreamDisconnected,
    ToolSpec,
)
from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    AgentReasoningDeltaEvent,
    AgentReasoningEvent,
    AgentReasoningSectionBreakEvent,
    CustomToolCall,
    CustomToolCallOutput,
    EventMsg,
    FunctionCall,
    FunctionCallOutput,
    LocalShellAction,
    LocalShellCall,
    Message,
    Reasoning,
    ResponseItem,
    StreamErrorEvent,
    TokenUsage,
    WebSearchBeginEvent,
    WebSearchCall,
    WebSearchEndEvent,
    web_search_query,
)
from codex_core.protocol.pairing import ABORTED_OUTPUT, pair_tool_calls
from codex_core.tools.errors import FatalToolError, RespondToModel, TurnAbortRequested

log = logging.getLogger(__name__)

__all__ = [
    "ABORTED_OUTPUT",
    "FatalToolError",
    "Kernel",
    "KernelHost",
    "ModelHost",
    "RespondToModel",
    "ToolCall",
    "ToolHost",
    "TurnAbortRequested",
    "TurnResult",
    "default_backoff",
    "interrupted_output",
    "tool_call_of",
]


class ModelHost(Protocol):
    """Streams one model response for a prompt."""

    def stream(self, prompt: Prompt) -> AsyncIterator[ResponseEvent]: ...


ToolOutput = str | list[dict[str, Any]]
"""What a tool answers: text, or content parts (MCP results with images)."""


class ToolHost(Protocol):
    """Runs one tool call and returns the output the model gets back."""

    async def call(self, call: ToolCall) -> ToolOutput: ...


class KernelHost(Protocol):
    """Everything else the loop needs from the session."""

    def emit(self, msg: EventMsg) -> None: ...

    def record(self, items: list[ResponseItem]) -> None: ...

    def on_usage(self, usage: TokenUsage | None) -> None: ...

    async def sleep(self, seconds: float) -> None: ...


@dataclass(frozen=True)
class ToolCall:
    """A tool call of any kind, normalised for the router."""

    call_id: str
    name: str
    kind: Literal["function", "custom", "local_shell"]
    payload: str = ""
    action: LocalShellAction | None = None
    namespace: str | None = None

    def output_item(self, text: ToolOutput) -> ResponseItem:
        """The history item answering this call."""
        if self.kind == "custom":
            if not isinstance(text, str):
                text = "\n".join(str(p.get("text", "")) for p in text)
            return CustomToolCallOutput(call_id=self.call_id, output=text)
        return FunctionCallOutput(call_id=self.call_id, output=text)


def interrupted_output(call: ToolCall, seconds: float) -> str:
    """What the model is told about the call an interrupt (or an abort) cut off after
    `seconds`, in Codex 0.169's words where they were observed: a command (running or
    waiting for approval) and an MCP tool; any other call is simply `aborted`."""
    if call.name == "exec_command":
        return f"Wall time: {seconds:.1f} seconds\naborted by user"
    if (call.namespace or call.name).startswith("mcp__"):  # codex_core.mcp.specs.MCP_PREFIX
        return f"aborted by user after {seconds:.1f}s"
    return ABORTED_OUTPUT


def tool_call_of(item: ResponseItem) -> ToolCall | None:
    """The tool call an item represents, if any."""
    if isinstance(item, FunctionCall):
        return ToolCall(
            item.call_id, item.name, "function", item.arguments, namespace=item.namespace
        )
    if isinstance(item, CustomToolCall):
        return ToolCall(item.call_id, item.name, "custom", item.input)
    if isinstance(item, LocalShellCall):
        call_id = item.call_id or item.id or ""
        return ToolCall(
            call_id, "local_shell", "local_shell", json.dumps(item.action.to_wire()), item.action
        )
    return None


@dataclass
class TurnResult:
    """How a turn ended."""

    last_agent_message: str | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)
    requests: int = 0


def default_backoff(attempt: int, retry_after: float | None = None) -> float:
    """Delay before retry number `attempt` (1-based): the client's one capped, jittered policy."""
    from codex_core.client.retry import backoff_delay

    return backoff_delay(attempt, retry_after, random)


@dataclass
class Kernel:
    """Runs turns against a model and tools; the history list is shared with the session."""

    model: ModelHost
    tools: ToolHost
    host: KernelHost
    instructions: str
    tool_specs: list[ToolSpec] | Callable[[], list[ToolSpec]]
    """The tools offered; a callable is asked again for every request, so tools that became
    available mid-turn (an MCP server that came up late) join the turn's later requests."""
    stream_max_retries: int = 5
    output_schema: dict[str, Any] | None = None
    backoff: Callable[[int, float | None], float] = default_backoff
    between_requests: Callable[[], Awaitable[None]] | None = None
    """Run after a round of tool outputs, before the follow-up request (mid-turn compaction)."""
    context_after_call: Callable[[], list[ResponseItem]] | None = None
    """Items to record right before a call's output (what the user's hooks added)."""

    async def run_turn(
        self, history: list[ResponseItem], new_items: list[ResponseItem]
    ) -> TurnResult:
        """Append `new_items` to history and loop until the model answers without tool calls."""
        self._commit(history, new_items)
        result = TurnResult()
        while True:
            items, usage = await self._request_with_retries(history)
            result.requests += 1
            if usage is not None:
                result.usage = result.usage + usage
            self.host.on_usage(usage)
            self._commit(history, items)
            for item in items:
                if isinstance(item, Message) and item.role == "assistant":
                    result.last_agent_message = item.text()
            calls = [c for c in (tool_call_of(i) for i in items) if c is not None]
            if not calls:
                return result
            await self._run_calls(history, calls)
            if self.between_requests is not None:
                await self.between_requests()

    async def _run_calls(self, history: list[ResponseItem], calls: list[ToolCall]) -> None:
        clock = asyncio.get_running_loop().time
        for index, call in enumerate(calls):
            started = clock()
            try:
                text = await self.tools.call(call)
            except (asyncio.CancelledError, TurnAbortRequested):
                cut = call.output_item(interrupted_output(call, clock() - started))
                rest = [c.output_item(ABORTED_OUTPUT) for c in calls[index + 1 :]]
                self._commit(history, [cut, *rest])
                raise
            except FatalToolError as err:
                answered = [call.output_item(f"fatal error: {err}")]
                answered += [c.output_item(ABORTED_OUTPUT) for c in calls[index + 1 :]]
                self._commit(history, answered)
                raise
            except RespondToModel as err:
                text = str(err)
            except Exception as err:  # the kernel boundary: a tool bug must not wedge the turn
                log.exception("tool %s (call %s) raised", call.name, call.call_id)
                text = f"tool {call.name} failed: {type(err).__name__}: {err}"
            extra = self.context_after_call() if self.context_after_call is not None else []
            self._commit(history, [*extra, call.output_item(text)])

    def _paired_input(self, history: list[ResponseItem]) -> list[ResponseItem]:
        """The prompt input, with the pairing invariant repaired (and logged) if broken."""
        paired, repair = pair_tool_calls(history)
        if repair:
            log.warning(
                "prompt repaired: aborted outputs added for calls %s, orphan outputs dropped %s",
                repair.added_outputs,
                repair.dropped_outputs,
            )
            history[:] = paired
        return list(history)

    def _commit(self, history: list[ResponseItem], items: list[ResponseItem]) -> None:
        if items:
            history.extend(items)
            self.host.record(items)

    async def _request_with_retries(
        self, history: list[ResponseItem]
    ) -> tuple[list[ResponseItem], TokenUsage | None]:
        attempt = 0
        while True:
            try:
                specs = self.tool_specs() if callable(self.tool_specs) else self.tool_specs
                prompt = Prompt(
                    self.instructions, self._paired_input(history), specs, self.output_schema
                )
                return await self._request_once(prompt)
            except (StreamDisconnected, ResponseFailed) as err:
                retryable = isinstance(err, StreamDisconnected) or getattr(err, "retryable", False)
                attempt += 1
                if not retryable or attempt > self.stream_max_retries:
                    raise
                self.host.emit(
                    StreamErrorEvent(message=f"Reconnecting… {attempt}/{self.stream_max_retries}")
                )
                retry_after: float | None = getattr(err, "retry_after", None)
                await self.host.sleep(self.backoff(attempt, retry_after))

    async def _request_once(self, prompt: Prompt) -> tuple[list[ResponseItem], TokenUsage | None]:
        items: list[ResponseItem] = []
        stream = self.model.stream(prompt)
        try:
            async for event in stream:
                match event:
                    case OutputTextDelta(delta=delta):
                        self.host.emit(AgentMessageDeltaEvent(delta=delta))
                    case ReasoningSummaryDelta(delta=delta):
                        self.host.emit(AgentReasoningDeltaEvent(delta=delta))
                    case ReasoningSummaryPartAdded():
                        self.host.emit(AgentReasoningSectionBreakEvent())
                    case OutputItemDone(item=item):
                        items.append(item)
                        self._announce(item)
                    case Completed(token_usage=usage):
                        return items, usage
                    case RetryNotice(attempt=n, max_attempts=most, delay_s=delay, reason=why):
                        self.host.emit(
                            StreamErrorEvent(message=f"{why}; retrying {n}/{most} in {delay:.1f}s…")
                        )
                    case OutputItemAdded(item=WebSearchCall(id=str(search_id))):
                        self.host.emit(WebSearchBeginEvent(call_id=search_id))
                    case Created() | OutputItemAdded():
                        pass
                    case _:
                        assert_never(event)
        finally:
            await _aclose(stream)
        raise StreamDisconnected("stream closed before response.completed")

    def _announce(self, item: ResponseItem) -> None:
        if isinstance(item, Message) and item.role == "assistant":
            self.host.emit(AgentMessageEvent(message=item.text()))
        elif isinstance(item, Reasoning) and item.summary:
            self.host.emit(AgentReasoningEvent(text="\n\n".join(s.text for s in item.summary)))
        elif isinstance(item, WebSearchCall):
            query = web_search_query(item.action)
            self.host.emit(
                WebSearchEndEvent(call_id=item.id or "", query=query, action=item.action)
            )


async def _aclose(stream: AsyncIterator[ResponseEvent]) -> None:
    close: Callable[[], Awaitable[None]] | None = getattr(stream, "aclose", None)
    if close is not None:
        await close()
