"""The threads a server runs, shared by its connections: event pumps, subscribers, approvals.

Each loaded thread has one pump that turns its session's events into wire messages and sends
them to every connection subscribed to the thread (the one that started or resumed it, and
any other that resumed it since). A server request (an approval, an elicitation) goes to
every subscriber under one server-wide id; the first answer is the one the session gets,
and every subscriber is then told `serverRequest/resolved`, as Codex 0.169 does. A thread
outlives the connections that watch it: its turn runs on, and a client that resumes it later
is sent the requests still waiting for an answer.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from codex_core import items, lite
from codex_core.items.notices import ElicitationRequested
from codex_core.protocol import ExecApprovalOp, PatchApprovalOp, ReviewDecision
from codex_core.protocol.deltas import merge_deltas, pump_events
from codex_core.servers.app_server import elicitation
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.model_thread import ActiveStatus
from codex_core.servers.app_server.thread_queue import ThreadQueues
from codex_core.servers.app_server.threads import LoadedThread
from codex_core.servers.app_server.translate import ApprovalAsk, ElicitationAsk
from codex_core.servers.app_server.wire import Incoming, notification, server_request

log = logging.getLogger(__name__)

GATHER_SECONDS = 0.008
"""Deltas are sent at most this often per thread (more are gathered and merged meanwhile)."""
MAX_BATCH_EVENTS = 2000

_DECISIONS: dict[str, ReviewDecision] = {
    "accept": "approved",
    "acceptForSession": "approved_for_session",
    "decline": "denied",
    "cancel": "abort",
}


class Subscriber(Protocol):
    """A connection that receives a thread's messages."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue one wire message for the client."""
        ...


@dataclass
class _Pending:
    thread: LoadedThread
    call_id: str
    kind: Literal["exec", "patch", "elicitation"]
    message: dict[str, Any]
    """The request as sent, for subscribers that arrive while it waits."""
    elicitation: ElicitationRequested | None = None


