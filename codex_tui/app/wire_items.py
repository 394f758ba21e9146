"""App-server wire messages → the item notices the TUI's cells render (pure, one step).

The TUI is an app-server client: it receives a thread's items as any client does
(`item/started`, deltas, `item/completed`, turn notices, approval requests) and maps each
message straight to the notices of `codex_core.items` (`ItemState` keeps the turn's open
items). `WireItems` keeps what the wire spreads over several messages: the running turn,
the server request behind each approval, and the command or patch an approval is about —
its item is announced before the question and shown only once it is allowed to run (a
command no question follows is shown at the next message). When another client answers an
approval first, the prompt closes at the first message that shows which way it went.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol import web_search_query
from codex_core.protocol.common import ReviewDecision
from codex_tui.app.coalesce import STARTUP_TURN
from codex_tui.app.item_state import ItemState
from codex_tui.app.wire_values import (
    wire_approval,
    wire_argv,
    wire_auto_review,
    wire_changes,
    wire_command,
    wire_hook_run,
    wire_mcp_call,
    wire_mcp_end,
    wire_patch,
    wire_plan,
    wire_sandbox,
    wire_usage,
    wire_user,
    wire_web_search,
)

EXEC_APPROVAL = "item/commandExecution/requestApproval"
PATCH_APPROVAL = "item/fileChange/requestApproval"
ELICITATION = "mcpServer/elicitation/request"
TURN = "tui"
"""The turn every live notice names: the screen shows one turn at a time, and a turn's end
closes whatever it left open, whichever request began it."""

Notices = list[c.ClientNotice]


@dataclass
class Asked:
    """A server request the TUI shows as an approval prompt."""

    request_id: Any
    kind: Literal["exec", "patch"]
    item_id: str
    command: tuple[str, ...]
    answered: bool = False
    decision: ReviewDecision | None = None
    """This TUI's answer, once given."""


