"""`codex exec --json`: events as the Codex exec JSONL schema (thread/turn/item lines)."""

from __future__ import annotations

import json
import shlex
from typing import Any, TextIO, assert_never

from codex_core import protocol as ev


class JsonlProcessor:
    """Turns core events into `thread.*`, `turn.*` and `item.*` lines."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failed = False
        self.last_message: str | None = None
        self._next_item = 0
        self._running: dict[str, dict[str, Any]] = {}
        self._patches: dict[str, dict[str, Any]] = {}
        self._todo: dict[str, Any] | None = None
        self._searches: dict[str, int] = {}
        self._usage = ev.TokenUsage()
        self._error: str | None = None

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def _item(self, kind: str, item_type: str, **fields: Any) -> dict[str, Any]:
        item = {"id": f"item_{self._next_item}", "type": item_type, **fields}
        self._next_item += 1
        self._line({"type": kind, "item": item})
        return item

    def _web_search(
        self, kind: str, number: int | None, call_id: str, query: str, action: dict[str, Any]
    ) -> int:
        """A `web_search` item line, key for key as Codex 0.169 prints it.

        0.169 writes the key `id` twice in this item: the exec item id, then the search
        call's id (`{"id":"item_1","type":"web_search","id":"ws_1",…}`). The line is built
        the same way (a dict cannot hold the key twice), so a parser keeping the first or
        the last duplicate sees what it sees with the Codex CLI. Returns the item number.
        """
        if number is None:
            number = self._next_item
            self._next_item += 1
        rest = json.dumps({"id": call_id, "query": query, "action": action}, ensure_ascii=False)
        head = json.dumps({"id": f"item_{number}", "type": "web_search"})
        item = head[:-1] + ", " + rest[1:]  # the separators `_line` writes
        self.out.write(f'{{"type": "{kind}", "item": {item}}}\n')
        self.out.flush()
        return number

    def handle(self, event: ev.Event) -> None:
        """Print the lines for one event."""
        msg = event.msg
        match msg:
            case ev.SessionConfiguredEvent():
                self._line({"type": "thread.started", "thread_id": msg.session_id})
            case ev.TaskStartedEvent():
                self._error = None
                self._line({"type": "turn.started"})
            case ev.AgentMessageEvent():
                self.last_message = msg.message
                self._item("item.completed", "agent_message", text=msg.message)
            case ev.AgentReasoningEvent():
                self._item("item.completed", "reasoning", text=msg.text)
            case ev.ExecCommandBeginEvent():
                self._running[msg.call_id] = self._item(
                    "item.started",
                    "command_execution",
                    command=shlex.join(msg.command),
                    aggregated_output="",
                    exit_code=None,
                    status="in_progress",
                )
            case ev.ExecCommandEndEvent():
                started = self._running.pop(msg.call_id, None)
                item = {
                    "id": started["id"] if started else f"item_{self._next_item}",
                    "type": "command_execution",
                    "command": started["command"] if started else "",
                    "aggregated_output": msg.aggregated_output,
                    "exit_code": msg.exit_code,
                    "status": "completed" if msg.exit_code == 0 else "failed",
                }
                if started is None:
                    self._next_item += 1
                self._line({"type": "item.completed", "item": item})
            case ev.PatchApplyBeginEvent():
                # Codex 0.169 announces a file change with `item.started` (in_progress) too.
                self._patches[msg.call_id] = self._item(
                    "item.started",
                    "file_change",
                    changes=[
                        {"path": path, "kind": change.type} for path, change in msg.changes.items()
                    ],
                    status="in_progress",
                )
            case ev.PatchApplyEndEvent():
                begun = self._patches.pop(msg.call_id, None)
                status = "completed" if msg.success else "failed"
                if begun is None:
                    self._item("item.completed", "file_change", changes=[], status=status)
                else:
                    self._line({"type": "item.completed", "item": {**begun, "status": status}})
            case ev.PlanUpdateEvent():
                items = [{"text": p.step, "completed": p.status == "completed"} for p in msg.plan]
                if self._todo is None:
                    self._todo = self._item("item.started", "todo_list", items=items)
                else:
                    self._todo = {**self._todo, "items": items}
                    self._line({"type": "item.updated", "item": self._todo})
            case ev.McpToolCallBeginEvent():
                self._running[msg.call_id] = self._item(
                    "item.started",
                    "mcp_tool_call",
                    server=msg.server,
                    tool=msg.tool,
                    arguments=msg.arguments,
                    result=None,
                    error=None,
                    status="in_progress",
                )
            case ev.McpToolCallEndEvent():
                started = self._running.pop(msg.call_id, None) or self._item(
                    "item.started", "mcp_tool_call", server=msg.server, tool=msg.tool
                )
                ok = msg.tool_result
                result = None
                if ok is not None:  # `isError` shows as the status, as in Codex
                    structured = ok.get("structuredContent")
                    result = {"content": ok.get("content", []), "structured_content": structured}
                done = {
                    **started,
                    "result": result,
                    "error": {"message": msg.error} if msg.error is not None else None,
                    "status": "completed" if msg.is_success else "failed",
                }
                self._line({"type": "item.completed", "item": done})
            case ev.WebSearchBeginEvent():
                # Codex 0.169 announces the search before it knows the query.
                self._searches[msg.call_id] = self._web_search(
                    "item.started", None, msg.call_id, "", {"type": "other"}
                )
            case ev.WebSearchEndEvent():
                action = msg.action or {"type": "other"}
                query = msg.query or ev.web_search_query(msg.action)
                number = self._searches.pop(msg.call_id, None)
                if number is None:
                    number = self._web_search("item.started", None, msg.call_id, query, action)
                self._web_search("item.completed", number, msg.call_id, query, action)
            case ev.TokenCountEvent():
                if msg.info is not None:  # the thread's running total, as Codex reports it
                    self._usage = msg.info.total_token_usage
            case ev.StreamErrorEvent():
                self._line({"type": "error", "message": msg.message})
            case ev.WarningEvent():
                self._item("item.completed", "error", message=msg.message)
            case ev.ErrorEvent():
                self._error = msg.message
                self._line({"type": "error", "message": msg.message})
            case ev.TurnAbortedEvent():
                self._fail_running()
                self._finish_todo()
                self.failed = True
                self._line({"type": "turn.failed", "error": {"message": "turn interrupted"}})
            case ev.TaskCompleteEvent():
                self._finish_todo()
                if self._error is not None:
                    self.failed = True
                    self._line({"type": "turn.failed", "error": {"message": self._error}})
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
            case (
                ev.TerminalInteractionEvent()
                | ev.BackgroundEvent()
                | ev.UserMessageEvent()
                | ev.TurnDiffEvent()
            ):
                pass  # the exec schema has no lines for this bookkeeping
            case _ if isinstance(msg, ev.HookEvent):
                pass  # 0.169's --json shows no hook runs
            case _ if isinstance(msg, ev.DeltaEvent | ev.ApprovalEvent | ev.OpReplyEvent):
                # Deliberately not printed: the exec schema has whole items only, no
                # approvals (exec never asks), and no replies to ops exec never sends.
                pass
            case _ as unreachable:
                assert_never(unreachable)

    def _fail_running(self) -> None:
        """Close every item still open when the turn ends early: no `item.started` dangles."""
        for started in self._running.values():
            self._line({"type": "item.completed", "item": {**started, "status": "failed"}})
        self._running.clear()
        for begun in self._patches.values():
            self._line({"type": "item.completed", "item": {**begun, "status": "failed"}})
        self._patches.clear()

    def _finish_todo(self) -> None:
        if self._todo is not None:
            self._line({"type": "item.completed", "item": self._todo})
            self._todo = None
