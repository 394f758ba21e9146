"""Errors of the model clients; `str(err)` is always one sentence a user can act on.

Exception tree::

    ModelClientError                 base; `message` is the one-line text shown to the user
    ├── StreamDisconnected           stream ended early, went idle, or the connection dropped
    │                                (the kernel retries the whole request; `retry_after`)
    ├── RequestFailed                HTTP error that is not retried, or retries ran out
    │   └── Unauthorized             401, or no API key for a provider that needs one
    ├── ContextWindowExceeded        the conversation no longer fits the model's context
    ├── UsageLimitReached            the plan's usage limit is reached (`usage_limit_reached`)
    ├── QuotaExceeded                the account has no quota or credit (`insufficient_quota`)
    ├── ResponseFailed               `response.failed` for any other reason (`retryable`)
    └── InvalidResponse              the server sent something that is not the expected API
"""

from __future__ import annotations


class ModelClientError(Exception):
    """Base of every model client error."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StreamDisconnected(ModelClientError):
    """The stream ended before `response.completed`; retrying the request may succeed."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RequestFailed(ModelClientError):
    """The HTTP request failed for good; `status` is None when no response arrived."""

    def __init__(
        self, message: str, *, status: int | None = None, server_message: str | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.server_message = server_message


class Unauthorized(RequestFailed):
    """The provider rejected the credentials, or there were none to send."""


class ContextWindowExceeded(ModelClientError):
    """The prompt is longer than the model's context window."""


class UsageLimitReached(ModelClientError):
    """The subscription's usage limit is reached until it resets."""


class QuotaExceeded(ModelClientError):
    """The API account has run out of quota or credit."""


class ResponseFailed(ModelClientError):
    """The server reported `response.failed`; `retryable` errors are retried as stream errors."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.retryable = retryable
        self.retry_after = retry_after


class InvalidResponse(ModelClientError):
    """The server answered with something other than the API's event stream."""
