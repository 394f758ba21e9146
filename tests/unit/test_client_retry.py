"""Retry timing and the classification of HTTP failures into one-line errors."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime

import pytest

from codex_core.client import (
    ContextWindowExceeded,
    QuotaExceeded,
    RequestFailed,
    Unauthorized,
    UsageLimitReached,
)
from codex_core.client.failures import (
    final_http_error,
    missing_key_error,
    read_http_failure,
    wrong_content_type_error,
)
from codex_core.client.retry import (
    MAX_DELAY_S,
    backoff_delay,
    parse_retry_after,
    retry_after_from_message,
)
from codex_core.model_provider import built_in_model_providers

OPENAI = built_in_model_providers({})["openai"]
OSS = built_in_model_providers({})["oss"]
URL = "https://api.example/v1/responses"


def test_retry_backoff_doubles_with_ten_percent_jitter_under_a_cap() -> None:
    rng = random.Random(7)
    for attempt, base in [(1, 0.2), (2, 0.4), (3, 0.8), (4, 1.6)]:
        delays = [backoff_delay(attempt, rng=rng) for _ in range(200)]
        assert all(base * 0.9 <= d <= base * 1.1 for d in delays)
        assert max(delays) - min(delays) > base * 0.1  # jittered, not constant
    assert backoff_delay(500, rng=rng) == MAX_DELAY_S


@pytest.mark.parametrize(
    ("retry_after", "expected"),
    [(3.0, 3.0), (0.0, 0.0), (-5.0, 0.0), (1e9, MAX_DELAY_S), (math.inf, MAX_DELAY_S)],
)
def test_retry_backoff_honours_the_server_hint_up_to_the_cap(
    retry_after: float, expected: float
) -> None:
    assert backoff_delay(1, retry_after) == expected


def test_retry_backoff_ignores_a_nan_hint() -> None:
    assert 0.18 <= backoff_delay(1, math.nan) <= 0.22


def test_retry_kernel_default_backoff_is_the_client_policy() -> None:
    from codex_core.kernel import default_backoff

    assert default_backoff(1, 1e9) == MAX_DELAY_S
    assert default_backoff(3, 2.5) == 2.5
    assert 0.72 <= default_backoff(3) <= 0.88


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),
        ({"Retry-After": "Wed, 01 Jan 2025 00:00:10 GMT"}, 10.0),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "nan"}, None),
        ({"Retry-After": "1000000000"}, 1e9),
        ({"Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"}, 251666611199.0),
        ({}, None),
    ],
)
def test_retry_after_header_forms(headers: dict[str, str], expected: float | None) -> None:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    assert parse_retry_after(headers, now) == expected


def test_retry_after_from_rate_limit_messages() -> None:
    assert retry_after_from_message("Please try again in 1.898s.") == 1.898
    assert retry_after_from_message("try again in 250ms") == 0.25
    assert retry_after_from_message("slow down") is None


def test_failure_401_names_the_env_var_to_set() -> None:
    failure = read_http_failure(
        401, {"content-type": "application/json"}, b'{"error":{"message":"bad key"}}'
    )
    error = final_http_error(failure, OPENAI, URL, 0)
    assert isinstance(error, Unauthorized)
    assert (
        str(error)
        == "OpenAI rejected the API key; set OPENAI_API_KEY to a valid key (server said: bad key)."
    )


def test_failure_missing_key_tells_how_to_get_one() -> None:
    error = missing_key_error(OPENAI)
    assert isinstance(error, Unauthorized)
    assert str(error).startswith("No API key: set OPENAI_API_KEY to use OpenAI")
    assert "platform.openai.com" in str(error)


@pytest.mark.parametrize(
    ("status", "code", "error_type"),
    [
        (400, "context_length_exceeded", ContextWindowExceeded),
        (429, "insufficient_quota", QuotaExceeded),
        (429, "usage_limit_reached", UsageLimitReached),
        (403, "insufficient_quota", QuotaExceeded),
    ],
)
def test_failure_codes_are_not_retried_and_map_to_errors(
    status: int, code: str, error_type: type
) -> None:
    body = f'{{"error": {{"code": "{code}", "message": "m"}}}}'.encode()
    failure = read_http_failure(status, {}, body)
    assert not failure.retryable
    assert isinstance(final_http_error(failure, OPENAI, URL, 0), error_type)


def test_failure_retryable_statuses() -> None:
    assert read_http_failure(429, {}, b"").retryable
    assert read_http_failure(503, {}, b"").retryable
    assert not read_http_failure(400, {}, b"").retryable
    assert not read_http_failure(404, {}, b"").retryable


def test_failure_html_error_page_becomes_one_short_line() -> None:
    page = (
        b"<html><head><title>502 Bad Gateway</title></head><body>\n<h1>nginx</h1>\n" + b"x" * 5000
    )
    failure = read_http_failure(502, {"Content-Type": "text/html"}, page)
    error = final_http_error(failure, OSS, URL, 4)
    assert isinstance(error, RequestFailed)
    assert str(error) == (
        "gpt-oss failed with HTTP 502 after 4 retries (an HTML page titled “502 Bad Gateway”); "
        "try again later or raise request_max_retries for this provider in config.toml."
    )


def test_failure_404_points_at_model_and_base_url() -> None:
    error = final_http_error(read_http_failure(404, {}, b"model not found"), OSS, URL, 0)
    assert "check the model name and the provider's base_url" in str(error)
    assert isinstance(error, RequestFailed) and error.status == 404


def test_failure_wrong_content_type_says_what_arrived() -> None:
    error = wrong_content_type_error(OSS, URL, "text/html", b"<html><title>Login</title></html>")
    assert str(error).startswith(
        f"gpt-oss answered {URL} with text/html instead of an event stream"
    )
    assert "\n" not in str(error)
