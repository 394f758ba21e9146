"""The websocket transports: `--listen ws://IP:PORT` and `--listen unix://[PATH]`.

Both speak the app-server protocol as Codex 0.169 does: an HTTP upgrade (over TCP, or over
the unix socket), then one JSON-RPC message per text frame. One ThreadHub serves the whole
process; each connection gets its own AppServer (its handshake and requests) subscribed to
the hub's threads, so two clients may watch and drive one thread. A client that goes away
leaves its threads running; the threads stop with the process.

On the TCP port, `GET /readyz` and `GET /healthz` answer 200 with an empty body (another
method 405); any other plain HTTP request gets 0.169's 400 (405 when not a GET); with
`--ws-auth` a request without the right bearer token gets 401 and 0.169's reason. As 0.169,
any request a browser sends (it carries an `Origin` header) is refused first with 403, so no
web page can reach the agent through the loopback port, token or not. SIGTERM (or ctrl-c) stops the server at once when no turn
is running; otherwise, as 0.169 (observed), it stops accepting connections, lets the running
turns complete (their clients see them end) and then stops; a second signal stops it now, and
so does the last client leaving (nobody is left to answer an approval a turn may wait on).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sys
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve, unix_serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from codex_core.servers.app_server.hub import ThreadHub
from codex_core.servers.app_server.listen import Listen
from codex_core.servers.app_server.method_tables import SERVED
from codex_core.servers.app_server.server import AppServer
from codex_core.servers.app_server.transport import MAX_LINE_BYTES
from codex_core.servers.app_server.unix_socket import ControlSocket
from codex_core.servers.app_server.warmup import start_warmup
from codex_core.servers.app_server.ws_auth import WebsocketAuth

log = logging.getLogger(__name__)

HEALTH_PATHS = ("/readyz", "/healthz")


def banner(host: str, port: int) -> str:
    """What 0.169 prints on stderr once the websocket listener is up."""
    shown = f"[{host}]" if ":" in host else host
    loopback = host in ("127.0.0.1", "::1") or host.startswith("127.")
    note = (
        "binds localhost only (use SSH port-forwarding for remote access)"
        if loopback
        else "websocket auth is required for non-localhost listeners"
    )
    return (
        "codex app-server (WebSockets)\n"
        f"  listening on: ws://{shown}:{port}\n"
        f"  readyz: http://{shown}:{port}/readyz\n"
        f"  healthz: http://{shown}:{port}/healthz\n"
        f"  note: {note}\n"
    )


def _encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class WebsocketServer:
    """The connections of one listener and the hub they share."""

    def __init__(
        self, cli_overrides: list[str], auth: WebsocketAuth | None, *, http_paths: bool
    ) -> None:
        self.cli_overrides = cli_overrides
        self.auth = auth
        self.http_paths = http_paths
        self.hub = ThreadHub()
        self.connections: set[ServerConnection] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Browsers, health checks, plain HTTP and authentication, before the upgrade."""
        if "Origin" in request.headers:  # a web page: no site may drive the local agent
            return connection.respond(HTTPStatus.FORBIDDEN, "")
        path = request.path.partition("?")[0]
        if self.http_paths and path in HEALTH_PATHS:
            if request.method not in ("GET", "HEAD"):
                return connection.respond(HTTPStatus.METHOD_NOT_ALLOWED, "")
            return connection.respond(HTTPStatus.OK, "")
        if request.method != "GET":
            return connection.respond(HTTPStatus.METHOD_NOT_ALLOWED, "Request method must be `GET`")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            return connection.respond(
                HTTPStatus.BAD_REQUEST, "Connection header did not include 'upgrade'"
            )
        if self.auth is not None:
            refused = self.auth.check(request.headers)
            if refused is not None:
                return connection.respond(HTTPStatus.UNAUTHORIZED, refused)
        return None

    async def handle(self, connection: ServerConnection) -> None:
        """Serve one client until it closes the connection."""
        self.connections.add(connection)
        outbox: asyncio.Queue[str] = asyncio.Queue()

        def write(message: dict[str, Any]) -> None:
            outbox.put_nowait(_encode(message))

        server = AppServer(self.cli_overrides, write, SERVED, self.hub)
        sender = asyncio.get_running_loop().create_task(_send_loop(connection, outbox))
        try:
            async for frame in connection:
                if isinstance(frame, bytes):  # as 0.169: only text frames carry messages
                    log.error("dropping a binary websocket frame (%d bytes)", len(frame))
                    continue
                await server.handle_line(frame)
        except ConnectionClosed:
            pass
        finally:
            await server.close()
            sender.cancel()
            self.connections.discard(connection)


