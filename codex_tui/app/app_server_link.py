"""One JSON-RPC connection to an app-server, as the TUI keeps it: requests and their answers,
the server's messages as the cells' notices (through `wire_items`), and, when a remote
server goes away, the reconnect loop 0.169 runs (the thread resumed on whichever server
answers at the address); a child that goes away fails every waiting call with one sentence.

`AppServerCore` (the CoreClient over it) opens the thread and turns ops into requests.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import deque
from typing import Any

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.servers.app_server.remote import RemoteAddress, RemoteError, RpcFailure
from codex_tui.app.app_server_connection import (
    CALL_TIMEOUT,
    Connection,
    ConnectionGone,
    handshake,
    merge_deltas,
    open_connection,
)
from codex_tui.app.wire_items import TURN, WireItems

log = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
"""How often a lost server is tried again."""
RECONNECT_GIVE_UP_SECONDS = 600.0
"""After this long without the server the TUI gives up and says so."""


CLOSE_SECONDS = 15.0
"""How long leaving waits for the connection to close (a child ends its threads first)."""


class AppServerLink:
    """Requests, answers and notices over one connection to an app-server (reconnected
    to when a remote one goes away)."""

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
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._notices: deque[list[c.ClientNotice]] = deque()
        self._arrived = asyncio.Event()
        self._failure: str | None = None
        self._closing = False
        self._held: list[dict[str, Any]] | None = []
        """Server messages that came before the thread was opened (None once it is)."""
        self._presend: dict[str, tuple[str, Any]] = {}
        """Requests written before this link existed (`early_turn`): method → (id, params)."""
        self._reader = asyncio.ensure_future(self._read())

    def expect(self, presend: dict[str, tuple[str, Any]]) -> None:
        """Requests already written (method → (id, params)): their answers are kept until
        the same request is made, which then sends nothing; later requests take the ids
        after theirs. Called before the first message is read."""
        loop = asyncio.get_running_loop()
        for request_id, _ in presend.values():
            self._answers[request_id] = loop.create_future()
        self._presend = dict(presend)
        self._ids = itertools.count(1 + len(presend))

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
        written = self._presend.pop(method, None)
        if written is not None and written[1] == params:  # already on its way
            return await self._result(written[0], method, timeout)
        if written is not None:  # never happens: the launch prompt's request is the same
            log.warning("%s: sent again, with other params than written early", method)
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
