"""The items of the turn a TUI shows, open and completed, as the notices its cells take.

`ItemState` is told what happened to the turn's items (a delta, a tool's start or end, an
answer to its approval, the turn's end) and returns the notices of `codex_core.items` for
it, with the projection's guarantees: every `ItemStarted` is completed once, deltas join to
the text they complete, a turn's end completes what it left open (failed when interrupted)
before `TurnEnded`. Items keep the ids the app-server gave them. `wire_items` feeds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol.common import ReviewDecision


@dataclass
class _Text:
    """An agent message or reasoning being streamed."""

    id: str
    parts: list[str] = field(default_factory=list)


@dataclass
class _Turn:
    message: _Text | None = None
    reasoning: _Text | None = None
    error: str | None = None


class ItemState:
    """One screen turn's items (see the module docstring); every notice names `turn`."""

    def __init__(self, turn: str) -> None:
        self.turn = turn
        self._state: _Turn | None = None
        self._tools: dict[str, k.ToolItem] = {}
        """Open tool items by id, in the order they started."""
        self._asked: set[str] = set()
        """Open tool items started by a request for approval whose run has not begun."""

    # ------------------------------------------------------------------ the turn

    def _current(self) -> _Turn:
        if self._state is None:
            self._state = _Turn()
        return self._state

    def turn_started(self) -> list[c.ClientNotice]:
        """A turn began (one still open counts as interrupted)."""
        out = self._close("interrupted")
        out.append(n.TurnStarted(self.turn, None))
        self._state = _Turn()
        return out

    def turn_ended(self, status: n.TurnStatus | None) -> list[c.ClientNotice]:
        """The turn ended; `None`: completed, or failed after an error."""
        error = self._state.error if self._state is not None else None
        if status is None:
            status = "failed" if error is not None else "completed"
        return [*self._close(status), n.TurnEnded(self.turn, status, error, None)]

    def error(self, message: str) -> list[c.ClientNotice]:
        """A fatal error of the turn (it ends failed)."""
        self._current().error = message
        return [n.TurnError(self.turn, message)]

    def _close(self, status: n.TurnStatus) -> list[c.ClientNotice]:
        state, self._state = self._state, None
        out: list[c.ClientNotice] = []
        if state is None:
            return out
        turn = self.turn
        if state.reasoning is not None:
            parts = state.reasoning.parts
            reasoning = k.ReasoningItem(
                state.reasoning.id, tuple(p for p in parts if p), "".join(parts)
            )
            out.append(n.ItemCompleted(turn, reasoning, "turn_ended"))
        if state.message is not None:
            message = k.AgentMessageItem(state.message.id, "".join(state.message.parts))
            out.append(n.ItemCompleted(turn, message, "turn_ended"))
        for item in self._tools.values():
            if status == "interrupted" and not isinstance(item, k.WebSearchItem):
                item = replace(item, status="failed")
            out.append(n.ItemCompleted(turn, item, "turn_ended"))
        self._tools.clear()
        self._asked.clear()
        return out

    # ------------------------------------------------------------------ text items

    def user(self, user: k.UserMessageItem) -> list[c.ClientNotice]:
        return [n.ItemStarted(self.turn, user), n.ItemCompleted(self.turn, user)]

    def _open(
        self,
        kind: Literal["agentMessage", "reasoning"],
        item_id: str,
        out: list[c.ClientNotice],
        by: n.StartedBy = "begin",
    ) -> _Text:
        """The turn's message (or reasoning) being written; a new one is started in `out`
        (by its first delta, or by its end when nothing was streamed)."""
        state = self._current()
        current = state.message if kind == "agentMessage" else state.reasoning
        if current is not None:
            return current
        text = _Text(item_id)
        if kind == "agentMessage":
            state.message = text
            out.append(n.ItemStarted(self.turn, k.AgentMessageItem(item_id), by))
        else:
            state.reasoning = text
            out.append(n.ItemStarted(self.turn, k.ReasoningItem(item_id), by))
        return text

    def message_delta(self, item_id: str, delta: str) -> list[c.ClientNotice]:
        out: list[c.ClientNotice] = []
        message = self._open("agentMessage", item_id, out)
        message.parts.append(delta)
        out.append(n.AgentMessageDelta(self.turn, message.id, delta))
        return out

    def message_done(self, item_id: str, text: str) -> list[c.ClientNotice]:
        out: list[c.ClientNotice] = []
        message = self._open("agentMessage", item_id, out, "end")
        self._current().message = None
        out.append(n.ItemCompleted(self.turn, k.AgentMessageItem(message.id, text)))
        return out

    def reasoning_delta(self, item_id: str, delta: str) -> list[c.ClientNotice]:
        out: list[c.ClientNotice] = []
        reasoning = self._open("reasoning", item_id, out)
        if not reasoning.parts:
            reasoning.parts.append("")
            out.append(n.ReasoningPartAdded(self.turn, reasoning.id, 0))
        reasoning.parts[-1] += delta
        index = len(reasoning.parts) - 1
        out.append(n.ReasoningDelta(self.turn, reasoning.id, index, delta))
        return out

    def reasoning_part(self) -> list[c.ClientNotice]:
        """A new summary part of the reasoning being streamed (none open: nothing)."""
        reasoning = self._current().reasoning
        if reasoning is None or not reasoning.parts:
            return []
        reasoning.parts.append("")
        return [n.ReasoningPartAdded(self.turn, reasoning.id, len(reasoning.parts) - 1)]

    def reasoning_done(self, item_id: str, text: str) -> list[c.ClientNotice]:
        out: list[c.ClientNotice] = []
        reasoning = self._open("reasoning", item_id, out, "end")
        self._current().reasoning = None
        summary = tuple(p for p in reasoning.parts if p) or (text,)
        out.append(n.ItemCompleted(self.turn, k.ReasoningItem(reasoning.id, summary, text)))
        return out

    # ------------------------------------------------------------------ tool items

    def start(self, item: k.ToolItem, by: n.StartedBy = "begin") -> list[c.ClientNotice]:
        """Start a tool item unless one of its kind and id is open (an item its approval
        started begins to run: `ItemBegan`); an open item of another kind with that id is
        completed first (`superseded`, failed)."""
        out: list[c.ClientNotice] = []
        current = self._tools.get(item.id)
        if current is not None:
            if type(current) is type(item):
                if by == "begin" and item.id in self._asked:
                    self._asked.discard(item.id)
                    out.append(c.ItemBegan(self.turn, item))
                return out
            del self._tools[item.id]
            self._asked.discard(item.id)
            if not isinstance(current, k.WebSearchItem):
                current = replace(current, status="failed")
            out.append(n.ItemCompleted(self.turn, current, "superseded"))
        self._tools[item.id] = item
        if by == "approval":
            self._asked.add(item.id)
        out.append(n.ItemStarted(self.turn, item, by))
        return out

    def is_open(self, item_id: str, kind: type[k.ToolItem]) -> bool:
        return isinstance(self._tools.get(item_id), kind)

    def end(
        self, item_id: str, cause: n.CompletionCause = "ended", **changed: Any
    ) -> list[c.ClientNotice]:
        """Complete the open tool item `item_id` with `changed` fields."""
        item = self._tools.pop(item_id)
        self._asked.discard(item_id)
        return [n.ItemCompleted(self.turn, replace(item, **changed), cause)]

    def output(self, item_id: str, chunk: str) -> list[c.ClientNotice]:
        """A running command's output (none open by that id: nothing)."""
        if not isinstance(self._tools.get(item_id), k.CommandExecutionItem):
            return []
        return [n.CommandOutputDelta(self.turn, item_id, "stdout", chunk)]

    def decided(
        self,
        item_id: str,
        kind: Literal["exec", "patch"],
        decision: ReviewDecision,
        command: tuple[str, ...] = (),
        reviewer: Literal["auto_review", "another_client"] | None = None,
        rationale: str | None = None,
        cwd: str = "",
    ) -> list[c.ClientNotice]:
        """An approval was answered: the line, and a refused command or patch completes
        `declined` (`cancelled` when the turn is also stopped). A command the automatic
        reviewer refused before it was shown starts here (`review`), as in the projection."""
        decided = n.ApprovalDecided(
            self.turn, item_id, kind, decision, command, reviewer, rationale
        )
        if decision not in ("denied", "abort"):
            return [decided]
        wanted = k.CommandExecutionItem if kind == "exec" else k.FileChangeItem
        started: list[c.ClientNotice] = []
        if reviewer is not None and kind == "exec" and item_id not in self._tools:
            started = self.start(k.CommandExecutionItem(item_id, command, cwd), "review")
        if not self.is_open(item_id, wanted):
            return [*started, decided]
        cause: n.CompletionCause = "declined" if decision == "denied" else "cancelled"
        return [*started, decided, *self.end(item_id, cause, status="declined")]
