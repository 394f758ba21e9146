"""The item projection of a thread → app-server notifications and server requests (pure).

Approvals and MCP servers' questions come out as `ApprovalAsk` / `ElicitationAsk`: the hub
sends them to the client as server requests and answers the session with the op."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, assert_never

from codex_core import items
from codex_core.items import kinds as k
from codex_core.items import notices as p
from codex_core.servers.app_server import elicitation
from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.convert import (
    command_actions,
    command_line,
    plan_steps,
    usage_breakdown,
)
from codex_core.servers.app_server.item_wire import wire_item
from codex_core.servers.app_server.model_thread import (
    ActiveStatus,
    IdleStatus,
    Turn,
    TurnError,
    TurnStatus,
)
from codex_core.servers.app_server.turn_state import TurnState
from codex_core.servers.app_server.wire import now_ms

if TYPE_CHECKING:  # the hook and codex-extension messages load when first sent
    from codex_core.servers.app_server import model_tui as tx


@dataclass
class ApprovalAsk:
    """The server must ask the client (a server request) and answer the session with an op."""

    params: n.ServerMessage
    call_id: str
    kind: Literal["exec", "patch"]


@dataclass
class ElicitationAsk:
    """An MCP server's question for the client (`mcpServer/elicitation/request`); the answer
    goes to the session as `elicitation.answer_op(request, …)`."""

    params: dict[str, Any]
    request: p.ElicitationRequested


Out = n.ServerMessage | ApprovalAsk | ElicitationAsk


class Translator:
    """Turns one thread's session events into wire messages, through the item projection."""

    def __init__(self, thread_id: str) -> None:
        self.thread_id = thread_id
        self.turns: dict[str, TurnState] = {}
        """Running turns by the id of the submission that started them."""
        self.began_a_turn = False
        """Whether a turn (or compaction or review) was submitted through this translator."""
        self._projection = items.Projection(self._new_id)

    def _new_id(self, kind: str, sub_id: str) -> str:
        """Ids as Codex gives them: `msg_…`, `rs_…`, `compact_<turn>`, else a UUID."""
        if kind == "agentMessage":
            return f"msg_{uuid.uuid4().hex[:12]}"
        if kind == "reasoning":
            return f"rs_{uuid.uuid4().hex[:12]}"
        if kind == "contextCompaction":
            state = self.turns.get(sub_id)
            return f"compact_{state.id if state else sub_id}"
        return str(uuid.uuid4())

    def begin_turn(
        self,
        sub_id: str,
        wire_input: list[w.UserInput],
        *,
        compact: bool,
        review: tuple[str, str] | None = None,
    ) -> Turn:
        """Remember a submitted turn; returns it as `turn/start` answers it (a review's, with
        its `review` label and prompt, as `review/start` does)."""
        state = TurnState(id=str(uuid.uuid4()), input=wire_input, compact=compact, review=review)
        self.turns[sub_id] = state
        self.began_a_turn = True
        if compact:
            self._projection.compaction_submitted(sub_id)
        if review is not None:
            asked = w.UserMessageItem(id=state.id, content=[w.TextUserInput(text=review[0])])
            return Turn(id=state.id, rootTurnId=None, items=[asked])
        return Turn(id=state.id, rootTurnId=state.id)

    def review_entered(self, sub_id: str) -> list[n.ServerMessage]:
        """`enteredReviewMode` started and completed, sent right after `review/start`'s answer
        (before the turn starts, as 0.169)."""
        turn = self.turns.get(sub_id)
        if turn is None or turn.review is None:
            return []
        entered = w.EnteredReviewModeItem(id=str(uuid.uuid4()), review=turn.review[0])
        return self._both(turn, entered)

    def _both(self, turn: TurnState, item: w.ThreadItem) -> list[n.ServerMessage]:
        """An item that starts and completes at once."""
        return [self._started(turn, item.model_copy()), self._completed(turn, item)]

    def turn_id_of(self, sub_id: str) -> str | None:
        """The wire turn id of a submission."""
        state = self.turns.get(sub_id)
        return state.id if state else None

    def running_sub(self, turn_id: str) -> str | None:
        """The submission id of a running turn."""
        return next((sub for sub, t in self.turns.items() if t.id == turn_id), None)

    @property
    def preview(self) -> str:
        """The thread's preview: its first user message (empty until there is one)."""
        return self._projection.preview

    def translate(self, event: items.Event) -> list[Out]:
        """The wire messages for one session event."""
        out: list[Out] = []
        for notice in self._projection.feed(event):
            self._render(notice, out)
        return out

    # ------------------------------------------------------------------ rendering

    def _render(self, notice: p.Notice, out: list[Out]) -> None:
        """Append the wire messages for one notice of the projection to `out`."""
        tid = self.thread_id
        if isinstance(notice, p.TurnWarning):
            out.append(n.WarningNotification(threadId=tid, message=notice.message))
            return
        if isinstance(notice, p.HookRunUpdated):
            out.append(self._hook_run(notice))
            return
        if isinstance(notice, p.ElicitationRequested):  # also asked between turns
            self._elicit(notice, out)
            return
        turn = self.turns.get(notice.turn)
        if turn is None:
            return  # not a turn a client started (or one already reported ended)
        ids = {"threadId": tid, "turnId": turn.id}
        match notice:
            case p.TurnStarted():
                turn.started_ms = now_ms()
                turn.started = True
                out.append(n.ThreadStatusChangedNotification(threadId=tid, status=ActiveStatus()))
                out.append(n.TurnStartedNotification(threadId=tid, turn=turn.wire("inProgress")))
                if turn.review is not None:  # the reviewer's task, as its user message
                    task: list[w.UserInput] = [w.TextUserInput(text=turn.review[1])]
                    out.extend(
                        self._both(turn, w.UserMessageItem(id=str(uuid.uuid4()), content=task))
                    )
            case p.ItemStarted():
                started = wire_item(notice.item, turn.input, turn.client_id)
                if started is not None:
                    out.append(self._started(turn, started))
            case p.ItemCompleted():
                self._item_completed(turn, notice, out)
            case p.AgentMessageDelta():
                out.append(
                    n.AgentMessageDeltaNotification(
                        **ids, itemId=notice.item_id, delta=notice.delta
                    )
                )
            case p.ReasoningPartAdded():
                out.append(
                    n.ReasoningSummaryPartAddedNotification(
                        **ids, itemId=notice.item_id, summaryIndex=notice.index
                    )
                )
            case p.ReasoningDelta():
                out.append(
                    n.ReasoningSummaryTextDeltaNotification(
                        **ids, itemId=notice.item_id, delta=notice.delta, summaryIndex=notice.index
                    )
                )
            case p.CommandOutputDelta():
                out.append(
                    n.CommandExecutionOutputDeltaNotification(
                        **ids, itemId=notice.item_id, delta=notice.chunk
                    )
                )
            case p.CommandApprovalRequested():
                argv = list(notice.command)
                prefix = list(notice.suggested_prefix) if notice.suggested_prefix else None
                ask = n.CommandExecutionRequestApprovalParams(
                    threadId=tid,
                    turnId=turn.id,
                    itemId=notice.item_id,
                    startedAtMs=now_ms(),
                    command=command_line(argv),
                    cwd=notice.cwd,
                    reason=notice.reason,
                    commandActions=command_actions(argv),
                    proposedExecpolicyAmendment=prefix,
                )
                # Codex reports the wait before it announces the command's item.
                waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
                out.insert(0, n.ThreadStatusChangedNotification(threadId=tid, status=waiting))
                out.append(ApprovalAsk(ask, notice.item_id, "exec"))
            case p.PatchApprovalRequested():
                patch_ask = n.FileChangeRequestApprovalParams(
                    **ids,
                    itemId=notice.item_id,
                    startedAtMs=now_ms(),
                    reason=notice.reason,
                    grantRoot=notice.grant_root,
                )
                # A patch's item comes before the thread waits (a command's after).
                waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
                out.append(n.ThreadStatusChangedNotification(threadId=tid, status=waiting))
                out.append(ApprovalAsk(patch_ask, notice.item_id, "patch"))
            case p.DiffUpdated():
                out.append(n.TurnDiffUpdatedNotification(**ids, diff=notice.diff))
            case p.PlanUpdated():
                steps = plan_steps(notice.plan)
                out.append(
                    n.TurnPlanUpdatedNotification(**ids, explanation=notice.explanation, plan=steps)
                )
            case p.TokenUsage():
                usage = n.ThreadTokenUsage(
                    total=usage_breakdown(notice.info.total_token_usage),
                    last=usage_breakdown(notice.info.last_token_usage),
                    modelContextWindow=notice.info.model_context_window,
                )
                out.append(n.ThreadTokenUsageUpdatedNotification(**ids, tokenUsage=usage))
            case p.StreamRetry():
                error = TurnError(message=notice.message)
                out.append(n.ErrorNotification(**ids, error=error, willRetry=True))
            case p.TurnError():
                turn.error = TurnError(message=notice.message)
                out.append(n.ErrorNotification(**ids, error=turn.error, willRetry=False))
                if not turn.started:  # refused before it began (an unreadable image): ends here
                    out.extend(self._finish(notice.turn, turn, "failed"))
            case p.TurnEnded():
                out.extend(self._finish(notice.turn, turn, notice.status))
            case p.ThreadStarted() | p.HookRunUpdated():
                pass  # the thread was announced when the client started it
            case p.ApprovalDecided(reviewer="auto_review"):
                out.append(auto_review_completed(tid, turn.id, notice))
            case p.TerminalInteraction():
                from codex_core.servers.app_server import model_tui as tx

                out.append(
                    tx.TerminalInteractionNotification(
                        **ids,
                        itemId=notice.item_id,
                        processId=notice.process_id,
                        stdin=notice.stdin,
                    )
                )
            case p.BackgroundMessage():
                from codex_core.servers.app_server import model_tui as tx

                out.append(tx.BackgroundMessageNotification(**ids, message=notice.message))
            case p.ApprovalDecided() | p.SessionEnded():
                pass  # not sent: a user's answer is the client's own; the pump stops at the end
            case _ as unreachable:
                assert_never(unreachable)

    def _elicit(self, request: p.ElicitationRequested, out: list[Out]) -> None:
        """Ask the client; while a turn the client started runs, it waits on the user (as
        0.169 says with the thread's status)."""
        turn = self.turns.get(request.turn)
        if turn is not None:
            waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
            out.append(n.ThreadStatusChangedNotification(threadId=self.thread_id, status=waiting))
        turn_id = turn.id if turn is not None else None
        params = elicitation.request_params(request, self.thread_id, turn_id)
        out.append(ElicitationAsk(params, request))

    def _hook_run(self, notice: p.HookRunUpdated) -> n.ServerMessage:
        """`hook/started` or `hook/completed` as 0.169 sends them (with the turn the hook ran
        in, also for SessionStart; none for a hook outside any turn)."""
        from codex_core.servers.app_server import model_extensions as hx

        run = notice.run
        turn = self.turns.get(notice.turn)
        ended = run.duration_ms if notice.done else None
        summary = hx.HookRunSummary(
            id=run.id,
            eventName=run.event_name[:1].lower() + run.event_name[1:],
            scope=run.scope,
            sourcePath=run.source_path,
            source=run.source,
            displayOrder=run.display_order,
            status=run.status if notice.done else "running",
            statusMessage=run.status_message,
            startedAt=run.started_at,
            completedAt=run.started_at + (ended or 0) // 1000 if notice.done else None,
            durationMs=ended,
            entries=[hx.HookOutputEntry.model_validate(e) for e in run.entries]
            if notice.done
            else [],
        )
        turn_id = turn.id if turn is not None else None
        kind = hx.HookCompletedNotification if notice.done else hx.HookStartedNotification
        return kind(threadId=self.thread_id, turnId=turn_id, run=summary)

    def _item_completed(self, turn: TurnState, done: p.ItemCompleted, out: list[Out]) -> None:
        """An item's completion, as Codex 0.169 sends it: a refused command or patch completes
        `declined`, except a cancelled patch (never completed; its turn ends interrupted); of
        what a turn leaves open, only commands complete (failed when it was interrupted)."""
        item = done.item
        if done.cause == "turn_ended" and not isinstance(item, k.CommandExecutionItem):
            return
        if done.cause == "cancelled" and isinstance(item, k.FileChangeItem):
            return
        completed = wire_item(item, turn.input, turn.client_id)
        if completed is None:
            return
        if isinstance(completed, w.AgentMessageItem) and turn.review is not None:
            exited = w.ExitedReviewModeItem(id=str(uuid.uuid4()), review=completed.text)
            out.extend(self._both(turn, exited))  # the review's answer closes review mode
            turn.review = None
        out.append(self._completed(turn, completed))
        if isinstance(completed, w.AgentMessageItem):
            turn.last_message = completed
        elif isinstance(completed, w.ContextCompactionItem):
            out.append(n.ContextCompactedNotification(threadId=self.thread_id, turnId=turn.id))
        elif done.cause == "cancelled":  # the server held this status back for the item
            active = ActiveStatus()
            out.append(n.ThreadStatusChangedNotification(threadId=self.thread_id, status=active))

    def _started(self, turn: TurnState, item: w.ThreadItem) -> n.ItemStartedNotification:
        at = now_ms()
        item.startedAtMs = at
        turn.item_started_ms[item.id] = at
        return n.ItemStartedNotification(
            item=item, threadId=self.thread_id, turnId=turn.id, startedAtMs=at
        )

    def _completed(self, turn: TurnState, item: w.ThreadItem) -> n.ItemCompletedNotification:
        at = now_ms()
        item.startedAtMs = turn.item_started_ms.pop(item.id, None)
        item.completedAtMs = at
        return n.ItemCompletedNotification(
            item=item, threadId=self.thread_id, turnId=turn.id, completedAtMs=at
        )

    def _finish(self, sub_id: str, turn: TurnState, status: TurnStatus) -> list[Out]:
        self.turns.pop(sub_id, None)
        return [
            n.ThreadStatusChangedNotification(threadId=self.thread_id, status=IdleStatus()),
            n.TurnCompletedNotification(threadId=self.thread_id, turn=turn.wire(status)),
        ]


def auto_review_completed(
    thread_id: str, turn_id: str, notice: p.ApprovalDecided
) -> tx.AutoApprovalReviewCompletedNotification:
    """`item/autoApprovalReview/completed` for the automatic reviewer's decision."""
    from codex_core.servers.app_server import model_tui as tx

    status: Literal["approved", "denied", "aborted"] = (
        "approved"
        if notice.decision in ("approved", "approved_for_session")
        else "aborted"
        if notice.decision == "abort"
        else "denied"
    )
    action: dict[str, object] = (
        {
            "type": "command",
            "command": command_line(list(notice.command)),
            "cwd": "",
            "source": "unifiedExec",
        }
        if notice.kind == "exec"
        else {"type": "applyPatch", "cwd": "", "files": []}
    )
    at = now_ms()
    return tx.AutoApprovalReviewCompletedNotification(
        threadId=thread_id,
        turnId=turn_id,
        reviewId=str(uuid.uuid4()),
        targetItemId=notice.item_id,
        startedAtMs=at,
        completedAtMs=at,
        review=tx.AutoApprovalReview(status=status, rationale=notice.rationale),
        action=action,
    )
