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
import socket
import ssl
import time
import zlib
from collections.abc import Callable
from typing import Any

import h11

from codex_core.client.http_proxy import Proxy, environment_rules, proxy_for
from codex_core.client.http_url import Url

READ_SIZE = 64 * 1024
KEEPALIVE_S = 5.0
"""How long an idle connection is kept (httpx's `keepalive_expiry`)."""
MAX_IDLE_PER_ORIGIN = 8
MAX_HEAD_BYTES = 100 * 1024
"""The largest response head accepted (httpcore's limit)."""
HAPPY_EYEBALLS_S = 0.25
"""The delay before trying a host's next address (anyio's, which httpx connected with)."""


class HttpError(Exception):
    """No response arrived, or its body broke off; `str()` says why in a few words."""


class DecodeError(HttpError):
    """The body's Content-Encoding did not decode."""


class InvalidRequest(ValueError):
    """A request that cannot be sent as given (a header with a line break or non-ASCII, CA
    certificates that do not load)."""


class _Decoder:
    """gzip / deflate (several, in the order applied) as httpx decoded them."""

    def __init__(self, encodings: list[str]) -> None:
        self._steps = [e for e in reversed(encodings) if e in ("gzip", "deflate")]
        self._objs: list[Any] = [self._new(e) for e in self._steps]
        self._fresh = [True] * len(self._steps)

    @staticmethod
    def _new(encoding: str) -> Any:
        return zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)

    def decode(self, data: bytes) -> bytes:
        for i, encoding in enumerate(self._steps):
            fresh, self._fresh[i] = self._fresh[i], False
            try:
                data = self._objs[i].decompress(data)
            except zlib.error as err:
                if encoding != "deflate" or not fresh:
                    raise DecodeError(str(err)) from None
                # The first deflate chunk failed: raw deflate, without zlib's wrapper.
                self._objs[i] = zlib.decompressobj(-zlib.MAX_WBITS)
                try:
                    data = self._objs[i].decompress(data)
                except zlib.error as again:
                    raise DecodeError(str(again)) from None
        return data

    def flush(self) -> bytes:
        data = b""
        for i in range(len(self._steps)):
            try:
                data = self._objs[i].decompress(data) + self._objs[i].flush()
            except zlib.error as err:
                raise DecodeError(str(err)) from None
        return data


def _new_h11() -> h11.Connection:
    return h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.h11 = _new_h11()
        self.idle_since = 0.0

    def usable(self, now: float) -> bool:
        """An idle connection still worth a request: open, quiet, not expired."""
        return (
            now - self.idle_since < KEEPALIVE_S
            and not self.reader.at_eof()
            and not self.writer.transport.is_closing()
        )

    def close(self) -> None:
        self.writer.transport.abort()

    def poll(self) -> Any:
        """The next h11 event from what was read (`h11.NEED_DATA`: read more first)."""
        try:
            return self.h11.next_event()
        except h11.RemoteProtocolError as err:
            raise HttpError(str(err)) from None

    async def fill(self) -> None:
        """Read what the socket has (waiting for it) and hand it to h11; b"" at its end."""
        try:
            data = await self.reader.read(READ_SIZE)
        except OSError as err:
            raise HttpError(str(err) or type(err).__name__) from None
        if not data and self.h11.their_state is h11.SEND_RESPONSE:
            raise HttpError("Server disconnected without sending a response.")
        self.h11.receive_data(data)

    async def next_event(self) -> Any:
        """The next h11 event, reading from the socket as needed."""
        while (event := self.poll()) is h11.NEED_DATA:
            await self.fill()
        return event


