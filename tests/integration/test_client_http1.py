"""The model client's own HTTP/1.1 connections (issue 29) over real sockets: kept-alive reuse,
encoded bodies, drops, cancellation, and the environment's proxies (CONNECT and forwarding)."""

from __future__ import annotations

import asyncio
import gzip
import os
import ssl
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from codex_core.client import (
    Completed,
    InvalidResponse,
    ModelClient,
    OutputTextDelta,
    Prompt,
    RequestFailed,
    ResponseEvent,
    StreamDisconnected,
)
from codex_core.client.failures import one_line
from codex_core.client.http1 import HttpClient
from codex_core.client.http_url import parse_url
from codex_core.client.model_client import HttpPool
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.items import user_message
from tests.support import sse
from tests.support.http_proxy import ProxyServer, TlsFront
from tests.support.model_server import ModelServer, drop_after, garbage, http_error
from tests.support.sse_render import render

PROMPT = Prompt("You are a test.", [user_message("hello")], [])
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sets the proxy variables it is about (the machine's own do not apply)."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as running:
        yield running


def provider_at(base_url: str) -> ModelProviderInfo:
    """A provider as the scripted server's (`ModelServer.provider`) at another address."""
    return ModelProviderInfo(
        name="Scripted",
        base_url=base_url,
        wire_api="responses",
        request_max_retries=0,
        stream_max_retries=0,
    )


def client_for(server: ModelServer, pool: HttpPool | None = None) -> ModelClient:
    return ModelClient(server.provider(), "gpt-5", session_id="s", api_key="sk-test", pool=pool)


async def collect(client: ModelClient) -> list[ResponseEvent]:
    try:
        return [event async for event in client.stream(PROMPT)]
    finally:
        await client.aclose()


def sse_body(text: str) -> bytes:
    return b"".join(event.encode() for event in render(sse.turn(sse.message(text)), "responses"))


def raw_response(body: bytes, *headers: str) -> bytes:
    head = ["HTTP/1.1 200 OK", "Content-Type: text/event-stream", *headers]
    head.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def open_sockets() -> int:
    fds = Path("/proc/self/fd")
    count = 0
    for fd in os.listdir(fds):
        try:
            count += os.readlink(fds / fd).startswith("socket:")
        except OSError:
            pass
    return count


async def test_http1_a_sessions_turns_share_one_connection(server: ModelServer) -> None:
    server.add(sse.turn(sse.message("one")), sse.turn(sse.message("two")))
    pool = HttpPool()
    try:
        first = await collect(client_for(server, pool))
        second = await collect(client_for(server, pool))
    finally:
        await pool.aclose()
    assert isinstance(first[-1], Completed) and isinstance(second[-1], Completed)
    assert len(server.requests) == 2
    assert len({request.peer for request in server.requests}) == 1


@pytest.mark.parametrize(
    ("encoding", "compress"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("deflate", lambda data: zlib.compress(data, wbits=-zlib.MAX_WBITS)),  # raw deflate
    ],
)
async def test_http1_decodes_a_compressed_event_stream(
    server: ModelServer, encoding: str, compress: object
) -> None:
    assert callable(compress)
    body = compress(sse_body("Squeezed and unsqueezed."))
    server.add(garbage(raw_response(body, f"Content-Encoding: {encoding}"), raw=True))
    events = await collect(client_for(server))
    deltas = "".join(e.delta for e in events if isinstance(e, OutputTextDelta))
    assert deltas == "Squeezed and unsqueezed." and isinstance(events[-1], Completed)


async def test_http1_an_undecodable_body_is_an_invalid_response(server: ModelServer) -> None:
    server.add(garbage(raw_response(b"not gzip at all", "Content-Encoding: gzip"), raw=True))
    with pytest.raises(InvalidResponse) as info:
        await collect(client_for(server))
    assert str(info.value) == (
        "Scripted sent a body that could not be decoded (Error -3 while decompressing data: "
        "incorrect header check)."
    )


async def test_http1_a_body_cut_mid_chunk_is_the_same_disconnect_line(server: ModelServer) -> None:
    """The line httpx gave for the same cut (h11's words; checked against httpx 0.28.1)."""
    server.add(drop_after(sse.turn(sse.message("this will be cut off")), 3))
    with pytest.raises(StreamDisconnected) as info:
        await collect(client_for(server))
    httpx_said = (
        "peer closed connection without sending complete message body (incomplete chunked read)"
    )
    assert str(info.value) == (
        f"The connection to Scripted dropped mid-response ({one_line(httpx_said, 80)}); check "
        "your network."
    )


async def test_http1_cancelled_mid_stream_closes_its_socket() -> None:
    """A turn interrupted mid-answer: the connection is closed at once (the server sees its
    end), and the process holds no socket more than before."""
    closed = asyncio.Event()
    first = sse_body("x").split(b"\n\n")[0] + b"\n\n"

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked"
        writer.write(f"{head}\r\n\r\n{len(first):x}\r\n".encode() + first + b"\r\n")
        while await reader.read(65536):  # the request's body, then the client's end
            pass
        closed.set()
        writer.close()

    before = open_sockets()
    listener = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    client = ModelClient(
        provider_at(f"http://127.0.0.1:{port}/v1"), "m", session_id="s", api_key="k"
    )
    started = asyncio.Event()

    async def consume() -> None:
        async for _ in client.stream(PROMPT):
            started.set()

    task = asyncio.create_task(consume())
    async with asyncio.timeout(10):
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await client.aclose()
        await closed.wait()
    listener.close()
    await listener.wait_closed()
    await asyncio.sleep(0.05)
    assert open_sockets() == before


async def test_http1_http_proxy_forwards_and_no_proxy_bypasses(
    server: ModelServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.add(sse.turn(sse.message("via proxy")), sse.turn(sse.message("direct")))
    with ProxyServer() as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy.url.replace("http://", "http://u:p%40ss@"))
        assert isinstance((await collect(client_for(server)))[-1], Completed)
        monkeypatch.setenv("no_proxy", "example.com, 127.0.0.1")
        assert isinstance((await collect(client_for(server)))[-1], Completed)
    [forwarded] = proxy.requests
    assert (forwarded.method, forwarded.target) == ("POST", server.base_url + "/responses")
    # The proxy's credentials before the request's own head (h11 writes Host first, as it
    # did under httpx); the server saw the same head as without the proxy.
    assert forwarded.headers[:2] == [
        ("Host", server.base_url.split("/")[2]),
        ("Proxy-Authorization", "Basic dTpwQHNz"),
    ]
    assert server.requests[0].headers == server.requests[1].headers | {
        "proxy-authorization": "Basic dTpwQHNz"
    }
    assert len(server.requests) == 2


def _tls_pair(tmp_path: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a fresh self-signed certificate for 127.0.0.1, and a client
    context trusting only it."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=test",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    return server_context, ssl.create_default_context(cafile=str(cert))


async def test_http1_https_goes_through_a_connect_tunnel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server_context, client_context = _tls_pair(tmp_path)
    body = sse_body("secret")
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        seen.append(head.split(b"\r\n")[0])
        writer.write(raw_response(body))
        await writer.drain()
        writer.close()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_context)
    port = listener.sockets[0].getsockname()[1]
    with ProxyServer() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # not for https
        http = HttpClient(lambda: client_context, 5.0)
        url = parse_url(f"https://127.0.0.1:{port}/v1/responses")
        try:
            async with asyncio.timeout(10):
                response = await http.send(
                    "POST", url, [("Host", url.netloc), ("Content-Length", "2")], b"{}"
                )
                received = b"".join([chunk async for chunk in response.aiter_bytes()])
                await response.aclose()
        finally:
            await http.aclose()
            listener.close()
    assert (response.status_code, received) == (200, body)
    assert seen == [b"POST /v1/responses HTTP/1.1"]
    [tunnel] = proxy.requests
    target = f"127.0.0.1:{port}"
    assert (tunnel.method, tunnel.target) == ("CONNECT", target)
    assert tunnel.headers == [("Host", target), ("Accept", "*/*")]


async def test_http1_a_refused_tunnel_names_the_proxys_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with ProxyServer(refuse_with="407 Proxy Authentication Required") as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        client = ModelClient(
            provider_at("https://example.invalid/v1"), "m", session_id="s", api_key="k"
        )
        with pytest.raises(RequestFailed) as info:
            await collect(client)
    assert str(info.value) == (
        "Could not reach Scripted at https://example.invalid/v1/responses (407 Proxy "
        "Authentication Required) after 0 retries; check your network and the provider's base_url."
    )


@pytest.mark.parametrize("value", ["socks5://127.0.0.1:1", "socks5h://proxy:1080"])
async def test_http1_a_socks_proxy_is_a_clear_error_not_a_hang(
    server: ModelServer, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """httpx refused SOCKS without its `socksio` extra (and exec then hung): one line now."""
    monkeypatch.setenv("ALL_PROXY", value)
    with pytest.raises(RequestFailed) as info:
        await collect(client_for(server))
    scheme = value.split(":")[0]
    assert str(info.value) == (
        f"Could not send the request to Scripted: ALL_PROXY names a SOCKS proxy ({scheme}://), "
        "which codex does not support; use an http:// proxy, or add the provider's host to "
        "NO_PROXY."
    )
    assert server.requests == []


async def test_http1_a_connection_the_server_closed_while_idle_is_not_reused() -> None:
    """A server that closes a kept-alive connection between requests: the next request
    opens a new one instead of failing on the dead one."""
    body = sse_body("again")
    peers: list[int] = []
    closed = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peers.append(writer.get_extra_info("peername")[1])
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(raw_response(body))
        await writer.drain()
        writer.close()  # no "Connection: close": the client learns it from the socket
        closed.set()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    pool = HttpPool()
    provider = provider_at(f"http://127.0.0.1:{port}/v1")
    try:
        async with asyncio.timeout(10):
            first = await collect(
                ModelClient(provider, "m", session_id="s", api_key="k", pool=pool)
            )
            await closed.wait()
            await asyncio.sleep(0.05)  # the end of the connection reaches the client
            second = await collect(
                ModelClient(provider, "m", session_id="s", api_key="k", pool=pool)
            )
    finally:
        await pool.aclose()
        listener.close()
    assert isinstance(first[-1], Completed) and isinstance(second[-1], Completed)
    assert len(set(peers)) == 2


async def test_http1_an_untrusted_certificate_is_unreachable_with_openssls_words(
    tmp_path: Path,
) -> None:
    server_context, _ = _tls_pair(tmp_path)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_context)
    port = listener.sockets[0].getsockname()[1]
    client = ModelClient(
        provider_at(f"https://127.0.0.1:{port}/v1"), "m", session_id="s", api_key="k"
    )
    try:
        with pytest.raises(RequestFailed) as info:
            async with asyncio.timeout(10):
                await collect(client)
    finally:
        listener.close()
    assert str(info.value).startswith(
        f"Could not reach Scripted at https://127.0.0.1:{port}/v1/responses ([SSL: "
        "CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate"
    )


async def test_http1_a_sessions_client_connects_while_the_prompt_is_assembled() -> None:
    """A model client made on a session's pool opens its connection at once (nothing sent
    on it); the request then goes on that connection, the only one."""
    body = sse_body("early")
    accepted: list[int] = []
    first_bytes: list[float] = []
    loop = asyncio.get_running_loop()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer.get_extra_info("peername")[1])
        head = await reader.readuntil(b"\r\n\r\n")
        first_bytes.append(loop.time())
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(raw_response(body))
        await writer.drain()
        await reader.read()
        writer.close()

    listener = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    pool = HttpPool()
    try:
        async with asyncio.timeout(10):
            client = ModelClient(
                provider_at(f"http://127.0.0.1:{port}/v1"),
                "m",
                session_id="s",
                api_key="k",
                pool=pool,
            )
            while not accepted:  # connected before any request was asked for
                await asyncio.sleep(0.01)
            assert first_bytes == []
            events = await collect(client)
    finally:
        await pool.aclose()
        listener.close()
    assert isinstance(events[-1], Completed)
    assert len(accepted) == 1 and len(first_bytes) == 1


