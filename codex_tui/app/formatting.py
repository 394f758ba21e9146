"""Pure text helpers for the transcript: commands, durations, output excerpts, token counts."""

from __future__ import annotations

import os
from dataclasses import dataclass

from codex_core.protocol.common import TokenUsage, TokenUsageInfo

MAX_LINE_CHARS = 400
"""Longer lines are cut for display (the rollout keeps them whole)."""


def truncate_line(line: str, limit: int = MAX_LINE_CHARS) -> str:
    """Cut a very long line for display, saying how much was left out."""
    if len(line) <= limit:
        return line
    return f"{line[:limit]}… (+{len(line) - limit} chars)"


@dataclass(frozen=True)
class Excerpt:
    """The head and tail of a long text, and how many lines were left out between them."""

    head: list[str]
    omitted: int
    tail: list[str]


def excerpt(text: str, head: int = 3, tail: int = 2) -> Excerpt:
    """Split output into head and tail lines for display, cutting very long lines."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    lines = [truncate_line(line.rstrip("\r")) for line in lines]
    if len(lines) <= head + tail + 1:
        return Excerpt(lines, 0, [])
    return Excerpt(lines[:head], len(lines) - head - tail, lines[len(lines) - tail :])


def format_duration(ms: int) -> str:
    """`850ms`, `4.2s`, `1m 05s`, `1h 02m 03s`."""
    if ms < 1000:
        return f"{ms}ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f}s"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m {secs:02d}s"
    return f"{minutes}m {secs:02d}s"


def format_elapsed(seconds: float) -> str:
    """Compact elapsed time for the status line: `7s`, `1m 05s`."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    return format_duration(whole * 1000)


CONTEXT_BASELINE_TOKENS = 12_000
"""What instructions and tools take before any conversation; not counted as used (as Codex)."""


def context_left_percent(info: TokenUsageInfo, window: int | None) -> int | None:
    """Percent of the context window left: (W − used) / (W − 12,000), clamped to 0–100.

    W is the effective window the core reports (95 % of the model's) and `used` the last
    response's total tokens (after a compaction, an estimate of the new history).
    """
    window = info.model_context_window or window
    if not window:
        return None
    if window <= CONTEXT_BASELINE_TOKENS:
        return 0
    last = info.last_token_usage
    used = last.total_tokens or (last.input_tokens + last.output_tokens)
    free = (window - max(used, CONTEXT_BASELINE_TOKENS)) / (window - CONTEXT_BASELINE_TOKENS)
    return max(0, min(100, round(100 * free)))


def format_usage(usage: TokenUsage) -> str:
    """One line of token usage for the exit summary."""
    cached = f" (+ {usage.cached_input_tokens:,} cached)" if usage.cached_input_tokens else ""
    reasoning = (
        f" (reasoning {usage.reasoning_output_tokens:,})" if usage.reasoning_output_tokens else ""
    )
    total = usage.total_tokens or usage.input_tokens + usage.output_tokens
    return (
        f"Token usage: total={total:,} input={usage.input_tokens:,}{cached} "
        f"output={usage.output_tokens:,}{reasoning}"
    )


def shorten_path(path: str, home: str | None = None) -> str:
    """Replace the user's home directory with `~`."""
    home = home if home is not None else os.environ.get("HOME", "")
    if home and home != "/" and (path == home or path.startswith(home.rstrip("/") + "/")):
        return "~" + path[len(home.rstrip("/")) :]
    return path


def reasoning_header(text: str) -> str | None:
    """The bold `**Header**` a reasoning summary starts with, once it is complete."""
    stripped = text.lstrip()
    if not stripped.startswith("**"):
        return None
    end = stripped.find("**", 2)
    if end <= 2:
        return None
    header = stripped[2:end].strip()
    return header or None


def strip_reasoning_header(text: str) -> str:
    """The reasoning summary without its leading bold header line."""
    stripped = text.lstrip()
    if reasoning_header(stripped) is None:
        return text
    end = stripped.find("**", 2)
    return stripped[end + 2 :].lstrip("\n")
