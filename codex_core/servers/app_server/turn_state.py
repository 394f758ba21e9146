"""What the app-server translator tracks about one running turn, and that turn's wire form."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from codex_core.servers.app_server import model_items as items
from codex_core.servers.app_server.model_thread import Turn, TurnError, TurnStatus
from codex_core.servers.app_server.wire import now_ms


@dataclass
class TurnState:
    """What the translator knows about one running turn (its items are the projection's)."""

    id: str
    input: list[items.UserInput]
    compact: bool = False
    client_id: str | None = None
    """The client's id for the turn's user message (its item's `clientId`)."""
    review: tuple[str, str] | None = None
    """A review's (label, prompt): its items bracket the turn as 0.169's (`review/start`)."""
    started: bool = False
    started_ms: int = field(default_factory=now_ms)
    error: TurnError | None = None
    last_message: items.AgentMessageItem | None = None
    item_started_ms: dict[str, int] = field(default_factory=dict)
    """When each item sent as started began (its completed form carries it too)."""

    def wire(self, status: TurnStatus) -> Turn:
        """The turn in wire form."""
        done = status != "inProgress"
        return Turn(
            id=self.id,
            rootTurnId=self.id,
            status=status,
            error=self.error,
            startedAt=self.started_ms // 1000,
            completedAt=int(time.time()) if done else None,
            durationMs=now_ms() - self.started_ms if done else None,
            items=[self.last_message] if done and self.last_message else [],
            itemsView="summary" if done and status != "interrupted" else "notLoaded",
        )
