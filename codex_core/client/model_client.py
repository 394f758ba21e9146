"""ModelClient: streams one model response over HTTP, retrying failed requests with backoff."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from codex_core import __version__
from codex_core.client.chat import ChatStream, chat_body
from codex_core.client.errors import (
    InvalidResponse,
    ModelClientError,
    RequestFailed,
    StreamDisconnected,
)
from codex_core.client.events import Completed, ResponseEvent, RetryNotice
from codex_core.client.failures import (
    bad_request_error,
    final_http_error,
    missing_key_error,
    one_line,
    read_http_failure,
    too_large_error,
    unreachable_error,
    wrong_content_type_error,
)
from codex_core.client.http1 import DecodeError, HttpClient, HttpError, InvalidRequest, Response
from codex_core.client.http_proxy import ProxyUnsupported
from codex_core.client.http_url import InvalidUrl, Url, parse_url
from codex_core.client.prompt import Prompt
from codex_core.client.responses import ResponsesStream, responses_body
from codex_core.client.retry import backoff_delay
from codex_core.client.sse import SseDecoder, SseTooLarge
from codex_core.model_provider import ModelProviderInfo
from codex_core.tls_context import shared_context

log = logging.getLogger(__name__)

ORIGINATOR = "codex_cli_py"
CONNECT_TIMEOUT_S = 30.0
FINISH_BODY_S = 0.25
"""How long a completed response's end is waited for before its connection is dropped."""
# Error bodies are only summarised in one line: never hold more of them than this.
MAX_ERROR_BODY_BYTES = 64 * 1024


HTTPX_DEFAULT_HEADERS = (
    ("Accept", "*/*"),
    ("Accept-Encoding", "gzip, deflate"),
    ("Connection", "keep-alive"),
    ("User-Agent", "python-httpx/0.28.1"),
)
"""What httpx (the model client's HTTP stack until issue 29) put in every request unless the
request set them: a server must see the same request head, in the same order."""


def _new_http_client() -> HttpClient:
    # Plain-http providers (Ollama, local servers) never load the CA bundle (~100 ms);
    # https ones share one context, built early beside the session (tls_context).
    return HttpClient(shared_context, CONNECT_TIMEOUT_S)


def request_head(url: Url, headers: dict[str, str], body: bytes) -> list[tuple[str, str]]:
    """The request's headers, named and ordered as httpx 0.28 sent them for `headers`."""
    given = {name.lower() for name in headers}
    out = [(k, v) for k, v in HTTPX_DEFAULT_HEADERS if k.lower() not in given]
    out.extend(headers.items())
    present = {name.lower() for name, _ in out}
    for name, value in (("Content-Length", str(len(body))), ("Content-Type", "application/json")):
        if name.lower() not in present:
            out.append((name, value))
    if "host" not in present:
        out.insert(0, ("Host", url.netloc))
    if url.userinfo is not None:  # httpx sent a URL's credentials as basic auth, set last
        token = base64.b64encode(":".join(url.userinfo).encode()).decode("ascii")
        at = [i for i, (k, _) in enumerate(out) if k.lower() == "authorization"]
        for i in reversed(at[1:]):
            del out[i]
        if at:
            out[at[0]] = ("Authorization", f"Basic {token}")
        else:
            out.append(("Authorization", f"Basic {token}"))
    return out


