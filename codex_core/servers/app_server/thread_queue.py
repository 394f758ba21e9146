"""Messages queued for a thread (0.169's `thread/queue/add`): each runs as the thread's next turn.

A message for an idle loaded thread starts a turn at once; one for a busy thread waits for the
running turn to complete; one for a thread this server has not loaded waits until the thread is
loaded here (resumed), then runs, one turn per message in the order queued. Every change of a
thread's queue is notified as `thread/queue/changed`. The queue lives in memory: messages for a
thread that is never loaded are lost when the server stops (0.169 keeps them in a database).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from pydantic import Field

from codex_core.protocol import UserTurnOp
from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.model_thread import Turn
from codex_core.servers.app_server.threads import LoadedThread
from codex_core.servers.app_server.user_input import core_input
from codex_core.servers.app_server.wire import ParamsModel, WireModel


class ThreadQueueAddParams(ParamsModel):
    """`thread/queue/add`: a message to run as one of the thread's next turns."""

    threadId: str
    input: list[w.UserInput]
    clientUserMessageId: str
    responsesapiClientMetadata: dict[str, str] | None = None


class QueuedSubmission(WireModel):
    """A queued message: its id (the server's), the client's message id and the input."""

    id: str
    clientUserMessageId: str
    input: list[w.UserInput]
    responsesapiClientMetadata: dict[str, str] | None = None


class ThreadQueueAddResponse(WireModel):
    """The queued message."""

    queuedSubmission: QueuedSubmission


class ThreadQueueChangedNotification(n.ServerMessage):
    """A thread's queue gained or lost a message."""

    METHOD = "thread/queue/changed"
    threadId: str


class ThreadQueueListParams(ParamsModel):
    """`thread/queue/list`."""

    threadId: str
    cursor: str | None = None
    limit: int | None = None


class ThreadQueueListResponse(WireModel):
    """The messages waiting, oldest first."""

    data: list[QueuedSubmission] = Field(default_factory=list)
    nextCursor: str | None = None


class ThreadQueueDeleteParams(ParamsModel):
    """`thread/queue/delete`: drop a waiting message."""

    threadId: str
    queuedSubmissionId: str


class ThreadQueueDeleteResponse(WireModel):
    """Whether a message was dropped."""

    deleted: bool


class ThreadQueueUpdateParams(ParamsModel):
    """`thread/queue/update`: replace a waiting message's input."""

    threadId: str
    queuedSubmissionId: str
    input: list[w.UserInput]
    responsesapiClientMetadata: dict[str, str] | None = None


class ThreadQueueUpdateResponse(WireModel):
    """The updated message."""

    queuedSubmission: QueuedSubmission


class ThreadQueueReorderParams(ParamsModel):
    """`thread/queue/reorder`: the waiting messages' new order (by id)."""

    threadId: str
    queuedSubmissionIds: list[str]


class ThreadQueueReorderResponse(WireModel):
    """Empty."""


class ThreadQueueStartParams(ParamsModel):
    """`thread/queue/start`: run one waiting message (the oldest by default) now."""

    threadId: str
    queuedSubmissionId: str | None = None


class ThreadQueueStartResponse(WireModel):
    """The turn the message started."""

    turn: Turn


Notify = Callable[[str, n.ServerMessage], None]


async def start_turn(loaded: LoadedThread, wire_input: list[w.UserInput]) -> Turn:
    """Start a turn with the thread's current settings; its progress arrives from the pump."""
    sub_id = await loaded.session.submit(UserTurnOp(items=[core_input(e) for e in wire_input]))
    return loaded.translator.begin_turn(sub_id, list(wire_input), compact=False)


class ThreadQueues:
    """The waiting messages of every thread."""

    def __init__(self) -> None:
        self._queues: dict[str, deque[QueuedSubmission]] = {}

    def waiting(self, thread_id: str) -> list[QueuedSubmission]:
        """The messages waiting for a thread, oldest first."""
        return list(self._queues.get(thread_id, ()))

    def add(self, thread_id: str, submission: QueuedSubmission, notify: Notify) -> None:
        """Queue a message (the caller starts it when the thread is idle)."""
        self._queues.setdefault(thread_id, deque()).append(submission)
        notify(thread_id, ThreadQueueChangedNotification(threadId=thread_id))

    def take(
        self, thread_id: str, submission_id: str | None, notify: Notify
    ) -> QueuedSubmission | None:
        """Remove and return a waiting message (the oldest when `submission_id` is None)."""
        waiting = self._queues.get(thread_id)
        if not waiting:
            return None
        found = next((s for s in waiting if submission_id is None or s.id == submission_id), None)
        if found is None:
            return None
        waiting.remove(found)
        if not waiting:
            del self._queues[thread_id]
        notify(thread_id, ThreadQueueChangedNotification(threadId=thread_id))
        return found

    def update(
        self, thread_id: str, params: ThreadQueueUpdateParams, notify: Notify
    ) -> QueuedSubmission | None:
        """Replace a waiting message's input (and metadata when given non-empty)."""
        for index, submission in enumerate(self._queues.get(thread_id, ())):
            if submission.id == params.queuedSubmissionId:
                changed = submission.model_copy(update={"input": list(params.input)})
                if params.responsesapiClientMetadata:
                    changed.responsesapiClientMetadata = params.responsesapiClientMetadata
                self._queues[thread_id][index] = changed
                notify(thread_id, ThreadQueueChangedNotification(threadId=thread_id))
                return changed
        return None

    def reorder(self, thread_id: str, ids: list[str], notify: Notify) -> bool:
        """Put the waiting messages in the order of `ids` (which must name each once)."""
        waiting = self._queues.get(thread_id, deque())
        by_id = {s.id: s for s in waiting}
        if sorted(ids) != sorted(by_id):
            return False
        if waiting:
            self._queues[thread_id] = deque(by_id[i] for i in ids)
            notify(thread_id, ThreadQueueChangedNotification(threadId=thread_id))
        return True

    async def start_next(self, loaded: LoadedThread, notify: Notify) -> None:
        """Run the thread's oldest waiting message if the thread is idle."""
        if loaded.translator.turns:
            return
        submission = self.take(loaded.id, None, notify)
        if submission is not None:
            await start_turn(loaded, submission.input)
