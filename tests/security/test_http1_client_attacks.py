"""The model request's own HTTP/1.1 client (codex_core.client.http1, commit 8bbbc38) against a
hostile or broken provider, a man in the middle, a corporate proxy and hostile settings.

Real sockets on 127.0.0.1 (asyncio servers in the test), no mocks. Behaviour that holds is
asserted plainly; each defect found is an `xfail(strict=True)` test that fails today.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import gc
import gzip
import ipaddress
import os
import socket
import ssl
import struct
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from codex_core import tls_context
from codex_core.client import ModelClient, ModelClientError, Prompt, RequestFailed
from codex_core.client.http1 import HttpClient, HttpError
from codex_core.client.http_proxy import environment_rules, proxy_for
from codex_core.client.http_url import parse_url
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.items import user_message

PROMPT = Prompt("You are a test.", [user_message("hello")], [])
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sets the proxy and CA variables it is about."""
    for name in (*PROXY_VARIABLES, "REQUEST_METHOD"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)


# --- helpers -------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def serving(handle: Handler, ssl_context: ssl.SSLContext | None = None) -> AsyncIterator[int]:
    """An asyncio server on 127.0.0.1 running `handle` per connection; yields its port. Every
    handler still running is cancelled and every server socket closed on exit."""
    tasks: set[asyncio.Task[None]] = set()
    closing = False

    async def wrapped(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        tasks.add(task)
        if closing:  # accepted just before the server closed: its task starts only now
            writer.transport.abort()
            return
        try:
            await handle(reader, writer)
        except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            pass  # the server shutting down (below)
        finally:
            writer.transport.abort()

    server = await asyncio.start_server(wrapped, "127.0.0.1", 0, ssl=ssl_context)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        closing = True
        server.close()
        for _ in range(5):  # handlers of connections accepted last start (and see `closing`)
            await asyncio.sleep(0)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await server.wait_closed()
        await asyncio.sleep(0.01)


async def read_request(reader: asyncio.StreamReader) -> bytes:
    """One request (head and Content-Length body); its head."""
    head = await reader.readuntil(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            await reader.readexactly(int(value))
    return head


def ok(body: bytes, *extra: str) -> bytes:
    head = ["HTTP/1.1 200 OK", *extra, f"Content-Length: {len(body)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def sockets_settled(before: int) -> int:
    """The open sockets once closing ones are gone (polled up to 3 s: a loaded machine)."""
    for _ in range(30):
        await asyncio.sleep(0.1)
        if (now := open_sockets()) <= before:
            return now
    return open_sockets()


def open_sockets() -> int:
    gc.collect()  # sockets an earlier test dropped unclosed must not count for this one
    fds = Path("/proc/self/fd")
    count = 0
    for fd in os.listdir(fds):
        with contextlib.suppress(OSError):
            count += os.readlink(fds / fd).startswith("socket:")
    return count


async def get(http: HttpClient, port: int, scheme: str = "http") -> tuple[int, bytes]:
    """GET / on 127.0.0.1:port through `http`: (status, whole body)."""
    url = parse_url(f"{scheme}://127.0.0.1:{port}/v1")
    response = await http.send("GET", url, [("Host", url.netloc)], b"")
    try:
        body = b"".join([chunk async for chunk in response.aiter_bytes()])
    finally:
        await response.aclose()
    return response.status_code, body


def plain_client(timeout_s: float = 5.0) -> HttpClient:
    return HttpClient(lambda: ssl.create_default_context(), timeout_s)


def provider_at(port: int, **overrides: object) -> ModelProviderInfo:
    settings: dict[str, object] = {
        "name": "Hostile",
        "base_url": f"http://127.0.0.1:{port}/v1",
        "wire_api": "responses",
        "request_max_retries": 0,
        "stream_max_retries": 0,
        "stream_idle_timeout_ms": 1000,
    }
    settings.update(overrides)
    return ModelProviderInfo(**settings)  # type: ignore[arg-type]


async def run_model_client(provider: ModelProviderInfo) -> list[object]:
    client = ModelClient(provider, "m", session_id="s", api_key="k")
    try:
        return [event async for event in client.stream(PROMPT)]
    finally:
        await client.aclose()


# --- certificates --------------------------------------------------------------------------


def _cryptography_available() -> bool:
    try:
        import cryptography.x509  # noqa: F401
    except ImportError:
        print("SKIP reason: the cryptography package is not installed")
        return False
    return True


def make_cert(tmp_path: Path, name: str, *, dns: str | None = None, ip: str | None = None) -> Path:
    """A self-signed certificate (its own CA) with the given subjectAltName; cert+key in one
    PEM file, returned."""
    if not _cryptography_available():
        pytest.skip("the cryptography package is not installed")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    alt: list[x509.GeneralName] = []
    if dns:
        alt.append(x509.DNSName(dns))
    if ip:
        alt.append(x509.IPAddress(ipaddress.ip_address(ip)))
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    path = tmp_path / f"{name}.pem"
    path.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM)
        + key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


def server_context(pem: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(pem)
    return context


def trusting(monkeypatch: pytest.MonkeyPatch, pem: Path) -> HttpClient:
    """A client whose TLS context is the product's (`tls_context.create`) with SSL_CERT_FILE
    naming `pem` (built per connection: the process-wide shared one may already exist)."""
    monkeypatch.setenv("SSL_CERT_FILE", str(pem))
    return HttpClient(tls_context.create, 5.0)


# --- TLS -----------------------------------------------------------------------------------


def test_tls_context_requires_a_verified_certificate_and_hostname(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for setting in (None, str(make_cert(tmp_path, "ca", ip="127.0.0.1"))):
        if setting is not None:
            monkeypatch.setenv("SSL_CERT_FILE", setting)
        context = tls_context.create()
        assert context.verify_mode is ssl.CERT_REQUIRED
        assert context.check_hostname is True
        assert context.minimum_version >= ssl.TLSVersion.TLSv1_2


async def _answering(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while True:
        await read_request(reader)
        writer.write(ok(b"real"))
        await writer.drain()


async def test_https_with_a_trusted_certificate_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pem = make_cert(tmp_path, "origin", ip="127.0.0.1")
    http = trusting(monkeypatch, pem)
    async with serving(_answering, server_context(pem)) as port:
        try:
            assert await get(http, port, "https") == (200, b"real")
        finally:
            await http.aclose()


@pytest.mark.parametrize("case", ["untrusted", "wrong_host"])
async def test_https_refuses_an_untrusted_or_misnamed_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """A MITM with a self-signed certificate, or a trusted certificate for another name: the
    handshake fails and not one byte of the request reaches it."""
    if case == "untrusted":
        served, trusted = (
            make_cert(tmp_path, "mitm", ip="127.0.0.1"),
            make_cert(tmp_path, "real", ip="127.0.0.1"),
        )
    else:
        served = trusted = make_cert(tmp_path, "other", dns="other.example")
    received: list[bytes] = []

    async def record(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.append(await reader.read(65536))

    http = trusting(monkeypatch, trusted)
    async with serving(record, server_context(served)) as port:
        try:
            with pytest.raises(HttpError) as info:
                await get(http, port, "https")
        finally:
            await http.aclose()
    assert "CERTIFICATE_VERIFY_FAILED" in str(info.value)
    assert b"".join(received) == b""


async def test_model_client_reports_a_bad_certificate_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served, trusted = (
        make_cert(tmp_path, "mitm", ip="127.0.0.1"),
        make_cert(tmp_path, "real", ip="127.0.0.1"),
    )
    monkeypatch.setenv("SSL_CERT_FILE", str(trusted))
    monkeypatch.setattr(tls_context, "shared_context", tls_context.create)
    monkeypatch.setattr("codex_core.client.model_client.shared_context", tls_context.create)
    async with serving(_answering, server_context(served)) as port:
        provider = provider_at(port, base_url=f"https://127.0.0.1:{port}/v1")
        with pytest.raises(RequestFailed) as info:
            await run_model_client(provider)
    assert "CERTIFICATE_VERIFY_FAILED" in str(info.value) and "\n" not in str(info.value)


async def test_unreadable_ssl_cert_file_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    monkeypatch.setattr("codex_core.client.model_client.shared_context", tls_context.create)
    provider = provider_at(1, base_url="https://127.0.0.1:1/v1")
    with pytest.raises(RequestFailed) as info:
        await run_model_client(provider)
    assert "SSL_CERT_FILE" in str(info.value)


class TunnelProxy:
    """An http proxy on 127.0.0.1 answering CONNECT. `mode`: "tunnel" pipes bytes to the
    target and records what the client sent through the tunnel; "mitm" terminates TLS itself
    with `mitm_context`; "inject" answers 200 plus a forged plaintext response, then tunnels."""

    def __init__(self, mode: str = "tunnel", mitm_context: ssl.SSLContext | None = None) -> None:
        self.mode = mode
        self.mitm_context = mitm_context
        self.heads: list[bytes] = []
        self.client_bytes = bytearray()
        self.mitm_plaintext = bytearray()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        self.heads.append(head)
        target = head.split(b" ")[1].decode()
        host, _, port = target.rpartition(":")
        if self.mode == "mitm":
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
            assert self.mitm_context is not None
            with contextlib.suppress(ssl.SSLError, OSError, ConnectionError):
                await writer.start_tls(self.mitm_context)
                self.mitm_plaintext += await reader.read(65536)
                writer.write(ok(b"forged"))
                await writer.drain()
            return
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        answer = b"HTTP/1.1 200 Connection established\r\n\r\n"
        if self.mode == "inject":
            answer += ok(b"forged", "Content-Type: text/event-stream")
        writer.write(answer)
        await writer.drain()

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, log: bool) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await src.read(65536):
                    if log:
                        self.client_bytes.extend(data)
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        try:
            await asyncio.gather(pipe(reader, up_writer, True), pipe(up_reader, writer, False))
        finally:
            up_writer.transport.abort()


async def test_connect_tunnel_carries_tls_to_the_origin_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a plain-http proxy, an https request is a CONNECT (with the proxy's
    credentials), then TLS bytes only: the proxy never sees the request, its Authorization
    or its body, and the origin never sees the proxy's credentials."""
    pem = make_cert(tmp_path, "origin", ip="127.0.0.1")
    seen_by_origin: list[bytes] = []

    async def origin(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen_by_origin.append(await read_request(reader))
        writer.write(ok(b"real"))
        await writer.drain()

    proxy = TunnelProxy()
    async with serving(origin, server_context(pem)) as port, serving(proxy.handle) as pport:
        monkeypatch.setenv("HTTPS_PROXY", f"http://user:pw@127.0.0.1:{pport}")
        http = trusting(monkeypatch, pem)
        url = parse_url(f"https://127.0.0.1:{port}/v1/responses")
        try:
            response = await http.send(
                "POST",
                url,
                [("Host", url.netloc), ("Authorization", "Bearer sk-SECRET"),
                 ("Content-Length", "17")],
                b'{"x":"TOPSECRET"}',
            )  # fmt: skip
            body = b"".join([chunk async for chunk in response.aiter_bytes()])
            await response.aclose()
        finally:
            await http.aclose()
    assert body == b"real"
    [connect] = proxy.heads
    assert connect.startswith(f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n".encode())
    assert b"Proxy-Authorization: Basic dXNlcjpwdw==" in connect
    tunnelled = bytes(proxy.client_bytes)
    assert tunnelled[:1] == b"\x16"  # a TLS handshake record first
    for secret in (b"SECRET", b"TOPSECRET", b"POST", b"/v1/responses"):
        assert secret not in tunnelled
    [head] = seen_by_origin
    assert head.startswith(b"POST /v1/responses HTTP/1.1") and b"Proxy-Authorization" not in head


@pytest.mark.parametrize("trusted_mitm", [False, True])
async def test_connect_tunnel_verifies_the_origin_not_the_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trusted_mitm: bool
) -> None:
    """A proxy that answers CONNECT then speaks TLS itself: refused whether its certificate is
    untrusted or trusted but for the proxy's own name; the request never reaches it."""
    origin_pem = make_cert(tmp_path, "origin", ip="127.0.0.1")
    mitm_pem = make_cert(tmp_path, "proxy", dns="proxy.corp.example")
    if not trusted_mitm:
        mitm_pem = make_cert(tmp_path, "mitm", ip="127.0.0.1")
    proxy = TunnelProxy("mitm", server_context(mitm_pem))
    async with (
        serving(_answering, server_context(origin_pem)) as port,
        serving(proxy.handle) as pport,
    ):
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
        http = trusting(monkeypatch, mitm_pem if trusted_mitm else origin_pem)
        try:
            with pytest.raises(HttpError) as info:
                await get(http, port, "https")
        finally:
            await http.aclose()
    assert "CERTIFICATE_VERIFY_FAILED" in str(info.value)
    assert bytes(proxy.mitm_plaintext) == b""


async def test_plaintext_injected_after_connect_is_never_a_response(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy that follows its `200 Connection established` with a forged plaintext
    response: the client answers only with what came through TLS from the origin."""
    pem = make_cert(tmp_path, "origin", ip="127.0.0.1")
    proxy = TunnelProxy("inject")
    async with serving(_answering, server_context(pem)) as port, serving(proxy.handle) as pport:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
        http = trusting(monkeypatch, pem)
        try:
            try:
                outcome: object = await get(http, port, "https")
            except HttpError as err:
                outcome = err
        finally:
            await http.aclose()
    assert outcome == (200, b"real") or isinstance(outcome, HttpError)


async def test_plain_http_proxy_never_gets_an_https_request_in_the_clear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HTTP_PROXY applies to http:// only; https:// with only HTTP_PROXY set goes direct
    (never as an absolute-URI request to the proxy)."""
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("ALL_PROXY", "")
    rules = environment_rules()
    assert proxy_for(rules, parse_url("https://api.example.com/v1")) is None
    assert proxy_for(rules, parse_url("http://api.example.com/v1")) is not None


# --- NO_PROXY as httpx 0.28.1 applied it ---------------------------------------------------


def _httpx_choice(url: str) -> tuple[str, int] | None:
    import httpx

    client = httpx.Client(verify=False)
    pool = client._transport_for_url(httpx.URL(url))._pool  # type: ignore[attr-defined]
    proxy = getattr(pool, "_proxy_url", None)
    return None if proxy is None else (proxy.host.decode(), proxy.port)


def _mine(url: str) -> tuple[str, int] | None:
    proxy = proxy_for(environment_rules(), parse_url(url))
    return None if proxy is None else (proxy.url.host, proxy.url.port)


NO_PROXY_TARGETS = [
    "http://example.com/v1", "https://example.com/v1", "https://www.example.com/v1",
    "https://example.com:443/v1", "https://example.com:8080/v1", "https://EXAMPLE.COM/v1",
    "http://127.0.0.1:8000/v1", "http://127.0.0.2/v1", "http://[::1]:80/v1",
    "https://localhost/v1", "http://localhost:8000/v1", "https://badexample.com/v1",
]  # fmt: skip


@pytest.mark.parametrize(
    "no_proxy",
    [
        "EXAMPLE.COM", "example.com.", ".Example.com", "*.example.com", "*example.com",
        "example.com:443", "example.com:8080", "::1", "127.0.0.0/8", "127.0.0.1:8000",
        "https://example.com", "http://*", "all://*.example.com:443", "LOCALHOST",
        "localhost:8000", "xample.com", "example.com/path", " example.com , 1.2.3.4",
        "http://EXAMPLE.com", "all://[::1]:80", "*",
    ],
)  # fmt: skip
def test_no_proxy_matches_httpx(monkeypatch: pytest.MonkeyPatch, no_proxy: str) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://p1:1")
    monkeypatch.setenv("HTTPS_PROXY", "http://p2:2")
    monkeypatch.setenv("ALL_PROXY", "http://p3:3")
    monkeypatch.setenv("NO_PROXY", no_proxy)
    for target in NO_PROXY_TARGETS:
        assert _mine(target) == _httpx_choice(target), target


def test_no_proxy_url_entry_with_default_port_bypasses_like_httpx(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://corp-proxy:3128")
    monkeypatch.setenv("NO_PROXY", "https://api.internal.example:443")
    for target in ("https://api.internal.example/v1", "https://api.internal.example:443/v1"):
        assert _httpx_choice(target) is None
        assert _mine(target) is None, target


@pytest.mark.parametrize(
    ("variable", "entry", "target"),
    [
        ("HTTP_PROXY", "http://", "http://internal.example/v1"),
        ("HTTPS_PROXY", "https://", "https://internal.example/v1"),
        ("ALL_PROXY", "all://", "https://internal.example/v1"),
    ],
)
def test_no_proxy_bare_scheme_entry_goes_direct_like_httpx(
    monkeypatch: pytest.MonkeyPatch, variable: str, entry: str, target: str
) -> None:
    monkeypatch.setenv(variable, "http://corp-proxy:3128")
    monkeypatch.setenv("NO_PROXY", entry)
    assert _httpx_choice(target) is None
    assert _mine(target) is None


# --- request injection ---------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.connections = 0
        self.heads: list[bytes] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.heads.append(await read_request(reader))
        writer.write(ok(b"data: {}\n\n", "Content-Type: text/event-stream"))
        await writer.drain()


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Evil": "a\r\nX-Injected: 1"},
        {"X-Evil": "a\nX-Injected: 1"},
        {"X-Evil": "a\rX-Injected: 1"},
        {"X-Evil": "a\x00b"},
        {"X-Evil\r\nX-Injected": "1"},
        {"X Evil": "1"},
        {"X-Evil:": "1"},
        {"X-Évil": "1"},
    ],
)
async def test_header_injection_from_config_is_refused_before_connecting(
    headers: dict[str, str],
) -> None:
    recorder = Recorder()
    async with serving(recorder.handle) as port:
        with pytest.raises(RequestFailed) as info:
            await run_model_client(provider_at(port, http_headers=headers))
    assert str(info.value).startswith("Could not send the request to Hostile: a header")
    assert recorder.connections == 0


@pytest.mark.parametrize(
    "path",
    ["/v1\r\nX-Injected: 1", "/v1 HTTP/1.1\r\nHost: evil", "/v1\nX: y", "/v1\x00", "/v1\t"],
)
async def test_base_url_with_line_breaks_is_refused(path: str) -> None:
    recorder = Recorder()
    async with serving(recorder.handle) as port:
        with pytest.raises(RequestFailed) as info:
            await run_model_client(provider_at(port, base_url=f"http://127.0.0.1:{port}{path}"))
    assert "is not a valid http(s) URL" in str(info.value)
    assert recorder.connections == 0


async def test_query_params_and_url_escapes_cannot_split_the_request_line() -> None:
    recorder = Recorder()
    params = {"k\r\nX-Injected: 1": "v\r\n\r\nGET /smuggled HTTP/1.1", "a b": "c&d=e#f"}
    async with serving(recorder.handle) as port:
        base = f"http://127.0.0.1:{port}/v1/%0d%0aX-Injected:%201/a b"
        with contextlib.suppress(ModelClientError):
            await run_model_client(provider_at(port, base_url=base, query_params=params))
    [head] = recorder.heads
    lines = head.split(b"\r\n")
    request_line = lines[0]
    assert request_line.startswith(b"POST /v1/%0d%0aX-Injected:%201/a%20b/responses?")
    assert request_line.endswith(b" HTTP/1.1") and request_line.count(b" ") == 2
    assert not any(line.lower().startswith(b"x-injected") for line in lines)
    assert b"smuggled" not in b"".join(lines[1:])


# --- absurd responses ----------------------------------------------------------------------

H = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"


def _script(*parts: bytes, then_wait: float = 0.0, forever: bytes | None = None) -> Handler:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        for part in parts:
            writer.write(part)
            await writer.drain()
        while forever is not None:
            writer.write(forever)
            await writer.drain()
            await asyncio.sleep(0)
        await asyncio.sleep(then_wait)

    return handle


ABSURD = {
    "huge_header": _script(H + b"X-Big: " + b"a" * 300_000 + b"\r\n\r\n", then_wait=10),
    "endless_header": _script(H, forever=b"X-More: aaaaaaaaaaaaaaaaaaaaaaa\r\n"),
    "informational_storm": _script(forever=b"HTTP/1.1 100 Continue\r\n\r\n" * 50),
    "unsolicited_101": _script(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nxx", then_wait=10),
    "status_line_garbage": _script(b"\x00\x01\x02 nonsense\r\n\r\n", then_wait=10),
    "status_999999": _script(b"HTTP/1.1 999999 X\r\n\r\n", then_wait=10),
    "no_response_then_close": _script(),
    "no_response_ever": _script(then_wait=10),
    "head_drip": _script(*[bytes([b]) for b in H[:20]], then_wait=10),
    "bad_content_length": _script(H + b"Content-Length: 12abc\r\n\r\n", then_wait=10),
    "two_content_lengths": _script(H + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
    "content_length_short_then_close": _script(H + b"Content-Length: 1000\r\n\r\ndata: {}\n\n"),
    "content_length_short_then_silence": _script(H + b"Content-Length: 1000\r\n\r\n: x\n\n", then_wait=10),
    "bad_chunk_size": _script(H + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n", then_wait=10),
    "huge_chunk_size": _script(H + b"Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nabc", then_wait=10),
    "chunked_cut_mid_chunk": _script(H + b"Transfer-Encoding: chunked\r\n\r\n100\r\n: abc"),
    "endless_chunked_comments": _script(
        H + b"Transfer-Encoding: chunked\r\n\r\n",
        forever=b"%x\r\n" % 40_000 + (b": " + b"x" * 39_997 + b"\n") + b"\r\n",
    ),
    "endless_line": _script(
        H + b"Transfer-Encoding: chunked\r\n\r\n", forever=b"%x\r\n" % 60_000 + b"x" * 60_000 + b"\r\n"
    ),
    "endless_error_body": _script(
        b"HTTP/1.1 500 Oops\r\nTransfer-Encoding: chunked\r\n\r\n",
        forever=b"%x\r\n" % 60_000 + b"e" * 60_000 + b"\r\n",
    ),
    "endless_html": _script(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", forever=b"<p>" * 20_000
    ),
    "bad_gzip": _script(H + b"Content-Encoding: gzip\r\nContent-Length: 9\r\n\r\nnot gzip!"),
    "truncated_gzip": _script(
        H + b"Content-Encoding: gzip\r\nContent-Length: 20\r\n\r\n" + gzip.compress(b"data: x\n\n" * 100)[:20]
    ),
    "huge_trailer": _script(
        H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: " + b"t" * 300_000 + b"\r\n\r\n", then_wait=10
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ABSURD))
async def test_an_absurd_response_is_one_clear_error_within_the_idle_timeout(name: str) -> None:
    """Each ends in a ModelClientError of one line (never a traceback), within the provider's
    idle timeout (1 s here) plus slack, with bounded memory."""
    started = time.monotonic()
    async with serving(ABSURD[name]) as port:
        async with asyncio.timeout(15):
            with pytest.raises(ModelClientError) as info:
                await run_model_client(provider_at(port))
    elapsed = time.monotonic() - started
    assert elapsed < 5.0, f"{name} took {elapsed:.1f}s"
    message = str(info.value)
    assert message and "\n" not in message and "Traceback" not in message


def _bomb(size: int, layers: int) -> bytes:
    data = b"\n" * size
    for _ in range(layers):
        data = gzip.compress(data, 9)
    return data


async def test_a_gzip_bomb_is_decoded_in_bounded_pieces() -> None:
    """32 MiB of newlines in two gzip layers is under 1 KB on the wire: each decoded piece
    handed on must stay within a bound (e.g. 1 MiB), or the body must be refused."""
    data = _bomb(32 << 20, 2)
    assert len(data) < 4096

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(ok(data, "Content-Encoding: gzip, gzip"))
        await writer.drain()
        await asyncio.sleep(10)

    http = plain_client()
    biggest = 0
    async with serving(handle) as port:
        url = parse_url(f"http://127.0.0.1:{port}/v1")
        try:
            response = await http.send("GET", url, [("Host", url.netloc)], b"")
            try:
                async with asyncio.timeout(20):
                    async for chunk in response.aiter_bytes():
                        biggest = max(biggest, len(chunk))
            except HttpError:
                pass  # refusing the bomb is fine too
            finally:
                await response.aclose()
        finally:
            await http.aclose()
    assert biggest <= 1 << 20, f"one decoded chunk of {biggest} bytes from {len(data)} on the wire"


# --- connection reuse ----------------------------------------------------------------------


class Origin:
    """Answers each request `real<n>` (n counting across connections), keeping the connection
    alive; `first(conn_index, reader, writer)` may replace the answer on a connection."""

    def __init__(self, first: Callable[..., Awaitable[bool]] | None = None) -> None:
        self.first = first
        self.peers: list[int] = []
        self.count = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        index = len(self.peers)
        self.peers.append(writer.get_extra_info("peername")[1])
        while True:
            await read_request(reader)
            self.count += 1
            if self.first is not None and await self.first(index, self.count, writer):
                continue
            writer.write(ok(f"real{self.count}".encode()))
            await writer.drain()


@contextlib.asynccontextmanager
async def at_origin(origin: Origin) -> AsyncIterator[tuple[HttpClient, int]]:
    """A client, and the port of `origin`'s server; both closed after."""
    http = plain_client()
    async with serving(origin.handle) as port:
        try:
            yield http, port
        finally:
            await http.aclose()


async def test_a_healthy_connection_is_reused() -> None:
    origin = Origin()
    async with at_origin(origin) as (http, port):
        assert await get(http, port) == (200, b"real1")
        assert await get(http, port) == (200, b"real2")
    assert len(origin.peers) == 1


async def test_a_connection_whose_body_broke_is_not_reused() -> None:
    async def broken_first(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if count == 1:  # a bad chunk, then what would parse as a response
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n")
            writer.write(ok(b"smuggled"))
            await writer.drain()
            return True
        return False

    origin = Origin(broken_first)
    async with at_origin(origin) as (http, port):
        with pytest.raises(HttpError):
            await get(http, port)
        assert await get(http, port) == (200, b"real2")
    assert len(origin.peers) == 2


@pytest.mark.parametrize("how", ["cancelled", "unread", "decode_error"])
async def test_a_connection_left_mid_body_is_not_reused(how: str) -> None:
    async def slow_first(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if count != 1:
            return False
        if how == "decode_error":
            writer.write(ok(b"not gzip" + ok(b"smuggled"), "Content-Encoding: gzip"))
            await writer.drain()
            return True
        rest = ok(b"smuggled")
        body = b"first part;" + rest
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\nfirst part;" % len(body))
        await writer.drain()
        await asyncio.sleep(0.2)
        writer.write(rest)
        await writer.drain()
        return True

    origin = Origin(slow_first)
    http = plain_client()
    async with serving(origin.handle) as port:
        url = parse_url(f"http://127.0.0.1:{port}/v1")
        try:
            response = await http.send("GET", url, [("Host", url.netloc)], b"")
            if how == "cancelled":
                task = asyncio.create_task(anext(aiter(response.aiter_bytes())))
                assert await task == b"first part;"
                task = asyncio.create_task(anext(aiter(response.aiter_bytes())))
                await asyncio.sleep(0.05)
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            elif how == "decode_error":
                with pytest.raises(HttpError):
                    await anext(aiter(response.aiter_bytes()))
            await response.aclose()
            await asyncio.sleep(0.3)
            assert await get(http, port) == (200, b"real2")
        finally:
            await http.aclose()
    assert len(origin.peers) == 2


@pytest.mark.parametrize("close", ["fin", "rst"])
async def test_an_idle_connection_the_server_closed_is_replaced(close: str) -> None:
    """The server closes a kept-alive connection while it is idle: the next request goes on a
    new connection and succeeds (httpx dropped such a connection when taking it)."""

    async def close_after_first(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if index == 0:
            writer.write(ok(f"real{count}".encode()))
            await writer.drain()
            await asyncio.sleep(0.05)
            if close == "rst":
                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            return True
        return False

    origin = Origin(close_after_first)
    async with at_origin(origin) as (http, port):
        assert await get(http, port) == (200, b"real1")
        await asyncio.sleep(0.3)
        assert await get(http, port) == (200, b"real2")
    assert len(origin.peers) == 2


async def test_a_reused_connection_closed_on_the_next_request_fails_clearly() -> None:
    """The race httpx lost too: the server closes the kept-alive connection on receiving the
    next request. httpx (no retries) raised 'Server disconnected without sending a
    response.'; so does this client, and the model client's retry then succeeds."""

    async def drop_second(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if index == 0 and count == 2:
            writer.transport.abort()
            raise ConnectionResetError
        return False

    origin = Origin(drop_second)
    async with at_origin(origin) as (http, port):
        assert await get(http, port) == (200, b"real1")
        with pytest.raises(HttpError) as info:
            await get(http, port)
        assert await get(http, port) == (200, b"real3")
    assert str(info.value) == "Server disconnected without sending a response."


async def test_bytes_arriving_on_an_idle_connection_are_never_the_next_response() -> None:
    async def stale_after_first(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if index == 0:
            writer.write(ok(f"real{count}".encode()))
            await writer.drain()
            await asyncio.sleep(0.05)
            writer.write(
                b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 5\r\n\r\n"
                b"stale"
            )
            await writer.drain()
            writer.close()
            return True
        return False

    origin = Origin(stale_after_first)
    async with at_origin(origin) as (http, port):
        assert await get(http, port) == (200, b"real1")
        await asyncio.sleep(0.3)
        second = await get(http, port)
    assert second == (200, b"real2")


async def test_bytes_past_content_length_are_never_the_next_response() -> None:
    async def overlong_first(index: int, count: int, writer: asyncio.StreamWriter) -> bool:
        if count == 1:
            writer.write(ok(b"real1") + ok(b"smuggled"))
            await writer.drain()
            return True
        return False

    origin = Origin(overlong_first)
    async with at_origin(origin) as (http, port):
        assert await get(http, port) == (200, b"real1")
        second = await get(http, port)
    assert second == (200, b"real2")


# --- cancellation and sockets --------------------------------------------------------------


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await asyncio.sleep(60)


async def _head_then_silence(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
    await writer.drain()
    await asyncio.sleep(60)


@pytest.mark.parametrize(
    "stage", ["awaiting_head", "mid_body", "tls_handshake", "connect_reply", "tunnel_tls"]
)
async def test_cancelled_requests_leave_no_socket_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    """40 requests cancelled at one stage each: /proc/self/fd holds no more sockets after."""
    pem = make_cert(tmp_path, "origin", ip="127.0.0.1") if "tls" in stage else None
    before = open_sockets()
    handler = _head_then_silence if stage == "mid_body" else _silent
    async with contextlib.AsyncExitStack() as stack:
        port = await stack.enter_async_context(serving(handler))
        scheme = "https" if stage in ("tls_handshake", "tunnel_tls", "connect_reply") else "http"
        if stage == "connect_reply":
            pport = await stack.enter_async_context(serving(_silent))
            monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
        elif stage == "tunnel_tls":
            pport = await stack.enter_async_context(serving(TunnelProxy().handle))
            monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
        http = trusting(monkeypatch, pem) if pem else plain_client()
        if scheme == "https" and pem is None:
            pem = make_cert(tmp_path, "any", ip="127.0.0.1")
            http = trusting(monkeypatch, pem)
        try:
            for _ in range(40):
                task = asyncio.create_task(get(http, port, scheme))
                await asyncio.sleep(0.03)
                assert not task.done(), task
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
        finally:
            await http.aclose()
    assert await sockets_settled(before) == before


async def test_failed_handshakes_leave_no_socket_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = make_cert(tmp_path, "mitm", ip="127.0.0.1")
    trusted = make_cert(tmp_path, "real", ip="127.0.0.1")
    before = open_sockets()
    async with (
        serving(_answering, server_context(served)) as port,
        serving(TunnelProxy().handle) as pport,
    ):
        for proxied in (False, True):
            if proxied:
                monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
            http = trusting(monkeypatch, trusted)
            try:
                for _ in range(25):
                    with pytest.raises(HttpError):
                        await get(http, port, "https")
            finally:
                await http.aclose()
    assert await sockets_settled(before) == before


async def test_a_proxy_that_never_answers_connect_is_bounded_by_the_connect_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with serving(_silent) as pport:
        monkeypatch.setenv("HTTPS_PROXY", f"http://127.0.0.1:{pport}")
        http = HttpClient(lambda: ssl.create_default_context(), 0.5)
        started = time.monotonic()
        try:
            with pytest.raises(HttpError) as info:
                await get(http, 443, "https")
        finally:
            await http.aclose()
    assert str(info.value) == "ConnectTimeout" and time.monotonic() - started < 3


async def test_a_model_stream_cancelled_many_times_leaves_no_socket_open() -> None:
    """The model client's own path: 30 turns interrupted mid-answer on one session pool."""
    from codex_core.client.model_client import HttpPool

    first = b'event: response.created\ndata: {"type":"response.created","response":{}}\n\n'

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(H + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n" % len(first) + first + b"\r\n")
        await writer.drain()
        await asyncio.sleep(60)

    before = open_sockets()
    pool = HttpPool()
    async with serving(handle) as port:
        for _ in range(30):
            client = ModelClient(provider_at(port), "m", session_id="s", api_key="k", pool=pool)
            started = asyncio.Event()

            async def consume(c: ModelClient = client, s: asyncio.Event = started) -> None:
                async for _ in c.stream(PROMPT):
                    s.set()

            task = asyncio.create_task(consume())
            async with asyncio.timeout(5):
                await started.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await pool.aclose()
    assert await sockets_settled(before) == before
