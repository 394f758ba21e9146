"""The `thread/queue/*` requests (experimental in Codex 0.169): messages waiting for a thread.

Only a client that asked for `capabilities.experimentalApi` may call them (0.169 answers
others `<method> requires experimentalApi capability`, -32600).

A thread that is neither loaded here nor recorded is refused with 0.169's internal error
(`failed to read thread: …`, -32603). The queue itself is ThreadQueues (shared by every
connection through the hub); an idle loaded thread runs a message as soon as it is added.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from codex_core.lite import Model as BaseModel
from codex_core.servers.app_server import queue_models as q
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.model_methods import EmptyResponse
from codex_core.servers.app_server.thread_queue import start_turn
from codex_core.servers.app_server.threads import rollout_path_of
from codex_core.servers.app_server.wire import (
    INTERNAL_ERROR,
    ParamsModel,
    RpcError,
    invalid_request,
)

DEFAULT_PAGE_SIZE = 25


def _known(server: ServerContext, thread_id: str) -> None:
    try:
        rollout_path_of(server.threads, thread_id)
    except RpcError:
        raise RpcError(
            "failed to read thread: invalid thread-store request: "
            f"no rollout found for thread id {thread_id}",
            INTERNAL_ERROR,
        ) from None


async def queue_add(
    server: ServerContext, params: q.ThreadQueueAddParams
) -> q.ThreadQueueAddResponse:
    """Queue a message; an idle loaded thread starts it at once."""
    _known(server, params.threadId)
    if not params.input:
        raise invalid_request("input must not be empty")
    submission = q.QueuedSubmission(
        id=str(uuid.uuid4()),
        clientUserMessageId=params.clientUserMessageId,
        input=list(params.input),
        responsesapiClientMetadata=params.responsesapiClientMetadata,
    )
    hub = server.hub
    hub.queues.add(params.threadId, submission, hub.notify)
    loaded = server.threads.get(params.threadId)
    if loaded is not None:
        await hub.queues.start_next(loaded, hub.notify)
    return q.ThreadQueueAddResponse(queuedSubmission=submission)


async def queue_list(
    server: ServerContext, params: q.ThreadQueueListParams
) -> q.ThreadQueueListResponse:
    """The waiting messages, oldest first, paged."""
    _known(server, params.threadId)
    waiting = server.hub.queues.waiting(params.threadId)
    start = int(params.cursor) if params.cursor and params.cursor.isdigit() else 0
    end = start + (params.limit or DEFAULT_PAGE_SIZE)
    return q.ThreadQueueListResponse(
        data=waiting[start:end], nextCursor=str(end) if end < len(waiting) else None
    )


async def queue_delete(
    server: ServerContext, params: q.ThreadQueueDeleteParams
) -> q.ThreadQueueDeleteResponse:
    """Drop a waiting message; `deleted: false` when there is no such message."""
    _known(server, params.threadId)
    hub = server.hub
    taken = hub.queues.take(params.threadId, params.queuedSubmissionId, hub.notify)
    return q.ThreadQueueDeleteResponse(deleted=taken is not None)


async def queue_update(
    server: ServerContext, params: q.ThreadQueueUpdateParams
) -> q.ThreadQueueUpdateResponse:
    """Replace a waiting message's input."""
    _known(server, params.threadId)
    changed = server.hub.queues.update(params.threadId, params, server.hub.notify)
    if changed is None:
        raise invalid_request(f"queued submission not found: {params.queuedSubmissionId}")
    return q.ThreadQueueUpdateResponse(queuedSubmission=changed)


async def queue_reorder(server: ServerContext, params: q.ThreadQueueReorderParams) -> EmptyResponse:
    """Reorder the waiting messages."""
    _known(server, params.threadId)
    if not server.hub.queues.reorder(
        params.threadId, params.queuedSubmissionIds, server.hub.notify
    ):
        raise invalid_request("queuedSubmissionIds must list every queued submission once")
    return EmptyResponse()


async def queue_start(
    server: ServerContext, params: q.ThreadQueueStartParams
) -> q.ThreadQueueStartResponse:
    """Run a waiting message now on an idle loaded thread."""
    loaded = server.thread(params.threadId)
    if loaded.translator.turns:
        raise invalid_request(f"thread {params.threadId} already has a running turn")
    hub = server.hub
    submission = hub.queues.take(params.threadId, params.queuedSubmissionId, hub.notify)
    if submission is None:
        raise invalid_request("no queued submission to start")
    turn = await start_turn(loaded, submission.input, submission.clientUserMessageId)
    return q.ThreadQueueStartResponse(turn=turn)


Handler = Callable[[ServerContext, Any], Awaitable[BaseModel]]


def _experimental(method: str, handler: Handler) -> Handler:
    """`handler`, refused as 0.169 refuses it to a client without `experimentalApi`."""

    async def guarded(server: ServerContext, params: Any) -> BaseModel:
        if not server.experimental_api:
            raise RpcError(f"{method} requires experimentalApi capability")
        return await handler(server, params)

    return guarded


QUEUE_METHODS: dict[str, tuple[type[ParamsModel], Handler]] = {
    method: (params, _experimental(method, handler))
    for method, params, handler in (
        ("thread/queue/add", q.ThreadQueueAddParams, queue_add),
        ("thread/queue/list", q.ThreadQueueListParams, queue_list),
        ("thread/queue/update", q.ThreadQueueUpdateParams, queue_update),
        ("thread/queue/delete", q.ThreadQueueDeleteParams, queue_delete),
        ("thread/queue/reorder", q.ThreadQueueReorderParams, queue_reorder),
        ("thread/queue/start", q.ThreadQueueStartParams, queue_start),
    )
}
"""The experimental queue requests, in 0.169's order."""
