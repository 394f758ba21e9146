"""Fault: a response cut into arbitrary TCP writes (inside the status line, a header, a chunk
size, a gzip stream) reads back as the same body through `codex_core.client.http1`, and the
connection is kept for the next request only when the body ended cleanly."""

from __future__ import annotations

import asyncio
import gzip
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codex_core.client.http1 import HttpClient, HttpError
from codex_core.client.http_url import parse_url


def _chunked(body: bytes, sizes: list[int]) -> bytes:
    out, at = b"", 0
    for size in sizes:
        piece = body[at : at + size]
        if not piece:
            break
        out += b"%x\r\n%s\r\n" % (len(piece), piece)
        at += size
    if at < len(body):
        out += b"%x\r\n%s\r\n" % (len(body) - at, body[at:])
    return out + b"0\r\n\r\n"


async def _exchange(wire: bytes, cuts: list[int], hang_up: bool) -> tuple[bytes | None, int]:
    """Serve `wire` in pieces cut at `cuts` (then close, with `hang_up`); the body read
    (None: it broke) and how many idle connections the client kept."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        await reader.readexactly(2)
        at = 0
        for cut in sorted(set(cuts)):
            writer.write(wire[at:cut])
            await writer.drain()
            await asyncio.sleep(0)
            at = cut
        writer.write(wire[at:])
        await writer.drain()
        if not hang_up:
            await reader.read()  # until the client closes
        writer.close()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    http = HttpClient(lambda: None, 5.0)  # type: ignore[arg-type,return-value]
    url = parse_url(f"http://127.0.0.1:{port}/v1/responses")
    result: bytes | None
    try:
        async with asyncio.timeout(10):
            response = await http.send(
                "POST", url, [("Host", url.netloc), ("Content-Length", "2")], b"{}"
            )
            try:
                result = b"".join([chunk async for chunk in response.aiter_bytes()])
            except HttpError:
                result = None
            finally:
                await response.aclose()
        kept = sum(len(conns) for conns in http._idle.values())
    finally:
        await http.aclose()
        listener.close()
    return result, kept


BODY = st.binary(min_size=0, max_size=600).map(
    lambda raw: "".join(
        f"data: {json.dumps(raw[i : i + 40].hex())}\n\n" for i in range(0, len(raw), 40)
    ).encode()
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=BODY,
    sizes=st.lists(st.integers(1, 97), max_size=12),
    gzipped=st.booleans(),
    cut_fractions=st.lists(st.floats(0, 1), max_size=8),
    truncate=st.booleans(),
)
def test_http1_splits_any_cut_reads_back_the_same_body(
    body: bytes, sizes: list[int], gzipped: bool, cut_fractions: list[float], truncate: bool
) -> None:
    payload = gzip.compress(body) if gzipped else body
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
    head += b"Content-Encoding: gzip\r\n\r\n" if gzipped else b"\r\n"
    wire = head + _chunked(payload, sizes)
    if truncate:  # the server hangs up mid-body
        wire = wire[: len(head) + max(0, (len(wire) - len(head)) // 2)]
    cuts = [int(f * len(wire)) for f in cut_fractions]
    result, kept = asyncio.run(_exchange(wire, cuts, truncate))
    if truncate:
        assert result is None and kept == 0
    else:
        assert result == body and kept == 1
