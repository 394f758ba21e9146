"""Token usage objects of both wire APIs, read leniently into TokenUsage."""

from __future__ import annotations

from typing import Any

from codex_core.protocol.common import TokenUsage


def _count(container: Any, key: str) -> int:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, int) else 0


def parse_usage(raw: Any, *, prefix_in: str, prefix_out: str) -> TokenUsage | None:
    """Usage from `{<in>_tokens, <out>_tokens, <in>_tokens_details, …}`; missing counts are 0.

    As the Codex CLI 0.169 reads them: cached and cache-write input tokens from
    `<in>_tokens_details.cached_tokens` / `.cache_write_tokens`, reasoning tokens from
    `<out>_tokens_details.reasoning_tokens`.
    """
    if not isinstance(raw, dict):
        return None
    tokens_in = _count(raw, f"{prefix_in}_tokens")
    tokens_out = _count(raw, f"{prefix_out}_tokens")
    details_in = raw.get(f"{prefix_in}_tokens_details")
    return TokenUsage(
        input_tokens=tokens_in,
        cached_input_tokens=_count(details_in, "cached_tokens"),
        cache_write_input_tokens=_count(details_in, "cache_write_tokens"),
        output_tokens=tokens_out,
        reasoning_output_tokens=_count(raw.get(f"{prefix_out}_tokens_details"), "reasoning_tokens"),
        total_tokens=_count(raw, "total_tokens") or tokens_in + tokens_out,
    )


def usage_from_responses(raw: Any) -> TokenUsage | None:
    """`response.usage` of a completed Responses API response."""
    return parse_usage(raw, prefix_in="input", prefix_out="output")


def usage_from_chat(raw: Any) -> TokenUsage | None:
    """The `usage` object of a Chat Completions chunk."""
    return parse_usage(raw, prefix_in="prompt", prefix_out="completion")
