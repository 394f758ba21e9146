"""A blocking client of a running app-server (`--remote ADDR`): connect, handshake, call.

ADDR is `ws://host:port`, `wss://host:port`, `unix://` (the control socket under CODEX_HOME)
or `unix://PATH`, as Codex 0.169 accepts them; a bearer token, when given, goes in the
upgrade request's `Authorization` header. Every wait has a timeout. Errors are RemoteError
with 0.169's wording.
"""

from __future__ import annotations

import errno
import json
import re
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core import __version__

CONNECT_TIMEOUT = 10.0
CALL_TIMEOUT = 60.0


class RemoteError(RuntimeError):
    """Cannot reach or use the remote app-server (one line for the user)."""


class RpcFailure(RemoteError):
    """The server answered a request with an error."""

    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method} failed: {message} (code {code})")
        self.method = method
        self.code = code
        self.message = message


@dataclass(frozen=True)
class RemoteAddress:
    """A parsed `--remote` value."""

    url: str
    """The websocket URL (for a unix socket, the URL sent in the upgrade request)."""
    shown: str
    """How errors name it (`ws://host:port/`, `unix:///path`)."""
    socket: Path | None = None
    control: bool = False
    """The socket is CODEX_HOME's control socket (the daemon's): when it is missing, 0.169
    says the socket is not available (`NO_CONTROL_SOCKET`) instead of naming the error."""


NO_CONTROL_SOCKET = "the requested app-server socket is not available"


def unavailable(address: RemoteAddress, err: OSError) -> bool:
    """Whether connecting failed because the daemon's control socket is not there."""
    return address.control and err.errno == errno.ENOENT  # a stale socket: the error


def parse_remote(value: str, codex_home: Path | None) -> RemoteAddress:
    """A `--remote` address; `unix://` needs `codex_home` (its control socket)."""
    bad = RemoteError(
        f"invalid remote address `{value}`; expected `ws://host:port`, `wss://host:port`, "
        "`unix://`, or `unix://PATH`"
    )
    if value.startswith("unix://"):
        rest = value.removeprefix("unix://")
        from codex_core.servers.app_server.listen import control_socket

        control = control_socket(codex_home) if codex_home is not None else None
        if rest:
            path = Path(rest).absolute()
        elif control is not None:
            path = control
        else:
            raise bad
        return RemoteAddress("ws://localhost/", f"unix://{path}", path, path == control)
    match = re.fullmatch(r"(wss?)://(\[[0-9a-fA-F:.]+\]|[^/:\[\]]+):(\d{1,5})/?", value)
    if match is None or int(match.group(3)) > 65535:
        raise bad
    scheme, host, port = match.groups()
    url = f"{scheme}://{host}:{port}/"
    return RemoteAddress(url, url)


class RemoteClient:
    """One connection; `call` sends a request and waits for its answer."""

    def __init__(self, address: RemoteAddress, token: str | None) -> None:
        from websockets.exceptions import InvalidStatus
        from websockets.sync.client import connect, unix_connect

        headers = {"Authorization": f"Bearer {token}"} if token else None
        self._stack = ExitStack()
        try:
            if address.socket is not None:
                connection = unix_connect(
                    str(address.socket.resolve()),  # the link may be longer than sun_path
                    uri=address.url,
                    additional_headers=headers,
                    open_timeout=CONNECT_TIMEOUT,
                    compression=None,
                )
            else:
                connection = connect(
                    address.url,
                    additional_headers=headers,
                    open_timeout=CONNECT_TIMEOUT,
                    compression=None,
                )
            self._ws = self._stack.enter_context(connection)
        except InvalidStatus as err:
            status = err.response.status_code
            reason = err.response.reason_phrase
            raise RemoteError(
                f"failed to connect to remote app server at `{address.shown}`: "
                f"HTTP error: {status} {reason}"
            ) from None
        except OSError as err:
            if unavailable(address, err):
                raise RemoteError(NO_CONTROL_SOCKET) from None
            detail = f"{err.strerror} (os error {err.errno})" if err.errno else str(err)
            prefix = "IO error: " if address.socket is None else ""
            raise RemoteError(
                f"failed to connect to remote app server at `{address.shown}`: {prefix}{detail}"
            ) from None
        except Exception as err:  # handshake failures of the library (bad response, timeout)
            raise RemoteError(
                f"failed to connect to remote app server at `{address.shown}`: {err}"
            ) from None
        self._next_id = 0

    def call(self, method: str, params: Any, timeout: float = CALL_TIMEOUT) -> Any:
        """The result of a request; raises RpcFailure or RemoteError."""
        from websockets.exceptions import ConnectionClosed

        self._next_id += 1
        request_id = f"{method}-{self._next_id}"
        try:
            self._ws.send(json.dumps({"id": request_id, "method": method, "params": params}))
            while True:
                message = json.loads(self._ws.recv(timeout=timeout))
                if message.get("id") == request_id and "method" not in message:
                    break
        except TimeoutError:
            raise RemoteError(f"{method}: no answer within {timeout:.0f} s") from None
        except ConnectionClosed:
            raise RemoteError(f"{method}: the remote app server closed the connection") from None
        if "error" in message:
            error = message["error"] or {}
            raise RpcFailure(method, int(error.get("code", 0)), str(error.get("message", "")))
        return message.get("result")

    def initialize(self, client_name: str) -> Any:
        """The handshake (with the experimental API, as 0.169's CLI clients ask)."""
        result = self.call(
            "initialize",
            {
                "clientInfo": {"name": client_name, "version": __version__},
                "capabilities": {"experimentalApi": True},
            },
        )
        self._ws.send(json.dumps({"method": "initialized"}))
        return result

    def close(self) -> None:
        """Close the connection (waits at most a few seconds)."""
        self._stack.close()