async def test_http1_closing_the_pool_cancels_a_connection_still_opening() -> None:
    """A provider that never answers the connection (a full listen backlog would do; here a
    TLS context that takes long to build): closing the pool ends the attempt, no socket left."""
    import threading

    release = threading.Event()

    def slow_context() -> ssl.SSLContext:
        release.wait(5)
        return ssl.create_default_context()

    before = open_sockets()
    http = HttpClient(slow_context, 5.0)
    http.preconnect(parse_url("https://127.0.0.1:9/v1/responses"))
    await asyncio.sleep(0.05)
    async with asyncio.timeout(5):
        await http.aclose()
    release.set()
    assert http._opening == {} and open_sockets() == before


async def test_http1_an_https_proxy_carries_both_kinds_of_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: ModelServer
) -> None:
    """An https:// proxy (TLS to the proxy, as httpx supported): an http request is forwarded
    inside that TLS, an https one tunnelled through it (TLS inside TLS)."""
    server_context, client_context = _tls_pair(tmp_path)
    body = sse_body("tls in tls")
    seen: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append((await reader.readuntil(b"\r\n\r\n")).split(b"\r\n")[0])
        await reader.readexactly(2)
        writer.write(raw_response(body))
        await writer.drain()
        writer.close()

    server.add(sse.turn(sse.message("forwarded")))
    listener = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=server_context)
    origin = listener.sockets[0].getsockname()[1]
    with ProxyServer() as proxy, TlsFront(server_context, proxy.port) as front:
        monkeypatch.setenv("ALL_PROXY", front.base_url.removesuffix("/v1"))
        http = HttpClient(lambda: client_context, 5.0)
        try:
            async with asyncio.timeout(10):
                received = []
                for target in (
                    f"https://127.0.0.1:{origin}/v1/responses",
                    server.base_url + "/responses",
                ):
                    url = parse_url(target)
                    response = await http.send(
                        "POST", url, [("Host", url.netloc), ("Content-Length", "2")], b"{}"
                    )
                    received.append(b"".join([chunk async for chunk in response.aiter_bytes()]))
                    await response.aclose()
        finally:
            await http.aclose()
            listener.close()
    assert received[0] == body and b"forwarded" in received[1]
    assert seen == [b"POST /v1/responses HTTP/1.1"]
    assert [(r.method, r.target) for r in proxy.requests] == [
        ("CONNECT", f"127.0.0.1:{origin}"),
        ("POST", server.base_url + "/responses"),
    ]
    assert front.connections == 2


async def test_http1_keeps_no_cookies(server: ModelServer) -> None:
    """A server's Set-Cookie is not sent back (httpx's client kept a jar and did; codex-rust
    0.169 does not: checked side by side, a 500 with Set-Cookie then its retry)."""
    server.add(
        http_error(500, "boom", {"Set-Cookie": "__cf_bm=abc; Path=/; HttpOnly"}),
        sse.turn(sse.message("ok")),
    )
    pool = HttpPool()
    client = ModelClient(
        server.provider(request_max_retries=1),
        "m",
        session_id="s",
        api_key="k",
        pool=pool,
        sleep=lambda _: asyncio.sleep(0),
    )
    try:
        events = await collect(client)
    finally:
        await pool.aclose()
    assert isinstance(events[-1], Completed)
    assert [request.headers.get("cookie") for request in server.requests] == [None, None]