class ThreadHub:
    """Loaded threads by id and who listens to each."""

    def __init__(self) -> None:
        self.threads: dict[str, LoadedThread] = {}
        self.queues = ThreadQueues()
        self._subscribers: dict[str, list[Subscriber]] = {}
        self._pending: dict[int, _Pending] = {}
        self._next_request_id = 0

    # ------------------------------------------------------------------ subscribers

    def adopt(self, loaded: LoadedThread, subscriber: Subscriber) -> None:
        """Run a newly loaded thread: start its pump, subscribe `subscriber`."""
        self.threads[loaded.id] = loaded
        self.subscribe(loaded.id, subscriber)
        loaded.pump = asyncio.get_running_loop().create_task(self._pump(loaded))

    def subscribe(self, thread_id: str, subscriber: Subscriber) -> None:
        """Send the thread's messages to `subscriber` too, starting with waiting requests."""
        listeners = self._subscribers.setdefault(thread_id, [])
        if subscriber in listeners:
            return
        listeners.append(subscriber)
        for pending in self._pending.values():
            if pending.thread.id == thread_id:
                subscriber.send(pending.message)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """A connection is gone; its threads keep running."""
        for listeners in self._subscribers.values():
            if subscriber in listeners:
                listeners.remove(subscriber)

    def busy(self) -> bool:
        """Whether a loaded thread has a turn running."""
        return any(loaded.translator.turns for loaded in self.threads.values())

    def subscriber_count(self) -> int:
        """How many connections listen to at least one thread."""
        return len({id(s) for listeners in self._subscribers.values() for s in listeners})

    def send(self, thread_id: str, message: dict[str, Any]) -> None:
        """Send a raw wire message to every subscriber of a thread."""
        for subscriber in list(self._subscribers.get(thread_id, ())):
            subscriber.send(message)

    def notify(self, thread_id: str, message: n.ServerMessage) -> None:
        """Send a notification to every subscriber of a thread."""
        self.send(thread_id, notification(message.METHOD, message.model_dump(mode="json")))

    def forget(self, thread_id: str) -> LoadedThread | None:
        """Stop tracking a thread (archived); returns it to be shut down."""
        self._subscribers.pop(thread_id, None)
        return self.threads.pop(thread_id, None)

    # ------------------------------------------------------------------ the pump

    async def _pump(self, loaded: LoadedThread) -> None:
        """Translate and send the thread's events until its session shuts down. A flood of
        deltas is gathered for a frame and merged first (the first delta after anything else
        goes at once), so a streamed answer costs every client a message per frame, not per
        token."""

        async def deliver(batch: list[items.Event]) -> None:
            for event in merge_deltas(batch):
                await self._handle(loaded, event)

        await pump_events(loaded.session.next_event, deliver, GATHER_SECONDS, MAX_BATCH_EVENTS)
        loaded.stopped.set()

    async def _handle(self, loaded: LoadedThread, event: items.Event) -> None:
        ended = False
        try:
            translated = loaded.translator.translate(event)
        except Exception:  # a bug must not end the thread's stream silently
            log.exception("translating %s failed", event.msg.type)
            return
        for out in translated:
            if isinstance(out, ApprovalAsk):
                self._ask(loaded, out)
                continue
            if isinstance(out, ElicitationAsk):
                request = out.request
                method = elicitation.METHOD
                self._request(
                    loaded, request.request_id, "elicitation", method, out.params, request
                )
                continue
            if isinstance(out, n.TurnCompletedNotification):
                self._drop_pending(loaded)
                ended = True
            self.notify(loaded.id, out)
        if ended and not loaded.translator.turns:
            await self.queues.start_next(loaded, self.notify)

    def _request(
        self,
        loaded: LoadedThread,
        call_id: str,
        kind: Literal["exec", "patch", "elicitation"],
        method: str,
        params: dict[str, Any],
        asked: ElicitationRequested | None = None,
    ) -> None:
        request_id = self._next_request_id
        self._next_request_id += 1
        message = server_request(request_id, method, params)
        self._pending[request_id] = _Pending(loaded, call_id, kind, message, asked)
        self.send(loaded.id, message)

    def _ask(self, loaded: LoadedThread, ask: ApprovalAsk) -> None:
        params = ask.params.model_dump(mode="json")
        self._request(loaded, ask.call_id, ask.kind, ask.params.METHOD, params)

    def _drop_pending(self, loaded: LoadedThread) -> None:
        """Requests of a finished turn are resolved (the session already gave up on them)."""
        for request_id, pending in list(self._pending.items()):
            if pending.thread is loaded and pending.elicitation is None:
                del self._pending[request_id]
                resolved = n.ServerRequestResolvedNotification(
                    threadId=loaded.id, requestId=request_id
                )
                self.notify(loaded.id, resolved)

    # ------------------------------------------------------------------ answers

    def on_response(self, incoming: Incoming) -> None:
        """A client answered a server request; the first answer wins, later ones are dropped."""
        request_id = incoming.id
        pending = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
        if pending is None or not isinstance(request_id, int):
            log.info("response to an unknown or already answered server request %r", request_id)
            return
        loaded = pending.thread
        result = incoming.raw.get("result")
        resolved = n.ServerRequestResolvedNotification(threadId=loaded.id, requestId=request_id)
        if pending.elicitation is not None:  # the server may still wait after the turn
            resolve = elicitation.answer_op(pending.elicitation, result)
            asyncio.get_running_loop().create_task(loaded.session.submit(resolve))
            self.notify(loaded.id, resolved)
            if pending.elicitation.during_turn:
                going = n.ThreadStatusChangedNotification(threadId=loaded.id, status=ActiveStatus())
                self.notify(loaded.id, going)
            return
        decision, remember = _decision(pending.kind, result)
        op = (
            ExecApprovalOp(id=pending.call_id, decision=decision, remember_prefix=remember)
            if pending.kind == "exec"
            else PatchApprovalOp(id=pending.call_id, decision=decision)
        )
        asyncio.get_running_loop().create_task(loaded.session.submit(op))
        self.notify(loaded.id, resolved)
        if not (pending.kind == "exec" and decision == "abort"):  # the translator sends it then
            active = n.ThreadStatusChangedNotification(threadId=loaded.id, status=ActiveStatus())
            self.notify(loaded.id, active)

    async def close(self) -> None:
        """Stop every loaded thread's session."""
        await asyncio.gather(*(t.shutdown() for t in self.threads.values()))
        self.threads.clear()
        self._subscribers.clear()


def _decision(kind: str, result: Any) -> tuple[ReviewDecision, list[str] | None]:
    """The session's decision for a client's approval answer; an unusable one declines."""
    try:
        if kind == "exec":
            answer = n.CommandApprovalResponse.model_validate(result)
            if isinstance(answer.decision, n.AcceptWithAmendment):
                return (
                    "approved",
                    answer.decision.acceptWithExecpolicyAmendment.execpolicy_amendment,
                )
            return _DECISIONS[answer.decision], None
        return _DECISIONS[n.FileChangeApprovalResponse.model_validate(result).decision], None
    except lite.ValidationError:
        log.warning("unusable approval answer %r; declining", result)
        return "denied", None
