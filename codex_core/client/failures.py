"""Turns HTTP error responses and `response.failed` payloads into one-sentence client errors."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codex_core.client.errors import (
    ContextWindowExceeded,
    InvalidResponse,
    ModelClientError,
    QuotaExceeded,
    RequestFailed,
    ResponseFailed,
    Unauthorized,
    UsageLimitReached,
)
from codex_core.client.retry import exceeds_cap, parse_retry_after, retry_after_from_message
from codex_core.model_provider import ModelProviderInfo

CONTEXT_CODES = frozenset({"context_length_exceeded"})
QUOTA_CODES = frozenset({"insufficient_quota"})
USAGE_LIMIT_CODES = frozenset({"usage_limit_reached", "usage_not_included"})
RETRYABLE_FAILED_CODES = frozenset({"rate_limit_exceeded", "server_error", "server_is_overloaded"})
MAX_DETAIL_CHARS = 240


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _title() -> re.Pattern[str]:
    return re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def one_line(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """Collapse whitespace and cut to `limit` characters, so any server text fits one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def error_fields(payload: Any) -> tuple[str | None, str | None]:
    """The (code, message) of an API error object, `{"error": {...}}` or the bare object."""
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict | str):
        payload = payload["error"]
    if isinstance(payload, str):
        return None, payload
    if not isinstance(payload, dict):
        return None, None
    code = payload.get("code") or payload.get("type")
    message = payload.get("message") or payload.get("detail")
    return (str(code) if code else None), (str(message) if message else None)


def describe_body(body: bytes, content_type: str) -> tuple[str | None, str]:
    """An error code (if any) and a short description of a response body of any kind."""
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        return None, "empty response body"
    try:
        payload = json.loads(text)
    except ValueError:
        payload = None
    if payload is not None:
        code, message = error_fields(payload)
        return code, one_line(message or text)
    if "html" in content_type.lower() or text[:1] == "<":
        title = _title().search(text)
        return None, "an HTML page" + (f" titled “{one_line(title.group(1), 80)}”" if title else "")
    return None, one_line(text)


@dataclass(frozen=True)
class HttpFailure:
    """A non-success HTTP response, reduced to what decides retrying and the message."""

    status: int
    code: str | None
    detail: str
    retry_after: float | None

    @property
    def retryable(self) -> bool:
        """429 and 5xx are retried, unless the code says waiting will not help."""
        if self.code in QUOTA_CODES | USAGE_LIMIT_CODES | CONTEXT_CODES:
            return False
        return self.status == 429 or self.status >= 500

    def reason(self) -> str:
        """Short text for a retry notice."""
        label = "rate limited" if self.status == 429 else f"server error {self.status}"
        return f"{label} ({one_line(self.detail, 80)})"


def read_http_failure(status: int, headers: Mapping[str, str], body: bytes) -> HttpFailure:
    """Summarise an HTTP error response."""
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    code, detail = describe_body(body, content_type)
    return HttpFailure(status, code, detail, parse_retry_after(headers))


def missing_key_error(provider: ModelProviderInfo) -> Unauthorized:
    """The error for a provider that needs an API key when none is configured."""
    env_key = provider.env_key or "the provider's env_key"
    hint = f" ({provider.env_key_instructions})" if provider.env_key_instructions else ""
    return Unauthorized(f"No API key: set {env_key} to use {provider.name}{hint}.")


def unauthorized_error(provider: ModelProviderInfo, detail: str) -> Unauthorized:
    """The error for HTTP 401."""
    if provider.env_key:
        message = f"{provider.name} rejected the API key; set {provider.env_key} to a valid key"
    else:
        message = (
            f"{provider.name} refused the request as unauthorized; check http_headers and "
            "env_http_headers of this provider in config.toml"
        )
    return Unauthorized(f"{message} (server said: {detail}).", status=401, server_message=detail)


def coded_error(
    code: str | None, detail: str, provider: ModelProviderInfo
) -> ModelClientError | None:
    """The specific error for a known error code, else None."""
    if code in CONTEXT_CODES:
        return ContextWindowExceeded(
            "The conversation is too long for the model's context window; start a new session "
            "or compact this one with /compact, then try again."
        )
    if code in QUOTA_CODES:
        return QuotaExceeded(
            f"{provider.name} reports no quota left for this account ({detail}); check your plan "
            "and billing, or use another API key."
        )
    if code in USAGE_LIMIT_CODES:
        return UsageLimitReached(
            f"You have reached your usage limit ({detail}); wait for it to reset or upgrade your plan."
        )
    return None


