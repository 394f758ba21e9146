"""A `review` op: a reviewer sub-turn in a read-only sandbox, its answer joining the session.

As in the Codex CLI 0.169 the reviewer starts a conversation of its own: the review
instructions replace the base instructions, the history holds only the opening context and
the target's prompt, commands run read-only and never ask (`never`), whatever the session's
own policy. Its commands show as the turn's, its raw answer does not: the rendered review
is the turn's one agent message. The parent conversation then records the review (a
`<user_action>` message with the results, and the rendered text as the assistant's) so a
follow-up turn can act on it. Like every turn it ends with one `task_complete` or
`turn_aborted`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from codex_core.client import ModelClientError
from codex_core.kernel import Kernel
from codex_core.model_family import exec_tool_style
from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    ErrorEvent,
    EventMsg,
    Message,
    ReadOnlyPolicy,
    ResponseItem,
    ReviewOp,
    Submission,
    TaskCompleteEvent,
    TaskStartedEvent,
    TokenUsage,
    TurnAbortedEvent,
    assistant_message,
    user_message,
)
from codex_core.review import review_instructions, review_prompt, review_text
from codex_core.session.inputs import initial_context
from codex_core.tools.errors import FatalToolError, TurnAbortRequested
from codex_core.tools.router import ToolRouter, default_registry
from codex_core.tools.view_image import register_view_image

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost
    from codex_core.session.turns import TurnRunner

log = logging.getLogger(__name__)

REVIEW_ACTION = (
    "<user_action>\n"
    "  <context>The user asked for a code review; below is what the reviewer reported. "
    "The user may ask you to address some of the findings.</context>\n"
    "  <action>review</action>\n"
    "  <results>\n"
    "  {results}\n"
    "  </results>\n"
    "</user_action>\n"
)


class _ReviewerHost:
    """The reviewer's kernel host: its tool events are the turn's, its raw answer is not
    shown, and its items stay out of the session's history and rollout."""

    def __init__(self, session: TurnHost, sub_id: str) -> None:
        self.session = session
        self.sub_id = sub_id

    def emit(self, msg: EventMsg) -> None:
        if not isinstance(msg, AgentMessageEvent | AgentMessageDeltaEvent):
            self.session.emit(self.sub_id, msg)

    def record(self, items: list[ResponseItem]) -> None:
        """The reviewer's conversation is its own."""

    def on_usage(self, usage: TokenUsage | None) -> None:
        self.session.on_usage(self.sub_id, usage)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


async def run_review(s: TurnHost, runner: TurnRunner, sub: Submission) -> None:
    """Run the review `sub` asks for, then record its result in the conversation."""
    op = sub.op
    assert isinstance(op, ReviewOp)
    emit: Callable[[EventMsg], None] = lambda msg: s.emit(sub.id, msg)  # noqa: E731
    turn = s.turn.with_changes(
        approval_policy="never", sandbox_policy=ReadOnlyPolicy(), model=s.config.review_model
    )
    emit(TaskStartedEvent(model_context_window=s.effective_context_window()))
    client = s.client_factory(s.config, s.session_id, turn)
    client.extra_headers["x-openai-subagent"] = "review"  # as 0.169 marks a review's requests
    registry = default_registry(
        exec_tool_style(turn.model, s.config.model_provider.wire_api), offer_plan=False
    )
    register_view_image(registry)
    kernel = Kernel(
        model=client,
        tools=ToolRouter(runner.tool_context(sub.id, turn), registry),
        host=_ReviewerHost(s, sub.id),
        instructions=review_instructions(),
        tool_specs=lambda: registry.specs(turn.approval_policy),
        stream_max_retries=s.config.model_provider.effective_stream_max_retries,
    )
    prompt = review_prompt(op.target, turn.cwd)
    history: list[ResponseItem] = []
    opening = initial_context(turn, s.config.project_doc_max_bytes, s.config.codex_home)
    try:
        result = await kernel.run_turn(history, [*opening, user_message(prompt)])
    except (asyncio.CancelledError, TurnAbortRequested):
        s.approvals.cancel_all()
        emit(TurnAbortedEvent(reason="interrupted"))
        await s.storage.flush()
        return
    except (ModelClientError, FatalToolError) as err:
        emit(ErrorEvent(message=str(err)))
        emit(TaskCompleteEvent(last_agent_message=None))
        await s.storage.flush()
        return
    except Exception as err:  # a bug must end the turn visibly, never hang it
        log.exception("review %s failed", sub.id)
        emit(ErrorEvent(message=f"internal error: {err}; the review was stopped"))
        emit(TaskCompleteEvent(last_agent_message=None))
        await s.storage.flush()
        return
    finally:
        await client.aclose()
    text, _output = review_text(result.last_agent_message)
    if not text:
        text = "The reviewer gave no answer."
    joined: list[ResponseItem] = [
        _action_message(text),
        assistant_message(text),
    ]
    s.history.extend(joined)
    s.storage.record_items(joined)
    emit(AgentMessageEvent(message=text))
    emit(TaskCompleteEvent(last_agent_message=text))
    await s.storage.flush()


def _action_message(results: str) -> Message:
    """The user-side record that a review ran and what it found."""
    return user_message(REVIEW_ACTION.format(results=results))
