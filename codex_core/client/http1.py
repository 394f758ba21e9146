"""The model client's HTTP/1.1 connections: h11 over asyncio streams, kept alive per origin.

What the model client needs and no more (issue 29: httpx, httpcore and anyio were a tenth of
`codex exec`'s instructions before its first request): one request at a time per connection,
a body sent whole, the response's body streamed as it arrives, gzip/deflate decoded,
connections kept alive per (scheme, host, port) and proxy for `KEEPALIVE_S` as httpx kept
them, the environment's proxies (`http_proxy`), a connect timeout and no read timeout (the
caller's idle timers bound reads). A connection whose response was not read to its end, that
broke, or whose reader was cancelled is closed at once, never reused.

Failures are `HttpError` (no response, or the body broke: `str()` is the cause in a few
words, as httpx's were), `DecodeError` (a body that does not decode), `InvalidRequest` (a
header that cannot be sent), `http_url.InvalidUrl` and `http_proxy.ProxyUnsupported`.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import ssl
import time
from collections.abc import Callable
from typing import Any

import h11

from codex_core.client.http_proxy import Proxy, ProxyUnsupported, environment_rules, proxy_for
from codex_core.client.http_response import (
    READ_SIZE,
    Connection,
    DecodeError,
    HttpError,
    InvalidRequest,
    Response,
    new_h11,
)
from codex_core.client.http_url import Url

__all__ = ["DecodeError", "HttpClient", "HttpError", "InvalidRequest", "Response"]

MAX_IDLE_PER_ORIGIN = 8
HAPPY_EYEBALLS_S = 0.25
"""The delay before trying a host's next address (anyio's, which httpx connected with)."""


def _connect_cause(err: BaseException) -> str:
    """The cause of a failed connection, worded as httpx worded it."""
    if isinstance(err, TimeoutError):
        return "ConnectTimeout"
    if isinstance(err, ssl.SSLError | socket.gaierror | HttpError):
        return str(err) or type(err).__name__
    return "All connection attempts failed"


class HttpClient:
    """Kept-alive HTTP/1.1 connections, for any number of origins, closed by `aclose`."""

    def __init__(
        self,
        ssl_context: Callable[[], ssl.SSLContext],
        connect_timeout_s: float,
    ) -> None:
        self._ssl_context = ssl_context
        self._connect_timeout_s = connect_timeout_s
        self._idle: dict[tuple[Any, ...], list[Connection]] = {}
        self._opening: dict[tuple[Any, ...], asyncio.Task[Connection]] = {}
        self._rules = environment_rules()
        self.is_closed = False

    def preconnect(self, url: Url) -> None:
        """Start opening a connection to `url`'s origin (TCP, a proxy's tunnel, TLS) in the
        background for the next `send` there to take; nothing is sent on it. Nothing when
        one is idle or opening already; a failure is met again by that `send`."""
        try:
            proxy = proxy_for(self._rules, url)
        except ProxyUnsupported:
            return  # `send` says why
        key = (url.origin, proxy.url.origin if proxy is not None else None)
        if self.is_closed or self._idle.get(key) or key in self._opening:
            return
        task = asyncio.get_running_loop().create_task(self._connect(url, proxy, early=True))
        self._opening[key] = task
        task.add_done_callback(functools.partial(self._opened, key))

    def _opened(self, key: tuple[Any, ...], task: asyncio.Task[Connection]) -> None:
        error = None if task.cancelled() else task.exception()  # (retrieved: no warning)
        if self._opening.get(key) is not task:
            return  # a request took it (and met its error, if any)
        del self._opening[key]
        if not task.cancelled() and error is None:
            self._put(key, task.result())  # no request took it: it waits in the pool

    async def _take_opening(self, key: tuple[Any, ...]) -> Connection | None:
        """The connection `preconnect` is opening for `key`, once open (None: none, or it
        failed and the request connects again itself)."""
        task = self._opening.pop(key, None)
        if task is None:
            return None
        try:
            return await task
        except (HttpError, InvalidRequest):
            return None

    def _put(self, key: tuple[Any, ...], conn: Connection) -> None:
        idle = self._idle.setdefault(key, [])
        if self.is_closed or len(idle) >= MAX_IDLE_PER_ORIGIN:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        idle.append(conn)

    def _take(self, key: tuple[Any, ...]) -> Connection | None:
        idle = self._idle.get(key)
        now = time.monotonic()
        while idle:
            conn = idle.pop()
            if conn.usable(now):
                return conn
            conn.close()
        return None

    async def send(
        self, method: str, url: Url, headers: list[tuple[str, str]], body: bytes
    ) -> Response:
        """Send the request; the response once its head arrived (any status).

        Raises:
            HttpError: no response (the text is the cause).
            InvalidRequest: a header that cannot be sent.
            ProxyUnsupported: the environment's proxy for `url` is one codex cannot use.
        """
        proxy = proxy_for(self._rules, url)
        target = url.target
        if proxy is not None and url.scheme == "http":
            target = url.absolute()  # a forward proxy takes the whole URL
            if proxy.authorization is not None and not _has(headers, "proxy-authorization"):
                headers = [("Proxy-Authorization", proxy.authorization), *headers]
        try:
            request = h11.Request(
                method=method,
                target=target.encode("ascii"),
                headers=[(k.encode("ascii"), v.encode("ascii")) for k, v in headers],
            )
        except (UnicodeEncodeError, h11.LocalProtocolError) as err:
            raise InvalidRequest(
                f"a header cannot be sent ({err}); check http_headers and env_http_headers "
                "of this provider in config.toml."
            ) from None
        key = (url.origin, proxy.url.origin if proxy is not None else None)
        conn = self._take(key) or await self._take_opening(key) or await self._connect(url, proxy)
        try:
            conn.writer.write(conn.h11.send(request))
            conn.writer.write(conn.h11.send(h11.Data(data=body)))
            conn.writer.write(conn.h11.send(h11.EndOfMessage()))
            await conn.writer.drain()
            while True:
                event = await conn.next_event()
                if type(event) is h11.Response:
                    return Response(conn, event, functools.partial(self._put, key))
        except OSError as err:
            conn.close()
            raise HttpError(str(err) or type(err).__name__) from None
        except h11.LocalProtocolError as err:  # headers that contradict the body
            conn.close()
            raise InvalidRequest(f"the request is malformed ({err})") from None
        except BaseException:
            conn.close()
            raise

    async def _connect(self, url: Url, proxy: Proxy | None, early: bool = False) -> Connection:
        """Open a connection (`early`: from `preconnect`, which must not block the loop while
        the TLS context is still being built)."""
        secure = url.scheme == "https"
        tls_proxy = proxy is not None and proxy.url.scheme == "https"
        try:
            if not (secure or tls_proxy):
                context = None
            elif early:
                context = await asyncio.to_thread(self._ssl_context)
            else:
                context = self._ssl_context()
        except OSError as err:  # SSL_CERT_FILE / SSL_CERT_DIR naming what cannot be read
            raise InvalidRequest(
                f"the CA certificates could not be loaded ({err}); check SSL_CERT_FILE and "
                "SSL_CERT_DIR."
            ) from None
        via = proxy.url if proxy is not None else url
        first_tls = tls_proxy or (secure and proxy is None)
        opened: list[asyncio.StreamWriter] = []
        try:
            async with asyncio.timeout(self._connect_timeout_s):
                reader, writer = await asyncio.open_connection(
                    via.host,
                    via.port,
                    ssl=context if first_tls else None,
                    server_hostname=via.host if first_tls else None,
                    limit=READ_SIZE,
                    happy_eyeballs_delay=HAPPY_EYEBALLS_S,
                )
                opened.append(writer)
                conn = Connection(reader, writer)
                if proxy is not None and secure and context is not None:
                    await _tunnel(conn, url, proxy)  # (TLS inside an https proxy's TLS)
                    await writer.start_tls(context, server_hostname=url.host)
                    conn.h11 = new_h11()
                return conn
        except (OSError, TimeoutError, HttpError) as err:
            for writer in opened:
                writer.transport.abort()
            raise HttpError(_connect_cause(err)) from None
        except BaseException:
            for writer in opened:
                writer.transport.abort()
            raise

    async def aclose(self) -> None:
        """Close every idle connection; responses still open close their own."""
        self.is_closed = True
        opening, self._opening = self._opening, {}
        for task in opening.values():
            task.cancel()
        if opening:  # a cancelled opening closes its socket
            await asyncio.gather(*opening.values(), return_exceptions=True)
        idle, self._idle = self._idle, {}
        for conns in idle.values():
            for conn in conns:
                conn.close()
        await asyncio.sleep(0)


def _has(headers: list[tuple[str, str]], name: str) -> bool:
    return any(k.lower() == name for k, _ in headers)


async def _tunnel(conn: Connection, url: Url, proxy: Proxy) -> None:
    """Ask an http proxy for a tunnel to `url`'s host (the request httpx's proxy sent)."""
    target = f"{url.host if ':' not in url.host else f'[{url.host}]'}:{url.port}"
    headers = [("Host", target), ("Accept", "*/*")]
    if proxy.authorization is not None:
        headers.append(("Proxy-Authorization", proxy.authorization))
    request = h11.Request(method="CONNECT", target=target, headers=headers)
    conn.writer.write(conn.h11.send(request))
    conn.writer.write(conn.h11.send(h11.EndOfMessage()))
    await conn.writer.drain()
    while True:
        event = await conn.next_event()
        if type(event) is h11.Response:
            break
    if not 200 <= event.status_code < 300:
        reason = bytes(event.reason).decode("ascii", errors="ignore")
        raise HttpError(f"{event.status_code} {reason}")
