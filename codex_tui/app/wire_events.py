"""App-server wire messages → the core events the TUI's cells take in (transitional, pure).

The TUI attached to an app-server (`codex --remote`) receives the thread's items as any
client does (`item/started`, deltas, `item/completed`, turn notices, approval requests).
Its cells still take core events, so this module — and only this one — turns the wire back
into them, until the TUI renders wire items itself (DESIGN.md, "The TUI as an app-server
client"). It keeps what the wire spreads over several messages: the running turn, the
server request behind each approval, the command or patch an approval is about (its item
is announced before the question, and shown only once it is allowed to run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    AgentReasoningDeltaEvent,
    AgentReasoningEvent,
    AgentReasoningSectionBreakEvent,
    ApplyPatchApprovalRequestEvent,
    ApprovalDecisionEvent,
    BackgroundEvent,
    ElicitationRequestEvent,
    ErrorEvent,
    Event,
    EventMsg,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent,
    HookCompletedEvent,
    HookStartedEvent,
    McpToolCallBeginEvent,
    McpToolCallEndEvent,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    PlanUpdateEvent,
    SessionConfiguredEvent,
    StreamErrorEvent,
    TaskCompleteEvent,
    TaskStartedEvent,
    TerminalInteractionEvent,
    TokenCountEvent,
    TurnAbortedEvent,
    TurnDiffEvent,
    UserMessageEvent,
    WarningEvent,
    WebSearchBeginEvent,
    WebSearchEndEvent,
)
from codex_core.protocol.common import (
    PlanItem,
)
from codex_tui.app.wire_values import wire_approval as _approval
from codex_tui.app.wire_values import wire_argv as _argv
from codex_tui.app.wire_values import wire_auto_review as _auto_review
from codex_tui.app.wire_values import wire_changes as _changes
from codex_tui.app.wire_values import wire_hook_run as _hook_run
from codex_tui.app.wire_values import wire_mcp_call as _mcp_call
from codex_tui.app.wire_values import wire_mcp_result as _mcp_result
from codex_tui.app.wire_values import wire_sandbox as _sandbox
from codex_tui.app.wire_values import wire_usage as _usage
from codex_tui.app.wire_values import wire_web_search as _web_search

EXEC_APPROVAL = "item/commandExecution/requestApproval"
PATCH_APPROVAL = "item/fileChange/requestApproval"
ELICITATION = "mcpServer/elicitation/request"
Kind = Literal["exec", "patch"]


@dataclass
class Asked:
    """A server request the TUI shows as an approval prompt."""

    request_id: Any
    kind: Kind
    item_id: str
    command: list[str] | None
    answered: bool = False
    decision: str | None = None
    """This TUI's answer, once given."""


