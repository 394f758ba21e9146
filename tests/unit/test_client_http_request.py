"""The model request's head and proxy choice are httpx's (issue 29 replaced httpx with
`codex_core.client.http1`; a server or proxy must see the same request as before).

httpx stays installed (the MCP SDK uses it), so each case is compared with what httpx 0.28
itself builds for the same input: the header list (names, values, order), the request target
and `Host`, and which proxy the environment picks. The raw bytes of two requests captured
from httpx before the switch are a fixture, compared byte for byte over a real socket.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codex_core.client import ModelClient, Prompt, ToolSpec
from codex_core.client.http_proxy import environment_rules, proxy_for
from codex_core.client.http_url import InvalidUrl, parse_url
from codex_core.client.model_client import request_head
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.items import user_message
from tests.support import sse
from tests.support.sse_render import render

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "model_request_httpx_0281.json"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "REQUEST_METHOD")


_HTTPX = httpx.Client(verify=False, trust_env=False)


def httpx_request(url: str, headers: dict[str, str], params: dict[str, str] | None) -> Any:
    client = _HTTPX
    request = client.build_request("POST", url, json={"a": "é"}, headers=headers, params=params)
    auth = client._build_request_auth(request, httpx.USE_CLIENT_DEFAULT)
    return next(auth.sync_auth_flow(request))  # what `send` sends: the URL's basic auth set


def ours(url: str, headers: dict[str, str], params: dict[str, str] | None) -> Any:
    parsed = parse_url(url, params)
    body = json.dumps({"a": "é"}, ensure_ascii=False, separators=(",", ":")).encode()
    return parsed, request_head(parsed, headers, body), body


BASE_URLS = [
    "https://api.openai.com/v1/responses",
    "http://localhost:11434/v1/chat/completions",
    "http://127.0.0.1:8080/v1/responses",
    "https://API.Example.COM:443/openai/./deployments/../responses",
    "http://[::1]:8000/v1/responses",
    "https://example.com/a b/{x}/responses?existing=1&api-version=old",
    "https://user:p%40ss@example.com/v1/responses",
    "https://bücher.example/v1/responses",
    "https://example.com:8443/v1/%7Euser/responses",
]
TOKEN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_", min_size=1)
KNOWN = st.sampled_from(
    ["Accept", "accept", "User-Agent", "Content-Type", "Authorization", "Host", "Connection"]
)
VALUE = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=20)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    url=st.sampled_from(BASE_URLS),
    headers=st.dictionaries(st.one_of(KNOWN, TOKEN), VALUE.map(str.strip), max_size=6),
    params=st.one_of(st.none(), st.dictionaries(TOKEN, VALUE, max_size=3)),
)
def test_request_head_is_httpxs(
    url: str, headers: dict[str, str], params: dict[str, str] | None
) -> None:
    theirs = httpx_request(url, headers, params or None)  # as the model client passed them
    parsed, head, body = ours(url, headers, params or None)
    assert head == [(k.decode(), v.decode()) for k, v in theirs.headers.raw]
    assert parsed.target == theirs.url.raw_path.decode("ascii")
    assert parsed.netloc == theirs.url.netloc.decode("ascii")
    assert body == theirs.read()


@pytest.mark.parametrize(
    "url",
    ["example.com/v1", "ftp://example.com/v1", "http:///v1", "http://h:x/", "http://h:99999/"],
)
def test_request_bad_urls_are_refused_as_httpx_refused_them(url: str) -> None:
    """(httpx went on to connect to port 99999 and failed there: refused at once now.)"""
    if not url.endswith("99999/"):
        with pytest.raises((httpx.InvalidURL, httpx.UnsupportedProtocol)):
            httpx.Client(trust_env=False).send(httpx_request(url, {}, None))
    with pytest.raises(InvalidUrl):
        parse_url(url)


NO_PROXY_ENTRIES = [
    "example.com", ".example.com", "127.0.0.1", "::1", "localhost", "192.168.0.0/16",
    "http://foo.com", "foo.com:8080", "all://*.internal", " ",
]  # fmt: skip
TARGETS = [
    "http://example.com/v1", "https://www.example.com/v1", "https://notexample.com/v1",
    "http://127.0.0.1:8000/v1", "http://[::1]:80/v1", "https://localhost/v1",
    "http://foo.com/v1", "https://foo.com/v1", "http://foo.com:8080/v1", "https://a.internal/v1",
    "http://192.168.0.0/v1", "http://192.168.1.1/v1",
]  # fmt: skip
PROXY_SETS = [
    {"HTTP_PROXY": "http://p1:1"},
    {"HTTPS_PROXY": "p2:2", "ALL_PROXY": "http://p3:3"},
    {"http_proxy": "http://p4:4", "HTTP_PROXY": "http://ignored:5", "ALL_PROXY": "http://p3:3"},
]


def _httpx_choice(client: httpx.Client, url: str) -> tuple[str, int] | None:
    pool = client._transport_for_url(httpx.URL(url))._pool  # type: ignore[attr-defined]
    proxy = getattr(pool, "_proxy_url", None)
    return None if proxy is None else (proxy.host.decode(), proxy.port)


@pytest.mark.parametrize("proxies", PROXY_SETS)
def test_request_proxy_choice_is_httpxs(
    monkeypatch: pytest.MonkeyPatch, proxies: dict[str, str]
) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    for name, value in proxies.items():
        monkeypatch.setenv(name, value)
    pairs = [(a, b) for a, b in itertools.combinations(["", *NO_PROXY_ENTRIES], 2)] + [("*", "")]
    for no_proxy in (",".join(pair) for pair in pairs):
        monkeypatch.setenv("NO_PROXY", no_proxy)
        rules = environment_rules()
        client = httpx.Client(verify=False)  # reads the same environment
        for target in TARGETS:
            proxy = proxy_for(rules, parse_url(target))
            mine = None if proxy is None else (proxy.url.host, proxy.url.port)
            assert mine == _httpx_choice(client, target), (no_proxy, target)


def test_request_bytes_are_those_httpx_sent() -> None:
    """Two requests (both wire APIs, query parameters, provider and sub-agent headers,
    non-ASCII text) as a raw socket receives them, against httpx 0.28.1's capture."""
    prompt = Prompt(
        "You are a test.",
        [user_message("héllo \u2028 ünïcode")],
        [ToolSpec("shell", "Run.", {"type": "object"})],
    )
    bodies = {
        wire: b"".join(e.encode() for e in render(sse.turn(sse.message("x")), wire))
        for wire in ("responses", "chat")
    }
    received: list[bytes] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            length = int(re.search(rb"Content-Length: (\d+)", head)[1])  # type: ignore[index]
            received.append(head + await reader.readexactly(length))
            body = bodies["chat" if b"/chat/" in head.split(b"\r\n")[0] else "responses"]
            head_out = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            writer.write(f"{head_out}Content-Length: {len(body)}\r\n\r\n".encode() + body)
            await writer.drain()
        writer.close()

    async def run() -> int:
        listener = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = listener.sockets[0].getsockname()[1]
        base_url = f"http://127.0.0.1:{port}/v1"
        providers = [
            ModelProviderInfo(
                name="S",
                base_url=base_url,
                wire_api="responses",
                query_params={"api-version": "2025 x&y"},
                http_headers={"X-Custom": "v"},
            ),
            ModelProviderInfo(name="S", base_url=base_url, wire_api="chat"),
        ]
        for provider in providers:
            wire = provider.wire_api
            key = "sk-test" if wire == "responses" else None
            client = ModelClient(provider, "gpt-5", session_id="sess-1", api_key=key, effort="high")
            client.extra_headers["x-openai-subagent"] = "review"
            async for _ in client.stream(prompt):
                pass
            await client.aclose()
        listener.close()
        return int(port)

    port = asyncio.run(run())
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = [raw.decode("latin-1").replace(f"127.0.0.1:{port}", "127.0.0.1:PORT") for raw in received]
    assert got == expected
