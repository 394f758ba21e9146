"""Opening a websocket to an app-server and shaking hands on it (for `AppServerCore`)."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from codex_core import __version__
from codex_core.servers.app_server.remote import CONNECT_TIMEOUT, RemoteAddress, RemoteError

CALL_TIMEOUT = 60.0
MAX_FRAME = 1 << 27
"""Largest message accepted from the server (a command's whole output can be large)."""
INITIALIZE = {
    "clientInfo": {"name": "codex-tui", "version": __version__},
    "capabilities": {"experimentalApi": True, "requiredHumanApproval": True},
}
"""The handshake, as 0.169's TUI sends it (observed)."""


async def open_connection(address: RemoteAddress, token: str | None) -> Any:
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
            return await unix_connect(
                str(address.socket.resolve()),  # the link may be longer than sun_path
                uri=address.url,
                additional_headers=headers,
                open_timeout=CONNECT_TIMEOUT,
                compression=None,
                max_size=MAX_FRAME,
            )
        return await connect(
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
        # asyncio words a refusal "Connect call failed (…)": name the errno as 0.169 does
        detail = f"{os.strerror(err.errno)} (os error {err.errno})" if err.errno else str(err)
        prefix = "IO error: " if address.socket is None else ""
        raise RemoteError(f"{where}: {prefix}{detail}") from None
    except Exception as err:  # the library's handshake failures (bad response, timeout)
        raise RemoteError(f"{where}: {err or err.__class__.__name__}") from None


async def handshake(ws: Any, thread_id: str) -> list[dict[str, Any]]:
    """`initialize` and `thread/resume` on a new connection, before the reader runs; returns
    the resume's result, then whatever else came meanwhile (in order).

    Raises:
        RemoteError: The server refused or did not answer in time.
    """
    from websockets.exceptions import ConnectionClosed

    later: list[dict[str, Any]] = []

    async def ask(request_id: str, method: str, params: Any) -> Any:
        await ws.send(json.dumps({"id": request_id, "method": method, "params": params}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), CALL_TIMEOUT))
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RemoteError(f"{method}: {(message['error'] or {}).get('message')}")
                return message.get("result")
            later.append(message)

    try:
        await ask("initialize", "initialize", INITIALIZE)
        await ws.send(json.dumps({"method": "initialized"}))
        resumed = await ask("resume", "thread/resume", {"threadId": thread_id})
    except ConnectionClosed:
        raise RemoteError("the server closed the connection") from None
    return [resumed, *later]