class Response:
    """A response whose head arrived; its body is read with `aiter_bytes`, then `aclose`."""

    def __init__(
        self, client: HttpClient, key: tuple[Any, ...], conn: _Connection, head: Any
    ) -> None:
        self.status_code: int = head.status_code
        self.reason = bytes(head.reason).decode("latin-1")
        headers: dict[str, str] = {}
        for name, value in head.headers:
            key_text = bytes(name).decode("latin-1")
            text = _text(bytes(value))
            headers[key_text] = f"{headers[key_text]}, {text}" if key_text in headers else text
        self.headers = headers
        """Lower-case names; repeated headers joined with ", " (as httpx's `get` gave them)."""
        self._client = client
        self._key = key
        self._conn: _Connection | None = conn
        encodings = [e.strip().lower() for e in headers.get("content-encoding", "").split(",")]
        self._decoder = _Decoder(encodings) if any(encodings) else None
        self._ended = False

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    def aiter_bytes(self) -> _Body:
        """The (decoded) body, chunk by chunk as it arrives; iterators share one position."""
        return _Body(self)

    async def read_chunk(self) -> bytes | None:
        """The next non-empty piece of the body, None at its end."""
        conn = self._conn
        while not self._ended and conn is not None:
            parts: list[bytes] = []
            while True:
                event = conn.poll()
                kind = type(event)
                if kind is h11.Data:
                    parts.append(bytes(event.data))
                elif kind is h11.EndOfMessage:
                    self._ended = True
                    break
                elif event is h11.NEED_DATA:
                    if parts:
                        break  # hand on what arrived before waiting for more
                    await conn.fill()
                else:
                    raise HttpError(f"unexpected {kind.__name__} in the response body")
            data = b"".join(parts)
            if self._decoder is not None:
                data = self._decoder.decode(data)
                if self._ended:
                    data += self._decoder.flush()
            if self._ended:
                self._release()
            if data:
                return data
        return None

    def _release(self) -> None:
        """The body ended: the connection carries the next request, or closes."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        if conn.h11.our_state is h11.DONE and conn.h11.their_state is h11.DONE:
            conn.h11.start_next_cycle()
            self._client._put(self._key, conn)
        else:
            conn.close()

    async def aclose(self) -> None:
        """Done with the response: an unread body closes its connection."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
            await asyncio.sleep(0)  # let the transport drop its socket


class _Body:
    def __init__(self, response: Response) -> None:
        self._response = response

    def __aiter__(self) -> _Body:
        return self

    async def __anext__(self) -> bytes:
        chunk = await self._response.read_chunk()
        if chunk is None:
            raise StopAsyncIteration
        return chunk


def _text(value: bytes) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


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
        self._idle: dict[tuple[Any, ...], list[_Connection]] = {}
        self._rules = environment_rules()
        self.is_closed = False

    def _put(self, key: tuple[Any, ...], conn: _Connection) -> None:
        idle = self._idle.setdefault(key, [])
        if self.is_closed or len(idle) >= MAX_IDLE_PER_ORIGIN:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        idle.append(conn)

    def _take(self, key: tuple[Any, ...]) -> _Connection | None:
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
        conn = self._take(key) or await self._connect(url, proxy)
        try:
            conn.writer.write(conn.h11.send(request))
            conn.writer.write(conn.h11.send(h11.Data(data=body)))
            conn.writer.write(conn.h11.send(h11.EndOfMessage()))
            await conn.writer.drain()
            while True:
                event = await conn.next_event()
                if type(event) is h11.Response:
                    return Response(self, key, conn, event)
        except OSError as err:
            conn.close()
            raise HttpError(str(err) or type(err).__name__) from None
        except h11.LocalProtocolError as err:  # headers that contradict the body
            conn.close()
            raise InvalidRequest(f"the request is malformed ({err})") from None
        except BaseException:
            conn.close()
            raise

    async def _connect(self, url: Url, proxy: Proxy | None) -> _Connection:
        secure = url.scheme == "https"
        try:
            context = self._ssl_context() if secure else None
        except OSError as err:  # SSL_CERT_FILE / SSL_CERT_DIR naming what cannot be read
            raise InvalidRequest(
                f"the CA certificates could not be loaded ({err}); check SSL_CERT_FILE and "
                "SSL_CERT_DIR."
            ) from None
        via = proxy.url if proxy is not None else url
        opened: list[asyncio.StreamWriter] = []
        try:
            async with asyncio.timeout(self._connect_timeout_s):
                reader, writer = await asyncio.open_connection(
                    via.host,
                    via.port,
                    ssl=context if proxy is None else None,
                    server_hostname=url.host if secure and proxy is None else None,
                    limit=READ_SIZE,
                    happy_eyeballs_delay=HAPPY_EYEBALLS_S,
                )
                opened.append(writer)
                conn = _Connection(reader, writer)
                if proxy is not None and context is not None:
                    await _tunnel(conn, url, proxy)
                    await writer.start_tls(context, server_hostname=url.host)
                    conn.h11 = _new_h11()
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
        idle, self._idle = self._idle, {}
        for conns in idle.values():
            for conn in conns:
                conn.close()
        await asyncio.sleep(0)


def _has(headers: list[tuple[str, str]], name: str) -> bool:
    return any(k.lower() == name for k, _ in headers)


async def _tunnel(conn: _Connection, url: Url, proxy: Proxy) -> None:
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
