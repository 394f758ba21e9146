"""MCP tools in the turn's tool registry: specs per wire API, and the call handler.

A call emits `mcp_tool_call_begin`, is decided (run / ask / refuse, see `approval`), runs
with the server's timeout, and emits `mcp_tool_call_end`; whatever happens, the model gets
exactly one output in the Codex shape (`results`).
"""

from __future__ import annotations

import json
import time
from typing import Any, Literal

from codex_core.client import ToolSpec
from codex_core.images import image_detail
from codex_core.kernel import ToolCall, ToolOutput
from codex_core.mcp.approval import REFUSED_UNDER_NEVER, mcp_call_approval
from codex_core.mcp.connection import McpCallError
from codex_core.mcp.manager import McpConnectionManager
from codex_core.mcp.resources import register_resource_tools
from codex_core.mcp.results import display_result, error_output, result_output
from codex_core.mcp.specs import (
    McpToolInfo,
    chat_tool_specs,
    namespace_of,
    responses_tool_specs,
)
from codex_core.protocol import (
    DangerFullAccessPolicy,
    McpInvocation,
    McpToolCallBeginEvent,
    McpToolCallEndEvent,
)
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel
from codex_core.tools.registry import ToolEntry, ToolRegistry

Wire = Literal["responses", "chat"]


def register_mcp_tools(registry: ToolRegistry, manager: McpConnectionManager, wire: Wire) -> None:
    """Add the ready servers' tools to a turn's registry, shaped for `wire`.

    Called again before each request of a turn: servers already registered are left as
    they are, servers that came up since are added (as Codex 0.169 does mid-turn).
    """
    if manager.has_servers:
        register_resource_tools(registry, manager)
    infos = manager.tools()
    if not infos:
        return
    if wire == "responses":
        for spec in responses_tool_specs(infos, manager.instructions()):
            if spec.name in registry.entries:
                continue
            registry.register(
                ToolEntry(
                    spec.name,
                    _not_callable,
                    _fixed(spec),
                    mutating=True,
                    approval="none",
                )
            )
        for info in infos:
            key = f"{namespace_of(info.server)}__{info.model_name}"
            _register_call(registry, key, info, manager, None)
    else:
        specs = {spec.name: spec for spec in chat_tool_specs(infos)}
        for info in infos:
            _register_call(registry, info.flat_name, info, manager, specs[info.flat_name])


def _register_call(
    registry: ToolRegistry,
    key: str,
    info: McpToolInfo,
    manager: McpConnectionManager,
    spec: ToolSpec | None,
) -> None:
    if key in registry.entries:  # a built-in tool keeps its name
        return

    async def handler(ctx: ToolContext, call: ToolCall) -> ToolOutput:
        return await call_mcp_tool(ctx, call, info, manager)

    registry.register(
        ToolEntry(
            key,
            handler,
            _fixed(spec) if spec else None,
            mutating=True,
            approval="mcp",
            hook_name=f"mcp__{info.server}__{info.tool}",
        )
    )


def _fixed(spec: ToolSpec) -> Any:
    return lambda _policy: spec


async def _not_callable(ctx: ToolContext, call: ToolCall) -> ToolOutput:
    raise RespondToModel(f"unsupported call: {call.name} is a namespace; call one of its tools")


def _parse_arguments(payload: str) -> dict[str, Any] | None:
    if not payload.strip():
        return None
    try:
        value = json.loads(payload)
    except json.JSONDecodeError as err:
        raise RespondToModel(f"failed to parse function arguments: {err}") from None
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RespondToModel("function arguments must be a JSON object")
    return value


async def call_mcp_tool(
    ctx: ToolContext, call: ToolCall, info: McpToolInfo, manager: McpConnectionManager
) -> ToolOutput:
    """Run one MCP call with its events and approval; always returns the model's output."""
    arguments = _parse_arguments(call.payload)
    server, tool = info.server, info.tool
    invocation = McpInvocation(server=server, tool=tool, arguments=arguments)
    ctx.emit(McpToolCallBeginEvent(call_id=call.call_id, invocation=invocation))
    started = time.monotonic()

    def fail(message: str) -> ToolOutput:
        took = time.monotonic() - started
        end = McpToolCallEndEvent.err(
            call.call_id, invocation, took, message, read_only=info.read_only
        )
        ctx.emit(end)
        return error_output(message, took)

    decision = mcp_call_approval(
        policy=ctx.turn.approval_policy,
        mode=manager.approval_mode(server, tool),
        read_only=info.read_only or info.no_side_effects,
        full_access=isinstance(ctx.turn.sandbox_policy, DangerFullAccessPolicy),
    )
    if decision == "refuse":
        return fail(REFUSED_UNDER_NEVER)
    if decision == "ask" and (server, tool) not in ctx.approvals.mcp_tools:
        review = await ctx.request_exec_approval(
            call.call_id,
            ["mcp", server, tool, json.dumps(arguments or {}, ensure_ascii=False)],
            ctx.turn.cwd,
            f'Allow the {server} MCP server to run tool "{tool}"?',
            None,
        )
        if review == "abort":
            # 0.169's MCP prompt has no "stop the turn" answer: cancelling tells the model
            # and the turn goes on (an interrupt still stops it).
            return fail("user cancelled MCP tool call")
        if review not in ("approved", "approved_for_session"):
            return fail("user rejected MCP tool call")
        if review == "approved_for_session":
            ctx.approvals.mcp_tools.add((server, tool))
        started = time.monotonic()
    try:
        result = await manager.call_tool(server, tool, arguments)
    except McpCallError as err:
        return fail(f"tool call error: {err}")
    took = time.monotonic() - started
    shown = display_result(result)
    ctx.emit(
        McpToolCallEndEvent.ok(call.call_id, invocation, took, shown, read_only=info.read_only)
    )
    return result_output(result, took, image_detail(ctx.turn.model))
