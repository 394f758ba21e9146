"""Handlers of `thread/goal/get|set|clear`, answered as the Codex CLI 0.169 answers them.

Observed side by side with codex-rust: the thread must be loaded ("thread not found"), an
id that is no UUID is refused first; errors carry no "Invalid request:" prefix; `set` creates a goal (active unless a status is given)
or changes the given fields of the one there, with the same refusals; every change is
announced as `thread/goal/updated` with a null `turnId`, a removal as `thread/goal/cleared`.
Goals live in `CODEX_HOME/goals_1.sqlite`, shared with 0.169 (`codex_core.goals`).
0.169 also pursues an active goal on its own (continuation turns and goal tools for the
model); this codex stores and reports goals but does not — see the README.
"""

from __future__ import annotations

import uuid

from codex_core.goals import UNSET, GoalError, GoalStore, Unset
from codex_core.goals import ThreadGoal as StoredGoal
from codex_core.servers.app_server import model_goals as g
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.wire import RpcError


def _store(server: ServerContext, thread_id: str) -> GoalStore:
    """The goal store, once `thread_id` names a loaded thread."""
    from codex_core.frontend import find_codex_home

    try:
        uuid.UUID(thread_id)
    except ValueError as err:
        raise RpcError(f"invalid thread id: {err}") from None
    if thread_id not in server.threads:
        raise RpcError(f"thread not found: {thread_id}")
    return GoalStore(find_codex_home())


def wire_goal(goal: StoredGoal) -> g.ThreadGoal:
    """A stored goal in the app-server's shape."""
    return g.ThreadGoal(
        threadId=goal.thread_id,
        objective=goal.objective,
        status=goal.status,
        tokenBudget=goal.token_budget,
        tokensUsed=goal.tokens_used,
        timeUsedSeconds=goal.time_used_seconds,
        createdAt=goal.created_at_ms // 1000,
        updatedAt=goal.updated_at_ms // 1000,
    )


async def thread_goal_get(
    server: ServerContext, params: g.ThreadGoalGetParams
) -> g.ThreadGoalGetResponse:
    """The thread's goal, or null."""
    try:
        goal = _store(server, params.threadId).get(params.threadId)
    except GoalError as err:
        raise RpcError(str(err)) from None
    return g.ThreadGoalGetResponse(goal=wire_goal(goal) if goal else None)


async def thread_goal_set(
    server: ServerContext, params: g.ThreadGoalSetParams
) -> g.ThreadGoalSetResponse:
    """Create or change the thread's goal; clients hear `thread/goal/updated`."""
    budget: int | None | Unset = (
        params.tokenBudget if "tokenBudget" in params.model_fields_set else UNSET
    )
    try:
        goal = _store(server, params.threadId).set(
            params.threadId, objective=params.objective, status=params.status, token_budget=budget
        )
    except GoalError as err:
        raise RpcError(str(err)) from None
    wire = wire_goal(goal)
    server.after_response(g.ThreadGoalUpdatedNotification(threadId=params.threadId, goal=wire))
    return g.ThreadGoalSetResponse(goal=wire)


async def thread_goal_clear(
    server: ServerContext, params: g.ThreadGoalClearParams
) -> g.ThreadGoalClearResponse:
    """Remove the thread's goal; clients hear `thread/goal/cleared` when there was one."""
    try:
        cleared = _store(server, params.threadId).clear(params.threadId)
    except GoalError as err:
        raise RpcError(str(err)) from None
    if cleared:
        server.after_response(g.ThreadGoalClearedNotification(threadId=params.threadId))
    return g.ThreadGoalClearResponse(cleared=cleared)
