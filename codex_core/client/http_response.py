"""One HTTP/1.1 connection of the model client and the response read over it (h11).

`http1.HttpClient` opens and pools the connections; here is what a connection does with one
request: h11's events read from the socket as needed, the response's head, its body handed on
as it arrives (what arrived together joined into one piece, gzip/deflate decoded as httpx
decoded them), and the connection handed back for the next request only when the body ended
cleanly and both sides may go on; otherwise it is closed.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Callable
from typing import Any

import h11

READ_SIZE = 64 * 1024
KEEPALIVE_S = 5.0
"""How long an idle connection is kept (httpx's `keepalive_expiry`)."""
MAX_HEAD_BYTES = 100 * 1024
"""The largest response head accepted (httpcore's limit)."""


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


def new_h11() -> h11.Connection:
    return h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.h11 = new_h11()
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

    def __init__(self, conn: Connection, head: Any, release: Callable[[Connection], None]) -> None:
        self.status_code: int = head.status_code
        self.reason = bytes(head.reason).decode("latin-1")
        headers: dict[str, str] = {}
        for name, value in head.headers:
            key_text = bytes(name).decode("latin-1")
            text = _text(bytes(value))
            headers[key_text] = f"{headers[key_text]}, {text}" if key_text in headers else text
        self.headers = headers
        """Lower-case names; repeated headers joined with ", " (as httpx's `get` gave them)."""
        self._release_to = release
        self._conn: Connection | None = conn
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
            self._release_to(conn)
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
