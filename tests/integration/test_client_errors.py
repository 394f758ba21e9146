"""ModelClient failure handling against the scripted server: retries, auth, drops, garbage."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import pytest

from codex_core.client import (
    Completed,
    ContextWindowExceeded,
    InvalidResponse,
    ModelClient,
    ModelClientError,
    OutputTextDelta,
    Prompt,
    QuotaExceeded,
    RequestFailed,
    ResponseEvent,
    ResponseFailed,
    RetryNotice,
    StreamDisconnected,
    Unauthorized,
)
from codex_core.client.retry import MAX_DELAY_S
from codex_core.client.sse import MAX_EVENT_CHARS
from codex_core.model_provider import ModelProviderInfo, built_in_model_providers
from codex_core.protocol.items import user_message
from tests.support import sse
from tests.support.model_server import (
    ModelServer,
    api_error,
    drop_after,
    garbage,
    hang,
    http_error,
)
from tests.support.sse import Wire
from tests.support.sse_render import render

PROMPT = Prompt("You are a test.", [user_message("hello")], [])
WIRES: list[Wire] = ["responses", "chat"]


@pytest.fixture
def server() -> Iterator[ModelServer]:
    with ModelServer() as running:
        yield running


class SleepRecorder:
    """Stands in for asyncio.sleep and remembers the delays asked for."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


async def collect(client: ModelClient) -> list[ResponseEvent]:
    try:
        return [event async for event in client.stream(PROMPT)]
    finally:
        await client.aclose()


def client_for(
    server: ModelServer,
    wire: Wire = "responses",
    *,
    sleep: SleepRecorder | None = None,
    api_key: str | None = "sk-test",
    **provider: Any,
) -> ModelClient:
    return ModelClient(
        server.provider(wire, **provider),
        "gpt-5",
        session_id="s",
        api_key=api_key,
        sleep=sleep or SleepRecorder(),
    )


def assert_one_line(error: BaseException) -> None:
    text = str(error)
    assert text and "\n" not in text and "Traceback" not in text


@pytest.mark.parametrize("wire", WIRES)
async def test_client_retries_a_500_then_succeeds(server: ModelServer, wire: Wire) -> None:
    server.add(http_error(500, "boom"), sse.turn(sse.message("recovered")))
    sleep = SleepRecorder()
    events = await collect(client_for(server, wire, sleep=sleep, request_max_retries=3))
    notices = [e for e in events if isinstance(e, RetryNotice)]
    assert len(notices) == 1
    assert (notices[0].attempt, notices[0].max_attempts) == (1, 3)
    assert "server error 500" in notices[0].reason
    assert sleep.delays == [notices[0].delay_s] and 0.18 <= sleep.delays[0] <= 0.22
    assert isinstance(events[-1], Completed)
    assert len(server.requests) == 2


async def test_client_honours_retry_after_on_429(server: ModelServer) -> None:
    server.add(
        http_error(
            429,
            {"error": {"message": "slow down", "code": "rate_limit_exceeded"}},
            {"Retry-After": "2"},
        ),
        http_error(429, "busy", {"retry-after-ms": "1500"}),
        sse.turn(sse.message("ok")),
    )
    sleep = SleepRecorder()
    events = await collect(client_for(server, sleep=sleep, request_max_retries=4))
    assert sleep.delays == [2.0, 1.5]
    assert [e.reason for e in events if isinstance(e, RetryNotice)][0] == "rate limited (slow down)"


async def test_client_gives_up_after_the_configured_retries(server: ModelServer) -> None:
    server.add(*[http_error(503, "unavailable")] * 5)
    sleep = SleepRecorder()
    with pytest.raises(RequestFailed) as info:
        await collect(client_for(server, sleep=sleep, request_max_retries=2))
    assert len(server.requests) == 3
    assert len(sleep.delays) == 2
    assert info.value.status == 503
    assert str(info.value) == (
        "Scripted failed with HTTP 503 after 2 retries (unavailable); try again later or raise "
        "request_max_retries for this provider in config.toml."
    )


