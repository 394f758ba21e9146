"""The TUI's session on an app-server (`codex --remote`), as a CoreClient.

One websocket connection (TCP or unix socket, 0.169's addresses and bearer token): the
handshake, then `thread/start` or `thread/resume`; ops become requests (`turn/start`,
`turn/steer`, `turn/interrupt`, `thread/compact/start`) and approval answers become
responses to the server's requests; what the server sends becomes core events through
`wire_events`. The session, its commands, patches, sandbox and files are the server's.
If the server goes away, `next_event` fails with one sentence and the app shows it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import deque
from typing import Any, assert_never

from codex_core.protocol import (
    AddToHistoryOp,
    CleanBackgroundTerminalsOp,
    CompactOp,
    ErrorEvent,
    Event,
    ExecApprovalOp,
    GetHistoryEntryRequestOp,
    GetHistoryEntryResponseEvent,
    ImageInput,
    InputItem,
    InterruptOp,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    LocalImageInput,
    Op,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ReviewOp,
    ShutdownCompleteEvent,
    ShutdownOp,
    SteerInputOp,
    StreamErrorEvent,
    TerminateBackgroundTerminalOp,
    TextInput,
    TurnAbortedEvent,
    UndoOp,
    UserInputOp,
    UserTurnOp,
)
from codex_core.servers.app_server.remote import RemoteAddress, RemoteError, RpcFailure
from codex_tui.app.app_server_connection import (
    CALL_TIMEOUT,
    INITIALIZE,
    handshake,
    open_connection,
)
from codex_tui.app.wire_events import WireEvents

log = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
"""How often a lost server is tried again."""
RECONNECT_GIVE_UP_SECONDS = 600.0
"""After this long without the server the TUI gives up and says so."""
_ANSWERS = {
    "approved": "accept",
    "approved_for_session": "acceptForSession",
    "denied": "decline",
    "abort": "cancel",
}


class AppServerCore:
    """A CoreClient over one connection to a running app-server."""

    def __init__(self, ws: Any, address: RemoteAddress, token: str | None = None) -> None:
        self._ws = ws
        self.address = address
        self._token = token
        self._online = asyncio.Event()
        self._online.set()
        self.wire = WireEvents()
        self._ids = itertools.count(1)
        self._submissions = itertools.count(1)
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._events: deque[Event] = deque()
        self._arrived = asyncio.Event()
        self._failure: str | None = None
        self._closing = False
        self._overrides: dict[str, Any] = {}
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, address: RemoteAddress, token: str | None) -> AppServerCore:
        """Connect and shake hands (as `codex-tui`, with the experimental API).

        Raises:
            RemoteError: The server cannot be reached, refused the token or the handshake.
        """
        ws = await open_connection(address, token)
        core = cls(ws, address, token)
        await core.call("initialize", INITIALIZE)
        await core._send({"method": "initialized"})
        return core

    async def open_thread(
        self, thread_id: str | None, overrides: dict[str, Any] | None = None
    ) -> None:
        """Start a thread, or resume `thread_id`, with `overrides` (the wire's `model`,
        `cwd`, `approvalPolicy`, `sandbox`, …); its first event is `session_configured`.

        Raises:
            RemoteError: The server refused.
        """
        params = dict(overrides or {})
        if thread_id is None:
            response = await self.call("thread/start", params)
        else:
            response = await self.call("thread/resume", {**params, "threadId": thread_id})
        self._push(self.wire.session_configured(response))

    async def call(self, method: str, params: Any, timeout: float = CALL_TIMEOUT) -> Any:
        """A request's result.

        Raises:
            RpcFailure: The server answered with an error.
            RemoteError: No answer (the connection closed, or the timeout passed).
        """
        if not self._online.is_set():  # reconnecting: the request goes to the next server
            try:
                await asyncio.wait_for(self._online.wait(), timeout)
            except TimeoutError:
                raise RemoteError(self._gone()) from None
        request_id = f"{method}-{next(self._ids)}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[request_id] = answer
        try:
            await self._send({"id": request_id, "method": method, "params": params})
            message = await asyncio.wait_for(answer, timeout)
        except TimeoutError:
            raise RemoteError(f"{method}: no answer within {timeout:.0f} s") from None
        finally:
            self._answers.pop(request_id, None)
        if "error" in message:
            error = message["error"] or {}
            raise RpcFailure(method, int(error.get("code", 0)), str(error.get("message", "")))
        return message.get("result")

    # ------------------------------------------------------------------ CoreClient

    async def submit(self, op: Op) -> str:
        """Send an op as the request (or response) it is on the wire; returns a submission
        id, or "" when it could not be sent (a line in the transcript says why)."""
        sub_id = str(next(self._submissions))
        try:
            await self._submit(op)
        except RemoteError as err:
            self._push(Event(id=sub_id, msg=ErrorEvent(message=str(err))))
            return ""
        return sub_id

    async def next_event(self) -> Event:
        """The next event.

        Raises:
            RemoteError: The server went away before the session was shut down.
        """
        while not self._events:
            if self._failure is not None:
                raise RemoteError(self._failure)
            self._arrived.clear()
            await self._arrived.wait()
        return self._events.popleft()

    async def _submit(self, op: Op) -> None:
        thread = self.wire.thread_id
        match op:
            case UserInputOp() | UserTurnOp():
                params = {"threadId": thread, "input": _wire_input(op.items), **self._overrides}
                await self.call("turn/start", params)
            case SteerInputOp():
                if self.wire.turn_id is None:
                    await self._submit(UserInputOp(items=op.items))
                    return
                steer = {"expectedTurnId": self.wire.turn_id, "input": _wire_input(op.items)}
                await self.call("turn/steer", {"threadId": thread, **steer})
            case InterruptOp():
                if self.wire.turn_id is not None:
                    await self.call(
                        "turn/interrupt", {"threadId": thread, "turnId": self.wire.turn_id}
                    )
            case ExecApprovalOp() | PatchApprovalOp():
                await self._answer(op)
            case ResolveElicitationOp():
                request_id = self.wire.elicitations.pop(op.request_id, None)
                if request_id is not None:
                    result: dict[str, Any] = {"action": op.decision}
                    if op.decision == "accept" and op.content is not None:
                        result["content"] = op.content
                    await self._send({"id": request_id, "result": result})
            case CompactOp():
                await self.call("thread/compact/start", {"threadId": thread})
            case OverrideTurnContextOp():
                self._override(op)
            case ShutdownOp():
                await self._close()
            case GetHistoryEntryRequestOp():
                entry = GetHistoryEntryResponseEvent(offset=op.offset, log_id=op.log_id)
                self._push(Event(id="", msg=entry))
            case AddToHistoryOp():
                pass  # the message history file is the server's
            case (
                ListMcpToolsOp()
                | UndoOp()
                | ReviewOp()
                | ListBackgroundTerminalsOp()
                | TerminateBackgroundTerminalOp()
                | CleanBackgroundTerminalsOp()
            ):
                raise RemoteError(
                    f"`{op.type}` is not available in a TUI attached to a remote app server"
                )
            case _ as unreachable:
                assert_never(unreachable)

    async def _answer(self, op: ExecApprovalOp | PatchApprovalOp) -> None:
        found = self.wire.answered(op.id, op.decision)
        if found is None:
            return  # answered elsewhere meanwhile: the first answer won
        asked, line = found
        decision: Any = _ANSWERS[op.decision]
        if isinstance(op, ExecApprovalOp) and op.remember_prefix:
            amendment = {"execpolicy_amendment": op.remember_prefix}
            decision = {"acceptWithExecpolicyAmendment": amendment}
        await self._send({"id": asked.request_id, "result": {"decision": decision}})
        self._push(line)

    def _override(self, op: OverrideTurnContextOp) -> None:
        """Kept for the next `turn/start`, where the wire takes them (they stick there)."""
        from codex_core.servers.app_server.model_thread import sandbox_to_wire

        if op.model is not None:
            self._overrides["model"] = op.model
        if op.effort is not None:
            self._overrides["effort"] = op.effort
        if op.approval_policy is not None:
            self._overrides["approvalPolicy"] = op.approval_policy
        if op.sandbox_policy is not None:
            wire = sandbox_to_wire(op.sandbox_policy)
            self._overrides["sandboxPolicy"] = wire.model_dump(mode="json")

    # ------------------------------------------------------------------ the connection

    async def _send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._ws.send(json.dumps(message))
        except ConnectionClosed:
            raise RemoteError(self._gone()) from None

    async def _read(self) -> None:
        """Take the server's messages; when it goes away, reconnect as 0.169 does (the thread
        is resumed on whatever server answers at the address), or fail every waiting call."""
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                async for frame in self._ws:
                    self._take(json.loads(frame))
            except ConnectionClosed:
                pass
            except Exception as err:  # garbage from the server: it is not trusted on
                log.warning("remote app server: unreadable message: %s", err)
            if self._closing:
                break
            if not self.wire.thread_id or not await self._reconnect():
                break
        if self._closing:  # the user left (also while reconnecting)
            self._online.set()
            self._push(Event(id="", msg=ShutdownCompleteEvent()))
            return
        self._failure = self._gone()
        self._fail_waiting()
        self._arrived.set()

    async def _reconnect(self) -> bool:
        """Try the address again every second until a server resumes the thread (True), the
        user quits or the give-up time passes (False). The status line counts the seconds;
        a turn the lost server was running ends interrupted."""
        self._online.clear()
        self._fail_waiting()
        started = time.monotonic()
        while not self._closing:
            elapsed = time.monotonic() - started
            if elapsed > RECONNECT_GIVE_UP_SECONDS:
                return False
            note = StreamErrorEvent(message=f"Reconnecting to server… ({int(elapsed)}s)")
            self._push(Event(id=self.wire.turn_id or "", msg=note))
            try:
                ws = await open_connection(self.address, self._token)
                later = await handshake(ws, self.wire.thread_id)
            except (RemoteError, OSError, TimeoutError) as err:
                log.info("reconnecting: %s", err)
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            self._ws = ws
            resumed = later.pop(0)
            turns = resumed.get("thread", {}).get("turns") or []
            running = bool(turns) and turns[-1].get("status") == "inProgress"
            if self.wire.turn_id is not None and not running:
                self.wire.turn_id = None
                self._push(Event(id="", msg=TurnAbortedEvent()))
            for message in later:
                self._take(message)
            self._online.set()
            return True
        return False

    def _fail_waiting(self) -> None:
        for answer in self._answers.values():
            if not answer.done():
                answer.set_exception(RemoteError(self._gone()))

    def _take(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            answer = self._answers.get(str(message.get("id")))
            if answer is not None and not answer.done():
                answer.set_result(message)
            return
        params = message.get("params") or {}
        if "id" in message:
            events = self.wire.server_request(message["id"], method, params)
            if not events:
                log.info("server request %s not handled here", method)
        else:
            events = self.wire.notification(method, params)
        for event in events:
            self._push(event)

    def _push(self, event: Event) -> None:
        self._events.append(event)
        self._arrived.set()

    async def _close(self) -> None:
        self._closing = True
        try:
            await asyncio.wait_for(self._ws.close(), 5)
        except (TimeoutError, OSError):
            pass
        if not self._reader.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), 5)
            except TimeoutError:  # still connecting somewhere: leave without it
                self._reader.cancel()
                self._push(Event(id="", msg=ShutdownCompleteEvent()))

    def _gone(self) -> str:
        return f"the remote app server at `{self.address.shown}` closed the connection"


def _wire_input(items: list[InputItem]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in items:
        match item:
            case TextInput():
                out.append({"type": "text", "text": item.text, "text_elements": []})
            case LocalImageInput():
                out.append({"type": "localImage", "path": str(item.path)})
            case ImageInput():
                out.append({"type": "image", "url": item.image_url})
            case _:
                out.append({"type": "text", "text": str(item), "text_elements": []})
    return out
