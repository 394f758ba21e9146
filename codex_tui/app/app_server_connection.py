"""A connection to an app-server (a websocket, or a child's stdio) and the handshake on it.

`AppServerCore` speaks JSON-RPC over any `Connection`: text messages in both directions, and
`ConnectionGone` once the other side is gone, whatever the transport.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from typing import Any, Protocol

from codex_core import __version__
from codex_core.servers.app_server.remote import (
    CONNECT_TIMEOUT,
    NO_CONTROL_SOCKET,
    RemoteAddress,
    RemoteError,
    unavailable,
)

CALL_TIMEOUT = 60.0
MAX_FRAME = 1 << 27
"""Largest message accepted from the server (a command's whole output can be large)."""
INITIALIZE = {
    "clientInfo": {"name": "codex-tui", "version": __version__},
    "capabilities": {"experimentalApi": True, "requiredHumanApproval": True},
}
"""The handshake, as 0.169's TUI sends it (observed)."""


def early_id(method: str) -> str:
    """The id of `method` when it is written at spawn (`early_requests`)."""
    return f"{method}-0"


def early_requests(thread_id: str | None) -> bytes:
    """What a local TUI writes to its app-server child as it spawns it, when the thread to
    open is already known: `initialize`, `initialized` and `thread/start` (or
    `thread/resume` of `thread_id`), as JSON lines, the same messages `AppServerCore` sends
    later otherwise. The child answers them as soon as it has loaded, while Textual loads
    here; `AppServerCore.start_child(early=...)` reads the answers."""
    method = "thread/start" if thread_id is None else "thread/resume"
    params = {} if thread_id is None else {"threadId": thread_id}
    messages = [
        {"id": early_id("initialize"), "method": "initialize", "params": INITIALIZE},
        {"method": "initialized"},
        {"id": early_id(method), "method": method, "params": params},
    ]
    return b"".join(json.dumps(message).encode() + b"\n" for message in messages)


class ConnectionGone(ConnectionError):
    """The server (or the pipe to it) went away."""


class Connection(Protocol):
    """One client connection: JSON-RPC messages as text, in order."""

    async def send(self, text: str) -> None:
        """Send one message.

        Raises:
            ConnectionGone: The server is gone.
        """
        ...

    async def recv(self) -> str:
        """The next message.

        Raises:
            ConnectionGone: The server is gone.
        """
        ...

    def batches(self) -> AsyncIterator[list[str]]:
        """Messages as they arrive, all that are ready at once, until the server goes away
        (then the iteration ends)."""
        ...

    async def close(self) -> None:
        """Leave (a child server is told to end and waited for, bounded)."""
        ...

    async def abort(self) -> None:
        """Leave at once: the server sent what it must not (a child is killed)."""
        ...

    def gone(self) -> str:
        """Why the connection ended, in one sentence for the user."""
        ...


class WsConnection:
    """A `Connection` over a websocket (`websockets`' client)."""

    def __init__(self, ws: Any, address: RemoteAddress) -> None:
        self._ws = ws
        self.address = address

    async def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._ws.send(text)
        except ConnectionClosed:
            raise ConnectionGone(self.gone()) from None

    async def recv(self) -> str:
        from websockets.exceptions import ConnectionClosed

        try:
            frame = await self._ws.recv()
        except ConnectionClosed:
            raise ConnectionGone(self.gone()) from None
        return frame if isinstance(frame, str) else frame.decode()

    async def batches(self) -> AsyncIterator[list[str]]:
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self._ws:
                yield [frame if isinstance(frame, str) else frame.decode()]
        except ConnectionClosed:
            return

    async def close(self) -> None:
        await self._ws.close()

    async def abort(self) -> None:
        await self._ws.close()

    def gone(self) -> str:
        return f"the remote app server at `{self.address.shown}` closed the connection"


DELTAS = {
    "item/agentMessage/delta": ("itemId",),
    "item/reasoning/summaryTextDelta": ("itemId", "summaryIndex"),
    "item/commandExecution/outputDelta": ("itemId",),
}
"""Delta notifications, and the fields a run of them shares."""


def merge_deltas(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs of deltas of one item as one delta each (their text joined), everything else as
    it came: a streamed answer arrives a token a line, and the screen needs it once a frame."""
    out: list[dict[str, Any]] = []
    for message in messages:
        method = message.get("method")
        shared = DELTAS.get(method) if method is not None and "id" not in message else None
        last = out[-1] if out else None
        if shared is not None and last is not None and last.get("method") == method:
            params, before = message.get("params") or {}, last.get("params") or {}
            if all(params.get(k) == before.get(k) for k in shared) and "delta" in params:
                merged = {**before, "delta": str(before.get("delta", "")) + str(params["delta"])}
                out[-1] = {**last, "params": merged}
                continue
        out.append(message)
    return out


async def open_connection(address: RemoteAddress, token: str | None) -> WsConnection:
    """A websocket to the server, with 0.169's error lines.

    Raises:
        RemoteError: The server cannot be reached or refused the token.
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
        if unavailable(address, err):  # no daemon: 0.169's sentence
            raise RemoteError(NO_CONTROL_SOCKET) from None
        # asyncio words a refusal "Connect call failed (…)": name the errno as 0.169 does
        detail = f"{os.strerror(err.errno)} (os error {err.errno})" if err.errno else str(err)
        prefix = "IO error: " if address.socket is None else ""
        raise RemoteError(f"{where}: {prefix}{detail}") from None
    except Exception as err:  # the library's handshake failures (bad response, timeout)
        raise RemoteError(f"{where}: {err or err.__class__.__name__}") from None
    return WsConnection(ws, address)


async def handshake(connection: Connection, thread_id: str) -> list[dict[str, Any]]:
    """`initialize` and `thread/resume` on a new connection, before the reader runs; returns
    the resume's result, then whatever else came meanwhile (in order).

    Raises:
        RemoteError: The server refused or did not answer in time.
    """
    later: list[dict[str, Any]] = []

    async def ask(request_id: str, method: str, params: Any) -> Any:
        await connection.send(json.dumps({"id": request_id, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(connection.recv(), CALL_TIMEOUT))
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RemoteError(f"{method}: {(message['error'] or {}).get('message')}")
                return message.get("result")
            later.append(message)

    try:
        await ask("initialize", "initialize", INITIALIZE)
        await connection.send(json.dumps({"method": "initialized"}))
        resumed = await ask("resume", "thread/resume", {"threadId": thread_id})
    except ConnectionGone:
        raise RemoteError("the server closed the connection") from None
    return [resumed, *later]