async def test_client_caps_a_billion_second_retry_after_with_default_retries(
    server: ModelServer,
) -> None:
    server.add(*[http_error(429, "busy", {"Retry-After": "1000000000"})] * 5)
    sleep = SleepRecorder()
    with pytest.raises(RequestFailed) as info:
        await collect(client_for(server, sleep=sleep, request_max_retries=None))
    assert sleep.delays == [MAX_DELAY_S] * 4  # the default request_max_retries, each capped
    assert sum(sleep.delays) < 60
    assert_one_line(info.value)
    assert str(info.value) == (
        "Scripted kept rate-limiting the request after 4 retries (busy) and asked to wait "
        "32 years, longer than codex waits; try again later or raise request_max_retries for "
        "this provider in config.toml."
    )


async def test_client_honours_an_http_date_retry_after(server: ModelServer) -> None:
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=5), usegmt=True)
    server.add(http_error(503, "later", {"Retry-After": soon}), sse.turn(sse.message("ok")))
    sleep = SleepRecorder()
    events = await collect(client_for(server, sleep=sleep, request_max_retries=1))
    assert isinstance(events[-1], Completed)
    assert len(sleep.delays) == 1 and 3.0 <= sleep.delays[0] <= 5.0


@pytest.mark.parametrize("wire", WIRES)
async def test_client_refuses_an_oversize_stream_event_without_retrying(
    server: ModelServer, wire: Wire
) -> None:
    server.add(garbage(b"data: " + b"x" * (MAX_EVENT_CHARS + 1) + b"\n\n"))
    sleep = SleepRecorder()
    with pytest.raises(InvalidResponse) as info:
        await collect(client_for(server, wire, sleep=sleep, request_max_retries=3))
    assert str(info.value) == (
        "Scripted sent a stream line larger than 16 MiB, which codex refuses to buffer; check "
        "that base_url points to an OpenAI-compatible API."
    )
    assert len(server.requests) == 1 and sleep.delays == []


async def test_client_reads_only_the_head_of_a_huge_error_body(server: ModelServer) -> None:
    server.add(http_error(400, "E" * (8 * 1024 * 1024)))
    with pytest.raises(RequestFailed) as info:
        await collect(client_for(server))
    assert_one_line(info.value)
    assert len(str(info.value)) < 400


async def test_client_401_names_the_env_var(server: ModelServer) -> None:
    server.add(api_error(401, "invalid_api_key", "Incorrect API key provided"))
    with pytest.raises(Unauthorized) as info:
        await collect(
            client_for(server, env_key="OPENAI_API_KEY", name="OpenAI", request_max_retries=3)
        )
    assert str(info.value).startswith(
        "OpenAI rejected the API key; set OPENAI_API_KEY to a valid key"
    )
    assert len(server.requests) == 1


async def test_client_missing_key_fails_before_sending(server: ModelServer) -> None:
    provider = built_in_model_providers({"OPENAI_BASE_URL": server.base_url})["openai"]
    client = ModelClient(provider, "gpt-5", session_id="s", api_key=None)
    with pytest.raises(Unauthorized, match=r"^No API key: set OPENAI_API_KEY"):
        await collect(client)
    assert server.requests == []


@pytest.mark.parametrize("wire", WIRES)
async def test_client_context_window_exceeded_from_http_400(
    server: ModelServer, wire: Wire
) -> None:
    server.add(
        api_error(
            400, "context_length_exceeded", "This model's maximum context length is 128000 tokens."
        )
    )
    with pytest.raises(ContextWindowExceeded) as info:
        await collect(client_for(server, wire))
    assert_one_line(info.value)
    assert "start a new session" in str(info.value)


@pytest.mark.parametrize("wire", WIRES)
async def test_client_context_window_exceeded_from_a_failed_response(
    server: ModelServer, wire: Wire
) -> None:
    server.add(sse.failure("context_length_exceeded", "Your input exceeds the context window."))
    with pytest.raises(ContextWindowExceeded):
        await collect(client_for(server, wire))


