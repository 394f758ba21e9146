"""`codex exec --json`: the item projection as the Codex exec JSONL schema (thread/turn/item lines)."""

from __future__ import annotations

import json
import shlex
from typing import Any, TextIO, assert_never

from codex_core import items
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol.common import TokenUsage


class JsonlProcessor:
    """Renders the item projection of a run as `thread.*`, `turn.*` and `item.*` lines."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failed = False
        self.last_message: str | None = None
        self._projection = items.Projection()
        self._next_item = 0
        self._started: dict[str, dict[str, Any]] = {}
        """The `item.started` line's item of each open item, by projection item id."""
        self._searches: dict[str, int] = {}
        self._todo: dict[str, Any] | None = None
        self._usage = TokenUsage()

    def handle(self, event: items.Event) -> list[n.Notice]:
        """Print the lines for one session event; returns its notices."""
        notices = self._projection.feed(event)
        for notice in notices:
            self._render(notice)
        return notices

    # ------------------------------------------------------------------ output

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def _item(self, kind: str, item_type: str, **fields: Any) -> dict[str, Any]:
        item = {"id": f"item_{self._next_item}", "type": item_type, **fields}
        self._next_item += 1
        self._line({"type": kind, "item": item})
        return item

    def _web_search(self, kind: str, number: int | None, search: k.WebSearchItem) -> int:
        """A `web_search` item line, key for key as Codex 0.169 prints it.

        0.169 writes the key `id` twice in this item: the exec item id, then the search
        call's id (`{"id":"item_1","type":"web_search","id":"ws_1",…}`). The line is built
        the same way (a dict cannot hold the key twice), so a parser keeping the first or
        the last duplicate sees what it sees with the Codex CLI. Returns the item number.
        """
        if number is None:
            number = self._next_item
            self._next_item += 1
        action = search.action or {"type": "other"}
        rest = json.dumps(
            {"id": search.id, "query": search.query, "action": action}, ensure_ascii=False
        )
        head = json.dumps({"id": f"item_{number}", "type": "web_search"})
        item = head[:-1] + ", " + rest[1:]  # the separators `_line` writes
        self.out.write(f'{{"type": "{kind}", "item": {item}}}\n')
        self.out.flush()
        return number

    # ------------------------------------------------------------------ notices

    def _render(self, notice: n.Notice) -> None:
        match notice:
            case n.ThreadStarted():
                self._line({"type": "thread.started", "thread_id": notice.thread_id})
            case n.TurnStarted():
                self._line({"type": "turn.started"})
            case n.ItemStarted():
                self._started_item(notice.item)
            case n.ItemCompleted():
                self._completed_item(notice)
            case n.PlanUpdated():
                todo = [{"text": p.step, "completed": p.status == "completed"} for p in notice.plan]
                if self._todo is None:
                    self._todo = self._item("item.started", "todo_list", items=todo)
                else:
                    self._todo = {**self._todo, "items": todo}
                    self._line({"type": "item.updated", "item": self._todo})
            case n.TokenUsage():
                self._usage = notice.info.total_token_usage  # the thread's running total
            case n.StreamRetry() | n.TurnError():
                self._line({"type": "error", "message": notice.message})
            case n.TurnWarning():
                self._item("item.completed", "error", message=notice.message)
            case n.TurnEnded():
                self._turn_ended(notice)
            case (
                n.AgentMessageDelta()
                | n.ReasoningPartAdded()
                | n.ReasoningDelta()
                | n.CommandOutputDelta()
                | n.CommandApprovalRequested()
                | n.PatchApprovalRequested()
                | n.ApprovalDecided()
                | n.ElicitationRequested()
                | n.SessionEnded()
                | n.DiffUpdated()
                | n.HookRunUpdated()
                | n.TerminalInteraction()
                | n.BackgroundMessage()
            ):
                # Deliberately not printed: the exec schema has whole items only, no
                # approvals (exec never asks), no diffs, status lines or typing into a
                # command, and (as in 0.169) no hook runs.
                pass
            case _ as unreachable:
                assert_never(unreachable)

    def _started_item(self, item: k.ThreadItem) -> None:
        match item:
            case k.CommandExecutionItem():
                self._started[item.id] = self._item(
                    "item.started",
                    "command_execution",
                    command=shlex.join(item.command),
                    aggregated_output="",
                    exit_code=None,
                    status="in_progress",
                )
            case k.FileChangeItem():
                # Codex 0.169 announces a file change with `item.started` (in_progress) too.
                changes = [{"path": path, "kind": c.type} for path, c in item.changes.items()]
                self._started[item.id] = self._item(
                    "item.started", "file_change", changes=changes, status="in_progress"
                )
            case k.McpToolCallItem():
                self._started[item.id] = self._item(
                    "item.started",
                    "mcp_tool_call",
                    server=item.server,
                    tool=item.tool,
                    arguments=item.arguments,
                    result=None,
                    error=None,
                    status="in_progress",
                )
            case k.WebSearchItem():
                # Codex 0.169 announces the search before it knows the query.
                self._searches[item.id] = self._web_search("item.started", None, item)
            case (
                k.UserMessageItem()
                | k.AgentMessageItem()
                | k.ReasoningItem()
                | k.ContextCompactionItem()
            ):
                pass  # printed whole when completed, or (the user's own text) not at all
            case _ as unreachable:
                assert_never(unreachable)

    def _completed_item(self, done: n.ItemCompleted) -> None:
        item = done.item
        started = self._started.pop(item.id, None)
        if done.cause == "turn_ended":
            # An interrupted turn fails what it left running; a finished one (a command
            # still running in the background) prints nothing for it, as before.
            if started is not None and getattr(item, "status", None) == "failed":
                self._line({"type": "item.completed", "item": {**started, "status": "failed"}})
            self._searches.pop(item.id, None)
            return
        match item:
            case k.AgentMessageItem():
                self.last_message = item.text
                self._item("item.completed", "agent_message", text=item.text)
            case k.ReasoningItem():
                self._item("item.completed", "reasoning", text=item.text)
            case k.CommandExecutionItem() if started is not None:
                final = {
                    **started,
                    "aggregated_output": item.aggregated_output,
                    "exit_code": item.exit_code,
                    "status": item.status,
                }
                self._line({"type": "item.completed", "item": final})
            case k.FileChangeItem() if started is not None:
                self._line({"type": "item.completed", "item": {**started, "status": item.status}})
            case k.McpToolCallItem() if started is not None:
                result = None
                if item.result is not None:  # `isError` shows as the status, as in Codex
                    content = item.result.get("content", [])
                    structured = item.result.get("structuredContent")
                    result = {"content": content, "structured_content": structured}
                final = {
                    **started,
                    "result": result,
                    "error": {"message": item.error} if item.error is not None else None,
                    "status": item.status,
                }
                self._line({"type": "item.completed", "item": final})
            case k.WebSearchItem():
                self._web_search("item.completed", self._searches.pop(item.id, None), item)
            case _:
                pass  # the user's message, a compaction: not in the exec schema

    def _turn_ended(self, ended: n.TurnEnded) -> None:
        if self._todo is not None:
            self._line({"type": "item.completed", "item": self._todo})
            self._todo = None
        if ended.status == "interrupted":
            self.failed = True
            self._line({"type": "turn.failed", "error": {"message": "turn interrupted"}})
        elif ended.status == "failed":
            self.failed = True
            self._line({"type": "turn.failed", "error": {"message": ended.error}})
        else:
            usage = self._usage
            self._line(
                {
                    "type": "turn.completed",
                    "usage": {
                        "input_tokens": usage.input_tokens,
                        "cached_input_tokens": usage.cached_input_tokens,
                        "cache_write_input_tokens": usage.cache_write_input_tokens,
                        "output_tokens": usage.output_tokens,
                        "reasoning_output_tokens": usage.reasoning_output_tokens,
                    },
                }
            )
