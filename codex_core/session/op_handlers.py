"""The session's answers to the user's small ops: the MCP tool list, `/undo`, a saved rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.execpolicy import append_allow_rule, load_rules
from codex_core.protocol import (
    BackgroundEvent,
    ErrorEvent,
    McpListToolsResponseEvent,
    McpServerStatus,
    WarningEvent,
)

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost


def list_mcp_tools(session: TurnHost, sub_id: str) -> None:
    """Reply with every MCP server's status and tools."""
    summaries = session.mcp.summaries() if session.mcp is not None else []
    servers = [
        McpServerStatus(name=s.name, status=s.status, error=s.error, tools=s.tools)
        for s in summaries
    ]
    session.emit(sub_id, McpListToolsResponseEvent(servers=servers))


async def undo_last_turn(session: TurnHost, sub_id: str, *, turn_running: bool) -> None:
    """Restore the work tree of before the last turn (`/undo`), never during a turn."""
    from codex_core.git_snapshot import SnapshotError

    if turn_running:
        session.emit(sub_id, ErrorEvent(message="/undo is unavailable while a turn runs"))
        return
    try:
        session.emit(sub_id, BackgroundEvent(message=await session.undo.undo()))
    except SnapshotError as err:
        session.emit(sub_id, ErrorEvent(message=f"undo failed: {err}"))


def remember_prefix(session: TurnHost, sub_id: str, prefix: list[str]) -> None:
    """Save the command prefix the user allowed as a rule; the running turn sees it at once."""
    try:
        append_allow_rule(session.config.codex_home, prefix)
        session.rules = load_rules(session.config.codex_home)
        if session.tool_ctx is not None:
            session.tool_ctx.rules = session.rules
    except OSError as err:
        session.emit(sub_id, WarningEvent(message=f"could not save the rule: {err.strerror}"))
