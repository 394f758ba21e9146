"""Messages queued for a thread (0.169's `thread/queue/add`): each runs as the thread's next turn.

A message for an idle loaded thread starts a turn at once; one for a busy thread waits for the
running turn to complete; one for a thread this server has not loaded waits until the thread is
loaded here (resumed), then runs, one turn per message in the order queued. Every change of a
thread's queue is notified as `thread/queue/changed`. The queue is kept in CODEX_HOME's
`queue_1.sqlite` (queue_store), as 0.169 keeps it, so it outlives the server; the turn a
message starts shows its client message id as the userMessage item's `clientId`.

What a thread's start asks (whether a message waits for it) needs neither the queue's wire
models (`queue_models`) nor SQLite when CODEX_HOME has no queue file: both load on first use.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.protocol import UserTurnOp
from codex_core.servers.app_server import model_items as w
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.model_thread import Turn
from codex_core.servers.app_server.threads import LoadedThread
from codex_core.servers.app_server.user_input import core_input

if TYPE_CHECKING:
    from codex_core.servers.app_server.queue_models import (
        QueuedSubmission,
        ThreadQueueUpdateParams,
    )
    from codex_core.servers.app_server.queue_store import QueueStore

Notify = Callable[[str, n.ServerMessage], None]
log = logging.getLogger(__name__)


async def start_turn(
    loaded: LoadedThread, wire_input: list[w.UserInput], client_id: str | None = None
) -> Turn:
    """Start a turn with the thread's current settings; its progress arrives from the pump."""
    sub_id = await loaded.session.submit(UserTurnOp(items=[core_input(e) for e in wire_input]))
    turn = loaded.translator.begin_turn(sub_id, list(wire_input), compact=False)
    loaded.translator.turns[sub_id].client_id = client_id or None
    return turn


def _changed(thread_id: str) -> n.ServerMessage:
    from codex_core.servers.app_server.queue_models import ThreadQueueChangedNotification

    return ThreadQueueChangedNotification(threadId=thread_id)


class ThreadQueues:
    """The waiting messages of every thread (in CODEX_HOME's queue file)."""

    def __init__(self, codex_home: Path | None = None) -> None:
        """`codex_home`: where the queue file is; None finds it when first needed."""
        self._codex_home = codex_home
        self._opened: QueueStore | None = None

    def _home(self) -> Path | None:
        if self._codex_home is None:
            from codex_core.frontend import CodexHomeError, find_codex_home

            try:
                self._codex_home = find_codex_home()
            except CodexHomeError:
                return None
        return self._codex_home

    @property
    def _store(self) -> QueueStore:
        if self._opened is None:
            from codex_core.servers.app_server.queue_store import open_store

            self._opened = open_store(self._home())
        return self._opened

    def _nothing_queued(self) -> bool:
        """No queue file yet (nor one open): reading needs no file created (a thread's
        start asks; creating the file costs ~60 ms on a busy disk)."""
        from codex_core.servers.app_server.queue_store import file_of

        home = self._home()
        return self._opened is None and home is not None and not file_of(home).exists()

    def waiting(self, thread_id: str) -> list[QueuedSubmission]:
        """The messages waiting for a thread, oldest first."""
        if self._nothing_queued():
            return []
        from codex_core.servers.app_server.queue_models import submission_of

        return [s for s in map(submission_of, self._store.waiting(thread_id)) if s is not None]

    def add(self, thread_id: str, submission: QueuedSubmission, notify: Notify) -> None:
        """Queue a message (the caller starts it when the thread is idle)."""
        self._store.add(thread_id, submission.row())
        notify(thread_id, _changed(thread_id))

    def take(
        self, thread_id: str, submission_id: str | None, notify: Notify
    ) -> QueuedSubmission | None:
        """Remove and return a waiting message (the oldest when `submission_id` is None)."""
        if self._nothing_queued():
            return None
        while True:
            found = self._store.take(thread_id, submission_id)
            if found is None:
                return None
            notify(thread_id, _changed(thread_id))
            from codex_core.servers.app_server.queue_models import submission_of

            submission = submission_of(found)
            if submission is not None or submission_id is not None:
                return submission

    def update(
        self, thread_id: str, params: ThreadQueueUpdateParams, notify: Notify
    ) -> QueuedSubmission | None:
        """Replace a waiting message's input (and metadata when given non-empty)."""
        for submission in self.waiting(thread_id):
            if submission.id == params.queuedSubmissionId:
                changed = submission.model_copy(update={"input": list(params.input)})
                if params.responsesapiClientMetadata:
                    changed.responsesapiClientMetadata = params.responsesapiClientMetadata
                if not self._store.replace(thread_id, changed.row()):
                    return None
                notify(thread_id, _changed(thread_id))
                return changed
        return None

    def reorder(self, thread_id: str, ids: list[str], notify: Notify) -> bool:
        """Put the waiting messages in the order of `ids` (which must name each once)."""
        if not self._store.reorder(thread_id, ids):
            return False
        if ids:
            notify(thread_id, _changed(thread_id))
        return True

    async def start_next(self, loaded: LoadedThread, notify: Notify) -> None:
        """Run the thread's oldest waiting message if the thread is idle."""
        if loaded.translator.turns:
            return
        submission = self.take(loaded.id, None, notify)
        if submission is not None:
            await start_turn(loaded, submission.input, submission.clientUserMessageId)
