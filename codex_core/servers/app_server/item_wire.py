"""Projection items (`codex_core.items.kinds`) in the app-server's wire form (`ThreadItem`)."""

from __future__ import annotations

from typing import Any, assert_never

from codex_core.items import kinds as k
from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server.convert import command_actions, command_line, file_changes


def wire_item(
    item: k.ThreadItem, user_input: list[w.UserInput], client_id: str | None = None
) -> w.ThreadItem | None:
    """`item` as the wire shows it (None for a kind this server does not send).

    Args:
        item: The projection's item.
        user_input: What the client sent with `turn/start` (a user message shows it as sent).
        client_id: The client's id for that message (a queued message's), if any.
    """
    match item:
        case k.UserMessageItem():
            content = user_input or [w.TextUserInput(text=item.text)]
            return w.UserMessageItem(id=item.id, content=content, clientId=client_id)
        case k.AgentMessageItem():
            return w.AgentMessageItem(id=item.id, text=item.text)
        case k.ReasoningItem():
            return w.ReasoningItem(id=item.id, summary=list(item.summary))
        case k.CommandExecutionItem():
            argv = list(item.command)
            command = w.CommandExecutionItem(
                id=item.id,
                command=command_line(argv),
                cwd=item.cwd,
                commandActions=command_actions(argv),
                status=item.status,
            )
            if item.exit_code is not None:  # it ran
                command.exitCode = item.exit_code
                command.aggregatedOutput = item.aggregated_output or item.stdout + item.stderr
                command.durationMs = item.duration_ms
            return command
        case k.FileChangeItem():
            changes = file_changes(dict(item.changes))
            return w.FileChangeItem(id=item.id, changes=changes, status=item.status)
        case k.McpToolCallItem():
            mcp = w.McpToolCallItem(
                id=item.id, server=item.server, tool=item.tool, arguments=item.arguments
            )
            if item.status == "inProgress":
                return mcp
            mcp.status = "completed" if item.status == "completed" else "failed"
            mcp.error = {"message": item.error} if item.error is not None else None
            if item.result is not None:
                content = item.result.get("content", [])
                mcp.result = {
                    "content": content,
                    "structuredContent": item.result.get("structuredContent"),
                }
            mcp.durationMs = item.duration_ms
            return mcp
        case k.ContextCompactionItem():
            return w.ContextCompactionItem(id=item.id)
        case k.WebSearchItem():
            return w.WebSearchItem(id=item.id, query=item.query, action=search_action(item.action))
        case _ as unreachable:
            assert_never(unreachable)


def search_action(action: dict[str, Any] | None) -> dict[str, Any] | None:
    """A web search's action with the model's snake_case kind in 0.169's camelCase
    (`open_page` → `openPage`)."""
    if action is None:
        return None
    kind = str(action.get("type") or "other")
    camel = kind.split("_")[0] + "".join(part.title() for part in kind.split("_")[1:])
    return {**action, "type": camel}