def final_http_error(
    failure: HttpFailure, provider: ModelProviderInfo, url: str, retries: int
) -> ModelClientError:
    """The error to raise for an HTTP failure that is not (or no longer) retried."""
    coded = coded_error(failure.code, failure.detail, provider)
    if coded is not None:
        return coded
    status, detail = failure.status, failure.detail
    if status == 401:
        return unauthorized_error(provider, detail)
    if failure.retryable:
        what = "kept rate-limiting the request" if status == 429 else f"failed with HTTP {status}"
        message = (
            f"{provider.name} {what} after {_retries(retries)} ({detail}){_asked(failure)}; try "
            "again later or raise request_max_retries for this provider in config.toml."
        )
    elif status == 404:
        message = (
            f"{provider.name} answered HTTP 404 for {url} ({detail}); check the model name and "
            "the provider's base_url."
        )
    else:
        message = f"{provider.name} rejected the request with HTTP {status}: {detail}."
    return RequestFailed(message, status=status, server_message=detail)


def _retries(count: int) -> str:
    return "1 retry" if count == 1 else f"{count} retries"


def _asked(failure: HttpFailure) -> str:
    """A note when the server asked for a longer wait than codex makes."""
    if not exceeds_cap(failure.retry_after):
        return ""
    return f" and asked to wait {_duration(failure.retry_after or 0.0)}, longer than codex waits"


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.0f} {unit}" if seconds < 1e12 else "for ever"
    return f"{seconds:.0f} s"


def unreachable_error(
    provider: ModelProviderInfo, url: str, cause: str, retries: int
) -> RequestFailed:
    """The error when no HTTP response arrived, even after retrying."""
    return RequestFailed(
        f"Could not reach {provider.name} at {url} ({one_line(cause, 120)}) after {_retries(retries)}; "
        "check your network and the provider's base_url."
    )


def bad_request_error(provider: ModelProviderInfo, reason: str) -> RequestFailed:
    """The error when the request cannot be sent as configured (not retried): a proxy
    codex cannot use, a header that cannot be sent, CA certificates that do not load."""
    return RequestFailed(f"Could not send the request to {provider.name}: {one_line(reason)}")


def response_failed_error(payload: Any, provider: ModelProviderInfo) -> ModelClientError:
    """The error for a `response.failed` event (or an error object inside a chat stream)."""
    if isinstance(payload, dict) and isinstance(payload.get("response"), dict):
        payload = payload["response"].get("error")
    code, message = error_fields(payload)
    detail = one_line(message or "no details given")
    coded = coded_error(code, detail, provider)
    if coded is not None:
        return coded
    retryable = code in RETRYABLE_FAILED_CODES
    label = f" ({code})" if code else ""
    return ResponseFailed(
        f"The model response failed{label}: {detail}",
        code=code,
        retryable=retryable,
        retry_after=retry_after_from_message(message or "") if retryable else None,
    )


def not_json_error(provider: ModelProviderInfo, data: str) -> InvalidResponse:
    """The error for a stream line that should be JSON but is not."""
    return InvalidResponse(
        f"{provider.name} sent data that is not JSON ({one_line(data, 80)}); check that base_url "
        "points to an OpenAI-compatible API and wire_api matches it."
    )


def wrong_content_type_error(
    provider: ModelProviderInfo, url: str, content_type: str, body: bytes
) -> ModelClientError:
    """The error for a success response that is not an event stream."""
    code, detail = describe_body(body, content_type)
    coded = coded_error(code, detail, provider)
    if coded is not None:
        return coded
    return InvalidResponse(
        f"{provider.name} answered {url} with {content_type or 'no content type'} instead of an "
        f"event stream ({detail}); check that base_url points to an OpenAI-compatible API."
    )


def too_large_error(provider: ModelProviderInfo, what: str, limit: int) -> InvalidResponse:
    """The error for a stream line or event beyond the decoder's size limit (not retried)."""
    return InvalidResponse(
        f"{provider.name} sent a stream {what} larger than {limit // (1024 * 1024)} MiB, which "
        "codex refuses to buffer; check that base_url points to an OpenAI-compatible API."
    )
