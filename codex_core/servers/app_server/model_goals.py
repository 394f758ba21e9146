"""Params, results and notifications of `thread/goal/get|set|clear` (0.169's shapes)."""

from __future__ import annotations

from typing import ClassVar, Literal

from codex_core.goals import GoalStatus
from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.wire import ParamsModel, WireModel


class ThreadGoal(WireModel):
    """A thread's goal; times in seconds since the epoch."""

    threadId: str
    objective: str
    status: GoalStatus
    tokenBudget: int | None = None
    tokensUsed: int
    timeUsedSeconds: int
    createdAt: int
    updatedAt: int


class ThreadGoalGetParams(ParamsModel):
    """`thread/goal/get`."""

    threadId: str


class ThreadGoalGetResponse(WireModel):
    """The goal, or null when the thread has none."""

    goal: ThreadGoal | None = None


class ThreadGoalSetParams(ParamsModel):
    """`thread/goal/set`: create a goal (objective needed) or change fields of the one set.

    A `tokenBudget` of null removes the budget; leaving it out keeps it.
    """

    threadId: str
    objective: str | None = None
    status: GoalStatus | None = None
    tokenBudget: int | None = None
    origin: Literal["user", "automatic"] | None = None


class ThreadGoalSetResponse(WireModel):
    """The goal as stored."""

    goal: ThreadGoal


class ThreadGoalClearParams(ParamsModel):
    """`thread/goal/clear`."""

    threadId: str
    origin: Literal["user", "automatic"] | None = None


class ThreadGoalClearResponse(WireModel):
    """Whether there was a goal to remove."""

    cleared: bool


class ThreadGoalUpdatedNotification(ServerMessage):
    """A goal was created or changed (`turnId` null when a client changed it)."""

    METHOD: ClassVar[str] = "thread/goal/updated"
    threadId: str
    turnId: str | None = None
    goal: ThreadGoal


class ThreadGoalClearedNotification(ServerMessage):
    """A thread's goal was removed."""

    METHOD: ClassVar[str] = "thread/goal/cleared"
    threadId: str


NOTIFICATIONS: tuple[type[ServerMessage], ...] = (
    ThreadGoalUpdatedNotification,
    ThreadGoalClearedNotification,
)
