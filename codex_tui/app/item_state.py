"""The items of the turn a TUI shows, open and completed, as the notices its cells take.

`ItemState` is told what happened to the turn's items (a delta, a tool's start or end, an
answer to its approval, the turn's end) and returns the notices of `codex_core.items` for
it, with the projection's guarantees: every `ItemStarted` is completed once, deltas join to
the text they complete, a turn's end completes what it left open (failed when interrupted)
before `TurnEnded`. Items keep the ids the app-server gave them. `wire_items` feeds it; the
message and reasoning being streamed are `turn_text`'s, as in the projection.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.items.turn_text import TurnText
from codex_core.protocol.common import ReviewDecision


class ItemState:
    """One screen turn's items (see the module docstring); every notice names `turn`."""

    def __init__(self, turn: str) -> None:
        self.turn = turn
        self._state: TurnText | None = None
        self._tools: dict[str, k.ToolItem] = {}
        """Open tool items by id, in the order they started."""
        self._asked: set[str] = set()
        """Open tool items started by a request for approval whose run has not begun."""

    # ------------------------------------------------------------------ the turn

    def _current(self) -> TurnText:
        if self._state is None:
            self._state = TurnText()
        return self._state

    def turn_started(self) -> list[c.ClientNotice]:
        """A turn began (one still open counts as interrupted)."""
        out = self._close("interrupted")
        out.append(n.TurnStarted(self.turn, None))
        self._state = TurnText()
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
        out.extend(state.close(turn))
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

    def message_delta(self, item_id: str, delta: str) -> list[c.ClientNotice]:
        return [*self._current().message_delta(self.turn, lambda: item_id, delta)]

    def message_done(self, item_id: str, text: str) -> list[c.ClientNotice]:
        return [*self._current().message_done(self.turn, lambda: item_id, text)]

    def reasoning_delta(self, item_id: str, delta: str) -> list[c.ClientNotice]:
        return [*self._current().reasoning_delta(self.turn, lambda: item_id, delta)]

    def reasoning_part(self) -> list[c.ClientNotice]:
        """A new summary part of the reasoning being streamed (none open: nothing)."""
        return [*self._current().reasoning_part(self.turn)]

    def reasoning_done(self, item_id: str, text: str) -> list[c.ClientNotice]:
        return [*self._current().reasoning_done(self.turn, lambda: item_id, text)]

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
