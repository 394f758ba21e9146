"""The TUI's session on an app-server, as a CoreClient: a `codex app-server` child on stdio
(the local TUI) or a running server at `--remote ADDR` (a websocket, TCP or unix socket).

The same client either way: the handshake, then `thread/start` or `thread/resume`; ops become
requests (`turn/start`, `turn/steer`, `turn/interrupt`, `thread/compact/start`,
`review/start`, `mcpServerStatus/list` and the codex extensions in `app_server_ops`) and
approval answers become responses to the server's requests; what the server sends becomes
the cells' item notices through `wire_items`, one step. If the server goes away,
`next_notices` fails with one sentence and the app shows it (a remote one is first waited
for, as 0.169 does).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import subprocess
import time
from collections import deque
from dataclasses import replace
from typing import Any, assert_never

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import (
    AddToHistoryOp,
    CleanBackgroundTerminalsOp,
    CompactOp,
    ExecApprovalOp,
    GetHistoryEntryRequestOp,
    InterruptOp,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    Op,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ReviewOp,
    ShutdownOp,
    SteerInputOp,
    TerminateBackgroundTerminalOp,
    UndoOp,
    UserInputOp,
    UserTurnOp,
)
from codex_core.servers.app_server.remote import RemoteAddress, RemoteError, RpcFailure
from codex_tui.app.app_server_connection import (
    CALL_TIMEOUT,
    INITIALIZE,
    Connection,
    ConnectionGone,
    early_id,
    handshake,
    merge_deltas,
    open_connection,
)
from codex_tui.app.app_server_ops import (
    approval_decision,
    elicitation_result,
    request_op,
    turn_overrides,
    wire_input,
)
from codex_tui.app.wire_items import TURN, WireItems

log = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
"""How often a lost server is tried again."""
RECONNECT_GIVE_UP_SECONDS = 600.0
"""After this long without the server the TUI gives up and says so."""


CLOSE_SECONDS = 15.0
"""How long leaving waits for the connection to close (a child ends its threads first)."""


class AppServerCore:
    """A CoreClient over one connection to an app-server."""

    def __init__(
        self, connection: Connection, address: RemoteAddress | None, token: str | None = None
    ) -> None:
        self._ws = connection
        self.address = address
        """Where a remote server is (reconnected to when it goes away); None for a child."""
        self._token = token
        self._online = asyncio.Event()
        self._online.set()
        self.wire = WireItems()
        self._ids = itertools.count(1)
        self._submissions = itertools.count(1)
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._notices: deque[list[c.ClientNotice]] = deque()
        self._arrived = asyncio.Event()
        self._failure: str | None = None
        self._closing = False
        self._overrides: dict[str, Any] = {}
        self._closer: asyncio.Future[None] | None = None
        self._held: list[dict[str, Any]] | None = []
        """Server messages that came before the thread was opened (None once it is)."""
        self._early: str | None = None
        """The thread method written at spawn (`thread/start` or `thread/resume`) until its
        answer is read."""
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, address: RemoteAddress, token: str | None) -> AppServerCore:
        """Connect and shake hands (as `codex-tui`, with the experimental API).

        Raises:
            RemoteError: The server cannot be reached, refused the token or the handshake.
        """
        core = cls(await open_connection(address, token), address, token)
        await core.call("initialize", INITIALIZE)
        await core._send({"method": "initialized"})
        return core

    @classmethod
    async def start_child(
        cls, process: subprocess.Popen[bytes], log_path: str, early: str | None = None
    ) -> AppServerCore:
        """Shake hands with a `codex app-server` child on its stdio (`app_server_process`);
        `early`: the handshake and this thread method (`thread/start` or `thread/resume`)
        were written at spawn (`early_requests`), only their answers are read here.

        Raises:
            RemoteError: The child exited or refused the handshake.
        """
        from codex_tui.app.app_server_process import StdioConnection

        connection = StdioConnection(process, log_path)
        await connection.open()
        core = cls(connection, None)
        core._early = early
        try:
            if early is not None:  # both answers may come before either is read
                for method in ("initialize", early):
                    core._answers[early_id(method)] = asyncio.get_running_loop().create_future()
                await core._result(early_id("initialize"), "initialize", CALL_TIMEOUT)
                return core
            await core.call("initialize", INITIALIZE)
            await core._send({"method": "initialized"})
        except RemoteError:
            await core._close()
            raise
        return core

    async def open_thread(
        self, thread_id: str | None, overrides: dict[str, Any] | None = None
    ) -> None:
        """Start a thread, or resume `thread_id`, with `overrides` (the wire's `model`,
        `cwd`, `approvalPolicy`, `sandbox`, …); its first notice is `ThreadOpened`.

        Raises:
            RemoteError: The server refused.
        """
        params = dict(overrides or {})
        method = "thread/start" if thread_id is None else "thread/resume"
        if self._early == method and not params:  # written at spawn with the handshake
            self._early = None
            response = await self._result(early_id(method), method, CALL_TIMEOUT)
        elif thread_id is None:
            response = await self.call("thread/start", params)
        else:
            response = await self.call("thread/resume", {**params, "threadId": thread_id})
        opened = self.wire.thread_opened(response)
        try:
            history = await self.call("history/metadata/read", {"threadId": self.wire.thread_id})
        except RpcFailure:  # a server without the extension: no ↑ recall of older messages
            history = {}
        recall = {
            "history_log_id": history.get("logId", 0),
            "history_entry_count": history.get("entryCount", 0),
        }
        self._push([replace(opened, **recall)])
        held, self._held = self._held, None
        for message in held or []:  # what the thread said while it was being opened
            self._take(message)

    async def open_child_thread(self, thread_id: str | None) -> None:
        """`open_thread` on a child server: a refusal is its message alone, and the child
        is told to end.

        Raises:
            RemoteError: The child refused (its message) or is gone.
        """
        try:
            await self.open_thread(thread_id)
        except RemoteError as err:
            await self._close()
            raise RemoteError(err.message if isinstance(err, RpcFailure) else str(err)) from None

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
        return await self._result(request_id, method, timeout, params)

    async def _result(
        self, request_id: str, method: str, timeout: float, params: Any = None
    ) -> Any:
        """The result of request `request_id`, sent now with `params` (or before, if None).

        Raises:
            RpcFailure: The server answered with an error.
            RemoteError: No answer (the connection closed, or the timeout passed).
        """
        answer = self._answers.get(request_id)  # an early request's, waiting since the start
        if answer is None:
            answer = self._answers[request_id] = asyncio.get_running_loop().create_future()
        try:
            if params is not None:
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
            self._push(self.wire.items.error(str(err)))
            return ""
        return sub_id

    async def next_notices(self) -> list[c.ClientNotice]:
        """The notices of the next message.

        Raises:
            RemoteError: The server went away before the session was shut down.
        """
        while not self._notices:
            if self._failure is not None:
                raise RemoteError(self._failure)
            self._arrived.clear()
            await self._arrived.wait()
        return self._notices.popleft()

    async def _submit(self, op: Op) -> None:
        thread = self.wire.thread_id
        match op:
            case UserInputOp() | UserTurnOp():
                params = {"threadId": thread, "input": wire_input(op.items), **self._overrides}
                await self.call("turn/start", params)
            case SteerInputOp():
                if self.wire.turn_id is None:
                    await self._submit(UserInputOp(items=op.items))
                    return
                steer = {"expectedTurnId": self.wire.turn_id, "input": wire_input(op.items)}
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
                    await self._send({"id": request_id, "result": elicitation_result(op)})
            case CompactOp():
                await self.call("thread/compact/start", {"threadId": thread})
            case OverrideTurnContextOp():  # kept for the next `turn/start` (they stick there)
                self._overrides.update(turn_overrides(op))
            case ShutdownOp():  # the session's end is awaited as its last event
                self._closer = asyncio.ensure_future(self._close())
            case (
                ListMcpToolsOp()
                | UndoOp()
                | ReviewOp()
                | ListBackgroundTerminalsOp()
                | TerminateBackgroundTerminalOp()
                | CleanBackgroundTerminalsOp()
                | GetHistoryEntryRequestOp()
                | AddToHistoryOp()
            ):
                try:
                    answer = await request_op(self, thread, op, TURN)
                except RpcFailure as err:
                    if isinstance(op, AddToHistoryOp):  # a server without the extension (0.169)
                        log.info("history/append: %s", err.message)
                        return
                    self._push(self.wire.items.error(err.message))
                    return
                if answer is not None:
                    self._push([answer])
            case _ as unreachable:
                assert_never(unreachable)

    async def _answer(self, op: ExecApprovalOp | PatchApprovalOp) -> None:
        found = self.wire.answered(op.id, op.decision)
        if found is None:
            return  # answered elsewhere meanwhile: the first answer won
        asked, decided = found
        result = {"decision": approval_decision(op)}
        await self._send({"id": asked.request_id, "result": result})
        self._push(decided)

    # ------------------------------------------------------------------ the connection

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self._ws.send(json.dumps(message))
        except ConnectionGone:
            raise RemoteError(self._gone()) from None

    async def _read(self) -> None:
        """Take the server's messages; when it goes away, reconnect as 0.169 does (the thread
        is resumed on whatever server answers at the address), or fail every waiting call."""
        while True:
            try:
                async for frames in self._ws.batches():
                    for message in merge_deltas([json.loads(frame) for frame in frames]):
                        self._take(message)
            except Exception as err:  # garbage from the server: it is not trusted on
                log.warning("app server: unreadable message: %s", err)
                await self._ws.abort()
            if self._closing:
                break
            if self.address is None or not self.wire.thread_id or not await self._reconnect():
                break
        if self._closing:  # the user left (also while reconnecting)
            self._online.set()
            self._push([n.SessionEnded(TURN)])
            return
        self._failure = self._gone()
        self._fail_waiting()
        self._arrived.set()

    async def _reconnect(self) -> bool:
        """Try the address again every second until a server resumes the thread (True), the
        user quits or the give-up time passes (False). The status line counts the seconds;
        a turn the lost server was running ends interrupted."""
        address = self.address
        assert address is not None
        self._online.clear()
        self._fail_waiting()
        started = time.monotonic()
        while not self._closing:
            elapsed = time.monotonic() - started
            if elapsed > RECONNECT_GIVE_UP_SECONDS:
                return False
            self._push([n.StreamRetry(TURN, f"Reconnecting to server… ({int(elapsed)}s)")])
            try:
                ws = await open_connection(address, self._token)
                later = await handshake(ws, self.wire.thread_id)
            except (RemoteError, OSError, TimeoutError) as err:
                log.info("reconnecting: %s", err)
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            self._ws = ws
            resumed = later.pop(0)
            turns = resumed.get("thread", {}).get("turns") or []
            running = bool(turns) and turns[-1].get("status") == "inProgress"
            if not running:
                self._push(self.wire.interrupted())
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
        if self._held is not None:  # the session's first notice is `ThreadOpened`
            self._held.append(message)
            return
        params = message.get("params") or {}
        if "id" in message:
            notices = self.wire.server_request(message["id"], method, params)
            if not notices:
                log.info("server request %s not handled here", method)
        else:
            notices = self.wire.notification(method, params)
        self._push(notices)

    def _push(self, notices: list[c.ClientNotice]) -> None:
        if notices:
            self._notices.append(notices)
            self._arrived.set()

    async def _close(self) -> None:
        self._closing = True
        try:
            await asyncio.wait_for(self._ws.close(), CLOSE_SECONDS)
        except (TimeoutError, OSError):
            pass
        if not self._reader.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), 5)
            except TimeoutError:  # still connecting somewhere: leave without it
                self._reader.cancel()
                self._push([n.SessionEnded(TURN)])

    def _gone(self) -> str:
        return self._ws.gone()
