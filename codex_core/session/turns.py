"""Running one turn (or a compaction) for a Session: kernel wiring and how a turn ends.

Every turn ends with exactly one of `task_complete` or `turn_aborted`, whatever happens
inside: a model error, a fatal tool error, an approval abort, an interrupt, or a bug (logged
with its traceback and shown as one `error` line).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from codex_core.apply_patch import TurnDiffTracker
from codex_core.client import ModelClientError, ToolSpec
from codex_core.config.shell_env import create_env
from codex_core.features import disabled_tools
from codex_core.images import image_detail
from codex_core.instructions import base_instructions
from codex_core.kernel import Kernel, ToolCall, ToolHost, ToolOutput
from codex_core.model_family import exec_tool_style, offers_update_plan
from codex_core.protocol import (
    ErrorEvent,
    EventMsg,
    ResponseItem,
    Submission,
    TaskCompleteEvent,
    TaskStartedEvent,
    TurnAbortedEvent,
    UserInputOp,
    UserMessageEvent,
    UserTurnOp,
)
from codex_core.session.autocompact import CompactionError, Compactor
from codex_core.session.inputs import (
    InputError,
    environment_changed,
    environment_message,
    initial_context,
    user_input_message,
)
from codex_core.session.kernel_host import SessionKernelHost
from codex_core.session.steer import SteeredInput, joining_between_requests, run_steered
from codex_core.session.turn_hooks import MAX_STOP_CONTINUATIONS, TurnHooks, session_hooks
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import FatalToolError, RespondToModel, TurnAbortRequested
from codex_core.tools.registry import ToolRegistry
from codex_core.tools.router import ToolRouter, default_registry
from codex_core.tools.view_image import register_view_image
from codex_core.tools.web_search import web_search_specs
from codex_core.turn_context import TurnContext

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost

log = logging.getLogger(__name__)

INTERNAL_ERROR = "internal error: {err}; the turn was stopped (run with --debug or see the log)"


async def _snapshot_quietly(s: TurnHost, turn: TurnContext) -> None:
    """Take the turn's /undo snapshot; a failure is logged, never the turn's problem."""
    try:
        await s.undo.before_turn(turn.cwd)
    except Exception:
        log.exception("no undo snapshot for this turn")


class AfterSnapshot:
    """A ToolHost that runs tools that may change files only once the turn's work-tree
    snapshot is taken (as the Codex CLI gates mutating tools); read-only ones go at once."""

    def __init__(
        self, tools: ToolHost, registry: ToolRegistry, snapshot: asyncio.Task[None]
    ) -> None:
        self.tools = tools
        self.registry = registry
        self.snapshot = snapshot

    async def call(self, call: ToolCall) -> ToolOutput:
        """Wait for the snapshot if needed (an interrupt cancels the wait, not it), then run."""
        if not self.snapshot.done() and self._mutating(call):
            await asyncio.shield(self.snapshot)
        return await self.tools.call(call)

    def _mutating(self, call: ToolCall) -> bool:
        try:
            return self.registry.lookup(call).mutating
        except RespondToModel:  # an unknown tool: the router answers it
            return False


class TurnRunner:
    """Runs the turns of one session, one at a time."""

    def __init__(self, session: TurnHost) -> None:
        self.session = session
        self.steered = SteeredInput()
        """Input sent while a user turn runs, waiting to join it."""

    async def run_turn(self, sub: Submission) -> None:
        """A user turn: context, user message, kernel loop, then exactly one ending event."""
        s = self.session
        op = sub.op
        assert isinstance(op, UserTurnOp | UserInputOp)
        if isinstance(op, UserTurnOp):
            s.turn = s.turn_with(op)
        turn = s.turn
        emit: Callable[[EventMsg], None] = lambda msg: s.emit(sub.id, msg)  # noqa: E731
        try:
            detail = self.steered.image_detail = image_detail(turn.model)
            message, text, images = user_input_message(op.items, turn.cwd, detail)
        except InputError as err:
            emit(ErrorEvent(message=str(err)))
            return
        s.storage.record_turn_context(turn)
        loaded = await session_hooks(s, emit)  # its warnings come before the turn, as 0.169's
        emit(TaskStartedEvent(model_context_window=s.effective_context_window()))
        try:
            hooks = TurnHooks(s, loaded, turn, emit)
            opening: list[ResponseItem] = []
            if not hooks.hooks.started:
                hooks.hooks.started = True
                opening = await hooks.session_start("resume" if s.history else "startup")
            dropped, after_prompt = await hooks.prompt(text)
        except asyncio.CancelledError:
            emit(TurnAbortedEvent(reason="interrupted"))
            return
        if dropped:  # as 0.169: no request, the prompt is not recorded, the turn ends
            emit(TaskCompleteEvent(last_agent_message=None))
            return
        emit(UserMessageEvent(message=text, images=images or None))
        # The work-tree snapshot for /undo (~300 ms on 100k files) runs beside the first
        # request; tools wait for it, so nothing changes files before it is taken.
        snapshot = asyncio.create_task(_snapshot_quietly(s, turn))
        client = s.client_factory(s.config, s.session_id, turn)
        wire_api = s.config.model_provider.wire_api
        registry = default_registry(
            exec_tool_style(turn.model, wire_api),
            offer_plan=offers_update_plan(turn.model, wire_api, enabled=s.config.update_plan_tool),
        )
        if s.mcp is not None and not await self._add_mcp_tools(registry, emit):
            await client.aclose()
            await asyncio.shield(snapshot)
            return
        register_view_image(registry)
        for name in disabled_tools(s.config.features):  # `[features]`, --disable shell_tool
            registry.entries.pop(name, None)
        instructions = s.config.base_instructions or base_instructions()
        compactor = Compactor(s, sub.id, emit, client, turn, instructions)
        compactor.around = hooks.around_compaction
        hosted = web_search_specs(s.config.web_search, wire_api)

        def tool_specs() -> list[ToolSpec]:
            # Asked before every request: servers that came up since join this turn.
            if s.mcp is not None:
                from codex_core.mcp.tools import register_mcp_tools  # the SDK loads lazily

                register_mcp_tools(registry, s.mcp, wire_api)
            return [*registry.specs(turn.approval_policy), *hosted]

        kernel = Kernel(
            model=client,
            tools=AfterSnapshot(
                hooks.tools(
                    ToolRouter(hooks.guard_approvals(self.tool_context(sub.id, turn)), registry),
                    registry,
                ),
                registry,
                snapshot,
            ),
            host=SessionKernelHost(s, sub.id),
            instructions=instructions,
            tool_specs=tool_specs,
            stream_max_retries=s.config.model_provider.effective_stream_max_retries,
            output_schema=op.final_output_json_schema if isinstance(op, UserTurnOp) else None,
            between_requests=joining_between_requests(
                self.steered,
                turn.cwd,
                emit,
                s.history,
                s.storage.record_items,
                compactor.between_requests,
            ),
            context_after_call=hooks.take_context,
        )
        try:
            if compactor.needed():  # before the new message joins: it survives in full
                await compactor.run()
            await s.skills.load(turn.cwd, emit)
            context = [*self._context_items(turn, emit), *opening]
            new_items = [*context, message, *after_prompt, *s.skills.mentioned(text)]
            self.steered.start()
            try:
                result = await run_steered(
                    kernel, s.history, new_items, self.steered, turn.cwd, emit
                )
                for round_ in range(MAX_STOP_CONTINUATIONS):
                    follow_up = await hooks.stop(result.last_agent_message, round_ > 0)
                    if not follow_up:
                        break
                    more = await kernel.run_turn(s.history, follow_up)
                    result.usage = result.usage + more.usage
                    result.requests += more.requests
                    result.last_agent_message = more.last_agent_message
            finally:  # the snapshot is part of the turn: it ends before the turn's last event
                await asyncio.shield(snapshot)
        except asyncio.CancelledError:
            s.approvals.cancel_all()
            emit(TurnAbortedEvent(reason="interrupted"))
            await s.storage.flush()
            return
        except TurnAbortRequested:
            s.approvals.cancel_all()
            emit(TurnAbortedEvent(reason="interrupted"))
        except (ModelClientError, FatalToolError, CompactionError) as err:
            emit(ErrorEvent(message=str(err)))
            emit(TaskCompleteEvent(last_agent_message=None))
        except Exception as err:  # a bug must end the turn visibly, never hang it
            log.exception("turn %s failed", sub.id)
            s.approvals.cancel_all()
            emit(ErrorEvent(message=INTERNAL_ERROR.format(err=err)))
            emit(TaskCompleteEvent(last_agent_message=None))
        else:
            emit(TaskCompleteEvent(last_agent_message=result.last_agent_message))
            s.storage.notify(s.config.notify, sub.id, text, result.last_agent_message)
        finally:
            await client.aclose()
            await asyncio.shield(snapshot)
        await s.storage.flush()

    def _context_items(
        self, turn: TurnContext, emit: Callable[[EventMsg], None]
    ) -> list[ResponseItem]:
        """Initial context for a new (or freshly compacted-away) conversation, else an
        environment update when the cwd or a policy changed."""
        s = self.session
        items: list[ResponseItem] = []
        if s.context_turn is None:
            skills = s.skills.instructions(s.context_window(), emit)
            items = [*([skills] if skills else [])]
            items += initial_context(turn, s.config.project_doc_max_bytes, s.config.codex_home)
        elif environment_changed(s.context_turn, turn):
            items = [environment_message(turn)]
        s.context_turn = turn
        return items

    async def _add_mcp_tools(
        self, registry: ToolRegistry, emit: Callable[[EventMsg], None]
    ) -> bool:
        """Wait briefly for MCP servers and offer their tools; False if a required one failed."""
        from codex_core.mcp.manager import McpStartupError

        s = self.session
        assert s.mcp is not None
        try:
            await s.mcp.wait_required()
        except McpStartupError as err:
            emit(ErrorEvent(message=str(err)))
            emit(TaskCompleteEvent(last_agent_message=None))
            return False
        await s.mcp.wait_ready()
        return True

    async def run_compact(self, sub: Submission) -> None:
        """A `compact` op: summarise the history as a turn of its own."""
        s = self.session
        emit: Callable[[EventMsg], None] = lambda msg: s.emit(sub.id, msg)  # noqa: E731
        emit(TaskStartedEvent(model_context_window=s.effective_context_window()))
        client = s.client_factory(s.config, s.session_id, s.turn)
        instructions = s.config.base_instructions or base_instructions()
        compactor = Compactor(s, sub.id, emit, client, s.turn, instructions)
        compactor.trigger = "manual"
        try:
            compactor.around = TurnHooks(
                s, await session_hooks(s, emit), s.turn, emit
            ).around_compaction
            await compactor.run()
        except asyncio.CancelledError:
            emit(TurnAbortedEvent(reason="interrupted"))
            return
        except CompactionError as err:
            emit(ErrorEvent(message=str(err)))
        except Exception as err:  # a bug must end the turn visibly, never hang it
            log.exception("compaction %s failed", sub.id)
            emit(ErrorEvent(message=INTERNAL_ERROR.format(err=err)))
        finally:
            await client.aclose()
        emit(TaskCompleteEvent(last_agent_message=None))
        await s.storage.flush()

    def tool_context(self, sub_id: str, turn: TurnContext) -> ToolContext:
        """What the turn's tool handlers may use."""
        s = self.session
        emit: Callable[[EventMsg], None] = lambda msg: s.emit(sub_id, msg)  # noqa: E731
        s.tool_ctx = ToolContext(
            turn=turn,
            codex_home=s.config.codex_home,
            env=create_env(s.config.shell_environment_policy),
            emit=emit,
            request_exec_approval=functools.partial(s.approvals.ask_exec, emit),
            request_patch_approval=functools.partial(s.approvals.ask_patch, emit),
            approvals=s.session_approvals,
            diff_tracker=TurnDiffTracker(),
            rules=s.rules,
            processes=s.unified_exec,
            shell_snapshot=s.shell_snapshot,
        )
        if s.config.approvals_reviewer == "user":
            return s.tool_ctx
        # `approvals_reviewer = "auto_review"`: a reviewer model call answers instead of the user
        from codex_core.auto_review.reviewer import install_auto_review  # the reviewer's only

        return install_auto_review(s.tool_ctx, s, emit)