async def _send_loop(connection: ServerConnection, outbox: asyncio.Queue[str]) -> None:
    try:
        while True:
            await connection.send(await outbox.get())
    except ConnectionClosed:
        return


def _install_signals(on_signal: Callable[[], None]) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)


async def _run(listener: Server, state: WebsocketServer) -> None:
    signals = 0
    stop = asyncio.Event()

    def on_signal() -> None:
        nonlocal signals
        signals += 1
        if signals == 1 and state.hub.busy():
            listener.close(close_connections=False)  # no new clients; finish the turns
            print(
                "codex app-server: stopping once the running turns complete; "
                "send the signal again to stop now",
                file=sys.stderr,
            )
            task = asyncio.get_running_loop().create_task(_stop_when_idle(state, stop))
            state.tasks.add(task)
        else:
            stop.set()

    _install_signals(on_signal)
    await stop.wait()
    listener.close()  # a no-op when a first signal already closed it without the connections
    closing = [c.close(1001) for c in list(state.connections)]
    try:
        await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 5)
        await asyncio.wait_for(listener.wait_closed(), 5)
    except TimeoutError:
        log.warning("websocket connections did not close within 5 s")
    try:
        await asyncio.wait_for(state.hub.close(), 15)
    except TimeoutError:
        log.warning("the threads did not shut down within 15 s")


async def _stop_when_idle(state: WebsocketServer, stop: asyncio.Event) -> None:
    # No client left to see the end (or to answer the approval a turn may wait on): stop.
    while state.hub.busy() and state.connections:
        await asyncio.sleep(0.1)
    stop.set()


COMMON: dict[str, Any] = {
    "compression": None,  # one frame per message, sent at once: latency over bytes
    "max_size": MAX_LINE_BYTES,
    "ping_interval": 20,
    "ping_timeout": 60,
    "server_header": None,
}


async def serve_websocket(
    listen: Listen, cli_overrides: list[str], auth: WebsocketAuth | None
) -> int:
    """Serve `ws://IP:PORT` until stopped; prints the banner once listening."""
    state = WebsocketServer(cli_overrides, auth, http_paths=True)
    try:
        listener = await serve(
            state.handle,
            listen.host,
            listen.port,
            process_request=state.process_request,
            **COMMON,
        )
    except OSError as err:
        print(
            f"Error: failed to bind websocket listener {listen.host}:{listen.port}: "
            f"{err.strerror or err}",
            file=sys.stderr,
        )
        return 1
    port = listener.sockets[0].getsockname()[1]
    sys.stderr.write(banner(listen.host, port))
    sys.stderr.flush()
    start_warmup(cli_overrides)
    await _run(listener, state)
    return 0


async def serve_unix(
    path: Path, cli_overrides: list[str], on_ready: Callable[[], None] | None = None
) -> int:
    """Serve the websocket protocol on a unix socket until stopped (no banner, as 0.169).

    `on_ready` runs once the socket accepts connections (the daemon records itself then).
    """
    from codex_core.servers.app_server.unix_socket import SocketPathError

    control = ControlSocket(path)
    try:
        control.prepare()
    except (SocketPathError, OSError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    state = WebsocketServer(cli_overrides, None, http_paths=False)
    try:
        listener = await unix_serve(
            state.handle, str(control.real), process_request=state.process_request, **COMMON
        )
        control.publish()
        if on_ready is not None:
            on_ready()
        start_warmup(cli_overrides)
        await _run(listener, state)
    except OSError as err:
        print(f"Error: cannot listen on {path}: {err.strerror or err}", file=sys.stderr)
        return 1
    finally:
        control.release()
    return 0
