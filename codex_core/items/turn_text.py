"""The text items one turn streams (its agent message and its reasoning), as notices.

Shared by the projection (fed session events) and the TUI's `ItemState` (fed the
app-server's notifications): a delta starts its item if none is open, deltas join to the
text the item completes with, and what a turn leaves open completes when it ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import codex_core.items.kinds as k
import codex_core.items.notices as n

TextKind = Literal["agentMessage", "reasoning"]


@dataclass
class StreamedText:
    """An agent message or reasoning being streamed."""

    id: str
    parts: list[str] = field(default_factory=list)


@dataclass
class TurnText:
    """One running turn's open message and reasoning, and its fatal error."""

    message: StreamedText | None = None
    reasoning: StreamedText | None = None
    error: str | None = None

    def open(
        self,
        turn: str,
        kind: TextKind,
        new_id: Callable[[], str],
        out: list[n.Notice],
        by: n.StartedBy = "begin",
    ) -> StreamedText:
        """The turn's message (or reasoning) being written; a new one, named `new_id()`, is
        started in `out` (by its first delta, or by its end when nothing was streamed)."""
        current = self.message if kind == "agentMessage" else self.reasoning
        if current is not None:
            return current
        text = StreamedText(new_id())
        if kind == "agentMessage":
            self.message = text
            out.append(n.ItemStarted(turn, k.AgentMessageItem(text.id), by))
        else:
            self.reasoning = text
            out.append(n.ItemStarted(turn, k.ReasoningItem(text.id), by))
        return text

    def message_delta(self, turn: str, new_id: Callable[[], str], delta: str) -> list[n.Notice]:
        out: list[n.Notice] = []
        message = self.open(turn, "agentMessage", new_id, out)
        message.parts.append(delta)
        out.append(n.AgentMessageDelta(turn, message.id, delta))
        return out

    def message_done(self, turn: str, new_id: Callable[[], str], text: str) -> list[n.Notice]:
        out: list[n.Notice] = []
        message = self.open(turn, "agentMessage", new_id, out, "end")
        self.message = None
        out.append(n.ItemCompleted(turn, k.AgentMessageItem(message.id, text)))
        return out

    def reasoning_delta(self, turn: str, new_id: Callable[[], str], delta: str) -> list[n.Notice]:
        out: list[n.Notice] = []
        reasoning = self.open(turn, "reasoning", new_id, out)
        if not reasoning.parts:
            reasoning.parts.append("")
            out.append(n.ReasoningPartAdded(turn, reasoning.id, 0))
        reasoning.parts[-1] += delta
        index = len(reasoning.parts) - 1
        out.append(n.ReasoningDelta(turn, reasoning.id, index, delta))
        return out

    def reasoning_part(self, turn: str) -> list[n.Notice]:
        """A new summary part of the reasoning being streamed (none open: nothing)."""
        reasoning = self.reasoning
        if reasoning is None or not reasoning.parts:
            return []
        reasoning.parts.append("")
        return [n.ReasoningPartAdded(turn, reasoning.id, len(reasoning.parts) - 1)]

    def reasoning_done(self, turn: str, new_id: Callable[[], str], text: str) -> list[n.Notice]:
        out: list[n.Notice] = []
        reasoning = self.open(turn, "reasoning", new_id, out, "end")
        self.reasoning = None
        summary = tuple(p for p in reasoning.parts if p) or (text,)
        out.append(n.ItemCompleted(turn, k.ReasoningItem(reasoning.id, summary, text)))
        return out

    def close(self, turn: str) -> list[n.Notice]:
        """Complete the reasoning, then the message, left open by the turn's end."""
        out: list[n.Notice] = []
        if self.reasoning is not None:
            parts = self.reasoning.parts
            reasoning = k.ReasoningItem(
                self.reasoning.id, tuple(p for p in parts if p), "".join(parts)
            )
            out.append(n.ItemCompleted(turn, reasoning, "turn_ended"))
        if self.message is not None:
            message = k.AgentMessageItem(self.message.id, "".join(self.message.parts))
            out.append(n.ItemCompleted(turn, message, "turn_ended"))
        return out
