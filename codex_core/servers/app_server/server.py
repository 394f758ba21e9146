"""One app-server connection: handshake, dispatch, event pumps and approval round trips."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from codex_core.protocol import (
    ElicitationRequestEvent,
    ExecApprovalOp,
    PatchApprovalOp,
    ReviewDecision,
    UserMessageEvent,
)
from codex_core.servers.app_server import elicitation
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.model_thread import ActiveStatus
from codex_core.servers.app_server.threads import LoadedThread, is_shutdown
from codex_core.servers.app_server.translate import ApprovalAsk
from codex_core.servers.app_server.wire import (
    Incoming,
    ParamsModel,
    RequestId,
    RpcError,
    error,
    invalid_request,
    notification,
    parse_line,
    response,
    server_request,
)

log = logging.getLogger(__name__)

Writer = Callable[[dict[str, Any]], None]
Handler = Callable[[Any, Any], Awaitable[BaseModel]]
"""A request handler: (the server, parsed params) → result."""

_DECISIONS: dict[str, ReviewDecision] = {
    "accept": "approved",
    "acceptForSession": "approved_for_session",
    "decline": "denied",
    "cancel": "abort",
}


@dataclass
class _Pending:
    thread: LoadedThread
    call_id: str
    kind: Literal["exec", "patch", "elicitation"]
    elicitation: ElicitationRequestEvent | None = None


def describe_validation_error(err: ValidationError) -> str:
    """The first problem of `err` in the words serde uses (`missing field`, `invalid type`)."""
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] == "missing":
        return f"missing field `{first['loc'][-1]}`"
    if first["type"] in ("literal_error", "union_tag_invalid", "enum"):
        return f"unknown variant `{first.get('input')}` at `{where}`"
    if first["type"].endswith("_type"):
        value = first.get("input")
        kind = type(value).__name__.replace("int", "integer").replace("str", "string")
        return f"invalid type: {kind} `{value}` at `{where}`: {first['msg']}"
    return f"{first['msg']} at `{where}`"


class AppServer:
    """The protocol state of one client connection."""

    def __init__(
        self,
        cli_overrides: list[str],
        write: Writer,
        methods: dict[str, tuple[type[ParamsModel], Handler]],
    ) -> None:
        self.cli_overrides = cli_overrides
        self._write = write
        self._methods = methods
        self.initialized = False
        self.client_name = ""
        self.threads: dict[str, LoadedThread] = {}
        self._pending: dict[int, _Pending] = {}
        self._next_request_id = 0
        self._after: list[n.ServerMessage] = []

    # ------------------------------------------------------------------ output

    def notify(self, message: n.ServerMessage) -> None:
        """Send a notification."""
        self._write(notification(message.METHOD, message.model_dump(mode="json")))

    def after_response(self, message: n.ServerMessage) -> None:
        """Send `message` right after the response to the request being handled."""
        self._after.append(message)

    # ------------------------------------------------------------------ input

    async def handle_line(self, line: bytes | str) -> None:
        """Handle one client line; never raises for anything the client sent."""
        incoming = parse_line(line)
        if incoming is None:
            log.error("dropping a line that is not a JSON-RPC message: %.200r", line)
            return
        if incoming.is_response:
            self._on_response(incoming)
        elif incoming.is_notification:
            log.debug("client notification %s", incoming.method)
        else:
            await self._on_request(incoming)

    async def _on_request(self, incoming: Incoming) -> None:
        assert incoming.id is not None and incoming.method is not None
        request_id: RequestId = incoming.id
        try:
            result = await self._call(incoming.method, incoming.params)
        except RpcError as err:
            self._after.clear()
            self._write(error(request_id, err))
            return
        except Exception as err:  # a bug answers the request; the server goes on
            log.exception("%s failed", incoming.method)
            self._write(error(request_id, RpcError(f"internal error: {err}", -32603)))
            return
        self._write(response(request_id, result.model_dump(mode="json")))
        followups, self._after = self._after, []
        for message in followups:
            self.notify(message)

    async def _call(self, method: str, params: Any) -> BaseModel:
        if method == "initialize" and self.initialized:
            raise RpcError("Already initialized")
        if method != "initialize" and not self.initialized:
            raise RpcError("Not initialized")
        entry = self._methods.get(method)
        if entry is None:
            names = ", ".join(f"`{name}`" for name in self._methods)
            raise invalid_request(f"unknown variant `{method}`, expected one of {names}")
        params_type, handler = entry
        try:
            parsed: ParamsModel = params_type.model_validate(params if params is not None else {})
        except ValidationError as err:
            raise invalid_request(describe_validation_error(err)) from None
        return await handler(self, parsed)

    # ------------------------------------------------------------------ threads

    def thread(self, thread_id: str) -> LoadedThread:
        """A loaded thread, or the error Codex answers for an unknown one."""
        loaded = self.threads.get(thread_id)
        if loaded is None:
            raise invalid_request(f"thread not found: {thread_id}")
        return loaded

    def adopt(self, loaded: LoadedThread) -> None:
        """Start pumping a new thread's events to the client."""
        self.threads[loaded.id] = loaded
        loaded.pump = asyncio.get_running_loop().create_task(self._pump(loaded))

    async def _pump(self, loaded: LoadedThread) -> None:
        while True:
            event = await loaded.session.next_event()
            if is_shutdown(event):
                loaded.stopped.set()
                return
            if isinstance(event.msg, UserMessageEvent) and not loaded.preview:
                loaded.preview = event.msg.message
            if isinstance(event.msg, ElicitationRequestEvent):
                self._elicit(loaded, event.msg, loaded.translator.turn_id_of(event.id))
                continue
            for out in loaded.translator.translate(event):
                if isinstance(out, ApprovalAsk):
                    self._ask(loaded, out)
                    continue
                if isinstance(out, n.TurnCompletedNotification):
                    self._drop_pending(loaded)
                self.notify(out)

    def _ask(self, loaded: LoadedThread, ask: ApprovalAsk) -> None:
        request_id = self._next_request_id
        self._next_request_id += 1
        self._pending[request_id] = _Pending(loaded, ask.call_id, ask.kind)
        params = ask.params.model_dump(mode="json")
        self._write(server_request(request_id, ask.params.METHOD, params))

    def _elicit(
        self, loaded: LoadedThread, event: ElicitationRequestEvent, turn_id: str | None
    ) -> None:
        request_id = self._next_request_id
        self._next_request_id += 1
        self._pending[request_id] = _Pending(loaded, event.id, "elicitation", event)
        if turn_id is not None:  # as 0.169: the turn waits on the user meanwhile
            waiting = ActiveStatus(activeFlags=["waitingOnApproval"])
            self.notify(n.ThreadStatusChangedNotification(threadId=loaded.id, status=waiting))
        params = elicitation.request_params(event, loaded.id, turn_id)
        self._write(server_request(request_id, elicitation.METHOD, params))

    def _drop_pending(self, loaded: LoadedThread) -> None:
        """Requests of a finished turn are resolved (the session already gave up on them)."""
        for request_id, pending in list(self._pending.items()):
            if pending.thread is loaded and pending.elicitation is None:
                del self._pending[request_id]
                self.notify(
                    n.ServerRequestResolvedNotification(threadId=loaded.id, requestId=request_id)
                )

    def _on_response(self, incoming: Incoming) -> None:
        request_id = incoming.id
        pending = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
        if pending is None or request_id is None:
            log.warning("response to an unknown server request %r", request_id)
            return
        result = incoming.raw.get("result")
        if pending.elicitation is not None:  # the server may still wait after the turn
            resolve = elicitation.answer_op(pending.elicitation, result)
            asyncio.get_running_loop().create_task(pending.thread.session.submit(resolve))
            resolved = n.ServerRequestResolvedNotification(
                threadId=pending.thread.id, requestId=request_id
            )
            self.notify(resolved)
            if pending.elicitation.turn_id is not None:
                going = ActiveStatus()
                self.notify(
                    n.ThreadStatusChangedNotification(threadId=pending.thread.id, status=going)
                )
            return
        decision: ReviewDecision = "denied"
        remember: list[str] | None = None
        try:
            if pending.kind == "exec":
                answer = n.CommandApprovalResponse.model_validate(result)
                if isinstance(answer.decision, n.AcceptWithAmendment):
                    decision = "approved"
                    remember = answer.decision.acceptWithExecpolicyAmendment.execpolicy_amendment
                else:
                    decision = _DECISIONS[answer.decision]
            else:
                decision = _DECISIONS[n.FileChangeApprovalResponse.model_validate(result).decision]
        except ValidationError:
            log.warning("unusable approval answer %r; declining", result)
        loaded = pending.thread
        op = (
            ExecApprovalOp(id=pending.call_id, decision=decision, remember_prefix=remember)
            if pending.kind == "exec"
            else PatchApprovalOp(id=pending.call_id, decision=decision)
        )
        asyncio.get_running_loop().create_task(loaded.session.submit(op))
        self.notify(n.ServerRequestResolvedNotification(threadId=loaded.id, requestId=request_id))
        if not (pending.kind == "exec" and decision == "abort"):  # the translator sends it then
            active = n.ThreadStatusChangedNotification(threadId=loaded.id, status=ActiveStatus())
            self.notify(active)

    async def close(self) -> None:
        """Stop every loaded thread's session."""
        await asyncio.gather(*(t.shutdown() for t in self.threads.values()))
        self.threads.clear()
