"""An MCP tool approved for the session is remembered as (server, tool), apart from commands.

Before, it was stored among shell argvs as ("mcp", server, tool): a shell command with
that argv, approved for the session, let the MCP tool run without a question.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from mcp import types

from codex_core.kernel import ToolCall
from codex_core.mcp.manager import McpConnectionManager
from codex_core.mcp.specs import McpToolInfo
from codex_core.mcp.tools import call_mcp_tool
from codex_core.protocol import ReviewDecision
from codex_core.protocol.common import WorkspaceWritePolicy
from codex_core.tools.context import CommandApproval, SessionApprovals, ToolContext

INFO = McpToolInfo(
    server="srv",
    tool="wipe",
    model_name="mcp__srv__wipe",
    flat_name="srv__wipe",
    description="",
    parameters={},
)


class Manager:
    def __init__(self) -> None:
        self.calls = 0

    def approval_mode(self, server: str, tool: str) -> None:
        return None

    async def call_tool(self, server: str, tool: str, arguments: Any) -> types.CallToolResult:
        self.calls += 1
        return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])


def context(approvals: SessionApprovals, decisions: list[ReviewDecision]) -> ToolContext:
    asked: list[list[str]] = []

    async def ask(call_id: str, command: list[str], *_: Any) -> ReviewDecision:
        asked.append(command)
        return decisions.pop(0)

    turn = SimpleNamespace(
        approval_policy="on-request",
        sandbox_policy=WorkspaceWritePolicy(),
        cwd=Path("/"),
        model="gpt-5.1-codex",
    )
    ctx = SimpleNamespace(
        turn=turn, emit=lambda _msg: None, approvals=approvals, request_exec_approval=ask
    )
    ctx.asked = asked
    return cast(ToolContext, ctx)


def call(call_id: str) -> ToolCall:
    return ToolCall(call_id=call_id, name="mcp__srv__wipe", kind="function", payload="{}")


async def test_a_shell_argv_approved_for_the_session_does_not_approve_an_mcp_tool() -> None:
    approvals = SessionApprovals()
    approvals.commands.add(CommandApproval.of(["mcp", "srv", "wipe"], Path("/"), unsandboxed=True))
    ctx = context(approvals, ["denied"])
    manager = Manager()
    await call_mcp_tool(ctx, call("m1"), INFO, cast(McpConnectionManager, manager))
    assert len(cast(Any, ctx).asked) == 1 and manager.calls == 0


async def test_an_mcp_tool_approved_for_the_session_is_not_asked_again() -> None:
    approvals = SessionApprovals()
    ctx = context(approvals, ["approved_for_session"])
    manager = Manager()
    for call_id in ("m1", "m2"):
        await call_mcp_tool(ctx, call(call_id), INFO, cast(McpConnectionManager, manager))
    assert len(cast(Any, ctx).asked) == 1 and manager.calls == 2
    assert approvals.mcp_tools == {("srv", "wipe")} and not approvals.commands


async def test_cancelling_an_mcp_approval_tells_the_model_and_the_turn_goes_on() -> None:
    """0.169's MCP prompt has no "stop the turn" answer: Esc (abort) cancels the call only."""
    ctx = context(SessionApprovals(), ["abort"])
    manager = Manager()
    output = await call_mcp_tool(ctx, call("m1"), INFO, cast(McpConnectionManager, manager))
    assert manager.calls == 0
    assert isinstance(output, list)
    assert output[1] == {"type": "input_text", "text": "user cancelled MCP tool call"}