@dataclass
class WireEvents:
    """One thread's wire messages as core events, in order."""

    thread_id: str = ""
    turn_id: str | None = None
    """The running turn (for `turn/interrupt` and `turn/steer`)."""
    asked: dict[str, Asked] = field(default_factory=dict)
    """Approval requests by item id."""
    _held: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Command and patch items announced but not yet shown (they may wait for approval)."""
    _decided_elsewhere: set[str] = field(default_factory=set)
    """Items whose approval another client answered; the outcome says which way."""
    asked_elsewhere: dict[str, Asked] = field(default_factory=dict)
    elicitations: dict[str, Any] = field(default_factory=dict)
    """Server request ids of MCP servers' questions, by the id the form answers with."""

    # ------------------------------------------------------------------ session

    def session_configured(self, response: dict[str, Any]) -> Event:
        """`thread/start` / `thread/resume`'s answer as the session's first event; a resumed
        thread's turns become its past events."""
        thread = response["thread"]
        self.thread_id = thread["id"]
        past: list[dict[str, Any]] = []
        for turn in thread.get("turns") or []:
            past.append(TaskStartedEvent().model_dump(mode="json"))
            for item in turn.get("items") or []:
                for msg in self._item_started(item, replay=True) + self._item_done(item):
                    past.append(msg.model_dump(mode="json"))
            ended = TurnAbortedEvent() if turn.get("status") == "interrupted" else None
            past.append((ended or TaskCompleteEvent()).model_dump(mode="json"))
        msg = SessionConfiguredEvent(
            session_id=thread["id"],
            model=response.get("model") or thread.get("model") or "",
            model_provider_id=response.get("modelProvider") or "openai",
            reasoning_effort=response.get("reasoningEffort"),
            rollout_path=thread.get("path"),
            cwd=response.get("cwd") or thread.get("cwd"),
            approval_policy=_approval(response.get("approvalPolicy")),
            sandbox_policy=_sandbox(response.get("sandbox")),
            initial_messages=past or None,
        )
        return Event(id="", msg=msg)

    # ------------------------------------------------------------------ incoming

    def notification(self, method: str, params: dict[str, Any]) -> list[Event]:
        """The events for one notification of this thread (none for others)."""
        if params.get("threadId") not in (None, self.thread_id):
            return []
        out = self._decide_elsewhere(method, params)
        if method != "thread/status/changed":  # a patch's item comes before the wait notice
            out += self._flush_held()
        out += self._notification(method, params)
        turn = self.turn_id or ""
        return [Event(id=turn, msg=m) for m in out]

    def _notification(self, method: str, params: dict[str, Any]) -> list[EventMsg]:
        match method:
            case "turn/started":
                self.turn_id = params["turn"]["id"]
                return [TaskStartedEvent()]
            case "turn/completed":
                self.turn_id = None
                self._held.clear()
                status = params["turn"].get("status")
                if status == "interrupted":
                    return [TurnAbortedEvent()]
                return [TaskCompleteEvent()]
            case "item/started":
                return self._item_started(params["item"], replay=False)
            case "item/completed":
                return self._item_done(params["item"])
            case "item/agentMessage/delta":
                return [AgentMessageDeltaEvent(delta=params["delta"])]
            case "item/reasoning/summaryTextDelta":
                return [AgentReasoningDeltaEvent(delta=params["delta"])]
            case "item/reasoning/summaryPartAdded":
                return [AgentReasoningSectionBreakEvent()] if params.get("summaryIndex") else []
            case "item/commandExecution/outputDelta":
                item_id = params["itemId"]
                return self._show(item_id) + [
                    ExecCommandOutputDeltaEvent(
                        call_id=item_id, stream="stdout", chunk=params["delta"]
                    )
                ]
            case "turn/diff/updated":
                return [TurnDiffEvent(unified_diff=params.get("diff") or "")]
            case "turn/plan/updated":
                plan = [
                    PlanItem(
                        step=s["step"],
                        status="in_progress" if s["status"] == "inProgress" else s["status"],
                    )
                    for s in params.get("plan") or []
                ]
                return [PlanUpdateEvent(explanation=params.get("explanation"), plan=plan)]
            case "thread/tokenUsage/updated":
                return [TokenCountEvent(info=_usage(params["tokenUsage"]))]
            case "error":
                message = (params.get("error") or {}).get("message") or "error"
                if params.get("willRetry"):
                    return [StreamErrorEvent(message=message)]
                return [ErrorEvent(message=message)]
            case "warning" | "configWarning":
                text = params.get("message") or params.get("summary") or ""
                return [WarningEvent(message=text)] if text else []
            case "item/autoApprovalReview/completed":
                return [ApprovalDecisionEvent(**_auto_review(params))]
            case "item/commandExecution/terminalInteraction":
                return [
                    TerminalInteractionEvent(
                        call_id=params.get("itemId") or "",
                        process_id=params.get("processId") or "",
                        stdin=params.get("stdin") or "",
                    )
                ]
            case "thread/backgroundMessage":
                return [BackgroundEvent(message=params.get("message") or "")]
            case "hook/started":
                return [HookStartedEvent(run=_hook_run(params["run"]))]
            case "hook/completed":
                return [HookCompletedEvent(run=_hook_run(params["run"]))]
            case "serverRequest/resolved":
                return self._resolved(params.get("requestId"))
            case _:
                return []

    def server_request(self, request_id: Any, method: str, params: dict[str, Any]) -> list[Event]:
        """The prompt for an approval request (None of ours: nothing)."""
        if params.get("threadId") != self.thread_id:
            return []
        item_id = params.get("itemId") or ""
        shown = [Event(id=self.turn_id or "", msg=m) for m in self._flush_held(keep=item_id)]
        msg: EventMsg
        if method == EXEC_APPROVAL:
            command = _argv(params.get("command") or "")
            self.asked[item_id] = Asked(request_id, "exec", item_id, command)
            msg = ExecApprovalRequestEvent(
                call_id=item_id,
                command=command,
                cwd=params.get("cwd") or "",
                reason=params.get("reason"),
                suggested_prefix=params.get("proposedExecpolicyAmendment"),
            )
        elif method == PATCH_APPROVAL:
            held = self._held.get(item_id) or {}
            self.asked[item_id] = Asked(request_id, "patch", item_id, None)
            msg = ApplyPatchApprovalRequestEvent(
                call_id=item_id,
                changes=_changes(held.get("changes") or []),
                reason=params.get("reason"),
                grant_root=params.get("grantRoot"),
            )
        elif method == ELICITATION:
            key = str(request_id)
            self.elicitations[key] = request_id
            msg = ElicitationRequestEvent(
                server_name=params.get("serverName") or "",
                id=key,
                message=params.get("message") or "",
                mode="url" if params.get("mode") == "url" else "form",
                requested_schema=params.get("requestedSchema"),
                url=params.get("url"),
                elicitation_id=params.get("elicitationId"),
                turn_id=params.get("turnId"),
            )
        else:
            return shown
        return [*shown, Event(id=self.turn_id or "", msg=msg)]

    def answered(self, item_id: str, decision: Any) -> tuple[Asked, Event] | None:
        """The TUI answered the prompt for `item_id`: the request to answer, and the
        decision line (the server does not send one)."""
        asked = self.asked.get(item_id)
        if asked is None or asked.answered:
            return None
        asked.answered = True
        asked.decision = decision
        msg = ApprovalDecisionEvent(
            call_id=item_id, kind=asked.kind, decision=decision, command=asked.command
        )
        return asked, Event(id=self.turn_id or "", msg=msg)

    # ------------------------------------------------------------------ items

    def _item_started(self, item: dict[str, Any], *, replay: bool) -> list[EventMsg]:
        match item.get("type"):
            case "userMessage":
                text = "\n".join(
                    c.get("text", "") for c in item.get("content") or [] if c.get("type") == "text"
                )
                images = [
                    c.get("url") or c.get("path") or ""
                    for c in item.get("content") or []
                    if c.get("type") in ("image", "localImage")
                ]
                return [UserMessageEvent(message=text, images=images or None)]
            case "mcpToolCall":
                return [McpToolCallBeginEvent(**_mcp_call(item))]
            case "webSearch" if not replay:
                return [WebSearchBeginEvent(call_id=item.get("id") or "")]
            case "commandExecution" | "fileChange" if not replay:
                self._held[item["id"]] = item  # shown once it runs (it may wait for approval)
                return []
            case "commandExecution" | "fileChange":
                return self._begin(item)
            case _:
                return []

    def _item_done(self, item: dict[str, Any]) -> list[EventMsg]:
        item_id = item.get("id", "")
        match item.get("type"):
            case "agentMessage":
                return [AgentMessageEvent(message=item.get("text") or "")]
            case "reasoning":
                summary = "\n\n".join(item.get("summary") or [])
                return [AgentReasoningEvent(text=summary)] if summary else []
            case "commandExecution":
                if item.get("status") == "declined":
                    self._held.pop(item_id, None)
                    return []
                shown = self._show(item_id)
                status = item.get("status")
                code = item.get("exitCode")
                return shown + [
                    ExecCommandEndEvent(
                        call_id=item_id,
                        aggregated_output=item.get("aggregatedOutput") or "",
                        exit_code=code if code is not None else (0 if status == "completed" else 1),
                        duration_ms=item.get("durationMs") or 0,
                        command=_argv(item.get("command") or ""),
                    )
                ]
            case "mcpToolCall":
                return [McpToolCallEndEvent(**_mcp_result(item))]
            case "webSearch":
                return [WebSearchEndEvent(**_web_search(item))]
            case "fileChange":
                if item.get("status") == "declined":
                    self._held.pop(item_id, None)
                    return []
                shown = self._show(item_id)
                return shown + [
                    PatchApplyEndEvent(
                        call_id=item_id,
                        success=item.get("status") == "completed",
                        changes=_changes(item.get("changes") or []),
                    )
                ]
            case _:
                return []

    def _begin(self, item: dict[str, Any]) -> list[EventMsg]:
        if item.get("type") == "commandExecution":
            command = _argv(item.get("command") or "")
            return [ExecCommandBeginEvent(call_id=item["id"], command=command, cwd=item["cwd"])]
        changes = _changes(item.get("changes") or [])
        return [PatchApplyBeginEvent(call_id=item["id"], auto_approved=False, changes=changes)]

    def _flush_held(self, keep: str = "") -> list[EventMsg]:
        """Items no approval question followed are running: show them (all but `keep`, and
        those still waiting for an answer)."""
        out: list[EventMsg] = []
        for item_id in list(self._held):
            waiting = item_id in self.asked or item_id in self._decided_elsewhere
            if item_id != keep and not waiting:
                out += self._show(item_id)
        return out

    def _show(self, item_id: str) -> list[EventMsg]:
        held = self._held.pop(item_id, None)
        return self._begin(held) if held is not None else []

    # ------------------------------------------------------------------ other clients

    def _resolved(self, request_id: Any) -> list[EventMsg]:
        """A request was answered: by this TUI (an allowed command or patch shows now, a
        refused one never), or by another client — the prompt closes once the outcome
        shows which way (`_decide_elsewhere`)."""
        for item_id, asked in list(self.asked.items()):
            if asked.request_id != request_id:
                continue
            del self.asked[item_id]
            if not asked.answered:
                self._decided_elsewhere.add(item_id)
                self.asked_elsewhere[item_id] = asked
            elif asked.decision in ("approved", "approved_for_session"):
                return self._show(item_id)
            else:
                self._held.pop(item_id, None)
        return []

    def _decide_elsewhere(self, method: str, params: dict[str, Any]) -> list[EventMsg]:
        """The decision line for an approval another client answered, at the first message
        that shows the outcome: its item declined, its turn interrupted, or anything else
        about it (it ran)."""
        if not self._decided_elsewhere:
            return []
        out: list[EventMsg] = []
        item = params.get("item") or {}
        for item_id in list(self._decided_elsewhere):
            decision: Any = None
            if method == "turn/completed":
                interrupted = params["turn"].get("status") == "interrupted"
                decision = "abort" if interrupted else "denied"
            elif item.get("id") == item_id and item.get("status") == "declined":
                decision = "denied"
            elif item.get("id") == item_id or params.get("itemId") == item_id:
                decision = "approved"
            if decision is None:
                continue
            self._decided_elsewhere.discard(item_id)
            if decision != "approved":
                self._held.pop(item_id, None)  # it never runs
            asked = self.asked_elsewhere.pop(item_id)
            out.append(
                ApprovalDecisionEvent(
                    call_id=item_id,
                    kind=asked.kind,
                    decision=decision,
                    command=asked.command,
                    reviewer="another_client",
                )
            )
        return out
