"""Model clients: stream a response from the Responses or Chat Completions API as ResponseEvents."""

from codex_core.client.errors import (
    ContextWindowExceeded,
    InvalidResponse,
    ModelClientError,
    QuotaExceeded,
    RequestFailed,
    ResponseFailed,
    StreamDisconnected,
    Unauthorized,
    UsageLimitReached,
)
from codex_core.client.events import (
    Completed,
    Created,
    OutputItemAdded,
    OutputItemDone,
    OutputTextDelta,
    ReasoningSummaryDelta,
    ReasoningSummaryPartAdded,
    ResponseEvent,
    RetryNotice,
)
from codex_core.client.model_client import ModelClient
from codex_core.client.prompt import Prompt, ToolSpec

__all__ = [
    "Completed",
    "ContextWindowExceeded",
    "Created",
    "InvalidResponse",
    "ModelClient",
    "ModelClientError",
    "OutputItemAdded",
    "OutputItemDone",
    "OutputTextDelta",
    "Prompt",
    "QuotaExceeded",
    "ReasoningSummaryDelta",
    "ReasoningSummaryPartAdded",
    "RequestFailed",
    "ResponseEvent",
    "ResponseFailed",
    "RetryNotice",
    "StreamDisconnected",
    "ToolSpec",
    "Unauthorized",
    "UsageLimitReached",
]
