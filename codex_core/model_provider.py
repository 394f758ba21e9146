"""Model providers: where requests go, which wire API they speak, and how they authenticate."""

import os
from typing import Literal

from codex_core.lite import ConfigDict, Field, Model

WireApi = Literal["responses", "chat"]

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OSS_BASE_URL = "http://localhost:11434/v1"
DEFAULT_REQUEST_MAX_RETRIES = 4
DEFAULT_STREAM_MAX_RETRIES = 5
DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000


class ModelProviderInfo(Model):
    """One `[model_providers.<id>]` table of config.toml, or a built-in provider."""

    model_config = ConfigDict(extra="forbid")

    name: str
    base_url: str | None = None
    env_key: str | None = Field(default=None, description="Env var holding the API key.")
    env_key_instructions: str | None = None
    wire_api: WireApi = "chat"
    query_params: dict[str, str] | None = None
    http_headers: dict[str, str] | None = None
    env_http_headers: dict[str, str] | None = None
    request_max_retries: int | None = None
    stream_max_retries: int | None = None
    stream_idle_timeout_ms: int | None = None
    requires_openai_auth: bool = False

    @property
    def effective_request_max_retries(self) -> int:
        """Retries for a failed HTTP request (429/5xx/connect), default 4, capped at 100."""
        value = self.request_max_retries
        return min(DEFAULT_REQUEST_MAX_RETRIES if value is None else value, 100)

    @property
    def effective_stream_max_retries(self) -> int:
        """Retries for a stream that ends before `response.completed`, default 5."""
        value = self.stream_max_retries
        return min(DEFAULT_STREAM_MAX_RETRIES if value is None else value, 100)

    @property
    def effective_stream_idle_timeout_s(self) -> float:
        """Seconds without an SSE event before the stream counts as broken."""
        value = self.stream_idle_timeout_ms
        return (DEFAULT_STREAM_IDLE_TIMEOUT_MS if value is None else value) / 1000.0

    def resolved_base_url(self) -> str:
        """The base URL, without a trailing slash."""
        return (self.base_url or DEFAULT_OPENAI_BASE_URL).rstrip("/")

    def api_key(self, environ: dict[str, str] | None = None) -> str | None:
        """The API key from `env_key`, if that variable is set and not empty."""
        env = os.environ if environ is None else environ
        if not self.env_key:
            return None
        value = env.get(self.env_key, "").strip()
        return value or None

    def headers(self, environ: dict[str, str] | None = None) -> dict[str, str]:
        """Static headers plus those whose values come from environment variables."""
        env = os.environ if environ is None else environ
        out = dict(self.http_headers or {})
        for header, var in (self.env_http_headers or {}).items():
            if env.get(var):
                out[header] = env[var]
        return out


def built_in_model_providers(environ: dict[str, str] | None = None) -> dict[str, ModelProviderInfo]:
    """The providers every config has: `openai` (Responses API) and `oss` (local Ollama)."""
    env = os.environ if environ is None else environ
    oss_base = env.get("CODEX_OSS_BASE_URL") or (
        f"http://localhost:{env['CODEX_OSS_PORT']}/v1"
        if env.get("CODEX_OSS_PORT")
        else DEFAULT_OSS_BASE_URL
    )
    return {
        "openai": ModelProviderInfo(
            name="OpenAI",
            base_url=env.get("OPENAI_BASE_URL") or DEFAULT_OPENAI_BASE_URL,
            env_key="OPENAI_API_KEY",
            env_key_instructions="Create an API key at https://platform.openai.com/api-keys "
            "and export it as OPENAI_API_KEY.",
            wire_api="responses",
            requires_openai_auth=True,
        ),
        "oss": ModelProviderInfo(name="gpt-oss", base_url=oss_base, wire_api="chat"),
    }