async def test_client_quota_429_is_not_retried(server: ModelServer) -> None:
    server.add(api_error(429, "insufficient_quota", "You exceeded your current quota."))
    with pytest.raises(QuotaExceeded):
        await collect(client_for(server, request_max_retries=4))
    assert len(server.requests) == 1


async def test_client_failed_rate_limit_response_is_retryable(server: ModelServer) -> None:
    server.add(sse.failure("rate_limit_exceeded", "Rate limit reached. Please try again in 0.7s."))
    with pytest.raises(ResponseFailed) as info:
        await collect(client_for(server))
    assert info.value.retryable and info.value.retry_after == 0.7


@pytest.mark.parametrize("wire", WIRES)
async def test_client_dropped_stream_is_a_disconnect(server: ModelServer, wire: Wire) -> None:
    server.add(drop_after(sse.turn(sse.message("this will be cut off")), 3))
    received: list[ResponseEvent] = []
    client = client_for(server, wire)
    with pytest.raises(StreamDisconnected) as info:
        try:
            async for event in client.stream(PROMPT):
                received.append(event)
        finally:
            await client.aclose()
    assert any(isinstance(e, OutputTextDelta) for e in received)
    assert_one_line(info.value)


@pytest.mark.parametrize("wire", WIRES)
async def test_client_idle_stream_times_out_as_a_disconnect(
    server: ModelServer, wire: Wire
) -> None:
    # No wall-clock bound: only the idle timer says "sent nothing"; the server's own drop
    # (after 60 s, at teardown) would say the connection dropped.
    server.add(hang(60.0, render(sse.turn(sse.message("x")), wire)[:2]))
    with pytest.raises(StreamDisconnected, match="sent nothing for 0.2s"):
        await collect(client_for(server, wire, stream_idle_timeout_ms=200))


async def test_client_server_silent_before_headers_times_out(server: ModelServer) -> None:
    server.add(hang(60.0, before_headers=True))
    with pytest.raises(StreamDisconnected, match="no response within 0.2s"):
        await collect(client_for(server, stream_idle_timeout_ms=200))


@pytest.mark.parametrize("wire", WIRES)
async def test_client_non_json_data_is_a_clear_error(server: ModelServer, wire: Wire) -> None:
    server.add(garbage(b"data: <html>502 Bad Gateway</html>\n\n"))
    with pytest.raises(InvalidResponse, match="sent data that is not JSON") as info:
        await collect(client_for(server, wire))
    assert_one_line(info.value)


async def test_client_html_page_instead_of_a_stream_is_a_clear_error(server: ModelServer) -> None:
    server.add(
        garbage(b"<html><title>Sign in</title><body>\n\nproxy login</body></html>", "text/html")
    )
    with pytest.raises(InvalidResponse, match="with text/html instead of an event stream") as info:
        await collect(client_for(server))
    assert "“Sign in”" in str(info.value)
    assert_one_line(info.value)


async def test_client_non_http_bytes_fail_after_retries(server: ModelServer) -> None:
    server.add(*[garbage(b"\x00\xffnot http at all\r\n\r\n", raw=True)] * 2)
    with pytest.raises(
        RequestFailed, match=r"^Could not reach Scripted at .* after 1 retry"
    ) as info:
        await collect(client_for(server, request_max_retries=1))
    assert_one_line(info.value)


async def test_client_connection_refused_names_the_url() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    provider = ModelProviderInfo(
        name="Local", base_url=f"http://127.0.0.1:{port}/v1", request_max_retries=1
    )
    sleep = SleepRecorder()
    client = ModelClient(provider, "m", session_id="s", api_key=None, sleep=sleep)
    with pytest.raises(RequestFailed) as info:
        await collect(client)
    assert f"http://127.0.0.1:{port}/v1/chat/completions" in str(info.value)
    assert len(sleep.delays) == 1


async def test_client_exhausted_script_is_visible(server: ModelServer) -> None:
    with pytest.raises(ModelClientError, match="the script has no step for request #1"):
        await collect(client_for(server))
