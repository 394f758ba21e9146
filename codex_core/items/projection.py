"""Session events → item lifecycle notices: the one projection every frontend renders.

Pure and incremental: a `Projection` is fed the session's events one at a time and returns
the notices each one produces; it does no IO and keeps only what is open. It guarantees, for
any sequence of events (interrupts, errors, missing or repeated ends, reused call ids):

- every `ItemStarted` is followed by exactly one `ItemCompleted` of that item, and no item is
  completed that was not started (an end without its begin starts the item first);
- deltas only name open items, and an agent message's or reasoning's deltas join to the text
  it completes with when its own end follows them;
- when a turn ends, every item it left open is completed first (`cause="turn_ended"`,
  `failed` when the turn was interrupted), then `TurnEnded` follows.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, assert_never

import codex_core.items.kinds as k
import codex_core.items.notices as n
from codex_core import protocol as ev
from codex_core.items.turn_text import TurnText

NewId = Callable[[str, str], str]
"""Gives an id to an item that has none of its own: called with the item's `type` and its
turn (messages, reasoning, user messages, compactions; tool items use their call's id)."""


def counting_ids() -> NewId:
    """`agentMessage-1`, `reasoning-2`, …: predictable ids, for tests and replays."""
    counter = itertools.count(1)
    return lambda kind, turn: f"{kind}-{next(counter)}"


@dataclass
class _Turn(TurnText):
    """What the projection knows of one running turn."""

    compaction: str | None = None
    """The id of the compaction item, for a `/compact` turn."""


class Projection:
    """Feeds on one thread's events; returns the notices for each (see the module docstring)."""

    def __init__(self, new_id: NewId | None = None) -> None:
        self._new_id = new_id or counting_ids()
        self._turns: dict[str, _Turn] = {}
        self._tools: dict[str, tuple[str, k.ToolItem]] = {}
        """Open tool items by call id, with their turn, in the order they started."""
        self._compacting: set[str] = set()
        self._asked: set[str] = set()
        """Open tool items started by a request for approval whose own begin has not come."""
        self.preview = ""
        """The thread's preview (what thread lists show): the text of its first user message
        that has any."""

    def compaction_submitted(self, turn: str) -> None:
        """The submission `turn` is a `/compact`: its turn carries a compaction item."""
        self._compacting.add(turn)

    def open_items(self) -> list[str]:
        """The ids of items started and not yet completed."""
        texts = [t for turn in self._turns.values() for t in (turn.message, turn.reasoning) if t]
        compactions = [t.compaction for t in self._turns.values() if t.compaction]
        return [*compactions, *(t.id for t in texts), *self._tools]

    def feed(self, event: ev.Event) -> list[n.Notice]:
        """The notices for one event, in the order a client should see them."""
        return self.feed_msg(event.id, event.msg)

    def feed_msg(self, turn: str, msg: ev.EventMsg) -> list[n.Notice]:
        """`feed` for an event taken apart: `msg` of the submission `turn` (for a frontend
        handed events without their ids; no `Event` is built for each delta)."""
        match msg:
            case ev.SessionConfiguredEvent():
                return [_thread_started(turn, msg)]
            case ev.TaskStartedEvent():
                return self._turn_started(turn, msg.model_context_window)
            case ev.UserMessageEvent():
                user = k.UserMessageItem(
                    self._new_id("userMessage", turn), msg.message, tuple(msg.images or ())
                )
                self.preview = self.preview or user.text
                return [n.ItemStarted(turn, user), n.ItemCompleted(turn, user)]
            case ev.AgentMessageDeltaEvent():
                return self._state(turn).message_delta(
                    turn, self._id_for("agentMessage", turn), msg.delta
                )
            case ev.AgentMessageEvent():
                return self._state(turn).message_done(
                    turn, self._id_for("agentMessage", turn), msg.message
                )
            case ev.AgentReasoningDeltaEvent():
                return self._state(turn).reasoning_delta(
                    turn, self._id_for("reasoning", turn), msg.delta
                )
            case ev.AgentReasoningSectionBreakEvent():
                return self._state(turn).reasoning_part(turn)
            case ev.AgentReasoningEvent():
                return self._state(turn).reasoning_done(
                    turn, self._id_for("reasoning", turn), msg.text
                )
            case ev.ExecApprovalRequestEvent():
                out = self._start_command(turn, msg.call_id, msg.command, msg.cwd, "approval")
                prefix = tuple(msg.suggested_prefix) if msg.suggested_prefix is not None else None
                ask = n.CommandApprovalRequested(
                    turn, msg.call_id, tuple(msg.command), msg.cwd, msg.reason, prefix
                )
                return [*out, ask]
            case ev.ApplyPatchApprovalRequestEvent():
                item = k.FileChangeItem(msg.call_id, dict(msg.changes))
                out = self._start(turn, item, by="approval")
                patch_ask = n.PatchApprovalRequested(
                    turn, msg.call_id, dict(msg.changes), msg.reason, msg.grant_root
                )
                return [*out, patch_ask]
            case ev.ApprovalDecisionEvent():
                return self._decided(turn, msg)
            case ev.ExecCommandBeginEvent():
                return self._start_command(turn, msg.call_id, msg.command, msg.cwd)
            case ev.ExecCommandOutputDeltaEvent():
                if not isinstance(
                    self._tools.get(msg.call_id, (0, None))[1], k.CommandExecutionItem
                ):
                    return []  # no open command to stream into
                owner = self._tools[msg.call_id][0]
                return [n.CommandOutputDelta(owner, msg.call_id, msg.stream, msg.chunk)]
            case ev.ExecCommandEndEvent():
                return self._command_ended(turn, msg)
            case ev.PatchApplyBeginEvent():
                return self._start(turn, k.FileChangeItem(msg.call_id, dict(msg.changes)))
            case ev.PatchApplyEndEvent():
                # A replayed end says what changed (no begin did); a live one does not.
                late = k.FileChangeItem(msg.call_id, dict(msg.changes or {}))
                out = self._start(turn, late, by="end")
                status: k.ItemStatus = "completed" if msg.success else "failed"
                return [
                    *out,
                    *self._end(msg.call_id, status=status, stdout=msg.stdout, stderr=msg.stderr),
                ]
            case ev.McpToolCallBeginEvent():
                call = k.McpToolCallItem(msg.call_id, msg.server, msg.tool, msg.arguments)
                return self._start(turn, call)
            case ev.McpToolCallEndEvent():
                call = k.McpToolCallItem(msg.call_id, msg.server, msg.tool, msg.arguments)
                out = self._start(turn, call, by="end")
                ok = msg.tool_result
                return [
                    *out,
                    *self._end(
                        msg.call_id,
                        status="completed" if msg.is_success else "failed",
                        result=ok,
                        error=msg.error,
                        duration_ms=msg.duration.millis,
                        duration_ns=msg.duration.secs * 1_000_000_000 + msg.duration.nanos,
                        read_only=bool(msg.read_only),
                    ),
                ]
            case ev.WebSearchBeginEvent():
                return self._start(turn, k.WebSearchItem(msg.call_id))
            case ev.WebSearchEndEvent():
                query = msg.query or ev.web_search_query(msg.action)
                search = k.WebSearchItem(msg.call_id, query, msg.action)
                out = self._start(turn, search, by="end")
                return [*out, *self._end(msg.call_id, query=query, action=msg.action)]
            case ev.TurnDiffEvent():
                return [n.DiffUpdated(turn, msg.unified_diff)]
            case ev.PlanUpdateEvent():
                return [n.PlanUpdated(turn, msg.explanation, list(msg.plan))]
            case ev.TokenCountEvent():
                return [n.TokenUsage(turn, msg.info)] if msg.info is not None else []
            case ev.StreamErrorEvent():
                return [n.StreamRetry(turn, msg.message)]
            case ev.WarningEvent():
                return [n.TurnWarning(turn, msg.message)]
            case ev.ErrorEvent():
                self._state(turn).error = msg.message
                return [n.TurnError(turn, msg.message)]
            case ev.TaskCompleteEvent():
                failed = self._state(turn).error is not None
                ending: n.TurnStatus = "failed" if failed else "completed"
                return self._turn_ended(turn, ending, msg.last_agent_message)
            case ev.TurnAbortedEvent():
                return self._turn_ended(turn, "interrupted", None)
            case ev.BackgroundEvent():
                return [n.BackgroundMessage(turn, msg.message)]
            case ev.TerminalInteractionEvent():
                command = msg.command_call_id or msg.call_id
                return [n.TerminalInteraction(turn, command, msg.process_id, msg.stdin)]
            case ev.HookStartedEvent() | ev.HookCompletedEvent():
                ended = isinstance(msg, ev.HookCompletedEvent)
                return [n.HookRunUpdated(turn, msg.run, ended)]
            case ev.ElicitationRequestEvent():
                question = n.ElicitationRequested(
                    turn,
                    msg.server_name,
                    msg.id,
                    msg.message,
                    msg.mode,
                    msg.requested_schema,
                    msg.url,
                    msg.elicitation_id,
                    during_turn=msg.turn_id is not None,
                )
                return [question]
            case ev.ShutdownCompleteEvent():
                return [n.SessionEnded(turn)]
            case _ if isinstance(msg, ev.OpReplyEvent):
                return []  # replies to ops
            case _ as unreachable:
                assert_never(unreachable)

    # ------------------------------------------------------------------ turns

    def _state(self, turn: str) -> _Turn:
        state = self._turns.get(turn)
        if state is None:  # (not `setdefault`: it would build a state for every delta)
            state = self._turns[turn] = _Turn()
        return state

    def _turn_started(self, turn: str, context_window: int | None) -> list[n.Notice]:
        out: list[n.Notice] = [*self._close_turn(turn, "interrupted")]
        out.append(n.TurnStarted(turn, context_window))
        state = self._turns[turn] = _Turn()
        if turn in self._compacting:
            self._compacting.discard(turn)
            state.compaction = self._new_id("contextCompaction", turn)
            out.append(n.ItemStarted(turn, k.ContextCompactionItem(state.compaction)))
        return out

    def _turn_ended(self, turn: str, status: n.TurnStatus, last: str | None) -> list[n.Notice]:
        error = self._turns[turn].error if turn in self._turns else None
        return [*self._close_turn(turn, status), n.TurnEnded(turn, status, error, last)]

    def _close_turn(self, turn: str, status: n.TurnStatus) -> list[n.Notice]:
        """Complete what `turn` left open (a turn started again without ending counts as
        interrupted) and forget the turn."""
        state = self._turns.pop(turn, None)
        out: list[n.Notice] = []
        if state is None:
            return out
        if state.compaction is not None:
            compaction = k.ContextCompactionItem(state.compaction)
            cause: n.CompletionCause = "ended" if status == "completed" else "turn_ended"
            out.append(n.ItemCompleted(turn, compaction, cause))
        out.extend(state.close(turn))
        for call_id, (owner, item) in list(self._tools.items()):
            if owner != turn:
                continue
            del self._tools[call_id]
            self._asked.discard(call_id)
            if status == "interrupted" and not isinstance(item, k.WebSearchItem):
                item = replace(item, status="failed")
            out.append(n.ItemCompleted(turn, item, "turn_ended"))
        return out

    # ------------------------------------------------------------------ items

    def _id_for(self, kind: str, turn: str) -> Callable[[], str]:
        """What names a text item of `kind` that `turn` starts (called only if it does)."""
        return lambda: self._new_id(kind, turn)

    def _start(self, turn: str, item: k.ToolItem, by: n.StartedBy = "begin") -> list[n.Notice]:
        """Start a tool item unless one of its kind and call id is open; an open item of
        another kind with that call id is completed first (`superseded`, failed)."""
        out: list[n.Notice] = []
        if item.id in self._tools:
            owner, current = self._tools[item.id]
            if type(current) is type(item):
                if by == "begin" and item.id in self._asked:
                    self._asked.discard(item.id)
                    self._began_once_allowed(turn, item)
                return out
            del self._tools[item.id]
            self._asked.discard(item.id)
            if not isinstance(current, k.WebSearchItem):
                current = replace(current, status="failed")
            out.append(n.ItemCompleted(owner, current, "superseded"))
        self._tools[item.id] = (turn, item)
        if by == "approval":
            self._asked.add(item.id)
        out.append(n.ItemStarted(turn, item, by))
        return out

    def _began_once_allowed(self, turn: str, item: k.ToolItem) -> None:
        """The begin of an item its approval request started came (it was allowed): no
        notice here (it is running already); `items.ClientProjection` tells it."""

    def _start_command(
        self, turn: str, call_id: str, command: list[str], cwd: str, by: n.StartedBy = "begin"
    ) -> list[n.Notice]:
        return self._start(turn, k.CommandExecutionItem(call_id, tuple(command), cwd), by)

    def _end(
        self, call_id: str, cause: n.CompletionCause = "ended", **changed: Any
    ) -> list[n.Notice]:
        """Complete the open tool item `call_id` with `changed` fields."""
        owner, item = self._tools.pop(call_id)
        self._asked.discard(call_id)
        return [n.ItemCompleted(owner, replace(item, **changed), cause)]

    def _command_ended(self, turn: str, msg: ev.ExecCommandEndEvent) -> list[n.Notice]:
        out = self._start_command(turn, msg.call_id, msg.command or [], "", "end")
        status: k.ItemStatus = "completed" if msg.exit_code == 0 else "failed"
        ended = self._end(
            msg.call_id,
            status=status,
            aggregated_output=msg.aggregated_output,
            stdout=msg.stdout,
            stderr=msg.stderr,
            exit_code=msg.exit_code,
            duration_ms=msg.duration_ms,
            timed_out=msg.timed_out,
            interrupted=msg.interrupted,
        )
        return [*out, *ended]

    def _decided(self, turn: str, msg: ev.ApprovalDecisionEvent) -> list[n.Notice]:
        """Every answer is told (`ApprovalDecided`); a refused command or patch then
        completes `declined` (`cancelled` when the user also aborted the turn), an approved
        one runs on. A command the automatic reviewer refused was never asked about: it
        starts here (`review`), then is declined (as in 0.169)."""
        command = tuple(msg.command or ())
        decided = n.ApprovalDecided(
            turn, msg.call_id, msg.kind, msg.decision, command, msg.reviewer, msg.rationale
        )
        if msg.decision not in ("denied", "abort"):
            return [decided]
        wanted = k.CommandExecutionItem if msg.kind == "exec" else k.FileChangeItem
        started: list[n.Notice] = []
        if msg.reviewer is not None and msg.kind == "exec" and msg.call_id not in self._tools:
            started = self._start_command(
                turn, msg.call_id, msg.command or [], msg.cwd or "", "review"
            )
        if not isinstance(self._tools.get(msg.call_id, (0, None))[1], wanted):
            return [*started, decided]
        cause: n.CompletionCause = "declined" if msg.decision == "denied" else "cancelled"
        return [*started, decided, *self._end(msg.call_id, cause, status="declined")]


def _thread_started(turn: str, msg: ev.SessionConfiguredEvent) -> n.ThreadStarted:
    return n.ThreadStarted(
        turn,
        msg.session_id,
        msg.model,
        msg.model_provider_id,
        msg.reasoning_effort,
        msg.cwd,
        msg.rollout_path,
        msg.approval_policy,
        msg.sandbox_policy,
        msg.history_log_id,
        msg.history_entry_count,
        tuple(msg.initial_messages or ()),
    )