class HttpPool:
    """The HTTP connections a session's model clients share, kept alive between requests.

    A model client is made per turn; on a pool of its own each turn would connect (over
    https: shake hands) again. The session closes its pool when it ends. (codex-rust 0.169
    opens a connection per request against the scripted server: this goes beyond it.)
    """

    def __init__(self) -> None:
        self._client: HttpClient | None = None

    def client(self) -> HttpClient:
        """The shared client (made on first use)."""
        if self._client is None or self._client.is_closed:
            self._client = _new_http_client()
        return self._client

    async def aclose(self) -> None:
        """Close every connection."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


@dataclass(frozen=True)
class _RetryableFailure:
    """A failed attempt worth retrying; `error` is raised once the retries run out."""

    reason: str
    retry_after: float | None
    error: ModelClientError


class ModelClient:
    """Talks to one provider and model for one session, over the provider's wire API."""

    def __init__(
        self,
        provider: ModelProviderInfo,
        model: str,
        *,
        provider_id: str = "openai",
        session_id: str,
        api_key: str | None,
        effort: str | None = None,
        summary: str | None = None,
        verbosity: str | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        pool: HttpPool | None = None,
    ) -> None:
        self.provider = provider
        self.model = model
        self.provider_id = provider_id
        self.session_id = session_id
        self._api_key = api_key
        self._effort = effort
        self._summary = summary
        self._verbosity = verbosity
        self.extra_headers: dict[str, str] = {}
        """Headers of this client's requests on top of the usual ones (a sub-agent's
        `x-openai-subagent`, as the Codex CLI 0.169 sends for reviews)."""
        self._sleep = sleep
        self._owns_http = pool is None
        """False on a session's `pool`: its connections stay open for the next turns."""
        self._http = pool.client() if pool is not None else _new_http_client()
        if pool is not None:
            self._preconnect()

    def _preconnect(self) -> None:
        """Open the session's connection to the provider while the turn assembles its
        prompt (a session makes its model client before its tools, instructions and
        context): TCP, and over https the handshake, are then done when the request goes.
        Nothing is sent on it; without a running loop, or on a bad URL, nothing happens
        (the request meets the error)."""
        try:
            asyncio.get_running_loop()
            url = parse_url(self.url, self.provider.query_params or None)
        except (RuntimeError, InvalidUrl):
            return
        self._http.preconnect(url)

    @property
    def url(self) -> str:
        """The endpoint this client posts to (query parameters not included)."""
        suffix = "/responses" if self.provider.wire_api == "responses" else "/chat/completions"
        return self.provider.resolved_base_url() + suffix

    def request_headers(self) -> dict[str, str]:
        """Headers of every request: protocol, session, credentials, then the provider's own."""
        headers = {
            "Accept": "text/event-stream",
            "originator": ORIGINATOR,
            "session_id": self.session_id,
            "User-Agent": f"{ORIGINATOR}/{__version__}",
        }
        if self.provider.wire_api == "responses":
            headers["OpenAI-Beta"] = "responses=experimental"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        headers.update(self.extra_headers)
        headers.update(self.provider.headers())
        return headers

    def request_body(self, prompt: Prompt) -> dict[str, Any]:
        """The JSON body for `prompt` in the provider's wire format."""
        if self.provider.wire_api == "responses":
            return responses_body(
                prompt,
                self.model,
                session_id=self.session_id,
                effort=self._effort,
                summary=self._summary,
                verbosity=self._verbosity,
            )
        return chat_body(prompt, self.model)

    async def stream(self, prompt: Prompt) -> AsyncIterator[ResponseEvent]:
        """Send `prompt` and yield the response's events until `Completed`.

        Raises:
            ModelClientError: a subclass saying what went wrong, in one sentence.
        """
        if self.provider.env_key and not self._api_key:
            raise missing_key_error(self.provider)
        try:
            url = parse_url(self.url, self.provider.query_params or None)
        except InvalidUrl as err:
            raise self._invalid_url(err) from None
        # As httpx encoded `json=`: compact, UTF-8, no NaN.
        payload = json.dumps(
            self.request_body(prompt), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode("utf-8")
        request = (url, request_head(url, self.request_headers(), payload), payload)
        max_retries = self.provider.effective_request_max_retries
        attempt = 0
        while True:
            outcome = await self._attempt(request, attempt)
            if isinstance(outcome, Response):
                response = outcome
                break
            if attempt >= max_retries:
                raise outcome.error
            attempt += 1
            delay = backoff_delay(attempt, outcome.retry_after)
            log.info("retrying model request %d/%d in %.2fs", attempt, max_retries, delay)
            yield RetryNotice(attempt, max_retries, delay, outcome.reason)
            await self._sleep(delay)
        body = response.aiter_bytes()
        completed = False
        try:
            async for event in self._events(response, body):
                completed = isinstance(event, Completed)
                yield event
        finally:
            try:
                if completed:  # the consumer stops at `Completed`: the body's end is unread
                    await _finish_body(body)
            finally:  # also when cancelled meanwhile
                await response.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connections (a session pool's stay open for its next turns)."""
        if self._owns_http:
            await self._http.aclose()

    def _invalid_url(self, err: Exception) -> RequestFailed:
        return RequestFailed(
            f"The base_url of provider {self.provider_id} is not a valid http(s) URL "
            f"({one_line(str(err), 120)}); fix it in config.toml."
        )

    async def _attempt(
        self, request: tuple[Url, list[tuple[str, str]], bytes], retries_done: int
    ) -> Response | _RetryableFailure:
        """Send once: the open response, or why it failed (raising when retrying is pointless)."""
        idle = self.provider.effective_stream_idle_timeout_s
        try:
            async with asyncio.timeout(idle):
                response = await self._http.send("POST", *request)
        except TimeoutError:
            raise StreamDisconnected(
                f"{self.provider.name} sent no response within {idle:g}s; check your network "
                "or raise stream_idle_timeout_ms for this provider in config.toml."
            ) from None
        except (ProxyUnsupported, InvalidRequest) as err:
            raise bad_request_error(self.provider, str(err)) from None
        except HttpError as err:
            cause = str(err) or type(err).__name__
            error = unreachable_error(self.provider, self.url, cause, retries_done)
            return _RetryableFailure(f"connection failed ({one_line(cause, 80)})", None, error)
        if response.is_success:
            return response
        try:
            body = await _read_head_of_body(response, idle)
        finally:
            await response.aclose()
        failure = read_http_failure(response.status_code, response.headers, body)
        final = final_http_error(failure, self.provider, self.url, retries_done)
        if not failure.retryable:
            raise final
        return _RetryableFailure(failure.reason(), failure.retry_after, final)

    async def _events(
        self, response: Response, chunks: AsyncIterator[bytes]
    ) -> AsyncIterator[ResponseEvent]:
        """Decode the SSE body (`chunks`) of a successful response into ResponseEvents."""
        content_type = response.headers.get("content-type", "")
        idle = self.provider.effective_stream_idle_timeout_s
        if content_type and "event-stream" not in content_type.lower():
            body = await _read_head_of_body(response, idle)
            raise wrong_content_type_error(self.provider, self.url, content_type, body)
        translator = (
            ResponsesStream(self.provider)
            if self.provider.wire_api == "responses"
            else ChatStream(self.provider)
        )
        decoder = SseDecoder()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + idle
        while not translator.done:
            try:
                async with asyncio.timeout_at(deadline):
                    chunk = await anext(chunks, None)
            except TimeoutError:
                raise StreamDisconnected(
                    f"{self.provider.name} sent nothing for {idle:g}s; check your network or raise "
                    "stream_idle_timeout_ms for this provider in config.toml."
                ) from None
            except DecodeError as err:
                raise InvalidResponse(
                    f"{self.provider.name} sent a body that could not be decoded ({one_line(str(err), 80)})."
                ) from None
            except HttpError as err:
                raise StreamDisconnected(
                    f"The connection to {self.provider.name} dropped mid-response "
                    f"({one_line(str(err) or type(err).__name__, 80)}); check your network."
                ) from None
            try:
                sse_events = decoder.feed(chunk) if chunk is not None else decoder.finish()
            except SseTooLarge as err:
                raise too_large_error(self.provider, err.what, err.limit) from None
            if sse_events:
                deadline = loop.time() + idle
            for sse in sse_events:
                for event in translator.feed(sse):
                    yield event
                if translator.done:
                    return
            if chunk is None:
                for event in translator.finish():
                    yield event
                return


async def _read_head_of_body(response: Response, timeout_s: float) -> bytes:
    """The first `MAX_ERROR_BODY_BYTES` of a body (empty if it stalls or breaks)."""
    parts: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout_s):
            async for chunk in response.aiter_bytes():
                parts.append(chunk)
                size += len(chunk)
                if size >= MAX_ERROR_BODY_BYTES:
                    break
    except (TimeoutError, HttpError):
        pass
    return b"".join(parts)[:MAX_ERROR_BODY_BYTES]


async def _finish_body(chunks: AsyncIterator[bytes]) -> None:
    """Read the rest of a completed response (the end of its chunked body, normally already
    here) so that its connection can carry the next request; a server that keeps the body
    open past `response.completed` is left after `FINISH_BODY_S` (the connection is closed)."""
    try:
        async with asyncio.timeout(FINISH_BODY_S):
            async for _ in chunks:
                pass
    except (TimeoutError, HttpError):
        pass
