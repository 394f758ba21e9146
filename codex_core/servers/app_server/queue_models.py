"""The wire models of the `thread/queue/*` requests and notification (see `thread_queue`).

Loaded with the queue's methods, or when a queue file exists: a thread's start only asks
whether one does.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from codex_core import lite
from codex_core.lite import Field
from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.model_thread import Turn
from codex_core.servers.app_server.wire import ParamsModel, WireModel

if TYPE_CHECKING:
    from codex_core.servers.app_server.queue_store import QueuedRow

log = logging.getLogger(__name__)


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

    def row(self) -> QueuedRow:
        """The message as the queue file stores it."""
        from codex_core.servers.app_server.queue_store import QueuedRow

        content = [entry.model_dump(mode="json") for entry in self.input]
        return QueuedRow(
            self.id, self.clientUserMessageId, content, self.responsesapiClientMetadata
        )


def submission_of(row: QueuedRow) -> QueuedSubmission | None:
    """A stored message on the wire; None (logged) when its input is not valid UserInput."""
    try:
        return QueuedSubmission.model_validate(
            {
                "id": row.id,
                "clientUserMessageId": row.client_id,
                "input": row.content,
                "responsesapiClientMetadata": row.metadata,
            }
        )
    except lite.ValidationError:
        log.warning("queued item %s has input this codex cannot read; skipped", row.id)
        return None


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
