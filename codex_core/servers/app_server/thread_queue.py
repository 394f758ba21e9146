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

    async def start_next(self, loaded: LoadedThread, notify: Notify) -> None:
        """Run the thread's oldest waiting message if the thread is idle."""
        waiting = self._queues.get(loaded.id)
        if not waiting or loaded.translator.turns:
            return
        submission = waiting.popleft()
        if not waiting:
            del self._queues[loaded.id]
        notify(loaded.id, ThreadQueueChangedNotification(threadId=loaded.id))
        await start_turn(loaded, submission.input)