@dataclass
class WireItems:
    """One thread's wire messages as notices, in order."""

    thread_id: str = ""
    turn_id: str | None = None
    """The running turn (for `turn/interrupt` and `turn/steer`)."""
    items: ItemState = field(default_factory=lambda: ItemState(TURN))
    asked: dict[str, Asked] = field(default_factory=dict)
    """Approval requests by item id."""
    _held: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Command and patch items announced but not yet shown (they may wait for approval)."""
    _decided_elsewhere: dict[str, Asked] = field(default_factory=dict)
    """Approvals another client answered; the outcome says which way."""
    elicitations: dict[str, Any] = field(default_factory=dict)
    """Server request ids of MCP servers' questions, by the id the form answers with."""
    turns_started: int = 0
    """Turns begun since the thread was opened (a warning before the first is a start-up's)."""

    # ------------------------------------------------------------------ the thread

    def thread_opened(self, response: dict[str, Any]) -> c.ThreadOpened:
        """`thread/start` / `thread/resume`'s answer: the thread, and a resumed one's turns
        as the notices of its past (`items.client.HISTORY_TURN`)."""
        thread = response["thread"]
        self.thread_id = thread["id"]
        past = WireItems(thread_id=self.thread_id, items=ItemState(c.HISTORY_TURN))
        notices: Notices = []
        for turn in thread.get("turns") or []:
            notices += past.items.turn_started()
            for item in turn.get("items") or []:
                notices += past._item_started(item, replay=True) + past._item_done(item)
            interrupted = turn.get("status") == "interrupted"
            notices += past.items.turn_ended("interrupted" if interrupted else None)
        return c.ThreadOpened(
            TURN,
            self.thread_id,
            model=response.get("model") or thread.get("model") or "",
            model_provider_id=response.get("modelProvider") or "openai",
            reasoning_effort=response.get("reasoningEffort"),
            cwd=response.get("cwd") or thread.get("cwd"),
            rollout_path=thread.get("path"),
            approval_policy=wire_approval(response.get("approvalPolicy")),
            sandbox_policy=wire_sandbox(response.get("sandbox")),
            past=tuple(notices),
        )

    def interrupted(self) -> Notices:
        """The server that ran the turn is gone: the turn ends interrupted."""
        if self.turn_id is None:
            return []
        self.turn_id = None
        return self.items.turn_ended("interrupted")

    # ------------------------------------------------------------------ incoming

    def notification(self, method: str, params: dict[str, Any]) -> Notices:
        """The notices for one notification of this thread (none for others)."""
        if params.get("threadId") not in (None, self.thread_id):
            return []
        out = self._decide_elsewhere(method, params) if self._decided_elsewhere else []
        if method == "item/autoApprovalReview/completed":
            review = wire_auto_review(params)
            if review["decision"] != "approved":  # refused: it never runs
                self._held.pop(review["item_id"], None)
        if self._held and method != "thread/status/changed":  # a patch's item comes first
            out += self._flush_held()
        return out + self._notification(method, params)

    def _notification(self, method: str, params: dict[str, Any]) -> Notices:
        items = self.items
        match method:
            case "item/agentMessage/delta":
                return items.message_delta(params.get("itemId") or "", params["delta"])
            case "item/reasoning/summaryTextDelta":
                return items.reasoning_delta(params.get("itemId") or "", params["delta"])
            case "item/commandExecution/outputDelta":
                item_id = params["itemId"]
                return self._show(item_id) + items.output(item_id, params["delta"])
            case "item/started":
                return self._item_started(params["item"], replay=False)
            case "item/completed":
                return self._item_done(params["item"])
            case "item/reasoning/summaryPartAdded":
                return items.reasoning_part() if params.get("summaryIndex") else []
            case "turn/started":
                self.turn_id = params["turn"]["id"]
                self.turns_started += 1
                return items.turn_started()
            case "turn/completed":
                self.turn_id = None
                self._held.clear()
                interrupted = params["turn"].get("status") == "interrupted"
                return items.turn_ended("interrupted" if interrupted else None)
            case "turn/diff/updated":
                return [n.DiffUpdated(TURN, params.get("diff") or "")]
            case "turn/plan/updated":
                plan = wire_plan(params.get("plan") or [])
                return [n.PlanUpdated(TURN, params.get("explanation"), plan)]
            case "thread/tokenUsage/updated":
                return [n.TokenUsage(TURN, wire_usage(params["tokenUsage"]))]
            case "error":
                message = (params.get("error") or {}).get("message") or "error"
                if params.get("willRetry"):
                    return [n.StreamRetry(TURN, message)]
                return items.error(message)
            case "warning" | "configWarning":
                # The configuration's, and the start-up's, wait behind the footer's badge.
                startup = method == "configWarning" or not self.turns_started
                text = params.get("message") or params.get("summary") or ""
                return [n.TurnWarning(STARTUP_TURN if startup else TURN, text)] if text else []
            case "item/autoApprovalReview/completed":
                return items.decided(**wire_auto_review(params))
            case "item/commandExecution/terminalInteraction":
                item_id, process = params.get("itemId") or "", params.get("processId") or ""
                return [n.TerminalInteraction(TURN, item_id, process, params.get("stdin") or "")]
            case "thread/backgroundMessage":
                return [n.BackgroundMessage(TURN, params.get("message") or "")]
            case "hook/started" | "hook/completed":
                done = method == "hook/completed"
                return [n.HookRunUpdated(TURN, wire_hook_run(params["run"]), done)]
            case "serverRequest/resolved":
                return self._resolved(params.get("requestId"))
            case _:
                return []

    def server_request(self, request_id: Any, method: str, params: dict[str, Any]) -> Notices:
        """The prompt for an approval request or an MCP server's question (none of this
        thread's: nothing)."""
        if params.get("threadId") != self.thread_id:
            return []
        item_id = params.get("itemId") or ""
        out = self._flush_held(keep=item_id)
        if method == EXEC_APPROVAL:
            command = tuple(wire_argv(params.get("command") or ""))
            cwd = params.get("cwd") or ""
            self.asked[item_id] = Asked(request_id, "exec", item_id, command)
            prefix = params.get("proposedExecpolicyAmendment")
            out += self.items.start(k.CommandExecutionItem(item_id, command, cwd), "approval")
            out.append(
                n.CommandApprovalRequested(
                    TURN,
                    item_id,
                    command,
                    cwd,
                    params.get("reason"),
                    tuple(prefix) if prefix is not None else None,
                )
            )
        elif method == PATCH_APPROVAL:
            changes = wire_changes((self._held.get(item_id) or {}).get("changes") or [])
            self.asked[item_id] = Asked(request_id, "patch", item_id, ())
            out += self.items.start(k.FileChangeItem(item_id, changes), "approval")
            reason, root = params.get("reason"), params.get("grantRoot")
            out.append(n.PatchApprovalRequested(TURN, item_id, changes, reason, root))
        elif method == ELICITATION:
            key = str(request_id)
            self.elicitations[key] = request_id
            out.append(
                n.ElicitationRequested(
                    TURN,
                    params.get("serverName") or "",
                    key,
                    params.get("message") or "",
                    "url" if params.get("mode") == "url" else "form",
                    params.get("requestedSchema"),
                    params.get("url"),
                )
            )
        return out

    def answered(self, item_id: str, decision: ReviewDecision) -> tuple[Asked, Notices] | None:
        """The TUI answered the prompt for `item_id`: the request to answer, and the
        decision's notices (the server sends no line for it); None once answered."""
        asked = self.asked.get(item_id)
        if asked is None or asked.answered:
            return None
        asked.answered = True
        asked.decision = decision
        return asked, self.items.decided(item_id, asked.kind, decision, asked.command)

    # ------------------------------------------------------------------ items

    def _item_started(self, item: dict[str, Any], *, replay: bool) -> Notices:
        item_id = item.get("id") or ""
        match item.get("type"):
            case "userMessage":
                return self.items.user(wire_user(item))
            case "mcpToolCall":
                return self.items.start(wire_mcp_call(item))
            case "webSearch" if not replay:
                return self.items.start(k.WebSearchItem(item_id))
            case "commandExecution" | "fileChange" if not replay:
                self._held[item_id] = item  # shown once it runs (it may wait for approval)
                return []
            case "commandExecution" | "fileChange" if item.get("status") == "declined":
                return self._refused_past(item)
            case "commandExecution" | "fileChange":
                return self._begin(item)
            case _:
                return []

    def _item_done(self, item: dict[str, Any]) -> Notices:
        item_id = item.get("id") or ""
        items = self.items
        match item.get("type"):
            case "agentMessage":
                return items.message_done(item_id, item.get("text") or "")
            case "reasoning":
                summary = "\n\n".join(item.get("summary") or [])
                return items.reasoning_done(item_id, summary) if summary else []
            case "commandExecution" | "fileChange" if item.get("status") == "declined":
                self._held.pop(item_id, None)
                return []
            case "commandExecution":
                out = self._show(item_id)
                command = wire_command(item).command
                out += items.start(k.CommandExecutionItem(item_id, command, ""), "end")
                status, code = item.get("status"), item.get("exitCode")
                if code is None:
                    code = 0 if status == "completed" else 1
                return out + items.end(
                    item_id,
                    status="completed" if code == 0 else "failed",
                    aggregated_output=item.get("aggregatedOutput") or "",
                    exit_code=code,
                    duration_ms=item.get("durationMs") or 0,
                )
            case "fileChange":
                out = self._show(item_id)
                out += items.start(wire_patch(item), "end")
                ok = item.get("status") == "completed"
                return out + items.end(item_id, status="completed" if ok else "failed")
            case "mcpToolCall":
                call = wire_mcp_call(item)
                return items.start(call, "end") + items.end(call.id, **wire_mcp_end(item))
            case "webSearch":
                found = wire_web_search(item)
                query = found["query"] or web_search_query(found["action"])
                out = items.start(k.WebSearchItem(item_id, query, found["action"]), "end")
                return out + items.end(item_id, query=query, action=found["action"])
            case _:
                return []

    def _begin(self, item: dict[str, Any]) -> Notices:
        if item.get("type") == "commandExecution":
            return self.items.start(wire_command(item))
        return self.items.start(wire_patch(item))

    def _refused_past(self, item: dict[str, Any]) -> Notices:
        """A past command or patch that was not allowed: asked about, then refused (it never
        ran, so it is no command cut short)."""
        if item.get("type") == "commandExecution":
            command = wire_command(item)
            asked = self.items.start(command, "approval")
            return asked + self.items.decided(command.id, "exec", "denied", command.command)
        asked = self.items.start(wire_patch(item), "approval")
        return asked + self.items.decided(item.get("id") or "", "patch", "denied")

    def _flush_held(self, keep: str = "") -> Notices:
        """Items no approval question followed are running: show them (all but `keep`, and
        those still waiting for an answer)."""
        out: Notices = []
        for item_id in list(self._held):
            waiting = item_id in self.asked or item_id in self._decided_elsewhere
            if item_id != keep and not waiting:
                out += self._show(item_id)
        return out

    def _show(self, item_id: str) -> Notices:
        held = self._held.pop(item_id, None)
        return self._begin(held) if held is not None else []

    # ------------------------------------------------------------------ other clients

    def _resolved(self, request_id: Any) -> Notices:
        """A request was answered: by this TUI (an allowed command or patch shows now, a
        refused one never), or by another client — the prompt closes once the outcome
        shows which way (`_decide_elsewhere`)."""
        for item_id, asked in list(self.asked.items()):
            if asked.request_id != request_id:
                continue
            del self.asked[item_id]
            if not asked.answered:
                self._decided_elsewhere[item_id] = asked
            elif asked.decision in ("approved", "approved_for_session"):
                return self._show(item_id)
            else:
                self._held.pop(item_id, None)
        return []

    def _decide_elsewhere(self, method: str, params: dict[str, Any]) -> Notices:
        """The decision of an approval another client answered, at the first message that
        shows the outcome: its item declined, its turn interrupted, or anything else about
        it (it ran)."""
        out: Notices = []
        item = params.get("item") or {}
        for item_id, asked in list(self._decided_elsewhere.items()):
            decision: ReviewDecision | None = None
            if method == "turn/completed":
                interrupted = params["turn"].get("status") == "interrupted"
                decision = "abort" if interrupted else "denied"
            elif item.get("id") == item_id and item.get("status") == "declined":
                decision = "denied"
            elif item.get("id") == item_id or params.get("itemId") == item_id:
                decision = "approved"
            if decision is None:
                continue
            del self._decided_elsewhere[item_id]
            if decision != "approved":
                self._held.pop(item_id, None)  # it never runs
            out += self.items.decided(
                item_id, asked.kind, decision, asked.command, "another_client"
            )
        return out
