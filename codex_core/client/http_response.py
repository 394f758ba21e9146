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
PIECE_BYTES = 256 * 1024
"""The most a compressed body's decoding hands on at once."""


class HttpError(Exception):
    """No response arrived, or its body broke off; `str()` says why in a few words."""


class DecodeError(HttpError):
    """The body's Content-Encoding did not decode."""


class InvalidRequest(ValueError):
    """A request that cannot be sent as given (a header with a line break or non-ASCII, CA
    certificates that do not load)."""


class _Decoder:
    """gzip / deflate (several, in the order applied) as httpx decoded them, handed on in
    pieces of at most `PIECE_BYTES`: a few KB of nested gzip can expand to gigabytes, which
    must neither sit in memory at once nor hold the event loop (and its timeouts) meanwhile."""

    def __init__(self, encodings: list[str]) -> None:
        self._steps = [e for e in reversed(encodings) if e in ("gzip", "deflate")]
        count = len(self._steps)
        self._objs: list[Any] = [self._new(e) for e in self._steps]
        self._fresh = [True] * count
        self._input = [b""] * count
        """What each layer has yet to decode (the first: what arrived)."""
        self._more = [False] * count
        """A layer filled its last piece: it may hold more output without more input."""
        self._flushed = 0
        self._out = b""
        """The last layer's remains at the body's end, not yet handed on."""

    @staticmethod
    def _new(encoding: str) -> Any:
        return zlib.decompressobj(zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> None:
        """Take what arrived of the body."""
        self._input[0] += data

    def next_piece(self) -> bytes:
        """Up to `PIECE_BYTES` decoded from what was fed; b"" when the layers need more."""
        if self._out:
            piece, self._out = self._out[:PIECE_BYTES], self._out[PIECE_BYTES:]
            return piece
        return self._pull(len(self._steps) - 1)

    def _pull(self, layer: int) -> bytes:
        while True:
            if self._input[layer] or self._more[layer]:
                data, self._input[layer] = self._input[layer], b""
                out = self._decompress(layer, data)
                self._input[layer] = self._objs[layer].unconsumed_tail
                self._more[layer] = len(out) == PIECE_BYTES
                if out:
                    return out
                continue
            if layer == 0:
                return b""
            more = self._pull(layer - 1)
            if not more:
                return b""
            self._input[layer] = more

    def _decompress(self, layer: int, data: bytes) -> bytes:
        fresh, self._fresh[layer] = self._fresh[layer], False
        try:
            out: bytes = self._objs[layer].decompress(data, PIECE_BYTES)
            return out
        except zlib.error as err:
            if self._steps[layer] != "deflate" or not fresh:
                raise DecodeError(str(err)) from None
        # The first deflate chunk failed: raw deflate, without zlib's wrapper.
        self._objs[layer] = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            again: bytes = self._objs[layer].decompress(data, PIECE_BYTES)
            return again
        except zlib.error as err:
            raise DecodeError(str(err)) from None

    def flush_layer(self) -> bool:
        """At the body's end, once `next_piece` gave b"": what the next layer still holds goes
        to the one after it. False when every layer was flushed."""
        layer = self._flushed
        if layer >= len(self._steps):
            return False
        self._flushed += 1
        try:
            out = self._objs[layer].flush()
        except zlib.error as err:
            raise DecodeError(str(err)) from None
        if layer + 1 < len(self._steps):
            self._input[layer + 1] += out
        else:
            self._out += out
        return True


def new_h11() -> h11.Connection:
    return h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.h11 = new_h11()
        self.idle_since = 0.0

    def usable(self, now: float) -> bool:
        """An idle connection still worth a request: open, quiet, not expired. Quiet: nothing
        arrived since its last response (a server's late `408` before it hangs up, or any
        stale bytes, would be read as the next request's response), as httpcore dropped an
        idle connection that had become readable."""
        return (
            now - self.idle_since < KEEPALIVE_S
            and not self.reader.at_eof()
            and not getattr(self.reader, "_buffer", None)  # asyncio keeps what arrived there
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
        decoder = self._decoder
        while True:
            if decoder is not None and (piece := decoder.next_piece()):
                if len(piece) == PIECE_BYTES:  # expanding fast: let timeouts and others run
                    await asyncio.sleep(0)
                return piece
            conn = self._conn
            if self._ended or conn is None:
                if decoder is not None and self._ended and decoder.flush_layer():
                    continue
                self._release()  # decoded to its end: the connection may go on
                return None
            data = await self._read_arrived(conn)
            if decoder is None:
                if self._ended:
                    self._release()
                if data:
                    return data
            else:
                decoder.feed(data)

    async def _read_arrived(self, conn: Connection) -> bytes:
        """What of the body arrived together (waiting for some), as sent."""
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
        return b"".join(parts)

    def _release(self) -> None:
        """The body ended: the connection carries the next request, or closes."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        trailing, _ = conn.h11.trailing_data  # bytes past the response's end: never reused
        if conn.h11.our_state is h11.DONE and conn.h11.their_state is h11.DONE and not trailing:
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
