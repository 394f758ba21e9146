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
from collections import deque
from typing import Any, assert_never

from codex_core import __version__
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
    TerminateBackgroundTerminalOp,
    TextInput,
    UndoOp,
    UserInputOp,
    UserTurnOp,
)
from codex_core.servers.app_server.remote import (
    CONNECT_TIMEOUT,
    RemoteAddress,
    RemoteError,
    RpcFailure,
)
from codex_tui.app.wire_events import WireEvents

log = logging.getLogger(__name__)

CALL_TIMEOUT = 60.0
MAX_FRAME = 1 << 27
"""Largest message accepted from the server (a command's whole output can be large)."""
_ANSWERS = {
    "approved": "accept",
    "approved_for_session": "acceptForSession",
    "denied": "decline",
    "abort": "cancel",
}


class AppServerCore:
    """A CoreClient over one connection to a running app-server."""

    def __init__(self, ws: Any, address: RemoteAddress) -> None:
        self._ws = ws
        self.address = address
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
        from websockets.asyncio.client import connect, unix_connect
        from websockets.exceptions import InvalidStatus

        headers = {"Authorization": f"Bearer {token}"} if token else None
        where = f"failed to connect to remote app server at `{address.shown}`"
        try:
            if address.socket is not None:
                ws = await unix_connect(
                    str(address.socket.resolve()),  # the link may be longer than sun_path
                    uri=address.url,
                    additional_headers=headers,
                    open_timeout=CONNECT_TIMEOUT,
                    compression=None,
                    max_size=MAX_FRAME,
                )
            else:
                ws = await connect(
                    address.url,
                    additional_headers=headers,
                    open_timeout=CONNECT_TIMEOUT,
                    compression=None,
                    max_size=MAX_FRAME,
                )
        except InvalidStatus as err:
            status, reason = err.response.status_code, err.response.reason_phrase
            raise RemoteError(f"{where}: HTTP error: {status} {reason}") from None
        except OSError as err:
            detail = f"{err.strerror} (os error {err.errno})" if err.errno else str(err)
            prefix = "IO error: " if address.socket is None else ""
            raise RemoteError(f"{where}: {prefix}{detail}") from None
        except Exception as err:  # the library's handshake failures (bad response, timeout)
            raise RemoteError(f"{where}: {err or err.__class__.__name__}") from None
        core = cls(ws, address)
        info = {"name": "codex-tui", "version": __version__}
        capabilities = {"experimentalApi": True, "requiredHumanApproval": True}
        await core.call("initialize", {"clientInfo": info, "capabilities": capabilities})
        await core._send({"method": "initialized"})
        return core

    async def open_thread(self, thread_id: str | None) -> None:
        """Start a thread, or resume `thread_id`; its first event is `session_configured`.

        Raises:
            RemoteError: The server refused.
        """
        if thread_id is None:
            response = await self.call("thread/start", {})
        else:
            response = await self.call("thread/resume", {"threadId": thread_id})
        self._push(self.wire.session_configured(response))

    async def call(self, method: str, params: Any, timeout: float = CALL_TIMEOUT) -> Any:
        """A request's result.

        Raises:
            RpcFailure: The server answered with an error.
            RemoteError: No answer (the connection closed, or the timeout passed).
        """
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
                | ResolveElicitationOp()
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
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self._ws:
                self._take(json.loads(frame))
        except ConnectionClosed:
            pass
        except Exception as err:  # garbage from the server: it is not trusted on
            log.warning("remote app server: unreadable message: %s", err)
        if self._closing:
            self._push(Event(id="", msg=ShutdownCompleteEvent()))
            return
        self._failure = self._gone()
        for answer in self._answers.values():
            if not answer.done():
                answer.set_exception(RemoteError(self._failure))
        self._arrived.set()

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
            await asyncio.wait_for(asyncio.shield(self._reader), 5)

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
